#!/usr/bin/env python3
"""Draws anchored-Elo curves against core-hours as an SVG, from `pincer rate` results.

Each --curve is LABEL=PATH to a run's ratings.json (written by `pincer rate --dir RUN`); every
rated checkpoint becomes a point with its 95% interval as a bar, in core-hour order. --point
LABEL=CORE_HOURS:ELO:LOW:HIGH adds a single rated model (say a shipped one) as a lone marker.

  scripts/plot-ratings.py --out docs/img/curve.svg \
      --curve "recipe in force=docs/experiments/2026-12-05-from-scratch-curve/ratings.json"

Only the standard library: the SVG is written by hand, atomically (temp file + rename).
"""
import argparse
import json
import math
import os
import sys
import tempfile

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
W, H = 720, 420
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 40, 60


def fail(message):
    sys.exit(f"plot-ratings: {message}")


def read_curve(spec):
    label, sep, path = spec.partition("=")
    if not sep or not label or not path:
        fail(f"--curve wants LABEL=PATH, got {spec!r}")
    try:
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    if not isinstance(rows, list):
        fail(f"{path}: not a list of ratings (is it a `pincer rate` ratings.json?)")
    points = []
    for i, r in enumerate(rows):
        try:
            points.append((float(r["core_hours"]), float(r["elo"]), float(r["low"]),
                           float(r["high"])))
        except (KeyError, TypeError, ValueError):
            fail(f"{path}: rating {i} lacks core_hours, elo, low or high")
    if not points:
        fail(f"{path}: no ratings")
    points.sort()
    return label, points


def read_point(spec):
    label, sep, rest = spec.partition("=")
    parts = rest.split(":")
    if not sep or not label or len(parts) != 4:
        fail(f"--point wants LABEL=CORE_HOURS:ELO:LOW:HIGH, got {spec!r}")
    try:
        return label, [tuple(float(p) for p in parts)]
    except ValueError:
        fail(f"--point {spec!r}: numbers expected")


def nice_step(span, ticks):
    raw = span / max(ticks, 1)
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def svg(curves, singles, title):
    everything = [p for _, pts in curves + singles for p in pts]
    x_max = max(p[0] for p in everything)
    x_max = math.ceil(x_max * 2) / 2 if x_max > 0 else 1
    y_lo = min(p[2] for p in everything)
    y_hi = max(p[3] for p in everything)
    y_step = nice_step(y_hi - y_lo, 6)
    y_lo = math.floor(y_lo / y_step) * y_step
    y_hi = math.ceil(y_hi / y_step) * y_step
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def sx(x):
        return LEFT + pw * x / x_max

    def sy(y):
        return TOP + ph * (1 - (y - y_lo) / (y_hi - y_lo))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="14">{title}</text>']
    y = y_lo
    while y <= y_hi + 1e-9:
        out.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{sy(y):.1f}" y2="{sy(y):.1f}" '
                   f'stroke="#ddd"/><text x="{LEFT - 6}" y="{sy(y) + 4:.1f}" '
                   f'text-anchor="end">{y:+.0f}</text>')
        y += y_step
    x_step = nice_step(x_max, 8)
    x = 0.0
    while x <= x_max + 1e-9:
        out.append(f'<line x1="{sx(x):.1f}" x2="{sx(x):.1f}" y1="{TOP}" y2="{H - BOTTOM}" '
                   f'stroke="#eee"/><text x="{sx(x):.1f}" y="{H - BOTTOM + 16}" '
                   f'text-anchor="middle">{x:g}</text>')
        x += x_step
    out.append(f'<text x="{LEFT + pw / 2}" y="{H - 18}" text-anchor="middle">core-hours</text>')
    out.append(f'<text transform="translate(16 {TOP + ph / 2}) rotate(-90)" '
               f'text-anchor="middle">anchored Elo (95% interval)</text>')
    legend_y = TOP + 12
    for i, (label, pts) in enumerate(curves + singles):
        colour = COLOURS[i % len(COLOURS)]
        offset = (i - (len(curves) + len(singles) - 1) / 2) * 3  # keep bars apart
        if len(pts) > 1:
            path = " ".join(f"{sx(p[0]) + offset:.1f},{sy(p[1]):.1f}" for p in pts)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                       f'stroke-width="2"/>')
        for ch, elo, lo, hi in pts:
            cx = sx(ch) + offset
            out.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{sy(lo):.1f}" y2="{sy(hi):.1f}" '
                       f'stroke="{colour}"/>')
            shape = (f'<circle cx="{cx:.1f}" cy="{sy(elo):.1f}" r="4" fill="{colour}"/>'
                     if len(pts) > 1 else
                     f'<rect x="{cx - 5:.1f}" y="{sy(elo) - 5:.1f}" width="10" height="10" '
                     f'fill="{colour}"/>')
            out.append(shape)
        out.append(f'<rect x="{LEFT + 10}" y="{legend_y - 9}" width="10" height="10" '
                   f'fill="{colour}"/><text x="{LEFT + 26}" y="{legend_y}">{label}</text>')
        legend_y += 16
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--curve", action="append", default=[], help="LABEL=ratings.json")
    ap.add_argument("--point", action="append", default=[], help="LABEL=CH:ELO:LOW:HIGH")
    ap.add_argument("--title", default="Anchored Elo against core-hours")
    ap.add_argument("--out", required=True, help="SVG file to write")
    args = ap.parse_args()
    if not args.curve and not args.point:
        fail("nothing to draw: give --curve or --point")
    curves = [read_curve(c) for c in args.curve]
    singles = [read_point(p) for p in args.point]
    text = svg(curves, singles, args.title)
    folder = os.path.dirname(os.path.abspath(args.out))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".plot-", suffix=".svg")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
