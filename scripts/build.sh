#!/usr/bin/env bash
# Configures and builds pincer (Release, warnings on) into build/. Extra arguments go to cmake.
# PINCER_UNITY=ON (or OFF) sets a unity build (CMAKE_UNITY_BUILD: each target's files compiled
# eight to a source: about 40% less CPU for a whole build, but a one-file change recompiles its
# seven neighbours);
# scripts/test.sh turns it on for a build/ it makes from nothing. Unset, build/ keeps its setting.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
unity=()
[ -z "${PINCER_UNITY:-}" ] || unity=("-DCMAKE_UNITY_BUILD=$PINCER_UNITY")
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${unity[@]}" "$@"
cmake --build build -j"$(nproc)"
