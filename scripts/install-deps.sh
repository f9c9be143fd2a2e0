#!/usr/bin/env bash
# Installs the Debian packages pincer needs to build, test and benchmark. Runs apt only when
# something is missing. Needs root (or sudo).
set -euo pipefail
packages=(build-essential cmake ninja-build ccache pkg-config clang libclang-rt-14-dev clang-format
  libtorch-dev libtbb-dev libprotobuf-dev protobuf-compiler libspdlog-dev libgtest-dev libgmock-dev
  libcli11-dev nlohmann-json3-dev libxxhash-dev libzstd-dev libbenchmark-dev stockfish
  libcpp-httplib-dev chromium
  # The redis:// store (store/store_redis.h) and its tests: the client library and the server.
  libhiredis-dev redis-server
  # Gloo's headers: torch c10d's ProcessGroupGloo.hpp includes them (data-parallel trainer).
  libgloo-dev
  # A one-node Slurm for tests/cluster/slurm.sh (scripts/test.sh --cluster): deploy/slurm/ for real.
  slurm-wlm munge
  # libzip: checks the CRCs of model files of older builds before `pincer model convert`.
  libzip-dev
  # OpenBLAS (OpenMP build): LibTorch's CPU matrix products go through the system BLAS, and
  # Debian's default is the slow reference one (docs/training.md, "Network and training speed").
  libopenblas0-openmp
  # The Python module (python/, docs/python.md) and its tests (tests/python/): pybind11, Python's
  # headers, numpy and pytest for Debian's python3.
  pybind11-dev python3-dev python3-numpy python3-pytest)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# The browser tests drive chromium with puppeteer-core from npm; any node with npm will do (a
# nodesource node ships its own npm, which Debian's npm package would conflict with).
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
# scripts/*.py (levels, loss analysis, load and start-up measurements) and tests/cli/loss_analysis.sh.
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
