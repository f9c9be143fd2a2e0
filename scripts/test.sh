#!/usr/bin/env bash
# Everything a fresh Debian 12 machine needs to run all of pincer's tests: installs packages,
# builds, runs the GoogleTest suites and CLI tests through ctest, then fuzzes each parser briefly.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh
scripts/build.sh
# Two at a time, except the learning tests, which train networks and get both cores to themselves.
ctest --test-dir build --output-on-failure -j2 --timeout 1200 -E '^Learning\.'
ctest --test-dir build --output-on-failure --timeout 1200 -R '^Learning\.'
# Debug builds under AddressSanitizer + UBSan and ThreadSanitizer (scripts/sanitize.sh says what
# each covers), then each fuzz target briefly.
scripts/sanitize.sh ${PINCER_SANITIZERS:-asan tsan}  # e.g. PINCER_SANITIZERS=tsan runs one
scripts/fuzz.sh "${PINCER_FUZZ_SECONDS:-12}"
