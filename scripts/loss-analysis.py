#!/usr/bin/env python3
"""Where did a player lose its games? A deep alpha-beta judges every turn of the lost games.

Reads the SGN records of `pincer match --sgn DIR`, keeps the games that the player named by
--player (a prefix of its spec, e.g. "net:") lost, and asks `pincer analyze --player JUDGE` for
every turn's score. Prints, per lost game, the ply at which the player first stood below
--lost-below, its worst moves, and over all of them how much the judge's score fell per move of
the player and of its opponent, and the moves that lost --threshold or more at once (with the
shallowest alpha-beta depth that already sees the loss, with --depths). docs/experiments/2026-12-02-loss-analysis.md
has a run of it.

    pincer match --rules seize-reference --a net:model=models/seize-reference.pt,sims=200 \\
        --b alphabeta:time=0.1 --games 40 --threads 2 --seed 21 --sgn games/
    scripts/loss-analysis.py --sgn games/ --player net: --judge alphabeta:time=0.3
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys

TAG = re.compile(r'\[(\w+) "((?:[^"\\]|\\.)*)"\]')
MOVE_NUMBER = re.compile(r"^\d+\.+$")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def read_games(folder, player_prefix):
    """The lost games of the player: [{file, side, moves, result, termination}]."""
    files = sorted(glob.glob(os.path.join(folder, "*.sgn")))
    if not files:
        sys.exit(f"loss-analysis: no .sgn files in {folder}")
    games = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        tags = dict(TAG.findall(text))
        body = TAG.sub(" ", text)
        body = re.sub(r"\{[^}]*\}", " ", body)  # comments
        sides = [k for k, v in tags.items() if v.startswith(player_prefix) and k not in ("Event",)]
        if len(sides) != 1 or "Result" not in tags:
            print(f"loss-analysis: {path}: cannot tell which side {player_prefix!r} played; skipped",
                  file=sys.stderr)
            continue
        side = sides[0].lower()
        if tags["Result"].lower() in (side, "draw", "*"):
            continue
        moves = [t for t in body.split()
                 if not MOVE_NUMBER.match(t) and t not in RESULTS and t.lower() != tags["Result"].lower()]
        games.append({"file": os.path.basename(path), "side": side, "moves": moves,
                      "result": tags["Result"], "termination": tags.get("Termination", "")})
    return games, len(files)


def analyse(pincer, rules, spec, queries, threads):
    """Runs `pincer analyze` on the queries; returns {(id, turn): response}."""
    text = "".join(json.dumps(q) + "\n" for q in queries)
    proc = subprocess.run([pincer, "analyze", "--rules", rules, "--player", spec,
                           "--threads", str(threads)], input=text, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"loss-analysis: pincer analyze failed ({proc.returncode}): {proc.stderr[-2000:]}")
    out = {}
    for line in proc.stdout.splitlines():
        j = json.loads(line)
        if "error" in j:
            sys.exit(f"loss-analysis: pincer analyze refused a query: {j}")
        if not j.get("isDuringSearch", False):
            out[(j["id"], j["turnNumber"])] = j
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sgn", required=True, help="folder of SGN records (pincer match --sgn)")
    ap.add_argument("--player", required=True, help="prefix of the analysed player's spec, e.g. net:")
    ap.add_argument("--judge", default="alphabeta:time=0.3", help="the analyser that scores turns")
    ap.add_argument("--rules", default="seize-reference")
    ap.add_argument("--pincer", default="build/cli/pincer")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--skip-plies", type=int, default=4,
                    help="opening plies not judged (pincer match's random openings, default 4)")
    ap.add_argument("--threshold", type=int, default=250, help="a drop this large is a blunder")
    ap.add_argument("--lost-below", type=int, default=-200, help="score at which a game counts as lost")
    ap.add_argument("--ignore-beyond", type=int, default=700,
                    help="moves judged from positions beyond +-this are left out of the averages")
    ap.add_argument("--depths", default="", help="e.g. 1,2,3,5: the alpha-beta depths that see each blunder")
    a = ap.parse_args()
    if not os.access(a.pincer, os.X_OK):
        sys.exit(f"loss-analysis: {a.pincer} is not an executable (build first, or --pincer)")

    games, total = read_games(a.sgn, a.player)
    print(f"{len(games)} of {total} games lost by {a.player!r}; judge {a.judge}")
    if not games:
        return
    queries = [{"id": g["file"], "moves": g["moves"], "analyzeTurns": list(range(len(g["moves"])))}
               for g in games]
    turns = analyse(a.pincer, a.rules, a.judge, queries, a.threads)

    own, their, blunders, first_lost = [], [], [], []
    for g in games:
        n = len(g["moves"])
        mover, score = [], []
        for t in range(n):
            j = turns.get((g["file"], t))
            if j is None:
                sys.exit(f"loss-analysis: no answer for {g['file']} turn {t}")
            cp = j["rootInfo"].get("scoreCp", 0)
            mine = j["toMove"] == g["side"]
            mover.append(mine)
            score.append(cp if mine else -cp)
        score.append(-10**6)  # the game was lost
        lost_at = next((t for t in range(a.skip_plies, n) if all(s < a.lost_below for s in score[t:])), None)
        first_lost.append(lost_at)
        worst = []
        for t in range(a.skip_plies, n):
            drop = score[t] - score[t + 1]
            if abs(score[t]) <= a.ignore_beyond and abs(score[t + 1]) <= a.ignore_beyond:
                (own if mover[t] else their).append(drop)
            if mover[t] and score[t] > -a.ignore_beyond and drop >= a.threshold:
                best = turns[(g["file"], t)]["moveInfos"][0]["move"]
                blunders.append({"file": g["file"], "turn": t, "played": g["moves"][t], "best": best,
                                 "before": score[t], "after": score[t + 1], "moves": g["moves"][:t + 1]})
                worst.append(f"ply {t} {g['moves'][t]} ({score[t]} -> {score[t + 1]}, judge: {best})")
        print(f"{g['file']}: {g['side']}, {n} plies, {g['termination']}; lost for good from ply {lost_at}; "
              f"blunders: {'; '.join(worst) if worst else 'none'}")

    print()
    if own:
        print(f"score lost per move of {a.player!r}: mean {statistics.mean(own):.1f}, "
              f"median {statistics.median(own):.1f} ({len(own)} moves)")
    if their:
        print(f"score lost per move of the opponent: mean {statistics.mean(their):.1f}, "
              f"median {statistics.median(their):.1f} ({len(their)} moves)")
    games_with_blunder_first = 0
    for g, lost_at in zip(games, first_lost):
        if lost_at is not None and any(b["file"] == g["file"] and b["turn"] < lost_at for b in blunders):
            games_with_blunder_first += 1
    print(f"blunders (>= {a.threshold} at once): {len(blunders)} in "
          f"{len({b['file'] for b in blunders})} games; a blunder before the game was lost for good "
          f"in {games_with_blunder_first} of {len(games)}")

    if a.depths and blunders:
        depths = [int(d) for d in a.depths.split(",")]
        seen = {d: 0 for d in depths}
        qs = [{"id": f"{b['file']}|{b['turn']}", "moves": b["moves"], "analyzeTurns": [b["turn"] + 1]}
              for b in blunders if b["after"] > -10**5]
        for d in depths:
            res = analyse(a.pincer, a.rules, f"alphabeta:depth={d}", qs, a.threads)
            for b in blunders:
                j = res.get((f"{b['file']}|{b['turn']}", b["turn"] + 1))
                if j is not None and -j["rootInfo"].get("scoreCp", 0) <= b["before"] - a.threshold:
                    seen[d] += 1
        print("blunders that alpha-beta sees at depth: " +
              ", ".join(f"{d}: {seen[d]} of {len(qs)}" for d in depths))


if __name__ == "__main__":
    main()
