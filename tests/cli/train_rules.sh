#!/usr/bin/env bash
# `pincer train --rules R`: a config's recipe on another ruleset of its game. A new run dir takes
# R (its config.textproto and its first model name it); a run dir of another ruleset, or a ruleset
# that does not exist, is refused with a message that names both and writes nothing.
# Usage: train_rules.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"
need_torch
make_tmp
contains() {
  case "$3" in *"$2"*) ;; *) fail "$1: no \"$2\" in: $3" ;; esac
}

cp "$2/tests/support/seize-micro.textproto" "$tmp/config.textproto"

# A ruleset that does not exist: refused, no run dir left behind with a config.
out=$("$pincer" train --config "$tmp/config.textproto" --rules seize-nosuch --dir "$tmp/bad" \
  --minutes 0.1 --quiet 2>&1)
status=$?
[ $status -ne 0 ] || fail "an unknown ruleset was accepted"
contains "unknown ruleset" "seize-nosuch" "$out"
[ ! -f "$tmp/bad/config.textproto" ] || fail "an unknown ruleset left a config.textproto"

# The recipe on seize-v0: the run is seize-v0's.
out=$("$pincer" train --config "$tmp/config.textproto" --rules seize-v0 --dir "$tmp/v0" \
  --minutes 0.1 --quiet 2>&1)
status=$?
[ $status -eq 0 ] || fail "train --rules seize-v0: status $status: $out"
contains "the run's config" 'rules: "seize-v0"' "$(cat "$tmp/v0/config.textproto" 2>&1)"
out=$("$pincer" checkrun --dir "$tmp/v0" 2>&1) || fail "checkrun after --rules: $out"
# Its model is a seize-v0 model: it plays seize-v0 and is refused under seize-reference.
out=$("$pincer" match --rules seize-v0 --a "net:model=$tmp/v0/models/best.pt,sims=4" --b random \
  --games 2 2>&1) || fail "the run's model under seize-v0: $out"
out=$("$pincer" match --rules seize-reference --a "net:model=$tmp/v0/models/best.pt,sims=4" \
  --b random --games 2 2>&1) && fail "the run's seize-v0 model played seize-reference: $out"
contains "the model's ruleset named" "seize-v0" "$out"

# The same run dir under another ruleset: refused, the run untouched.
before=$(cat "$tmp/v0/config.textproto")
out=$("$pincer" train --dir "$tmp/v0" --rules seize-reference --minutes 0.1 --quiet 2>&1)
status=$?
[ $status -ne 0 ] || fail "a seize-v0 run dir was resumed as seize-reference"
contains "another ruleset's run dir" "trains seize-v0; --rules seize-reference needs a new run dir" "$out"
[ "$before" = "$(cat "$tmp/v0/config.textproto")" ] || fail "the refused --rules changed the config"
# Naming the run's own ruleset resumes it.
out=$("$pincer" train --dir "$tmp/v0" --rules seize-v0 --minutes 0.05 --quiet 2>&1)
status=$?
[ $status -eq 0 ] || fail "resuming with the run's own --rules: status $status: $out"

# A config whose anchor names its ruleset's ladder takes the ladder beside it named after the new
# ruleset; where there is none, the run names no ladder and says so.
mkdir -p "$tmp/ladders"
cp "$2/configs/ladders/seize-reference.textproto" "$tmp/ladders/"
{ cat "$2/tests/support/seize-micro.textproto"
  echo "anchor { ladder: \"$tmp/ladders/seize-reference.textproto\" in_loop: false }"; } \
  > "$tmp/anchored.textproto"
out=$("$pincer" train --config "$tmp/anchored.textproto" --rules seize-v0 --dir "$tmp/alone" \
  --minutes 0.05 --quiet 2>&1) || fail "--rules without a sibling ladder: $out"
contains "no sibling ladder: said" "there is no $tmp/ladders/seize-v0.textproto" "$out"
grep -q "ladder:" "$tmp/alone/config.textproto" && fail "a seize-reference ladder kept for seize-v0"
cp "$2/configs/ladders/seize-v0.textproto" "$tmp/ladders/"
out=$("$pincer" train --config "$tmp/anchored.textproto" --rules seize-v0 --dir "$tmp/sibling" \
  --minutes 0.05 --quiet 2>&1) || fail "--rules with a sibling ladder: $out"
contains "the sibling ladder" "ladder: \"$tmp/ladders/seize-v0.textproto\"" \
  "$(cat "$tmp/sibling/config.textproto" 2>&1)"

finish "all train --rules checks passed"
