#!/usr/bin/env bash
# Browser test of `pincer serve`: starts it on a free loopback port with a classical bot, installs
# puppeteer-core into build/browser-test/ (npm; the browser is Debian's chromium, nothing is
# downloaded), drives the pages (play_analyse.mjs) and saves screenshots under build/browser/.
# Usage: tests/browser/run.sh PINCER_BINARY SOURCE_DIR BUILD_DIR. Exit 77 (skipped) without
# chromium or npm.
set -euo pipefail
pincer=$1
src=$2
build=$3
source "$src/tests/browser/setup.sh" play_analyse.mjs
log=$(mktemp)
"$pincer" serve --rules seize-reference --rules seega-5x5 --rules corners --rules dice-7x7 \
  --player alphabeta:depth=2 --port 0 \
  --bot-seconds 0.3 --threads 2 > "$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do
  grep -q listening "$log" && break
  sleep 0.1
done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -1)
[ -n "$url" ] || { echo "pincer serve did not start:"; cat "$log"; exit 1; }
# The whole drive, under the ctest TIMEOUT of 300 s (an ASan build on two loaded cores needs
# more than 150 s).
timeout 270 node "$work/play_analyse.mjs" "$url" "$build/browser" "$chromium"
