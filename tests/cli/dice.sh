#!/usr/bin/env bash
# End-to-end checks of the pincer binary on the dice game: perft from a setup and a position,
# the moves protocol (startpos refused for a random start), show, rules, play and match from
# drawn starts, SGN records that carry the start.
# Usage: dice.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"

check "perft setup" "depth=1 nodes=8 depth=2 nodes=64 depth=3 nodes=664" \
  "$("$pincer" perft --rules dice-7x7 --position '354K612/216K543' --depth 3 | sed 's/ time=.*//' | tr '\n' ' ' | sed 's/ $//')"
check "perft position" "depth=2 nodes=275" \
  "$("$pincer" perft --rules dice-7x7 --position 'b1fkedc/1b1bbbb/2a4/1B1C3/3E3/BB1BB1B/C2KFAB w 20 3 0-0' --depth 2 | tail -1 | sed 's/ time=.*//')"
out=$("$pincer" perft --rules dice-7x7 --depth 1 2>&1)
contains "perft needs a start" "has a random start" "$out"

out=$(printf 'startpos\nposition 354K612/216K543 moves a1-b3 d6-d5\nposition bafkedc/bbbbbbb/7/7/7/BBBBBBB/CEDKFAB w 0 0 0-0 moves a1-a3\nposition 3k3/7/3E3/7/7/7/K6 w 0 0 0-0 moves d5-d7\n' | "$pincer" moves --rules dice-7x7)
check "moves lines" 4 "$(printf '%s\n' "$out" | wc -l | tr -d ' ')"
contains "startpos refused" "dice-7x7 has a random start" "$out"
contains "after two moves" '"to_move":"white","captured":[],"points":{"white":0,"black":0},"result":null}' "$out"
contains "illegal knight move" "the knight (face 3) on a1 cannot go to a3" "$out"
contains "king taken" '"captured":["d7"],"points":{"white":0,"black":0},"result":{"winner":"white","reason":"king"}}' "$out"

out=$(printf 'position 3k3/1b5/3E3/7/7/7/K6 w 0 0 0-0 moves d5-d7\n' | "$pincer" moves --rules dice-7x7-scored)
contains "scored points" '"points":{"white":5,"black":0},"result":null' "$out"

out=$("$pincer" show --rules dice-7x7 --position '354K612/216K543' --moves a2-a3)
contains "show position" "position: bafkedc/bbbbbbb/7/7/A6/1BBBBBB/CEDKFAB b 1 1 0-0" "$out"
out=$("$pincer" show --rules dice-8x8 --seed 4)
contains "show a drawn start" "setup: " "$out"
setup=$(printf '%s\n' "$out" | sed -n 's/^  setup: //p')
check "the drawn start is its setup's start" \
  "$(printf '%s\n' "$out" | grep 'position:')" \
  "$("$pincer" show --rules dice-8x8 --position "$setup" | grep 'position:')"
out=$("$pincer" rules --rules dice-6x6-promotion-timed)
contains "rules fingerprint" "fingerprint: " "$out"

out=$("$pincer" play --rules dice-7x7 --a random --b random --seed 5 --quiet 2>&1)
contains "play draws a start" "start: " "$out"
contains "play result" "result: " "$out"

make_tmp
"$pincer" match --rules dice-6x6 --a random --b greedy --games 4 --seed 3 --sgn "$tmp" >/dev/null 2>&1
check "match wrote four records" 4 "$(ls "$tmp" | wc -l | tr -d ' ')"
pos1=$(grep -h '^\[Position' "$tmp"/*1.sgn 2>/dev/null | head -1)
pos2=$(grep -h '^\[Position' "$tmp"/*2.sgn 2>/dev/null | head -1)
contains "record has the start" "[Position " "$pos1"
check "a colour-swapped pair shares its start" "$pos1" "$pos2"
for f in "$tmp"/*.sgn; do
  out=$("$pincer" sgn check "$f" 2>&1) || { printf 'FAIL sgn check %s: %s\n' "$f" "$out"; failures=$((failures + 1)); }
done
rm -rf "$tmp"

finish "dice: all checks passed"
echo "all dice CLI checks passed"
