#!/usr/bin/env bash
# `pincer model average OUT IN...`: checkpoints of one network averaged into a model that plays,
# and what cannot be averaged refused with a clear error and nothing written.
# Skipped (77) without the torch library.
# Usage: model_average.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"
src=$2
need_torch
make_tmp
seega=$src/models/seega-5x5.pt
seize=$src/models/seize-reference.pt

out=$("$pincer" model average "$tmp/avg.pt" "$seega" "$seega" 2>&1) || fail "average: status $?: $out"
case "$out" in *"averaged 2 models into $tmp/avg.pt"*"+avg2)"*) ;; *) fail "average said: $out" ;; esac
[ -f "$tmp/avg.meta.textproto" ] || fail "no metadata copy beside the averaged model"
grep -q '+avg2' "$tmp/avg.meta.textproto" || fail "the metadata does not name the average"
# The mean of a model with itself plays as it does: the same games with the same seed.
a=$("$pincer" match --rules seega-5x5 --a "net:model=$seega,sims=16" --b greedy --games 2 \
  --seed 3 --json 2> /dev/null | tail -1)
b=$("$pincer" match --rules seega-5x5 --a "net:model=$tmp/avg.pt,sims=16" --b greedy --games 2 \
  --seed 3 --json 2> /dev/null | tail -1)
[ -n "$a" ] || fail "the shipped model did not play"
strip() { echo "$1" | sed -e 's/"a":"[^"]*"//' -e 's/"seconds[^,]*,//g' -e 's/"elapsed[^,]*,//g'; }
[ "$(strip "$a" | grep -o '"wins":[0-9]*,"')" = "$(strip "$b" | grep -o '"wins":[0-9]*,"')" ] ||
  fail "the averaged model plays differently: $a / $b"

# Refused: one input, models of two games, a missing file; exit 1, no output, no backtrace.
check_refused() {
  local name=$1 want=$2
  shift 2
  out=$("$pincer" model average "$tmp/$name.pt" "$@" 2>&1)
  status=$?
  [ $status -ne 0 ] || fail "$name: accepted"
  case "$out" in *"$want"*) ;; *) fail "$name: '$want' not in: $out" ;; esac
  case "$out" in *"frame #"*) fail "$name: a torch backtrace" ;; esac
  [ ! -e "$tmp/$name.pt" ] || fail "$name: an output was written"
}
check_refused one "in" "$seega"
check_refused games "seega-5x5" "$seega" "$seize"
check_refused missing "$tmp/none.pt" "$seega" "$tmp/none.pt"
finish "all model average checks passed"
