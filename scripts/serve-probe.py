#!/usr/bin/env python3
"""Hostile-client probes of `pincer serve` (issue 41): each finding's request, its status and
time, then whether the server still answers /api/info within a second and its RSS.

  scripts/serve-probe.py PINCER [--only N,N] [--log FILE]

Starts its own servers on loopback (port 0), prints one line per probe and kills what it
started. Every wait has a deadline; a probe that gets no answer says so ("no answer").
"""
import argparse
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse


class Server:
    def __init__(self, pincer, extra, log):
        args = [pincer, 'serve', '--rules', 'seize-reference', '--port', '0'] + extra
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r':(\d+)/', line)
        if not m:
            raise RuntimeError('no port in: ' + line)
        self.port = int(m.group(1))

    def alive(self):
        return self.proc.poll() is None

    def rss_mib(self):
        try:
            with open(f'/proc/{self.proc.pid}/status') as f:
                for line in f:
                    if line.startswith('VmRSS:'):
                        return int(line.split()[1]) / 1024
        except OSError:
            return None
        return None

    def stop(self):
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def http(port, method, path, body=None, headers=None, timeout=60, source=None):
    """(status or None, body text, seconds)."""
    t0 = time.monotonic()
    data = b'' if body is None else (body if isinstance(body, bytes) else body.encode())
    h = {'Host': f'127.0.0.1:{port}', 'Connection': 'close'}
    if body is not None:
        h['Content-Type'] = 'application/json'
        h['Content-Length'] = str(len(data))
    h.update(headers or {})
    req = f'{method} {path} HTTP/1.1\r\n' + ''.join(f'{k}: {v}\r\n' for k, v in h.items()) + '\r\n'
    try:
        s = socket.socket()
        if source:
            s.bind((source, 0))
        s.settimeout(timeout)
        s.connect(('127.0.0.1', port))
        s.sendall(req.encode() + data)
        chunks = []
        while True:
            c = s.recv(65536)
            if not c:
                break
            chunks.append(c)
        s.close()
    except (OSError, socket.timeout) as e:
        return None, str(e), time.monotonic() - t0
    raw = b''.join(chunks).decode(errors='replace')
    m = re.match(r'HTTP/1\.[01] (\d+)', raw)
    return (int(m.group(1)) if m else None), raw.split('\r\n\r\n', 1)[-1], time.monotonic() - t0


def show(name, status, seconds, note=''):
    print(f'{name:44s} status {status if status is not None else "no answer":>9}  '
          f'{seconds:7.2f} s  {note}', flush=True)


def stream(port, query, timeout):
    """Opens an SSE stream; (status, saw end, seconds)."""
    path = '/api/analyze/stream?query=' + urllib.parse.quote(json.dumps(query))
    st, body, dt = http(port, 'GET', path, timeout=timeout)
    return st, 'event: end' in body, dt


def line_of_moves(port, n):
    moves = []
    for _ in range(n):
        st, body, _ = http(port, 'POST', '/api/position',
                           json.dumps({'rules': 'seize-reference', 'moves': moves}))
        g = json.loads(body)
        if st != 200 or not g.get('legal'):
            break
        moves.append(g['legal'][len(moves) % len(g['legal'])]['move'])
    return moves


def probe_deep(srv):
    body = '{"id":"d","rules":"seize-reference","x":' + '[' * 80000 + ']' * 80000 + '}'
    st, text, dt = http(srv.port, 'POST', '/api/analyze', body, timeout=30)
    show('1 deep JSON POST /api/analyze (160 KB)', st, dt, text[:80] if st else '')
    time.sleep(0.5)
    if not srv.alive():
        print(f'  the server died (exit {srv.proc.returncode})', flush=True)
        return
    path = '/api/analyze/stream?query=' + urllib.parse.quote('[' * 1000)
    st, text, dt = http(srv.port, 'GET', path, timeout=30)
    show('1 deep JSON GET /api/analyze/stream', st, dt, text[:80] if st else '')


