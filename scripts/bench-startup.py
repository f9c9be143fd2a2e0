#!/usr/bin/env python3
"""Start-up time of the pincer CLI: whole-process time of `pincer rules --list` and the latency
of the first answer of `pincer moves` (process start to first output line). Prints medians and
minimums over N runs. Usage: scripts/bench-startup.py [PINCER] [N]"""
import subprocess
import sys
import time

pincer = sys.argv[1] if len(sys.argv) > 1 else "build/cli/pincer"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 20


def rules_list():
    t = time.perf_counter()
    subprocess.run([pincer, "rules", "--list"], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t


def moves_first_line():
    t = time.perf_counter()
    p = subprocess.Popen([pincer, "moves", "--rules", "seize-v0"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    p.stdin.write("startpos moves\n")
    p.stdin.flush()
    p.stdout.readline()
    dt = time.perf_counter() - t
    p.stdin.close()
    p.wait()
    return dt


for name, f in (("rules --list (whole process)", rules_list),
                ("moves (first line)", moves_first_line)):
    ts = sorted(f() for _ in range(n))
    print(f"{name}: median {ts[n // 2] * 1e3:.1f} ms, min {ts[0] * 1e3:.1f} ms over {n} runs")
