#!/usr/bin/python3
"""How well a run's recorded root values predict the games' results.

Reads a run directory's self-play record chunks with the pincer Python module (build/python) and
prints, from the mover's view, the mean of (root value - result) with its 95% interval, and a
calibration table: positions by root value, their mean result. A search whose root value is
biased or compressed (issue 44, finding 5) shows a mean below 0 and results above the bins' middle
for confident positions. The warm start's alpha-beta games are left out (their model id names no
network step).

  scripts/value-bias.py RUN_DIR [--newest N] [--model-prefix TEXT]
"""
import argparse
import glob
import math
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "build", "python"))
import numpy as np  # noqa: E402
import pincer  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run")
    ap.add_argument("--newest", type=int, default=0, help="only the newest N chunks")
    ap.add_argument("--model-prefix", default="", help="only games of models whose id starts so")
    a = ap.parse_args()
    chunks = sorted(glob.glob(os.path.join(a.run, "records", "*.chunk")), key=os.path.getmtime)
    if a.newest:
        chunks = chunks[-a.newest:]
    if not chunks:
        sys.exit(f"no record chunks in {a.run}/records")
    roots, results, games_used = [], [], 0
    for path in chunks:
        games = pincer.read_chunk_games(path)
        keep = np.array([("/step-" in g["model_id"] or "init" in g["model_id"])
                         and g["model_id"].startswith(a.model_prefix)
                         and g.get("expert_player", -1) in (-1, None) for g in games])
        if not keep.any():
            continue
        searched = pincer.read_chunk(path, root_value_weight=1.0)
        played = pincer.read_chunk(path, root_value_weight=0.0)
        rows = keep[searched["game"]]
        v = searched["value"][rows]
        r = played["value"][rows]
        roots.append(v[:, 0] + 0.5 * v[:, 1])
        results.append(r[:, 0] + 0.5 * r[:, 1])
        games_used += int(keep.sum())
    if not roots:
        sys.exit("no self-play games of a network in these chunks")
    root = np.concatenate(roots)
    result = np.concatenate(results)
    diff = root - result
    half = 1.96 * diff.std(ddof=1) / math.sqrt(len(diff))
    print(f"{games_used} games, {len(diff)} positions from {len(chunks)} chunks")
    print(f"mean root value - result (mover's view): {diff.mean():+.4f} "
          f"(95% {diff.mean() - half:+.4f} .. {diff.mean() + half:+.4f})")
    print(f"{'root value':>12} {'positions':>10} {'mean root':>10} {'mean result':>12}")
    edges = np.linspace(0, 1, 11)
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (root >= lo) & ((root < hi) | (hi == 1.0))
        if m.sum() == 0:
            continue
        print(f"{lo:5.1f}-{hi:<5.1f} {int(m.sum()):>10} {root[m].mean():>10.3f} "
              f"{result[m].mean():>12.3f}")


if __name__ == "__main__":
    main()
