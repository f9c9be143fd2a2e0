#!/usr/bin/env bash
# Browser test of `pincer book report`: builds a small SE!ZE book with game statistics, writes its
# report and drives it in headless chromium (book_report.mjs); screenshots go to build/browser/.
# Usage: tests/browser/book_report.sh PINCER_BINARY SOURCE_DIR BUILD_DIR. Exit 77 (skipped)
# without chromium or npm.
set -euo pipefail
pincer=$1
src=$2
build=$3
source "$src/tests/browser/setup.sh" book_report.mjs
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
