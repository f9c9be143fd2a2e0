#!/usr/bin/env bash
# Sanitizer runs (part of scripts/test.sh; docs/testing.md says what each covers): Debug builds
# (asserts on, -O1) with
#   build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer: every torch-free suite (engine,
#                mcts, play, book, serve, store), the CLI tests and the browser test;
#   build-tsan/  ThreadSanitizer: the threaded torch-free suites (mcts: parallel search and the
#                batch stepper; play: matches and ladders on threads) and the threaded torch tests
#                (pincer_tests_train_threads: the inference service, self-play, the loop's
#                stop/join and failure paths, the gatekeeper, the net player, readers of a model
#                being replaced). LibTorch itself is not instrumented; its threads stay out of the
#                picture because these tests run torch with one intra-op thread (tsan.supp lists
#                what remains).
# PINCER_SANITIZE_TORCH=tsan (the default) builds nn/ and train/ into build-tsan/ only for that
# small binary; PINCER_SANITIZE_TORCH=0 leaves the torch tests out (a torch-free build-tsan/);
# PINCER_SANITIZE_TORCH=1 also builds them into build-asan/ and runs every tests/train suite but
# the learning ones there (by hand, before merging torch-side code: instrumenting nn/ and train/
# a second time costs more CI time than there is).
# Usage: scripts/sanitize.sh [asan|tsan]...   (default: both)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
kinds=${*:-asan tsan}
torch_tsan=${PINCER_SANITIZE_TORCH:-tsan}  # 0, tsan (default) or 1 (both)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/scripts/tsan.supp"
for kind in $kinds; do
  start=$SECONDS
  case $kind in
    asan) sanitize=address,undefined
          targets="pincer pincer_tests_engine pincer_tests_mcts pincer_tests_play pincer_tests_book pincer_tests_serve
                   pincer_tests_store" ;;
    tsan) sanitize=thread; targets="pincer_tests_mcts pincer_tests_play" ;;
    *) echo "unknown sanitizer run '$kind' (asan or tsan)"; exit 2 ;;
  esac
  dir=build-$kind
  torch=OFF
  { [ "$torch_tsan" = 1 ] || { [ "$torch_tsan" = tsan ] && [ $kind = tsan ]; }; } && torch=ON
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
    -DPINCER_SANITIZE=$sanitize -DPINCER_WITH_TORCH=$torch > "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
  if [ $torch = ON ]; then
    if [ $kind = asan ]; then targets="$targets pincer_tests_train"; else targets="$targets pincer_tests_train_threads"; fi
  fi
  cmake --build "$dir" -j2 --target $targets >> "$dir.log" 2>&1 || { tail -50 "$dir.log"; exit 1; }
  rm -f "$dir.log"
  built=$((SECONDS - start))
  if [ $kind = asan ]; then
    # Learning.* trains networks for minutes (slower still instrumented); the seize-tiny loop too.
    ctest --test-dir "$dir" --output-on-failure -j2 --timeout 900 \
      -E '^(Learning\.|Loop\.SeizeTinyConfigRunsEndToEnd)'
  else
    "$dir/tests/pincer_tests_mcts" --gtest_brief=1
    "$dir/tests/pincer_tests_play" --gtest_brief=1 --gtest_filter='Match*:Ladder*'
    if [ $torch = ON ]; then
      # The torch tests that start threads (the seize-tiny loop and the learning runs are the
      # same threads for longer).
      PINCER_SOURCE_DIR=$root "$dir/tests/pincer_tests_train_threads" --gtest_brief=1 --gtest_filter=\
'Inference.*:SelfPlay.*:ReanalyseSelfPlay.*:Loop.AGate*:Loop.AConfig*:Loop.SelfPlayFailure*:Gatekeeper.*:NetPlayer.*:AtomicFile.Concurrent*'
    fi
  fi
  echo "sanitize: $kind clean (build ${built}s, tests $((SECONDS - start - built))s)"
done
