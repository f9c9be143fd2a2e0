#!/usr/bin/env bash
# End-to-end checks of the pincer binary on SE!ZE: perft, moves protocol, SGN, show, rules.
# Usage: seize.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"

check "perft lines" "depth=1 nodes=22 depth=2 nodes=492 depth=3 nodes=13886" \
  "$("$pincer" perft --rules seize-reference --depth 3 | sed 's/ time=.*//' | tr '\n' ' ' | sed 's/ $//')"
check "perft v0 depth 4" "depth=4 nodes=15810" "$("$pincer" perft --rules seize-v0 --depth 4 | tail -1 | sed 's/ time=.*//')"
check "perft divide total" "total: 492" "$("$pincer" perft --rules seize-reference --depth 2 --divide | tail -1)"

out=$(printf 'startpos moves c2 b6 c1 a6 b2\nstartpos moves c2 b6 c1 a6 cb2 ab7\nnonsense\n' | "$pincer" moves --rules seize-v0)
check "moves line count" 3 "$(printf '%s\n' "$out" | wc -l | tr -d ' ')"
contains "ambiguous listed" '{"error":"move 5 '"'"'b2'"'"': ambiguous move '"'"'b2'"'"': candidates c1-b2, d4-b2"}' "$out"
contains "json shape" '"to_move":"ivory","captured":[],"points":{"ivory":0,"burgundy":0},"result":null}' "$out"
out=$(printf 'position 8/1g4g1/8/7g/1Gb1bG2/3G4/1B4B1/8 g 0 0-0 moves d3-d4\n' | "$pincer" moves --rules seize-reference)
contains "capture reported" '"captured":["c4","e4"]' "$out"
contains "result reported" '"points":{"gold":6,"red":0},"result":{"winner":"gold","reason":"bosses"}' "$out"

fp=$("$pincer" rules --rules seize-v0 | sed -n 's/^fingerprint: //p')
check "fingerprint is 16 hex" 16 "${#fp}"
make_tmp
printf '[Event "SE!ZE launch"]\n[Ruleset "seize-v0"]\n[Fingerprint "%s"]\n\n1. c2 b6 2. c1 a6 3. cb2 ab7\n' "$fp" > "$tmp/ok.sgn"
printf '[Ruleset "seize-v0"]\n[Fingerprint "425c2910ba701777"]\n\n1. c2 b6\n' > "$tmp/other.sgn"
out=$("$pincer" sgn check "$tmp/ok.sgn"); rc=$?
check "sgn ok rc" 0 "$rc"
contains "sgn ok" "ok, seize-v0, 6 plies, unfinished" "$out"
out=$("$pincer" sgn check "$tmp/other.sgn"); rc=$?
check "sgn other rc" 1 "$rc"
contains "sgn names both" "425c2910ba701777 differs from ruleset 'seize-v0', whose fingerprint is $fp" "$out"

out=$("$pincer" show --rules seize-v0 --moves c2 b6 c1 a6 cb2 ab7)
contains "show sfen" "position: 8/1gx6/3ggg2/2gbbg2/2GBBG2/3GGG2/1Gx6/8 i +f1+a3xh3+h6+c8xf8 6" "$out"
out=$("$pincer" show --rules seize-v0 --moves c2 zz 2>&1); rc=$?
check "show bad move rc" 1 "$rc"
contains "show bad move" "error: move 2 'zz'" "$out"
out=$("$pincer" perft --rules nonesuch 2>&1); rc=$?
check "unknown rules rc" 1 "$rc"
contains "unknown rules lists" "known: " "$out"
out=$("$pincer" rules --rules seize-v0)
contains "rules lists guesses" "powers.on_second = BLOCKED" "$out"
rm -rf "$tmp"

# A game clock: alpha-beta of unbounded depth plays on the clock; bad clocks are refused.
out=$("$pincer" --log-level warn match --rules seize-reference --a alphabeta:depth=60 --b random \
  --games 2 --max-plies 30 --clock game:0.2 --json 2>&1)
contains "match clock line" "clock game:0.2: " "$out"
contains "match clock json" '"clock":"game:0.2"' "$out"
out=$("$pincer" match --rules seize-reference --a random --b random --clock hours:3 2>&1)
contains "match bad clock" 'clock "hours:3": write none, game:MINUTES' "$out"

finish "seize: all checks passed"
echo "all CLI checks passed"