def probe_duplicates(srv):
    q = {'id': 'q', 'rules': 'seize-reference', 'moves': [], 'analyzeTurns': [0, 0], 'maxTime': 2}
    st, text, dt = http(srv.port, 'POST', '/api/analyze', json.dumps(q), timeout=20)
    show('2 analyzeTurns [0,0] POST /api/analyze', st, dt, text[:80] if st else '')
    t0 = time.monotonic()
    ends = 0
    statuses = []
    for _ in range(8):
        st, end, _ = stream(srv.port, q, timeout=5)
        ends += end
        statuses.append(st)
    show('2 eight such streams (5 s client timeout)', statuses[-1], time.monotonic() - t0,
         f'{ends}/8 sent event: end; statuses {statuses}')
    good = {'id': 'g', 'rules': 'seize-reference', 'maxTime': 0.5}
    st, end, dt = stream(srv.port, good, timeout=10)
    show('2 then a good stream', st, dt, f'end: {end}')


def probe_slowloris(srv, source):
    socks = []
    for _ in range(20):
        try:
            s = socket.socket()
            if source:
                s.bind((source, 0))
            s.settimeout(5)
            s.connect(('127.0.0.1', srv.port))
            s.sendall(b'GET /api/info HTTP/1.1\r\n')
            socks.append(s)
        except OSError:
            pass
    stop = threading.Event()

    def drip():
        i = 0
        while not stop.wait(1.5):
            for s in list(socks):
                try:
                    s.sendall(f'X-Slow-{i}: 1\r\n'.encode())
                except OSError:
                    socks.remove(s)
            i += 1

    t = threading.Thread(target=drip)
    t.start()
    time.sleep(2)
    st, _, dt = http(srv.port, 'GET', '/api/info', timeout=30)
    show(f'3 slowloris x20 from {source or "127.0.0.1"}: /api/info', st, dt,
         f'{len(socks)} slow connections still open')
    # A slow body: headers at once, then a byte every 1.5 s.
    s = socket.socket()
    s.settimeout(60)
    s.connect(('127.0.0.1', srv.port))
    s.sendall(f'POST /api/position HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\n'
              'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n'.encode())
    t0 = time.monotonic()
    held = 0
    while time.monotonic() - t0 < 40:
        try:
            s.sendall(b' ')
        except OSError:
            break
        time.sleep(1.5)
        held = time.monotonic() - t0
    s.close()
    show('3 slow body (1 byte / 1.5 s)', None, held, 'seconds the connection was held')
    stop.set()
    t.join()
    for s in socks:
        s.close()


def probe_starvation(srv):
    moves = line_of_moves(srv.port, 60)
    turns = list(range(len(moves) + 1))
    q = {'id': 'f', 'rules': 'seize-reference', 'moves': moves, 'analyzeTurns': turns,
         'maxTime': 30, 'priority': 1000000}
    results = []

    def flood():
        results.append(http(srv.port, 'POST', '/api/analyze', json.dumps(q), timeout=120))

    threads = [threading.Thread(target=flood) for _ in range(8)]
    for t in threads:
        t.start()
    time.sleep(1)
    st, body, _ = http(srv.port, 'POST', '/api/game',
                       json.dumps({'rules': 'seize-reference', 'human': 'none', 'level': 10}))
    gid = json.loads(body)['id']
    st, body, dt = http(srv.port, 'POST', f'/api/game/{gid}/bot', '{}', timeout=120)
    how = json.loads(body).get('how') if st == 200 else body[:60]
    show(f'4 bot move under 8 x {len(turns)}-turn floods', st, dt, f'how: {how}')
    for t in threads:
        t.join(130)
    worst = max((r[2] for r in results), default=0)
    show('4 the floods (slowest)', results[0][0] if results else None, worst,
         f'{sum(r[0] == 200 for r in results)}/8 answered 200')


