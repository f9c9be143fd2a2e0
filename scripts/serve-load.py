#!/usr/bin/env python3
"""Load test of `pincer serve` on loopback: N concurrent bot-vs-bot games (each move one
POST /api/game/ID/bot) plus one analysis request per game every few moves, for M minutes.
Reports moves/s, analyses/s, errors and the server's memory (VmRSS) over time. First a burst
of --burst connections opened at once (each a GET /api/info): every one must be answered within
a second (a dropped handshake is retried only after 1 s; one given up on is reset). Exits 1 on
any error.

  scripts/serve-load.py --pincer build/cli/pincer --games 16 --minutes 2 \
      -- --rules seize-reference --player alphabeta:depth=2 --bot-seconds 0.2
"""
import argparse, json, os, re, subprocess, sys, threading, time, urllib.request, urllib.error


def call(base, method, path, body=None, timeout=60):
    data = json.dumps(body).encode() if body is not None else b"{}"
    req = urllib.request.Request(base + path, data=data if method == "POST" else None,
                                 method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def burst(base, n):
    """n connections at once, each one request; returns (errors, slowest seconds)."""
    gate = threading.Barrier(n)
    times, errors, lock = [], [], threading.Lock()

    def one():
        gate.wait()
        t0 = time.time()
        try:
            call(base, "GET", "/api/info", timeout=30)
            with lock:
                times.append(time.time() - t0)
        except Exception as e:
            with lock:
                errors.append(repr(e)[:200])

    ts = [threading.Thread(target=one) for _ in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return errors, max(times, default=0.0)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pincer", required=True)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--minutes", type=float, default=2)
    ap.add_argument("--rules", default="seize-reference")
    ap.add_argument("--burst", type=int, default=128, help="connections opened at once first")
    ap.add_argument("serve_args", nargs="*")
    a = ap.parse_args()
    # Every load client comes from 127.0.0.1: no per-address connection cap.
    server = subprocess.Popen([a.pincer, "serve", "--port", "0",
                               "--max-connections-per-address", "0"] + a.serve_args,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        base = re.search(r"http://[0-9.]+:\d+", line).group(0)
        burst_errors, burst_slowest = burst(base, a.burst) if a.burst > 0 else ([], 0.0)
        stop = time.time() + a.minutes * 60
        stats = {"moves": 0, "games": 0, "analyses": 0, "errors": 0}
        errors = []
        lock = threading.Lock()

        def player(k):
            while time.time() < stop:
                try:
                    g = call(base, "POST", "/api/game", {"rules": a.rules, "human": "none",
                                                         "level": 1 + k % 10})
                    n = 0
                    while g["result"] is None and time.time() < stop:
                        r = call(base, "POST", f"/api/game/{g['id']}/bot")
                        g = r["game"]
                        n += 1
                        with lock:
                            stats["moves"] += 1
                        if n % 10 == 0:
                            q = {"rules": a.rules, "position": g["start"],
                                 "moves": [m["long"] for m in g["moves"]], "maxVisits": 50,
                                 "maxTime": 0.5}
                            res = call(base, "POST", "/api/analyze", q)
                            assert res["responses"] and "moveInfos" in res["responses"][0], res
                            with lock:
                                stats["analyses"] += 1
                    with lock:
                        stats["games"] += g["result"] is not None
                except Exception as e:  # any failure counts
                    with lock:
                        stats["errors"] += 1
                        errors.append(repr(e)[:200])
                    time.sleep(0.5)

        threads = [threading.Thread(target=player, args=(k,)) for k in range(a.games)]
        t0 = time.time()
        for t in threads:
            t.start()
        samples = []
        while any(t.is_alive() for t in threads):
            samples.append((round(time.time() - t0), rss_kib(server.pid)))
            time.sleep(5)
        for t in threads:
            t.join()
        dt = time.time() - t0
        print(json.dumps({"games_at_once": a.games, "seconds": round(dt), **stats,
                          "moves_per_s": round(stats["moves"] / dt, 1),
                          "rss_mib_first": round(samples[0][1] / 1024, 1),
                          "rss_mib_max": round(max(s[1] for s in samples) / 1024, 1),
                          "rss_mib_last": round(samples[-1][1] / 1024, 1),
                          "rss_mib_by_5s": [round(s[1] / 1024) for s in samples],
                          "first_errors": errors[:5],
                          "burst": {"connections": a.burst, "errors": len(burst_errors),
                                    "slowest_s": round(burst_slowest, 3),
                                    "first_errors": burst_errors[:3]}}))
        burst_ok = not burst_errors and burst_slowest < 1.0
        return 1 if stats["errors"] or not burst_ok else 0
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
