#!/usr/bin/env bash
# Sanitizer runs (part of scripts/test.sh; docs/testing.md says what each covers): Debug builds
# (asserts on, -O1) with
#   build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer (leaks too): every suite of
#                tests/ but the learning runs (engine, mcts, play, book, serve, store, and train:
#                the network, model files and checkpoints, records, the window, reanalyse,
#                configs, run dirs, the trainer, warm start, gating, the loop, distributed
#                training), the CLI tests and the browser test;
#   build-tsan/  ThreadSanitizer: the threaded torch-free suites (mcts: parallel search and the
#                batch stepper; play: matches and ladders on threads) and the threaded torch tests
#                (pincer_tests_train_threads: the inference service, self-play, the loop's
#                stop/join and failure paths, the gatekeeper, the net player, readers of a model
#                being replaced).
# LibTorch itself is not instrumented (Debian's build); what that leaves out:
#   - ASan sees no out-of-bounds access inside torch's own code (a tensor kernel reading past its
#     buffer), only pincer's: the pointers it hands torch (from_blob) and reads back;
#   - TSan cannot see torch's synchronisation; its threads stay out of the picture because these
#     tests run torch with one intra-op thread (tsan.supp lists what remains);
#   - UBSan checks only pincer's code, not torch's;
#   - LSan does check torch's allocations (malloc is intercepted everywhere); torch's static
#     registries stay reachable, so nothing is reported and no leak suppression is needed;
#   - an instrumented process takes seconds of CPU to load torch, so pincer_tests_train runs as
#     two processes (gtest shards) instead of one per test.
# The learning tests (Learning.*) and the seize-tiny loop (Loop.SeizeTinyConfigRunsEndToEnd) train
# networks for minutes; they run in the Release build only.
# PINCER_SANITIZE_TORCH picks the torch suites: 1 (the default) both runs, asan or tsan one of
# them, 0 none (torch-free builds). nn/, train/ and tests/train compile their torch headers from a
# precompiled header (cmake/torch_pch.cmake), which keeps the two instrumented torch builds within
# CI's time.
# Usage: scripts/sanitize.sh [asan|tsan]...   (default: both)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
kinds=${*:-asan tsan}
torch_runs=${PINCER_SANITIZE_TORCH:-1}  # 1 (both, the default), asan, tsan or 0
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
  case $torch_runs in
    1 | "$kind") torch=ON ;;
    0 | asan | tsan) ;;
    *) echo "PINCER_SANITIZE_TORCH=$torch_runs: 1, asan, tsan or 0"; exit 2 ;;
  esac
  # Unity builds (eight files to a compile): about 40% less CPU than one compile per file.
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1" \
    -DCMAKE_UNITY_BUILD=ON -DPINCER_SANITIZE=$sanitize -DPINCER_WITH_TORCH=$torch > "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
  if [ $torch = ON ]; then
    if [ $kind = asan ]; then targets="$targets pincer_tests_train"; else targets="$targets pincer_tests_train_threads"; fi
  fi
  cmake --build "$dir" -j2 --target $targets >> "$dir.log" 2>&1 || { tail -50 "$dir.log"; exit 1; }
  rm -f "$dir.log"
  built=$((SECONDS - start))
  if [ $kind = asan ]; then
    # Every test but the torch ones, one process each, four at a time (many wait on the clock).
    ctest --test-dir "$dir" --output-on-failure -j4 --timeout 900 -LE '^pincer_tests_train$'
    # The torch tests in two processes (gtest shards, one per core) rather than ctest's one per
    # test: an instrumented process takes seconds of CPU to load LibTorch, which over 110 tests
    # costs more than the tests themselves. Learning.* trains networks for minutes (slower still
    # instrumented); the seize-tiny loop too.
    if [ $torch = ON ]; then
      pids=()
      for shard in 0 1; do
        GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$shard PINCER_SOURCE_DIR=$root timeout 1800 \
          "$dir/tests/pincer_tests_train" --gtest_brief=1 \
          --gtest_filter='-Learning.*:Loop.SeizeTinyConfigRunsEndToEnd' \
          > "$dir/train-$shard.log" 2>&1 &
        pids+=($!)
      done
      failed=0
      for shard in 0 1; do
        wait "${pids[$shard]}" || { failed=1; cat "$dir/train-$shard.log"; }
      done
      [ $failed = 0 ] || { echo "sanitize: pincer_tests_train failed under $kind"; exit 1; }
      tail -qn 1 "$dir"/train-[01].log
    fi
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
