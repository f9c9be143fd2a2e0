#!/usr/bin/env bash
# Regenerates the rules pages in docs/rules/ from configs/rulesets/ (a test fails when they are
# stale). Usage: scripts/gen-docs.sh [path/to/pincer]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pincer=${1:-$root/build/cli/pincer}
mkdir -p "$root/docs/rules"
for f in "$root"/configs/rulesets/*.textproto; do
  name=$(basename "$f" .textproto)
  tmp=$(mktemp "$root/docs/rules/.$name.XXXXXX")
  "$pincer" rules --rules "$name" --markdown > "$tmp"
  mv "$tmp" "$root/docs/rules/$name.md"
  echo "docs/rules/$name.md"
done
