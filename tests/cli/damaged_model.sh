#!/usr/bin/env bash
# A damaged model file given to `pincer` is a clear error naming the file (exit 1), never a crash
# or a torch backtrace: not a model at all, cut short inside the checked header, a payload whose
# checksum does not match. Skipped (77) without the torch library.
# Usage: damaged_model.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"
need_torch
make_tmp
check() {  # name, file, expected text
  out=$("$pincer" match --rules seize-v0 --a "net:model=$2" --b random --games 2 2>&1)
  status=$?
  [ $status -eq 1 ] || { echo "FAIL $1: status $status"; failures=$((failures + 1)); }
  case "$out" in *"$3"*) ;; *) echo "FAIL $1: no \"$3\" in: $out"; failures=$((failures + 1)) ;; esac
  case "$out" in *"Exception raised"* | *"frame #"*) echo "FAIL $1: a torch backtrace"; failures=$((failures + 1)) ;; esac
}
echo "not a model" > "$tmp/text.pt"
check "text" "$tmp/text.pt" "model file $tmp/text.pt is not a pincer model file"
printf '\x89PINCER\n\x01\x00' > "$tmp/cut.pt"
check "cut" "$tmp/cut.pt" "model file $tmp/cut.pt is cut short"
# Header version 1, kind 1 (model), length 4, XXH64 0 (wrong), then 4 payload bytes.
printf '\x89PINCER\n\x01\0\0\0\x01\0\0\0\x04\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0abcd' > "$tmp/flipped.pt"
check "checksum" "$tmp/flipped.pt" "model file $tmp/flipped.pt is damaged (checksum mismatch)"
finish "all damaged model checks passed"
