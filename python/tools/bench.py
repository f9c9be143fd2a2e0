#!/usr/bin/env python3
"""Speed of the pincer Python module (docs/python.md, "Speed"): random games through
legal_moves()+play() (move texts) and legal_actions()+play() (action ids), in moves per second,
and reading record chunks into numpy.

    PYTHONPATH=build/python python3 python/tools/bench.py [--rules seize-reference] [--seconds 5]
        [--chunk PATH ...]
"""
import argparse
import random
import time

import pincer


def random_games(rules, seconds, by_text):
    rng = random.Random(1)
    moves, games = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = pincer.Game(rules, seed=games)
        plies = 0
        while not g.is_over() and plies < 300:
            plies += 1
            if by_text:
                g.play(rng.choice(g.legal_moves()))
            else:
                g.play(int(rng.choice(g.legal_actions())))
            moves += 1
        games += 1
    elapsed = time.perf_counter() - start
    return moves / elapsed, games


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", default="seize-reference")
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--chunk", nargs="*", default=[])
    args = parser.parse_args()
    for by_text, what in ((True, "legal_moves()+play(text)"), (False, "legal_actions()+play(id)")):
        rate, games = random_games(args.rules, args.seconds, by_text)
        print(f"{args.rules} {what}: {rate:,.0f} moves/s ({games} random games)")
    for path in args.chunk:
        start = time.perf_counter()
        data = pincer.read_chunk(path)
        elapsed = time.perf_counter() - start
        n = len(data["planes"])
        print(f"read_chunk {path}: {data['games']} games, {n} positions in {elapsed * 1000:.1f} ms "
              f"({n / elapsed:,.0f} positions/s)")


if __name__ == "__main__":
    main()
