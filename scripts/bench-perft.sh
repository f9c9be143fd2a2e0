#!/usr/bin/env bash
# Perft speed side by side: pincer's leaf rate from the SE!ZE start at the deepest depth that
# runs about a second, against Debian's stockfish running `go perft 6` from the chess start on
# the same machine. Prints both rates and their ratio. Usage: scripts/bench-perft.sh [pincer]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pincer=${1:-$root/build/cli/pincer}
stockfish=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$stockfish" ] || { echo "stockfish not found: apt-get install stockfish" >&2; exit 1; }

best_rate() {  # best of three runs of one pincer perft depth: prints "nodes rate"
  local rules=$1 depth=$2 best=0 nodes=0
  for _ in 1 2 3; do
    line=$("$pincer" perft --rules "$rules" --depth "$depth" | tail -1)
    nodes=$(sed 's/.*nodes=\([0-9]*\).*/\1/' <<<"$line")
    rate=$(sed 's/.*nps=\([0-9]*\).*/\1/' <<<"$line")
    [ "$rate" -gt "$best" ] && best=$rate
  done
  echo "$nodes $best"
}

sf_best=0
for _ in 1 2 3; do
  start=$(date +%s.%N)
  nodes=$(printf 'position startpos\ngo perft 6\nquit\n' | "$stockfish" | sed -n 's/^Nodes searched: //p')
  end=$(date +%s.%N)
  rate=$(awk -v n="$nodes" -v a="$start" -v b="$end" 'BEGIN { printf "%d", n / (b - a) }')
  [ "$rate" -gt "$sf_best" ] && sf_best=$rate
done
printf 'stockfish  go perft 6      nodes=%s  nps=%s (best of 3, process start included)\n' "$nodes" "$sf_best"
for spec in seize-reference:6 seize-v0:7; do
  rules=${spec%:*} depth=${spec#*:}
  read -r n r < <(best_rate "$rules" "$depth")
  ratio=$(awk -v a="$r" -v b="$sf_best" 'BEGIN { printf "%.2f", a / b }')
  printf 'pincer     %-15s depth=%s nodes=%s  nps=%s  ratio to stockfish %sx\n' "$rules" "$depth" "$n" "$r" "$ratio"
done
