#!/usr/bin/env bash
# Browser test of `pincer book report`: builds a small SE!ZE book with game statistics, writes its
# report and drives it in headless chromium (book_report.mjs); screenshots go to build/browser/.
# Usage: tests/browser/book_report.sh PINCER_BINARY SOURCE_DIR BUILD_DIR. Exit 77 (skipped)
# without chromium or npm.
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
cp "$src/tests/browser/package.json" "$src/tests/browser/book_report.mjs" "$work/"
# node_modules/.package-lock.json is written last by a finished install (an interrupted one
# is redone); ctest runs the browser tests one at a time (RESOURCE_LOCK browser-test).
if [ ! -f "$work/node_modules/.package-lock.json" ] || [ ! -d "$work/node_modules/puppeteer-core" ]; then
  rm -rf "$work/node_modules"
  (cd "$work" && timeout 300 npm install --no-audit --no-fund --silent) || {
    echo "browser test: npm install failed"; exit 1; }
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$pincer" --log-level warn book build --rules seize-reference --evaluator alphabeta --depth 2 \
  --book "$dir/b.book" --positions 40
"$pincer" --log-level warn match --rules seize-reference --a alphabeta:depth=1 --b random \
  --games 6 --max-plies 16 --sgn "$dir/games" >/dev/null
"$pincer" --log-level warn book stats --book "$dir/b.book" --games "$dir/games" --min-games 2
"$pincer" book report --book "$dir/b.book" --out "$dir/report.html" --min-games 2
# The start's moves as the book lists them (the page must show each).
moves=$("$pincer" book show --book "$dir/b.book" --json |
  python3 -c 'import json,sys; print(" ".join(m["move"] for m in json.load(sys.stdin)["moves"]))')
timeout 120 node "$work/book_report.mjs" "$dir/report.html" "$build/browser" "$chromium" $moves
