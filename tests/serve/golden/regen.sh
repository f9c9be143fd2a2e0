#!/usr/bin/env bash
# Regenerates the golden analysis files from their queries with the given pincer binary:
#   tests/serve/golden/regen.sh build/cli/pincer
# Review the diff by hand before committing: the files are the analysis engine's contract.
set -euo pipefail
pincer=$1
dir=$(cd "$(dirname "$0")" && pwd)
for f in "$dir"/*.queries; do
  name=$(basename "$f" .queries)
  header=$(head -1 "$f")
  rules=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["rules"])' "$header")
  player=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["player"])' "$header")
  {
    echo "$header"
    tail -n +2 "$f" | while IFS= read -r q; do
      echo "{\"query\":$q}"
      echo "$q" | "$pincer" analyze --rules "$rules" --player "$player" --threads 1 --seed 7 |
        sed 's/^/{"response":/; s/$/}/'
    done
  } > "$dir/$name.jsonl"
done