def probe_bad_input(srv):
    for name, path, body in [
        ('5 /api/position {"rules":5}', '/api/position', {'rules': 5}),
        ('5 /api/record bad [Position]', '/api/record', {'text': '[Ruleset "seize-reference"]\n'
                                                         '[Position "garbage"]\n\n1. a1-a2 *\n'}),
        ('5 /api/game level 4294967301', '/api/game',
         {'rules': 'seize-reference', 'level': 4294967301}),
    ]:
        st, text, dt = http(srv.port, 'POST', path, json.dumps(body))
        g = json.loads(text) if text.startswith('{') else {}
        show(name, st, dt, json.dumps(g.get('level', g.get('error', '')))[:70])
    st, body, _ = http(srv.port, 'POST', '/api/game',
                       json.dumps({'rules': 'seize-reference', 'human': 'both'}))
    g = json.loads(body)
    http(srv.port, 'POST', f'/api/game/{g["id"]}/resign', '{}')
    move = g['legal'][0]['move']
    st, text, dt = http(srv.port, 'POST', f'/api/game/{g["id"]}/move', json.dumps({'move': move}))
    show('5 a finished game\'s move', st, dt, text[:60])


def probe_cross_site(srv):
    st, _, dt = http(srv.port, 'POST', '/api/game', '{"rules":"seize-reference"}',
                     headers={'Origin': 'http://evil.example', 'Content-Type': 'text/plain'})
    show('6 POST text/plain, Origin evil.example', st, dt)
    st, _, dt = http(srv.port, 'GET', '/api/info', headers={'Host': 'rebind.evil.example'})
    show('6 GET, Host rebind.evil.example', st, dt)
    st, _, dt = http(srv.port, 'POST', '/api/game', '{"rules":"seize-reference"}',
                     headers={'Origin': f'http://localhost:{srv.port}',
                              'Host': f'localhost:{srv.port}'})
    show('6 POST, own origin (localhost)', st, dt)


def probe_stop(srv):
    # A stream of a long analysis whose client leaves at once, then a short analysis: with one
    # engine thread it waits for the first search to honour its stop.
    path = '/api/analyze/stream?query=' + urllib.parse.quote(
        json.dumps({'id': 'long', 'rules': 'seize-reference', 'maxTime': 20}))
    s = socket.socket()
    s.settimeout(5)
    s.connect(('127.0.0.1', srv.port))
    s.sendall(f'GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\n\r\n'.encode())
    time.sleep(1)
    s.close()
    rss = srv.rss_mib()
    st, _, dt = http(srv.port, 'POST', '/api/analyze',
                     json.dumps({'id': 's', 'rules': 'seize-reference', 'maxTime': 0.5}), timeout=40)
    show('7 analysis after a left 20 s stream', st, dt, f'RSS during {rss:.0f} MiB')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('pincer')
    ap.add_argument('--only', default='1,2,3,4,5,6,7')
    ap.add_argument('--log', default='/dev/null')
    a = ap.parse_args()
    only = set(a.only.split(','))
    log = open(a.log, 'w')
    srv = Server(a.pincer, ['--player', 'alphabeta:depth=2'], log)
    rss0 = srv.rss_mib()
    print(f'server up, RSS {rss0:.1f} MiB', flush=True)
    try:
        for key, probe in [('5', probe_bad_input), ('6', probe_cross_site), ('2', probe_duplicates),
                           ('3', probe_slowloris), ('4', probe_starvation), ('1', probe_deep)]:
            if key not in only:
                continue
            if not srv.alive():
                print('server is down: restarting it', flush=True)
                srv = Server(a.pincer, ['--player', 'alphabeta:depth=2'], log)
            if key == '3':
                probe(srv, '127.0.0.2')
                probe(srv, None)
            else:
                probe(srv)
        time.sleep(0.5)
        if srv.alive():
            st, _, dt = http(srv.port, 'GET', '/api/info', timeout=10)
            show('after all probes: /api/info', st, dt,
                 f'RSS {rss0:.1f} -> {srv.rss_mib():.1f} MiB')
        else:
            print(f'after all probes: the server is down (exit {srv.proc.returncode})')
    finally:
        srv.stop()
    if '7' in only:
        srv = Server(a.pincer, ['--player', 'alphabeta:time=30', '--threads', '1'], log)
        try:
            probe_stop(srv)
        finally:
            srv.stop()


if __name__ == '__main__':
    main()
