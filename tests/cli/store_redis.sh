#!/usr/bin/env bash
# The loop as separate processes against one Redis (docs/distributed.md): a redis-server of the
# test's own on a free loopback port, a trainer, a gatekeeper and 2 self-play workers as
# separate `pincer` processes on the tiny SE!ZE settings. Checks that records from both workers
# arrive, the trainer trains on them, candidates are gated, the best is published and the
# workers switch to it; then kill -9 one worker and the trainer, restart them (the trainer on a
# fresh local copy, as on another machine) and checks that nothing acknowledged is lost and the
# trainer resumes from the store's checkpoint; then stops Redis under the workers and checks they
# retry, say so, and go on once it is back.
# Usage: store_redis.sh PINCER SOURCE_DIR   (exit 77: skipped)
source "$(dirname "$0")/lib.sh"
[ -f "$(dirname "$pincer")/pincer-torch.so" ] || { echo "SKIPPED: no torch part of pincer"; exit 77; }
command -v redis-server >/dev/null || { echo "SKIPPED: redis-server is not installed (apt-get install redis-server)"; exit 77; }
command -v redis-cli >/dev/null || { echo "SKIPPED: redis-cli is not installed"; exit 77; }
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  [ -n "${redis_pid:-}" ] && kill -9 "$redis_pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
die() { echo "FAIL $*"; for f in "$tmp"/*.log; do echo "== $f"; tail -n 15 "$f"; done; exit 1; }

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
start_redis() {
  redis-server --port "$port" --bind 127.0.0.1 --dir "$tmp" --appendonly yes \
    --appendfsync always --save '' --daemonize no >> "$tmp/redis.log" 2>&1 &
  redis_pid=$!
  for ((i = 0; i < 100; ++i)); do
    redis-cli -p "$port" ping 2>/dev/null | grep -q PONG && return 0
    sleep 0.1
  done
  die "redis-server did not start"
}
start_redis
run=tiny
url="redis://127.0.0.1:$port/$run?retry=60"
rc() { redis-cli -p "$port" "$@"; }

# The tiny SE!ZE settings (configs/runs/seize-tiny.textproto), smaller still: one self-play
# thread per worker, a checkpoint every 5 steps and every candidate promoted (threshold 0).
cat > "$tmp/config.textproto" <<'CONFIG'
rules: "seize-reference"
seed: 5
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

# await FILE REGEX [SECONDS]: until FILE has a line matching REGEX.
await() {
  for ((i = 0; i < ${3:-120} * 10; ++i)); do
    grep -qE "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}
chunks_of() { rc XRANGE "pincer:$run:records" - + | grep -c -- "-$1-"; }

# The trainer starts the run: config and initial model into the store.
"$pincer" trainer --store "$url" --config "$tmp/config.textproto" --cache "$tmp/trainer" \
  > "$tmp/trainer.log" 2>&1 &
trainer=$!; pids+=($trainer)
await "$tmp/trainer.log" 'trainer (starts|resumed)' 60 || die "the trainer did not start"
"$pincer" gate --store "$url" --watch --cache "$tmp/gate" > "$tmp/gate.log" 2>&1 &
pids+=($!)
for w in w1 w2; do
  "$pincer" selfplay --store "$url" --writer $w --cache "$tmp/$w" > "$tmp/$w.log" 2>&1 &
  pids+=($!)
  eval "pid_$w=$!"
done

await "$tmp/trainer.log" 'step 10: .*wrote' 150 || die "the trainer wrote no checkpoint at step 10"
# A worker may start later than the other (loading torch on a busy machine): up to 60 s more.
for ((i = 0; i < 600; ++i)); do
  [ "$(chunks_of w1)" -gt 0 ] && [ "$(chunks_of w2)" -gt 0 ] && break
  sleep 0.1
done
[ "$(chunks_of w1)" -gt 0 ] || fail "no records from worker w1"
[ "$(chunks_of w2)" -gt 0 ] || fail "no records from worker w2"
await "$tmp/gate.log" 'promoted' 60 || fail "no candidate was gated and promoted"
# The gatekeeper promotes in its local copy first and publishes to the store on its next sync.
for ((i = 0; i < 300; ++i)); do
  best=$(rc HGET "pincer:$run:best" name)
  [ "$best" != "model-000000.pt" ] && [ -n "$best" ] && break
  sleep 0.1
done
[ "$best" != "model-000000.pt" ] && [ -n "$best" ] || fail "the best model in the store is still '$best'"
for w in w1 w2; do
  await "$tmp/$w.log" 'self-play switches to' 30 || fail "worker $w did not switch to the new best"
done
await "$tmp/trainer.log" 'workers: .*w1 .*w2|workers: .*w2 .*w1' 40 ||
  fail "the trainer's status does not name both workers"
echo "phase 1 ($SECONDS s): w1 $(chunks_of w1) chunks, w2 $(chunks_of w2) chunks, best $best"

# kill -9 a worker and the trainer mid-run.
kill -9 "$pid_w1" "$trainer"
wait "$pid_w1" "$trainer" 2>/dev/null
acked=$(rc GET "pincer:$run:cursor:trainer")
last=$(grep -oE 'step [0-9]+: .*wrote' "$tmp/trainer.log" | tail -1 | grep -oE '^step [0-9]+' | cut -d' ' -f2)
before=$(rc XRANGE "pincer:$run:records" - + | grep '\.chunk$' | sort)
[ -n "$acked" ] || fail "the trainer acknowledged nothing"
# The trainer again, on a fresh local copy (another machine); the worker with its own again.
"$pincer" trainer --store "$url" --cache "$tmp/trainer2" --steps 10 > "$tmp/trainer2.log" 2>&1 &
trainer=$!; pids+=($trainer)
"$pincer" selfplay --store "$url" --writer w1 --cache "$tmp/w1" > "$tmp/w1b.log" 2>&1 &
pid_w1=$!; pids+=($pid_w1)
await "$tmp/trainer2.log" 'trainer (starts|resumed)' 60 || die "the trainer did not restart"
resumed=$(grep -oE 'trainer resumed at step [0-9]+' "$tmp/trainer2.log" | grep -oE '[0-9]+$')
# The store's checkpoint is the last one published: the step logged last, or the one after if
# the kill fell between publishing and logging.
[ "$resumed" = "$last" ] || [ "$resumed" = "$((last + 5))" ] ||
  fail "the trainer resumed at step '$resumed', not at its last checkpoint $last"
# Exactly: the window rebuilt from the same chunks holds the games the checkpoint counted.
games_then=$(grep ",train,$resumed," "$tmp/trainer/metrics.csv" | cut -d, -f4)
grep -q "trainer resumed at step $resumed ($games_then games" "$tmp/trainer2.log" ||
  fail "the resumed trainer's window does not hold the checkpoint's $games_then games"
grep -q "cannot fetch record chunk\|trainer skips a record chunk" "$tmp/trainer2.log" &&
  fail "a chunk of the checkpoint's window is missing"
# Every chunk up to the acknowledged cursor is in the store still, and in the new trainer's copy.
for name in $(rc XRANGE "pincer:$run:records" - "$acked" | grep '\.chunk$'); do
  [ -f "$tmp/trainer2/records/$name" ] || fail "acknowledged chunk $name is not in the resumed trainer's window"
done
for name in $before; do
  rc EXISTS "pincer:$run:chunk:$name" | grep -q 1 || fail "chunk $name is gone from the store"
done
n_before=$(chunks_of w1)
await "$tmp/trainer2.log" 'step [0-9]+: .*wrote' 120 || fail "the resumed trainer wrote no checkpoint"
echo "phase 2 ($SECONDS s): resumed at step $resumed (last logged $last), acked $acked"

# Redis goes away for 3 s under the workers: they retry, say so, and go on.
kill "$redis_pid"; wait "$redis_pid" 2>/dev/null
sleep 3
start_redis
await "$tmp/w2.log" 'retry [0-9]+ in' 5 || fail "worker w2 did not say it retries"
await "$tmp/w2.log" 'reachable again' 30 || fail "worker w2 did not reconnect"
for ((i = 0; i < 600 && $(chunks_of w1) <= n_before; ++i)); do sleep 0.1; done
[ "$(chunks_of w1)" -gt "$n_before" ] || fail "no new records from the restarted worker w1 after Redis came back"
kill -0 "$pid_w1" 2>/dev/null && kill -0 "$pid_w2" 2>/dev/null || fail "a worker died while Redis was down"
wait "$trainer"; status=$?
[ $status -eq 0 ] || fail "the resumed trainer exited with $status"
for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null; done
wait "$pid_w1" "$pid_w2" 2>/dev/null
leftover=$(ls "$tmp/w1/records" "$tmp/w2/records" 2>/dev/null | grep -c '\.chunk$')
[ "$leftover" -eq 0 ] || fail "$leftover finished chunks were not sent by stopped workers"
grep -h "Segmentation\|terminate called\|Aborted" "$tmp"/*.log && fail "a process crashed"
echo "phase 3 ($SECONDS s): w1 $(chunks_of w1) chunks, w2 $(chunks_of w2) chunks"

# The run the separate trainer, gatekeeper and workers made, copied to a directory, reads whole
# (the trainer's metrics rows as wide as the header, every model, the checkpoint's chunks).
"$pincer" store copy --from "$url" --to "dir://$tmp/copied-tiny" > /dev/null || fail "store copy of the run"
"$pincer" --log-level warn checkrun --dir "$tmp/copied-tiny" > "$tmp/checkrun-tiny.log" 2>&1 ||
  fail "the run of separate processes does not read whole: $(cat "$tmp/checkrun-tiny.log")"

# `pincer train` on a second run of the same server, then the run copied to a directory (which
# reads whole) and back into Redis.
url2="redis://127.0.0.1:$port/loop"
"$pincer" train --store "$url2" --config "$tmp/config.textproto" --cache "$tmp/loop" \
  --minutes 0.25 --quiet > "$tmp/loop.log" 2>&1 || fail "pincer train --store exited with $?"
status=$("$pincer" store status --store "$url2" 2>&1)
echo "$status" | grep -q '^checkpoint [0-9]* bytes' || fail "pincer train put no checkpoint into the store: $status"
[ "$(echo "$status" | grep -oE '^record chunks [0-9]+' | grep -oE '[0-9]+')" -gt 0 ] ||
  fail "pincer train put no records into the store"
"$pincer" store copy --from "$url2" --to "dir://$tmp/copied" > /dev/null || fail "store copy to a directory"
"$pincer" --log-level warn checkrun --dir "$tmp/copied" > "$tmp/checkrun.log" 2>&1 ||
  fail "the copied run does not read whole: $(cat "$tmp/checkrun.log")"
"$pincer" store copy --from "dir://$tmp/copied" --to "redis://127.0.0.1:$port/back" > /dev/null ||
  fail "store copy back to Redis"
[ "$("$pincer" store status --store "redis://127.0.0.1:$port/back" | grep -v '^store\|^worker\|cursor')" = \
  "$(echo "$status" | grep -v '^store\|^worker\|cursor')" ] || fail "the run copied back differs"
"$pincer" store copy --from "$url2" --to "dir://$tmp/copied" > /dev/null 2>&1 &&
  fail "store copy over an existing directory"
echo "phase 4 ($SECONDS s): $(cat "$tmp/checkrun.log")"
[ $failures -eq 0 ] || for f in "$tmp"/*.log; do echo "== $f"; tail -n 8 "$f"; done
exit $((failures > 0))
