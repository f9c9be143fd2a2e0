#!/usr/bin/env bash
# End-to-end checks of the pincer binary on Seega: perft, the moves protocol, show, rules.
# Usage: seega.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"

check "perft 5x5" "depth=1 nodes=24 depth=2 nodes=552 depth=3 nodes=12144" \
  "$("$pincer" perft --rules seega-5x5 --depth 3 | sed 's/ time=.*//' | tr '\n' ' ' | sed 's/ $//')"
check "perft 7x7 depth 2" "depth=2 nodes=2256" "$("$pincer" perft --rules seega-7x7 --depth 2 | tail -1 | sed 's/ time=.*//')"

out=$(printf 'startpos moves a1 b1\nstartpos moves c3\nstartpos moves a1 b1 a2\n' | "$pincer" moves --rules seega-5x5)
check "moves lines" 3 "$(printf '%s\n' "$out" | wc -l | tr -d ' ')"
contains "placement twice in a row" '"to_move":"light","captured":[],"points":{"dark":0,"light":0},"result":null}' "$out"
contains "centre refused" "the centre square stays empty during placement" "$out"

# All 24 placed (centre empty), then dark steps into the centre and captures nothing yet.
full="a1 b1 a2 b2 a3 b3 a4 b4 a5 b5 c1 d1 c2 d2 c4 d4 c5 d5 e1 e2 e3 e4 e5 d3"
out=$(printf 'startpos moves %s\n' "$full" | "$pincer" moves --rules seega-5x5)
contains "movement phase" '"to_move":"dark"' "$out"
contains "movement legal" '"c2-c3"' "$out"
out=$("$pincer" show --rules seega-5x5 --moves $full)
contains "show position" "position: " "$out"
out=$("$pincer" rules --rules seega-5x5)
contains "rules fingerprint" "fingerprint: " "$out"

finish "seega: all checks passed"
echo "all Seega CLI checks passed"
