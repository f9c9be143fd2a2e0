#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: installs packages, builds, and trains a SE!ZE bot
# (seize-reference) with configs/runs/seize.textproto in runs/seize, showing a live status line.
# Stop with Ctrl-C; the same command resumes. Open runs/seize/report.html for the plots.
# Extra arguments go to `pincer train` (e.g. --minutes 60).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh
scripts/build.sh
exec build/cli/pincer train --config configs/runs/seize.textproto --dir runs/seize "$@"
