#!/usr/bin/env bash
# Builds (or continues) the SE!ZE (seize-reference) opening book, adds the self-play games'
# statistics, and writes its report and main lines (docs/openings.md):
#   scripts/seize-book.sh OUT_DIR [MODEL.pt] [POSITIONS] [RECORDS_DIR]
# Without MODEL (or MODEL "-"): the classical search, alphabeta to depth 6 (stronger than the nets
# so far). With MODEL: that network searching 800 visits per position, into its own book file
# (a book keeps one evaluator). Resumable: run it again, with more POSITIONS to grow the book.
# PINCER names the binary (default build/cli/pincer).
set -euo pipefail
out=${1:?usage: scripts/seize-book.sh OUT_DIR [MODEL.pt] [POSITIONS] [RECORDS_DIR]}
model=${2:--}
positions=${3:-2000}
records=${4:-}
pincer=${PINCER:-build/cli/pincer}
mkdir -p "$out"
if [ "$model" = "-" ]; then
  book=$out/seize-reference-alphabeta.book
  "$pincer" book build --rules seize-reference --evaluator alphabeta --depth 6 --book "$book" \
    --positions "$positions"
else
  book=$out/seize-reference-$(basename "$model" .pt).book
  "$pincer" book build --rules seize-reference --model "$model" --visits 800 --threads 2 \
    --book "$book" --positions "$positions"
fi
if [ -n "$records" ]; then
  "$pincer" book stats --book "$book" --games "$records" --max-plies 12 --min-games 5
fi
"$pincer" book report --book "$book" --out "${book%.book}.html"
"$pincer" book export --book "$book" --format sgn > "${book%.book}.sgn.tmp"
mv "${book%.book}.sgn.tmp" "${book%.book}.sgn"
"$pincer" book show --book "$book"
