#!/usr/bin/env bash
# pincer trainer --world-size 2 as two processes on loopback: rank 1 starts first (it waits for
# rank 0's rendezvous), gets the checkpoint and the record chunks from rank 0 into an empty dir,
# both stop at the same step, only rank 0 writes models and the checkpoint; a restarted group
# resumes from rank 0's checkpoint; a killed rank makes the other fail with a clear message
# instead of hanging; an unreachable master is a clear error after the timeout; a config with
# growth stages is refused at once.
# Usage: trainer_ddp.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"
need_torch
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

cat > "$tmp/config.textproto" <<'CONFIG'
rules: "seize-reference"
seed: 5
network { blocks: 1 channels: 8 policy_channels: 2 value_channels: 1 value_hidden: 16 }
inference { max_batch: 32 max_wait_us: 500 threads: 1 }
selfplay {
  search { simulations: 4 leaves_per_batch: 2 }
  parallel_games: 8
  threads: 1
  max_moves: 40
  games_per_chunk: 4
}
trainer {
  optimizer { kind: "sgd" learning_rate: 0.01 momentum: 0.9 }
  batch_size: 16
  window_positions: 5000
  min_positions: 60
  samples_per_position: 50
  checkpoint_every: 4
  threads: 1
}
CONFIG
cfg=$tmp/config.textproto
"$pincer" selfplay --config "$cfg" --dir "$tmp/r0" --games 8 > "$tmp/selfplay.log" 2>&1 ||
  { cat "$tmp/selfplay.log"; fail "selfplay"; exit 1; }

# Rank 1 first, into an empty dir; rank 0 a moment later on the run dir.
port=$(free_port)
"$pincer" trainer --config "$cfg" --dir "$tmp/r1" --steps 6 --world-size 2 --rank 1 \
  --master "127.0.0.1:$port" --dist-timeout 60 > "$tmp/rank1.log" 2>&1 &
pids+=($!)
sleep 0.5
"$pincer" trainer --config "$cfg" --dir "$tmp/r0" --steps 6 --world-size 2 --rank 0 \
  --master "127.0.0.1:$port" --dist-timeout 60 > "$tmp/rank0.log" 2>&1 || fail "rank 0: $(tail -3 "$tmp/rank0.log")"
wait "${pids[0]}" || fail "rank 1: $(tail -3 "$tmp/rank1.log")"
grep -q '^step=6 ' "$tmp/rank0.log" || fail "rank 0 did not stop at step 6"
grep -q '^step=6 ' "$tmp/rank1.log" || fail "rank 1 did not stop at step 6"
[ -f "$tmp/r0/models/model-000004.pt" ] && [ -f "$tmp/r0/models/model-000006.pt" ] ||
  fail "rank 0 wrote no candidates"
[ -e "$tmp/r1/trainer.ckpt" ] && fail "rank 1 wrote a checkpoint"
[ -e "$tmp/r1/models" ] && fail "rank 1 wrote models"
[ "$(ls "$tmp/r0/records")" = "$(ls "$tmp/r1/records")" ] || fail "rank 1 lacks rank 0's chunks"
# Rank 0's metrics rows: every field in its column of the header, core-hours where they belong.
python3 - "$tmp/r0/metrics.csv" <<'PY' || fail "rank 0's metrics.csv"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
header, train = rows[0], [r for r in rows[1:] if r[1] == "train"]
assert train, "no train rows"
for r in train:
    assert len(r) == len(header), f"{len(r)} fields, the header has {len(header)}: {r}"
    f = dict(zip(header, r))
    assert 0 < float(f["core_hours"]) < 1, f"core_hours {f['core_hours']!r}"
    assert float(f["points_loss"]) > 0 and float(f["ownership_loss"]) > 0, r
PY

# A new group resumes from rank 0's checkpoint (step 6), rank 1 into another empty dir.
port=$(free_port)
"$pincer" trainer --config "$cfg" --dir "$tmp/r1b" --steps 2 --world-size 2 --rank 1 \
  --master "127.0.0.1:$port" --dist-timeout 60 > "$tmp/rank1b.log" 2>&1 &
pids+=($!)
"$pincer" trainer --config "$cfg" --dir "$tmp/r0" --steps 2 --world-size 2 --rank 0 \
  --master "127.0.0.1:$port" --dist-timeout 60 > "$tmp/rank0b.log" 2>&1 || fail "resumed rank 0: $(tail -3 "$tmp/rank0b.log")"
wait "${pids[1]}" || fail "resumed rank 1: $(tail -3 "$tmp/rank1b.log")"
grep -q "starts at rank 0's step 6" "$tmp/rank1b.log" || fail "rank 1 did not resume at step 6"
grep -q '^step=8 ' "$tmp/rank0b.log" || fail "the resumed group did not stop at step 8"

# Rank 1 killed mid-run: rank 0 fails with a clear message, long before its 60 s timeout.
port=$(free_port)
"$pincer" trainer --config "$cfg" --dir "$tmp/r1c" --world-size 2 --rank 1 \
  --master "127.0.0.1:$port" --dist-timeout 60 > "$tmp/rank1c.log" 2>&1 &
victim=$!
pids+=("$victim")
"$pincer" trainer --config "$cfg" --dir "$tmp/r0" --world-size 2 --rank 0 \
  --master "127.0.0.1:$port" --dist-timeout 60 > "$tmp/rank0c.log" 2>&1 &
survivor=$!
pids+=("$survivor")
for _ in $(seq 300); do grep -q "starts at rank 0's step" "$tmp/rank1c.log" && break; sleep 0.1; done
sleep 0.5
kill -9 $victim
wait $victim 2> /dev/null
start=$SECONDS
wait $survivor && fail "rank 0 went on without rank 1"
[ $((SECONDS - start)) -lt 50 ] || fail "rank 0 took $((SECONDS - start)) s to notice"
grep -q "another rank died, stopped or did not answer" "$tmp/rank0c.log" ||
  fail "rank 0's message: $(tail -2 "$tmp/rank0c.log")"

# Nobody at the master: a clear error after the timeout.
out=$("$pincer" trainer --config "$cfg" --dir "$tmp/r1d" --world-size 2 --rank 1 \
  --master "127.0.0.1:$(free_port)" --dist-timeout 2 2>&1) && fail "rank 1 joined nobody"
case "$out" in *"could not reach the master 127.0.0.1:"*) ;; *) fail "unreachable master: $out" ;; esac

# A config with growth stages: refused at once, before waiting for the other ranks.
{ cat "$cfg"; echo 'growth { at_step: 10 network { blocks: 2 } distill_steps: 5 }'; } > "$tmp/grow.textproto"
start=$SECONDS
out=$("$pincer" trainer --config "$tmp/grow.textproto" --dir "$tmp/r0g" --world-size 2 --rank 0 \
  --master "127.0.0.1:$(free_port)" --dist-timeout 30 2>&1) && fail "rank 0 trained a growing network"
case "$out" in *"not supported by data-parallel training"*) ;; *) fail "growth refusal: $out" ;; esac
[ $((SECONDS - start)) -lt 10 ] || fail "the growth refusal took $((SECONDS - start)) s"

finish "trainer_ddp: all passed"
