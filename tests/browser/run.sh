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
chromium=$(command -v chromium || true)
if [ -z "$chromium" ] || ! command -v npm >/dev/null; then
  echo "browser test skipped: needs chromium and npm (scripts/install-deps.sh)"
  exit 77
fi
work=$build/browser-test
mkdir -p "$work" "$build/browser"
cp "$src/tests/browser/package.json" "$src/tests/browser/play_analyse.mjs" "$work/"
# node_modules/.package-lock.json is written last by a finished install (an interrupted one
# is redone); ctest runs the browser tests one at a time (RESOURCE_LOCK browser-test).
if [ ! -f "$work/node_modules/.package-lock.json" ] || [ ! -d "$work/node_modules/puppeteer-core" ]; then
  rm -rf "$work/node_modules"
  (cd "$work" && timeout 300 npm install --no-audit --no-fund --silent) || {
    echo "browser test: npm install failed"; exit 1; }
fi
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
timeout 150 node "$work/play_analyse.mjs" "$url" "$build/browser" "$chromium"
