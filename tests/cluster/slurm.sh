#!/usr/bin/env bash
# deploy/slurm/ on a real Slurm: starts a one-node cluster on this machine
# (tests/cluster/slurm_cluster.sh: munged, slurmctld, slurmd on localhost, 2 CPUs), submits
# run.sbatch (Redis and the gatekeeper; PINCER_TRAINER=0), a 2-task selfplay-array.sbatch and a
# 2-rank trainer-ddp.sbatch on a tiny SE!ZE config, and passes when both workers' games are in
# the store, both ranks trained, a candidate was promoted, and the run copied out of Redis reads
# whole (`pincer checkrun`). Needs root (it starts the daemons) and installs `slurm-wlm` and
# `munge` when they are missing. Run by `scripts/test.sh --cluster`.
# Usage: tests/cluster/slurm.sh PINCER [MINUTES]   (MINUTES: deadline for a promotion, default 10)
# Exit 77: skipped (no torch part of pincer, or not root).
set -u
pincer=$(realpath "$1")
minutes=${2:-10}
root=$(cd "$(dirname "$0")/../.." && pwd)
[ -f "$(dirname "$pincer")/pincer-torch.so" ] || { echo "SKIPPED: no torch part of pincer"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIPPED: the Slurm test starts munged and slurmd as root"; exit 77; }
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
  echo "installing slurm-wlm and munge"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge ||
    { echo "FAIL cannot install slurm-wlm and munge"; exit 1; }
fi
command -v redis-server > /dev/null || { echo "FAIL redis-server is not installed"; exit 1; }
# shellcheck source=tests/cluster/slurm_cluster.sh
. "$root/tests/cluster/slurm_cluster.sh"

tmp=$(mktemp -d /tmp/pincer-slurm.XXXXXX)
started=$SECONDS
cleanup() {
  slurm_cluster_stop
  # Anything a job left behind: a job's processes carry a SLURM_JOB_ID and this cluster's
  # SLURM_CONF.
  local p
  for p in /proc/[0-9]*; do
    grep -qsz "^SLURM_CONF=$tmp/cluster/slurm.conf$" "$p/environ" &&
      grep -qsz "^SLURM_JOB_ID=" "$p/environ" && kill -9 "${p#/proc/}" 2> /dev/null
  done
  [ -n "${PINCER_SLURM_KEEP:-}" ] && { echo "kept $tmp"; return; }
  rm -rf "$tmp"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
die() {
  echo "FAIL $*"
  for f in "$tmp"/shared/*.log "$tmp"/logs/*.log; do echo "== $f"; tail -n 15 "$f"; done
  exit 1
}
# await SECONDS CMD...: until CMD succeeds.
await() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@" > /dev/null 2>&1; do
    [ $SECONDS -ge $deadline ] && return 1
    sleep 1
  done
}

slurm_cluster_start "$tmp/cluster" 2 || die "the Slurm cluster did not start"
echo "cluster up ($((SECONDS - started)) s): $(sinfo -h -N -o '%N %c CPUs %T')"

# The tiny SE!ZE settings, one self-play thread per worker, a checkpoint every 5 steps and every
# candidate promoted (threshold 0): the test is of the recipes, not of learning.
mkdir -p "$tmp/shared" "$tmp/logs" "$tmp/node-tmp" "$tmp/cache"
cat > "$tmp/config.textproto" <<'CONFIG'
rules: "seize-reference"
seed: 7
network { blocks: 1 channels: 8 policy_channels: 2 value_channels: 1 value_hidden: 16 }
inference { max_batch: 16 max_wait_us: 500 threads: 1 }
selfplay {
  search { simulations: 6 leaves_per_batch: 2 }
  parallel_games: 4
  threads: 1
  max_moves: 40
  games_per_chunk: 2
}
trainer {
  optimizer { kind: "adam" learning_rate: 0.002 }
  batch_size: 16
  window_positions: 5000
  min_positions: 100
  samples_per_position: 1
  checkpoint_every: 5
  threads: 1
}
gating { games: 2 threshold: 0 search { simulations: 4 } random_opening_plies: 2 }
CONFIG

# What the recipes read from the environment (sbatch passes it on to the jobs).
export PINCER="$pincer" PINCER_SHARED="$tmp/shared" PINCER_RUN=slurmtest
export PINCER_CONFIG="$tmp/config.textproto" PINCER_TRAINER=0 PINCER_START_TIMEOUT=300
REDIS_PORT=$(slurm_free_port)
PINCER_MASTER_PORT=$(slurm_free_port)
export REDIS_BIND=127.0.0.1 REDIS_PORT PINCER_MASTER_PORT PINCER_DIST_TIMEOUT=120
export TMPDIR="$tmp/node-tmp" XDG_CACHE_HOME="$tmp/cache" OMP_NUM_THREADS=1
# The recipes ask for a big node; a test job asks for what this one has.
small=(--time=30 --mem=500M --cpus-per-task=1)
cd "$root" || exit 1
run_job=$(sbatch --parsable "${small[@]}" --output="$tmp/logs/%x-%j.log" deploy/slurm/run.sbatch) ||
  die "sbatch run.sbatch"
array_job=$(sbatch --parsable "${small[@]}" --array=0-1 --dependency="after:$run_job" \
  --output="$tmp/logs/%x-%A_%a.log" deploy/slurm/selfplay-array.sbatch) ||
  die "sbatch selfplay-array.sbatch"
ddp_job=$(sbatch --parsable "${small[@]}" --nodes=1 --ntasks-per-node=2 \
  --dependency="after:$run_job" --output="$tmp/logs/%x-%j.log" deploy/slurm/trainer-ddp.sbatch) ||
  die "sbatch trainer-ddp.sbatch"
echo "submitted: run $run_job, selfplay array ${array_job}_[0-1], trainer-ddp $ddp_job"

running() { [ "$(squeue -h -j "$1" -o %T 2> /dev/null | grep -c RUNNING)" -ge "${2:-1}" ]; }
await 120 running "$run_job" || die "run.sbatch did not start: $(squeue)"
await 120 running "$array_job" 2 || die "the self-play array did not start 2 tasks: $(squeue)"
await 120 running "$ddp_job" || die "trainer-ddp.sbatch did not start: $(squeue)"
echo "all jobs running ($((SECONDS - started)) s):"
squeue -o '%.12i %.24j %.8T %.6C %R'

rc() { redis-cli -p "$REDIS_PORT" "$@"; }
chunks_of() { rc XRANGE "pincer:$PINCER_RUN:records" - + | grep -c -- "-slurm-$array_job-$1-"; }
store="redis://127.0.0.1:$REDIS_PORT/$PINCER_RUN"
promoted() { grep -q ' promoted$' "$PINCER_SHARED/gate.log"; }
await $((minutes * 60)) promoted || die "no candidate promoted within $minutes minutes"
promoted_at=$((SECONDS - started))
await 60 bash -c "[ \"\$(redis-cli -p $REDIS_PORT HGET pincer:$PINCER_RUN:best name)\" != model-000000.pt ]" ||
  fail "the store's best model is still the initial one"
best=$(rc HGET "pincer:$PINCER_RUN:best" name)
echo "promoted ($promoted_at s): $(grep ' promoted$' "$PINCER_SHARED/gate.log" | head -n 1); best $best"
[ "$(chunks_of 0)" -gt 0 ] || fail "no games from array task 0"
[ "$(chunks_of 1)" -gt 0 ] || fail "no games from array task 1"
ddp_log="$tmp/logs/pincer-trainer-ddp-$ddp_job.log"
grep -qE 'step [0-9]+: .*wrote' "$ddp_log" || fail "rank 0 of trainer-ddp wrote no checkpoint"
[ -d "$TMPDIR/pincer-rank-1" ] || fail "rank 1 of trainer-ddp has no local folder"

# The workers and the trainer stop (SIGTERM: the trainer writes its checkpoint); then the run is
# copied out of Redis while run.sbatch still serves it, and read whole.
scancel "$array_job" "$ddp_job"
await 60 bash -c "[ -z \"\$(squeue -h -j $array_job,$ddp_job 2>/dev/null)\" ]" ||
  fail "the self-play array and trainer-ddp did not stop within 60 s of scancel"
"$pincer" store status --store "$store" > "$tmp/status.txt" 2>&1 || fail "pincer store status"
"$pincer" store copy --from "$store" --to "dir://$tmp/copy" > /dev/null 2>&1 || fail "store copy"
"$pincer" --log-level warn checkrun --dir "$tmp/copy" > "$tmp/checkrun.txt" 2>&1 ||
  fail "checkrun: $(cat "$tmp/checkrun.txt")"
echo "checkrun: $(cat "$tmp/checkrun.txt")"
chunks0=$(chunks_of 0)
chunks1=$(chunks_of 1)
scancel "$run_job"
await 60 bash -c "[ -z \"\$(squeue -h -j $run_job 2>/dev/null)\" ]" ||
  fail "run.sbatch did not stop within 60 s of scancel"
grep -h "Segmentation\|terminate called\|Aborted" "$tmp"/shared/*.log "$tmp"/logs/*.log &&
  fail "a process crashed"
echo "jobs: run $run_job, selfplay ${array_job}_0 ($chunks0 chunks) and ${array_job}_1 ($chunks1 chunks), trainer-ddp $ddp_job (2 ranks, $(grep -cE 'step [0-9]+: .*wrote' "$ddp_log") checkpoints); first promotion after ${promoted_at} s, $((SECONDS - started)) s in all"
if [ $failures -gt 0 ]; then
  for f in "$tmp"/shared/*.log "$tmp"/logs/*.log; do echo "== $f"; tail -n 10 "$f"; done
  exit 1
fi
echo "slurm: all passed"
