#!/usr/bin/env python3
"""Rates the strength levels (level=1..10 of a player spec) against a ladder's fixed players.

Each level plays blocks of games (colours swapped in pairs) against the ladder player rated
nearest to the level's current estimate (a staircase, so that games are spent where they say
most), through `pincer match --json`. Only the ladder's fixed players (fixed depth or simulations,
no `time=`) are opponents unless --opponents names others: their strength does not change with
the machine's load. A level's Elo is then the maximum-likelihood rating with
the ladder players' Elo held fixed (one virtual draw against each opponent, as `pincer ladder`
does, so that a perfect score stays finite), with a 95% interval from the observed information.
The table goes to stdout and, with --out, to a Markdown file (written atomically).

    nice -n 15 scripts/rate-levels.py --player net:model=models/seize-reference.pt,sims=200 \\
        --games 12 --opponents random,greedy,alphabeta:depth=1,alphabeta:depth=2 --out levels.md
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

LN10_400 = math.log(10) / 400


def expected(r, s):
    return 1 / (1 + 10 ** ((s - r) / 400))


def read_ladder(path):
    text = open(path, encoding="utf-8").read()
    rules = re.search(r'^rules:\s*"([^"]+)"', text, re.M).group(1)
    players = []
    for block in re.findall(r"players\s*\{(.*?)\}", text, re.S):
        name = re.search(r'player:\s*"([^"]+)"', block).group(1)
        m = re.search(r"elo:\s*(-?[\d.]+)", block)
        players.append((name, float(m.group(1)) if m else 0.0))
    if not players:
        sys.exit(f"{path}: no rated players")
    return rules, sorted(players, key=lambda p: p[1])


def fit(results, prior_draws=1.0):
    """results: {opponent_elo: [score, games]}. MLE of one rating by bisection, and its sd."""
    obs = [(r, s + 0.5 * prior_draws, n + prior_draws) for r, (s, n) in results.items()]

    def slope(x):
        return sum(s - n * expected(x, r) for r, s, n in obs)

    lo, hi = -3000.0, 6000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if slope(mid) > 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    info = sum(n * expected(x, r) * (1 - expected(x, r)) for r, _, n in obs) * LN10_400**2
    return x, 1 / math.sqrt(info) if info > 0 else float("inf")


def play(pincer, rules, a, b, games, seed, threads, max_plies):
    cmd = [pincer, "match", "--rules", rules, "--a", a, "--b", b, "--games", str(games),
           "--seed", str(seed), "--threads", str(threads), "--max-plies", str(max_plies), "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--player", required=True, help="spec taking level=N (net:..., mcts:...)")
    ap.add_argument("--ladder", default="configs/ladders/seize-reference.textproto")
    ap.add_argument("--pincer", default="build/cli/pincer")
    ap.add_argument("--levels", default="1-10", help="e.g. 1-10 or 1,5,10")
    ap.add_argument("--opponents", help="comma-separated ladder players to play (default: all "
                    "without time=)")
    ap.add_argument("--games", type=int, default=16, help="games per level (even)")
    ap.add_argument("--block", type=int, default=4, help="games per block against one opponent")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", help="Markdown file for the table")
    o = ap.parse_args()
    if "-" in o.levels:
        first, last = map(int, o.levels.split("-"))
        levels = list(range(first, last + 1))
    else:
        levels = [int(x) for x in o.levels.split(",")]
    rules, ladder = read_ladder(o.ladder)
    if o.opponents:
        wanted = o.opponents.split(",")
        unknown = [w for w in wanted if w not in {n for n, _ in ladder}]
        if unknown:
            sys.exit(f"not rated in {o.ladder}: {', '.join(unknown)}")
        ladder = [p for p in ladder if p[0] in wanted]
    else:
        ladder = [p for p in ladder if "time=" not in p[0]]
    start = time.time()
    rows = []
    estimate = None
    for level in levels:
        spec = f"{o.player},level={level}"
        results, lines = {}, []
        guess = estimate if estimate is not None else ladder[len(ladder) // 2][1]
        played = 0
        block_seed = o.seed * 1000 + level * 50
        while played < o.games:
            name, elo = min(ladder, key=lambda p: abs(p[1] - guess))
            n = min(o.block, o.games - played)
            n += n & 1
            block_seed += 1
            r = play(o.pincer, rules, spec, name, n, block_seed, o.threads, o.max_plies)
            s = r["wins"] + 0.5 * r["draws"]
            acc = results.setdefault(elo, [0.0, 0])
            acc[0] += s
            acc[1] += r["games"]
            lines.append((name, r["wins"], r["draws"], r["losses"]))
            played += r["games"]
            guess, _ = fit(results)
            print(f"level {level} vs {name}: {r['wins']}-{r['draws']}-{r['losses']} "
                  f"-> {guess:.0f} ({time.time() - start:.0f} s)", file=sys.stderr, flush=True)
        estimate, sd = fit(results)
        merged = {}
        for name, w, d, l in lines:
            m = merged.setdefault(name, [0, 0, 0])
            m[0] += w
            m[1] += d
            m[2] += l
        games = ", ".join(f"{n} {w}-{d}-{l}" for n, (w, d, l) in merged.items())
        rows.append((level, estimate, sd, games))
    out = [f"Levels of `{o.player}` on {rules}, rated against "
           f"{', '.join(n for n, _ in ladder)} of {o.ladder} ({o.games} games a level, blocks of {o.block} against the ladder player nearest the "
           f"estimate, games cut at {o.max_plies} plies as draws, seed {o.seed}; "
           f"{time.time() - start:.0f} s):",
           "",
           "| level | Elo | 95% | step | games (opponent W-D-L) |",
           "| --- | --- | --- | --- | --- |"]
    prev = None
    for level, elo, sd, games in rows:
        step = "" if prev is None else f"{elo - prev:+.0f}"
        out.append(f"| {level} | {elo:.0f} | {elo - 1.96 * sd:.0f} .. {elo + 1.96 * sd:.0f} | "
                   f"{step} | {games} |")
        prev = elo
    text = "\n".join(out) + "\n"
    print(text)
    if o.out:
        d = os.path.dirname(os.path.abspath(o.out))
        with tempfile.NamedTemporaryFile("w", dir=d, delete=False, encoding="utf-8") as f:
            f.write(text)
        os.replace(f.name, o.out)


if __name__ == "__main__":
    main()
