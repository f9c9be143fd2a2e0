#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build-fuzz/ and runs each for a
# short time over its seed corpus in fuzz/corpus/. Usage: scripts/fuzz.sh [seconds per target]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-12}
cd "$root"
CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPINCER_FUZZ=ON \
  -DCMAKE_UNITY_BUILD=ON \
  -DPINCER_TESTS=OFF -DPINCER_WITH_TORCH=OFF > build-fuzz.log 2>&1 || { cat build-fuzz.log; exit 1; }
# The parsers of positions, moves and SGN, and every file a process reads that needs no torch:
# record chunks, run configs, gate logs, the `pincer moves` line protocol, and the checked header
# of model files and trainer checkpoints (what decides whether torch sees a file's bytes; the
# torch archives inside are mutated by tests/train/damaged_files_test.cpp).
targets="fuzz_sfen fuzz_binary fuzz_move fuzz_sgn fuzz_state fuzz_setup fuzz_corners fuzz_query
  fuzz_record_chunk fuzz_run_config fuzz_gate_log fuzz_moves_line fuzz_model_file"
cmake --build build-fuzz -j2 --target $targets > build-fuzz.log 2>&1 || { tail -50 build-fuzz.log; exit 1; }
rm -f build-fuzz.log
# fuzz_one TARGET: fuzzes one target; its report is printed whole when it ends (two run at once).
fuzz_one() {
  local t=$1 work max_len
  work=$(mktemp -d)  # new inputs go here, never into the committed seed corpus
  case $t in
    fuzz_record_chunk | fuzz_model_file) max_len=65536 ;;
    fuzz_run_config | fuzz_gate_log) max_len=4096 ;;
    *) max_len=512 ;;
  esac
  if build-fuzz/fuzz/$t -max_total_time="$seconds" -max_len=$max_len -print_final_stats=1 "$work" "fuzz/corpus/${t#fuzz_}" \
      > "$work.log" 2>&1; then
    echo "fuzz: $t ok ($(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$work.log" | grep -o '[0-9]*$') runs in ${seconds}s)"
    rm -rf "$work" "$work.log"
  else
    { echo "fuzz: $t FAILED"; tail -40 "$work.log"; } >&2
    rm -rf "$work" "$work.log"
    return 1
  fi
}
# Each libFuzzer process uses one core: two at a time on a 2-core machine (PINCER_FUZZ_JOBS).
jobs=${PINCER_FUZZ_JOBS:-2}
case $jobs in
  '' | *[!0-9]* | 0) echo "fuzz.sh: PINCER_FUZZ_JOBS=$jobs: a count of 1 or more" >&2; exit 2 ;;
esac
failed=0
pids=()
for t in $targets; do
  fuzz_one "$t" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || failed=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do
  wait "$pid" || failed=1
done
exit $failed
