#!/usr/bin/env bash
# End-to-end checks of `pincer analyze`: a line per answer, errors by field, the process goes on
# after bad lines, a missing analyser is refused. Usage: analyze.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"

out=$(printf '%s\n' '{oops' '{"id":"a","moves":["c2"],"maxVisits":20}' '{"id":"b","moves":["c2","c2"]}' \
  '{"id":"c","action":"query_version"}' '' '{"id":"d","analyzeTurns":[0,1],"moves":["c2"],"maxVisits":10}' |
  "$pincer" analyze --rules seize-v0 --player mcts:sims=20,rollout=20 --threads 2)
check "exit status" 0 $?
check "answer lines" 6 "$(printf '%s\n' "$out" | wc -l | tr -d ' ')"
contains "bad JSON" '{"id":null,"error":"not valid JSON"}' "$out"
contains "illegal move by index" '"field":"moves","index":1}' "$out"
contains "version" '"action":"query_version","version":"pincer' "$out"
contains "analysed turn" '{"id":"a","turnNumber":1,"toMove":"burgundy","isDuringSearch":false,"rootInfo":{"visits":21' "$out"
contains "two turns" '{"id":"d","turnNumber":0' "$out"

# Hostile lines (issue 41): JSON nested 80,000 deep and duplicate turns get an error line each,
# at once, and the engine goes on.
deep=$(python3 -c 'print("{\"id\":\"deep\",\"x\":" + "[" * 80000 + "]" * 80000 + "}")')
out=$(printf '%s\n' "$deep" '{"id":"dup","analyzeTurns":[0,0],"maxVisits":10}' \
  '{"id":"ok","maxVisits":10}' | timeout 60 "$pincer" analyze --rules seize-v0 \
  --player mcts:sims=20,rollout=20 --threads 1)
check "hostile lines: exit status" 0 $?
contains "deep JSON" '{"id":null,"error":"JSON nested deeper than 64 levels"}' "$out"
contains "duplicate turns" '{"id":"dup","error":"\"analyzeTurns\" lists turn 0 twice","field":"analyzeTurns"}' "$out"
contains "goes on" '{"id":"ok","turnNumber":0' "$out"

err=$("$pincer" analyze --rules seize-v0 2>&1 </dev/null)
check "no analyser exits 1" 1 $?
contains "no analyser message" "give --model PATH (per --rules) or --player SPEC" "$err"
err=$("$pincer" analyze --rules seize-v0 --player greedy 2>&1 </dev/null)
contains "classical analyser kinds" 'analysis needs an "alphabeta:" or "mcts:" player' "$err"

finish "analyze CLI: all checks passed"
