#!/usr/bin/env bash
# `pincer model convert IN OUT`: a model file of an older pincer (a bare torch archive) becomes a
# checked one holding the same archive; a damaged one is refused with a clear error and nothing is
# written. The legacy input is models/seega-5x5.pt without its 32-byte checked header.
# Skipped (77) without the torch library.
# Usage: model_convert.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"
src=$2
need_torch
make_tmp
model=$src/models/seega-5x5.pt
tail -c +33 "$model" > "$tmp/old.pt"

out=$("$pincer" model convert "$tmp/old.pt" "$tmp/new.pt" 2>&1) || fail "convert: status $?: $out"
case "$out" in *"converted $tmp/old.pt"*) ;; *) fail "convert said: $out" ;; esac
cmp -s "$model" "$tmp/new.pt" || fail "the converted file differs from $model"
[ -f "$tmp/new.meta.textproto" ] || fail "no metadata copy beside the converted file"
out=$("$pincer" model convert "$tmp/new.pt" "$tmp/new.pt" 2>&1) || fail "again: status $?: $out"
case "$out" in *"already in the checked format"*) ;; *) fail "again said: $out" ;; esac
# It plays.
"$pincer" match --rules seega-5x5 --a "net:model=$tmp/new.pt,sims=8" --b random --games 1 \
  > /dev/null 2>&1 || fail "the converted model does not play"

# Cut short, and not a model: exit 1, the file named, no torch backtrace, nothing written.
head -c $(($(stat -c %s "$tmp/old.pt") / 2)) "$tmp/old.pt" > "$tmp/cut.pt"
echo "not a model" > "$tmp/text.pt"
# One bit flipped in the middle (a tensor's bytes): torch reads it without complaint, the zip's
# CRC-32 of that record does not match.
cp "$tmp/old.pt" "$tmp/flip.pt"
at=$(($(stat -c %s "$tmp/old.pt") / 2))
byte=$(od -An -tu1 -j $at -N1 "$tmp/old.pt" | tr -d ' ')
printf "\\x$(printf %02x $((byte ^ 16)))" | dd of="$tmp/flip.pt" bs=1 seek=$at conv=notrunc 2> /dev/null
cmp -s "$tmp/old.pt" "$tmp/flip.pt" && fail "the bit was not flipped"
for bad in cut text flip; do
  out=$("$pincer" model convert "$tmp/$bad.pt" "$tmp/$bad-out.pt" 2>&1)
  status=$?
  [ $status -eq 1 ] || fail "$bad: status $status"
  case "$out" in *"model file $tmp/$bad.pt"*) ;; *) fail "$bad: the file is not named in: $out" ;; esac
  case "$out" in *"frame #"*) fail "$bad: a torch backtrace" ;; esac
  [ ! -e "$tmp/$bad-out.pt" ] || fail "$bad: an output was written"
done
finish "all model convert checks passed"
