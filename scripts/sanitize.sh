#!/usr/bin/env bash
# Sanitizer runs (part of scripts/test.sh): Debug builds (asserts on, -O1) with
#   build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer: every torch-free suite (engine,
#                mcts, play, book, serve), the CLI tests and the browser test;
#   build-tsan/  ThreadSanitizer: the threaded torch-free suites (mcts: parallel search and the
#                batch stepper; play: matches and ladders on threads).
# Both are built without LibTorch: instrumenting train/ and nn/ (and running them against an
# uninstrumented LibTorch) costs more CI time than there is. PINCER_SANITIZE_TORCH=1 adds the
# train/ suites (inference service, self-play, the loop) to both, for a run by hand.
# Usage: scripts/sanitize.sh [asan|tsan]...   (default: both)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
kinds=${*:-asan tsan}
torch=OFF
[ "${PINCER_SANITIZE_TORCH:-0}" = 1 ] && torch=ON
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
for kind in $kinds; do
  start=$SECONDS
  case $kind in
    asan) sanitize=address,undefined
          targets="pincer pincer_tests_engine pincer_tests_mcts pincer_tests_play pincer_tests_book pincer_tests_serve" ;;
    tsan) sanitize=thread; targets="pincer_tests_mcts pincer_tests_play" ;;
    *) echo "unknown sanitizer run '$kind' (asan or tsan)"; exit 2 ;;
  esac
  dir=build-$kind
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
    -DPINCER_SANITIZE=$sanitize -DPINCER_WITH_TORCH=$torch > "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
  [ $torch = ON ] && [ $kind = tsan ] && targets="$targets pincer_tests_train"
  cmake --build "$dir" -j2 --target $targets >> "$dir.log" 2>&1 || { tail -50 "$dir.log"; exit 1; }
  rm -f "$dir.log"
  built=$((SECONDS - start))
  if [ $kind = asan ]; then
    ctest --test-dir "$dir" --output-on-failure -j2 --timeout 900 -E '^Learning\.'
  else
    "$dir/tests/pincer_tests_mcts" --gtest_brief=1
    "$dir/tests/pincer_tests_play" --gtest_brief=1 --gtest_filter='Match*:Ladder*'
    if [ -x "$dir/tests/pincer_tests_train" ]; then
      "$dir/tests/pincer_tests_train" --gtest_brief=1 \
        --gtest_filter='Inference*:SelfPlay*:Loop.A*:Loop.Self*:Gate*'
    fi
  fi
  echo "sanitize: $kind clean (build ${built}s, tests $((SECONDS - start - built))s)"
done
