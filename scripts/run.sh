#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: installs packages, builds, and runs it.
# Until the training loop lands this is a demonstration game between two built-in players on
# SE!ZE, printed move by move. Extra arguments go to `pincer play`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh
scripts/build.sh
exec build/cli/pincer play --rules seize-reference --a alphabeta:time=0.2 --b mcts:sims=400 "$@"
