#!/usr/bin/env bash
# End-to-end checks of the pincer binary on corners: perft, the moves protocol, show, rules.
# Usage: corners.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"

check "perft" "depth=1 nodes=88 depth=2 nodes=7744 depth=3 nodes=721140" \
  "$("$pincer" perft --rules corners --depth 3 | sed 's/ time=.*//' | tr '\n' ' ' | sed 's/ $//')"

empty=......./......./......./......./......./......./.......
# White e6 moves to d5': black d5 is caught between c4' and d5' (both white points go with it).
catch="......../......../....W.../...B..../......../......../......../W....... ......./......./......./..W..../......./......./....... w 0 0 10"
out=$(printf 'startpos moves b2-b4 g7-f6'"'"' b3-b3'"'"'\nposition %s moves e6-d5'"'"'\nstartpos moves b2-b5\nposition %s moves c7-c8\n' \
  "$catch" ".......B/..W...../......../......../......../......../......../W....... $empty w 0 0 10" |
  "$pincer" moves --rules corners)
check "moves lines" 4 "$(printf '%s\n' "$out" | wc -l | tr -d ' ')"
line1=$(printf '%s\n' "$out" | sed -n 1p)
contains "black to move" '"to_move":"black","captured":[],"points":{"white":0,"black":0},"result":null}' "$line1"
contains "divide listed" "\"f6'*\"" "$line1"
contains "point step listed" "\"f6'-g7\"" "$line1"
line2=$(printf '%s\n' "$out" | sed -n 2p)
contains "captures with points" "\"captured\":[\"d5\",\"c4'\",\"d5'\"]" "$line2"
contains "black has no moves" '"result":{"winner":"white","reason":"no-moves"}' "$line2"
contains "run refused" "a run passes only own pieces" "$(printf '%s\n' "$out" | sed -n 3p)"
contains "crossing wins" '"result":{"winner":"white","reason":"crossed"}' "$(printf '%s\n' "$out" | sed -n 4p)"

out=$("$pincer" show --rules corners --moves b2-b4 g7-f6\' b3-b3\')
contains "show black point" "    +---+---+---+---+---+---b---+---+" "$out"
contains "show white point" "    +---+---w---+---+---+---+---+---+" "$out"
contains "show side" "black to move; reserve white 0, black 0; ply 3/400" "$out"
out=$("$pincer" rules --rules corners)
contains "rules fingerprint" "fingerprint: " "$out"
contains "rules guessed" "limit.plies" "$out"

finish "corners: all checks passed"
echo "all corners CLI checks passed"
