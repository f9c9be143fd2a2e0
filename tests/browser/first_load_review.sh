#!/usr/bin/env bash
# Browser test of `pincer serve` with no arguments (every shipped ruleset with its shipped model,
# or alpha-beta): first load, remembered choices, a reviewed game, a phone viewport
# (first_load_review.mjs). Screenshots go to build/browser/.
# Usage: tests/browser/first_load_review.sh PINCER_BINARY SOURCE_DIR BUILD_DIR. Exit 77 (skipped)
# without chromium or npm.
set -euo pipefail
pincer=$1
src=$2
build=$3
source "$src/tests/browser/setup.sh" first_load_review.mjs
log=$(mktemp)
"$pincer" serve --models "$src/models" --port 0 --bot-seconds 0.3 --threads 2 > "$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 300); do
  grep -q listening "$log" && break
  sleep 0.1
done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -1)
[ -n "$url" ] || { echo "pincer serve did not start:"; cat "$log"; exit 1; }
grep '^pincer serve: ' "$log"
timeout 270 node "$work/first_load_review.mjs" "$url" "$build/browser" "$chromium" || {
  rc=$?
  echo "the server's warnings and errors:"
  grep -E '\[(warning|error|critical)\]' "$log" | tail -20 || true
  exit $rc
}
