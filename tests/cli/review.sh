#!/usr/bin/env bash
# End-to-end check of `pincer review`: a game of alpha-beta against the random player (which
# hangs pieces and loses), reviewed by alpha-beta: the random side gets the marks, the larger
# drops and the lower accuracy, every mark matches its drop and names a better move, and the
# annotated record (--sgn) reads back with the same moves. Usage: review.sh PINCER SOURCE_DIR
set -euo pipefail
pincer=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$pincer" --log-level warn match --rules seize-reference --a alphabeta:depth=2 --b random \
  --games 1 --max-plies 30 --seed 3 --sgn "$dir/games" >/dev/null
game=$(ls "$dir"/games/*.sgn | head -1)
timeout 240 "$pincer" --log-level warn review "$game" --player alphabeta:depth=2 --threads 2 \
  --sgn "$dir/annotated.sgn" > "$dir/review.json"
plies=$("$pincer" sgn check "$game" | grep -o '[0-9]* plies' | cut -d' ' -f1)
[ "$("$pincer" sgn check "$dir/annotated.sgn" | grep -o '[0-9]* plies')" = "$plies plies" ] ||
  { echo "FAIL the annotated record does not read back with $plies plies"; exit 1; }
python3 - "$plies" "$game" "$dir/review.json" "$dir/annotated.sgn" <<'PY'
import json, re, sys
plies = int(sys.argv[1])
record, review, annotated = (open(p).read() for p in sys.argv[2:])
headers = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', record, re.M))
sides = {v: k.lower() for k, v in headers.items() if v in ("random", "alphabeta:depth=2")}
random_side, search_side = sides["random"], sides["alphabeta:depth=2"]
r = json.loads(review)
failures = []
def check(what, ok):
    if not ok:
        failures.append(what)
check("thresholds 0.1/0.2/0.3", r["thresholds"] == {"inaccuracy": 0.1, "mistake": 0.2, "blunder": 0.3})
check("analyser named", r["analyzer"] == "alphabeta:depth=2")
check("a judgement per move", len(r["moves"]) == plies and all(m.get("judged", True) for m in r["moves"]))
check("a graph value per turn", len(r["graph"]) == len(r["moves"]) + 1)
rs, ss = r["sides"][random_side], r["sides"][search_side]
marks = lambda s: s["inaccuracies"] + s["mistakes"] + s["blunders"]
check("the random side's moves are marked", marks(rs) >= 1)
check("the search's moves are marked less", marks(ss) < marks(rs))
check("the search is more accurate", ss["accuracy"] > rs["accuracy"] + 10)
check("the random side drops more", rs["averageDrop"] > 3 * ss["averageDrop"])
side0 = list(r["sides"])[0]
check("the search won", (r["result"] or {}).get("winner") == search_side)
check("the graph ends on the result", r["graph"][-1] == (1.0 if search_side == side0 else 0.0))
for m in r["moves"]:
    if "mark" in m:
        check(f"ply {m['ply']}: mark matches its drop",
              {"blunder": m["drop"] >= 0.3, "mistake": 0.2 <= m["drop"] < 0.3,
               "inaccuracy": 0.1 <= m["drop"] < 0.2}[m["mark"]])
        check(f"ply {m['ply']}: a best move other than the one played", m.get("best") not in (None, m["move"]))
marked = sum(1 for m in r["moves"] if "mark" in m)
check("annotated comments", annotated.count("{") == marked + 1 and "[Annotator \"pincer review" in annotated)
print(f"review: {random_side} (random) {rs}, {search_side} (alphabeta:depth=2) {ss}")
if failures:
    print("FAIL " + "\nFAIL ".join(failures))
    sys.exit(1)
print("review CLI: all checks passed")
PY
