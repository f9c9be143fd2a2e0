#!/usr/bin/env bash
# scripts/loss-analysis.py end to end: greedy's lost games against a depth-2 alpha-beta, judged
# by a depth-3 one, lose the judge's score on greedy's moves and not on alpha-beta's; bad input
# is refused with a message. Usage: loss_analysis.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"
src=$2
command -v python3 > /dev/null || { echo "no python3: skipped"; exit 77; }
make_tmp

"$pincer" match --rules seize-reference --a greedy --b alphabeta:depth=2 --games 4 --seed 3 \
  --sgn "$tmp/games" > /dev/null 2>&1
check "match exit status" 0 $?
out=$(python3 "$src/scripts/loss-analysis.py" --sgn "$tmp/games" --player greedy \
  --judge alphabeta:depth=3 --pincer "$pincer" --depths 1,2 2>&1)
check "exit status" 0 $?
contains "lost games" "of 4 games lost by 'greedy'; judge alphabeta:depth=3" "$out"
contains "per game" "game-00001.sgn:" "$out"
contains "blunder depths" "blunders that alpha-beta sees at depth: 1:" "$out"
own=$(printf '%s\n' "$out" | sed -n "s/^score lost per move of 'greedy': mean \([-0-9.]*\),.*/\1/p")
their=$(printf '%s\n' "$out" | sed -n 's/^score lost per move of the opponent: mean \([-0-9.]*\),.*/\1/p')
if [ -z "$own" ] || [ -z "$their" ] || ! awk -v a="$own" -v b="$their" 'BEGIN { exit !(a > b + 20) }'; then
  printf 'FAIL greedy should lose more per move than alpha-beta (%s against %s):\n%s\n' "$own" "$their" "$out"
  failures=$((failures + 1))
fi

mkdir "$tmp/empty"
err=$(python3 "$src/scripts/loss-analysis.py" --sgn "$tmp/empty" --player greedy --pincer "$pincer" 2>&1)
check "empty folder exits 1" 1 $?
contains "empty folder message" "no .sgn files in" "$err"
err=$(python3 "$src/scripts/loss-analysis.py" --sgn "$tmp/games" --player greedy --pincer "$tmp/nope" 2>&1)
check "missing pincer exits 1" 1 $?
contains "missing pincer message" "is not an executable" "$err"
printf '[Gold "x"]\n[Red "y"]\n[Result "gold"]\n1. c2\n' > "$tmp/empty/odd.sgn"
out=$(python3 "$src/scripts/loss-analysis.py" --sgn "$tmp/empty" --player greedy --pincer "$pincer" 2>&1)
check "unknown player exits 0" 0 $?
contains "unknown player skipped" "cannot tell which side 'greedy' played; skipped" "$out"

finish "loss-analysis: all checks passed"
