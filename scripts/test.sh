#!/usr/bin/env bash
# Everything a fresh Debian 12 machine needs to run all of pincer's tests: installs packages,
# builds, runs the GoogleTest suites and CLI tests through ctest, then fuzzes each parser briefly
# and runs a 2-minute fault soak of the Redis store (scripts/soak.sh). Prints the time of each
# stage at the end.
#   scripts/test.sh             all of the above
#   scripts/test.sh --cluster   and deploy/slurm/ on a one-node Slurm (tests/cluster/slurm.sh;
#                               needs root: it installs slurm-wlm and munge and starts them)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cluster=0
for arg in "$@"; do
  case "$arg" in
    --cluster) cluster=1 ;;
    *) echo "test.sh: unknown argument $arg (--cluster)" >&2; exit 2 ;;
  esac
done

# stage NAME CMD...: runs CMD, timed; the table of stages is printed at the end, also on failure.
stage_names=()
stage_seconds=()
stage() {
  local name=$1 t0=$SECONDS
  shift
  stage_start=$t0
  stage_names+=("$name")
  stage_seconds+=("running")
  "$@"
  stage_seconds[${#stage_seconds[@]} - 1]=$((SECONDS - t0))
}
stage_table() {
  local status=$? i
  printf '\n%-28s %8s\n' "stage" "seconds"
  for i in "${!stage_names[@]}"; do
    local s=${stage_seconds[$i]}
    [ "$s" = running ] && s="failed after $((SECONDS - ${stage_start:-$SECONDS}))"
    printf '%-28s %8s\n' "${stage_names[$i]}" "$s"
  done
  printf '%-28s %8s\n' "total" "$SECONDS"
  return $status
}
trap stage_table EXIT

stage install-deps scripts/install-deps.sh
# A build/ made from nothing (CI's clean clone) is a unity build: about 40% less compile time;
# an existing one keeps its setting (a developer's incremental builds).
[ -f build/CMakeCache.txt ] || export PINCER_UNITY=ON
stage build scripts/build.sh
# Four at a time on CI's two cores: about half of the tests wait on the clock (servers,
# deadlines, kills, the browser), and -j2 left the cores half idle (253 s against 150 s). The
# learning tests train networks and get both cores to themselves.
stage ctest ctest --test-dir build --output-on-failure -j4 --timeout 1200 -E '^Learning\.'
stage ctest-learning ctest --test-dir build --output-on-failure --timeout 1200 -R '^Learning\.'
# Debug builds under AddressSanitizer + UBSan and ThreadSanitizer (scripts/sanitize.sh says what
# each covers), then each fuzz target briefly.
stage sanitizers scripts/sanitize.sh ${PINCER_SANITIZERS:-asan tsan}  # e.g. PINCER_SANITIZERS=tsan runs one
stage fuzz scripts/fuzz.sh "${PINCER_FUZZ_SECONDS:-6}"
# The Redis store under kill -9 of every process (Redis too), 2 minutes (scripts/soak.sh).
stage soak scripts/soak.sh --minutes "${PINCER_SOAK_MINUTES:-2}" --kill-every 10-20
# Exit 77 is a skip (not root, or no torch part).
slurm_test() { tests/cluster/slurm.sh build/cli/pincer || [ $? -eq 77 ]; }
if [ $cluster = 1 ]; then
  stage slurm slurm_test
fi
