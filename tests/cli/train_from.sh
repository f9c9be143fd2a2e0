#!/usr/bin/env bash
# `pincer train --from MODEL`: a new run starts from a trained model instead of a warm start, and
# goes on counting from the model's step and core-hours (RunConfig.start_model), so training can
# carry on from a shipped model across machines (a model `pincer warmstart` wrote carries its
# core-hours too). A run dir that exists, a missing file and a model of another ruleset are
# refused with a message, the run dir left without a config. `--core-hours` stops a run at a
# budget of core-hours.
# Usage: train_from.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"
need_torch
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
contains() {
  case "$3" in *"$2"*) ;; *) fail "$1: no \"$2\" in: $3" ;; esac
}
field() { sed -n "s/^$1: //p" "$2" | head -1; }

cp "$2/tests/support/seize-micro.textproto" "$tmp/config.textproto"
"$pincer" train --config "$tmp/config.textproto" --dir "$tmp/a" --minutes 0.15 --quiet \
  > "$tmp/a.log" 2>&1 || fail "the first run: $(tail -5 "$tmp/a.log")"
model=$(ls "$tmp/a/models"/model-*.pt 2>/dev/null | sort | tail -1)
[ -n "$model" ] || { fail "the first run wrote no model"; exit 1; }
step=$(field training_step "${model%.pt}.meta.textproto")
hours=$(field core_hours "${model%.pt}.meta.textproto")
[ "${step:-0}" -gt 0 ] || fail "the first run's last model has step '${step}'"

# A new run from it: no warm start, its first model is that model, its steps go on from there.
out=$("$pincer" train --config "$tmp/config.textproto" --from "$model" --dir "$tmp/b" \
  --minutes 0.15 --quiet 2>&1) || fail "train --from: $out"
contains "said" "new run starts from $model" "$out"
case "$out" in *"warm start:"*) fail "a run started from a model played a warm start" ;; esac
contains "the run's config" "start_model: \"$model\"" "$(cat "$tmp/b/config.textproto" 2>&1)"
[ "$(field training_step "$tmp/b/models/model-000000.meta.textproto")" = "$step" ] ||
  fail "the run's first model is not at step $step"
cmp -s <(field model_id "$tmp/b/models/model-000000.meta.textproto") \
  <(field model_id "${model%.pt}.meta.textproto") || fail "the run's first model is another model"
for m in "$tmp/b/models"/model-*.meta.textproto; do
  case "$m" in */model-000000.meta.textproto) continue ;; esac
  s=$(field training_step "$m")
  [ "$s" -gt "$step" ] || fail "$m: step $s does not go on from $step"
  awk -v a="$(field core_hours "$m")" -v b="$hours" 'BEGIN { exit !(a > b) }' ||
    fail "$m: core-hours $(field core_hours "$m") not above the start's $hours"
done
out=$("$pincer" checkrun --dir "$tmp/b" 2>&1) || fail "checkrun of the run from a model: $out"
# Resuming it needs no --from (it goes on from its own checkpoint).
out=$("$pincer" train --dir "$tmp/b" --minutes 0.05 --quiet 2>&1) || fail "resume: $out"

# --core-hours: a budget the run has spent stops it at once; one a second of CPU above stops it
# there (the config sets no max_minutes: a run that ignored the budget would meet the timeout).
out=$(timeout 60 "$pincer" train --dir "$tmp/b" --core-hours 0.00001 --quiet 2>&1) ||
  fail "a spent budget: $out"
contains "a spent budget" "the budget of 1e-05 core-hours is reached" "$out"
spent=$(sed -n 's/.*(\([0-9.]*\) core-hours in all).*/\1/p' <<< "$out" | tail -1)
budget=$(awk -v h="${spent:-0}" 'BEGIN { printf "%.6f", h + 0.0003 }')
out=$(timeout 60 "$pincer" train --dir "$tmp/b" --core-hours "$budget" --quiet 2>&1) ||
  fail "a budget of $budget core-hours did not stop the run: $(tail -3 <<< "$out")"
contains "a budget above" "core-hours is reached" "$out"
out=$("$pincer" train --dir "$tmp/b" --core-hours -1 --quiet 2>&1) &&
  fail "a negative budget was accepted"

# A warm start written alone (`pincer warmstart --out`) carries the CPU time that made it, so a
# run from it counts its core-hours from there.
out=$("$pincer" warmstart --config "$tmp/config.textproto" --out "$tmp/warm.pt" --games 4 \
  --steps 5 2>&1) || fail "warmstart: $out"
warm_hours=$(field core_hours "$tmp/warm.meta.textproto")
awk -v a="${warm_hours:-0}" 'BEGIN { exit !(a > 0) }' ||
  fail "warmstart --out wrote core-hours '${warm_hours}'"

# Refusals: a run dir that is a run already, a missing file, a model of another ruleset.
out=$("$pincer" train --config "$tmp/config.textproto" --from "$model" --dir "$tmp/b" \
  --minutes 0.05 --quiet 2>&1) && fail "--from on an existing run was accepted"
contains "existing run" "is a run already" "$out"
out=$("$pincer" train --config "$tmp/config.textproto" --from "$tmp/nope.pt" --dir "$tmp/c" \
  --minutes 0.05 --quiet 2>&1) && fail "--from a missing file was accepted"
contains "missing file" "no such model file" "$out"
[ ! -f "$tmp/c/config.textproto" ] || fail "a refused --from left a config.textproto"
out=$("$pincer" train --config "$tmp/config.textproto" --rules seize-v0 --from "$model" \
  --dir "$tmp/d" --minutes 0.05 --quiet 2>&1) && fail "a seize-reference model started a seize-v0 run"
contains "another ruleset's model" "seize-v0" "$out"
[ ! -f "$tmp/d/config.textproto" ] || fail "a refused model left a config.textproto"

finish "all train --from checks passed"
