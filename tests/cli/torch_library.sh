#!/usr/bin/env bash
# The two halves of pincer: commands that need no network never load LibTorch; torch commands and
# net: players load pincer-torch.so on demand, and say clearly when it is missing.
# Usage: torch_library.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"
lacks() {
  case "$3" in *"$2"*) printf 'FAIL %s: "%s" in:\n%s\n' "$1" "$2" "$3"; failures=$((failures + 1)) ;; esac
}

# The dynamic loader's record of every library it maps.
loaded=$(LD_DEBUG=files "$pincer" rules --list 2>&1 >/dev/null)
lacks "rules --list loads no torch" "libtorch" "$loaded"
loaded=$(echo 'startpos moves' | LD_DEBUG=files "$pincer" moves --rules seize-v0 2>&1 >/dev/null)
lacks "moves loads no torch" "libtorch" "$loaded"

dir=$(dirname "$pincer")
if [ -f "$dir/pincer-torch.so" ]; then
  contains "--help lists the torch commands" "train" "$("$pincer" --help 2>&1)"
  contains "train --help loads them" "--dir" "$("$pincer" train --help 2>&1)"
  loaded=$(LD_DEBUG=files "$pincer" train --help 2>&1 >/dev/null)
  contains "train loads torch" "libtorch" "$loaded"
  # The executable alone, with the command list but not the library.
  make_tmp
  cp "$pincer" "$tmp/pincer"
  cp "$dir/pincer-torch.commands" "$tmp/"
  contains "--help without the library" "train" "$("$tmp/pincer" --help 2>&1)"
  out=$("$tmp/pincer" train --help 2>&1)
  status=$?
  [ $status -eq 1 ] || { echo "FAIL train without the library: status $status"; failures=$((failures + 1)); }
  contains "train without the library" "$tmp/pincer-torch.so, which is missing" "$out"
  out=$("$tmp/pincer" match --rules seize-v0 --a net:model=x.pt --b random --games 2 2>&1)
  contains "net: player without the library" "pincer-torch.so, which is missing" "$out"
  contains "other commands without the library" "seize-v0" "$("$tmp/pincer" rules --list 2>&1)"
fi

finish "all torch library checks passed"
