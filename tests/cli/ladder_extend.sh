#!/usr/bin/env bash
# `pincer ladder --extend`: a new player is rated against a ladder file's players, their ratings
# held fixed, and added to a copy of the file; the players already there keep their entries; bad
# requests (a player already on it, an opponent not on it, --against without --extend) are
# refused with a message and write nothing. Usage: ladder_extend.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"
src=$2
make_tmp
ladder=$src/configs/ladders/seize-reference.textproto

out=$("$pincer" ladder --extend "$ladder" --players alphabeta:depth=1,hash=1 --against random \
  --games 4 --seed 2 --save "$tmp/extended.textproto" 2>/dev/null)
check "exit status" 0 $?
# Depth-1 alpha-beta beats random every game: 4/4, a rating well above random's 0.
contains "games played" "alphabeta:depth=1,hash=1 vs random (+0): 4.0/4" "$out"
contains "file written" "ladder written to $tmp/extended.textproto" "$out"
new=$(grep -A2 'player: "alphabeta:depth=1,hash=1"' "$tmp/extended.textproto" | grep 'elo:' | tr -dc '0-9-')
[ -n "$new" ] && [ "$new" -gt 200 ] || fail "new rating '$new' not above +200"
# Every player of the original file is still there with its rating.
while IFS= read -r line; do
  grep -qxF -- "$line" "$tmp/extended.textproto" || fail "lost line: $line"
done < <(grep -E '^  (player|elo|elo_low|elo_high):' "$ladder")
check "players" $(($(grep -c '^players {' "$ladder") + 1)) "$(grep -c '^players {' "$tmp/extended.textproto")"
contains "command kept" "; then pincer ladder" "$(grep '^command:' "$tmp/extended.textproto")"

out=$("$pincer" ladder --extend "$ladder" --players greedy --games 2 --save "$tmp/bad.textproto" 2>&1)
check "a player already on it: exit status" 1 $?
contains "a player already on it" "player 'greedy' is already on" "$out"
out=$("$pincer" ladder --extend "$ladder" --players alphabeta:depth=1,hash=2 --against nobody \
  --games 2 --save "$tmp/bad.textproto" 2>&1)
check "an unknown opponent: exit status" 1 $?
contains "an unknown opponent" "--against: 'nobody' is not on" "$out"
out=$("$pincer" ladder --players random,greedy --against random --games 2 2>&1)
check "--against alone: exit status" 1 $?
contains "--against alone" "--against needs --extend" "$out"
out=$("$pincer" ladder --extend "$tmp/missing.textproto" --players greedy --games 2 2>&1)
check "a missing ladder: exit status" 1 $?
contains "a missing ladder" "ladder file $tmp/missing.textproto" "$out"
[ -e "$tmp/bad.textproto" ] && fail "a refused request wrote a file"

finish "ladder --extend: all checks passed"
