#!/usr/bin/env bash
# Fault injection: runs a tiny training loop, kill -9s it at random moments several times,
# resumes each time with the same command, and checks after every kill that every file of the
# run directory reads whole (pincer checkrun), that no record chunk written before the kill is
# lost, and that the next session resumes from the last checkpoint's step.
# With PINCER_KILL_GROWTH=1 the run grows its network (a growth stage from 1x8 to 2x16 at step 50,
# taking over at step 350), so kills land during the distillation too; the last session runs until
# the grown network has taken over, and the checkpoint must hold it.
# Usage: kill_resume.sh PINCER SOURCE_DIR [KILLS]
source "$(dirname "$0")/lib.sh"
kills=${3:-${PINCER_KILLS:-6}}
need_torch
tmp=$(mktemp -d)
pid=0
trap '[ "$pid" -gt 0 ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

cp "$2/tests/support/seize-micro.textproto" "$tmp/config.textproto"
growth=${PINCER_KILL_GROWTH:-0}
if [ "$growth" = 1 ]; then
  echo 'growth { at_step: 50 network { blocks: 2 channels: 16 } distill_steps: 300 }' \
    >> "$tmp/config.textproto"
fi
run="$tmp/run"
RANDOM=${PINCER_KILL_SEED:-$$}
survived=0
last_step=-1
for ((k = 1; k <= kills + 1; ++k)); do
  # Chunks and checkpoint step before this session.
  before=$(ls "$run/records" 2>/dev/null | grep '\.chunk$' | sort)
  # The same command every time (as scripts/run.sh does): it starts the run or resumes it.
  "$pincer" train --config "$tmp/config.textproto" --dir "$run" --quiet > "$tmp/log.$k" 2>&1 &
  pid=$!
  # Waits (up to 120 s) until the session's log has a line matching $1.
  await() {
    for ((i = 0; i < 1200; ++i)); do
      grep -qE "$1" "$tmp/log.$k" && return 0
      kill -0 $pid 2>/dev/null || return 1
      sleep 0.1
    done
    return 1
  }
  if [ $k -le $kills ]; then
    # A random moment: of the whole session (start-up included) in odd sessions, of the time
    # after the trainer started (self-play, training, checkpoints, gating) in even ones.
    [ $((k % 2)) -eq 0 ] && await 'trainer (starts|resumed)'
    sleep "$((5 + RANDOM % 56))e-1"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
  elif [ "$growth" = 1 ]; then
    # The last session runs until the grown network's first candidate (written at the take-over,
    # with its checkpoint), then stops cleanly.
    for ((i = 0; i < 1800; ++i)); do
      grep -qs 'channels: 16' "$run"/models/model-*.meta.textproto && break
      kill -0 $pid 2>/dev/null || break
      sleep 0.1
    done
    kill -INT $pid
    wait $pid || fail "the last session exited with status $?"
  else
    # The last session writes a checkpoint, then stops cleanly.
    await 'step [0-9]+: wrote' || fail "the last session wrote no checkpoint"
    kill -INT $pid
    wait $pid || fail "the last session exited with status $?"
  fi
  pid=0
  # A session killed before its trainer started says nothing; one that started must have
  # resumed from the last checkpoint.
  started=$(grep -m1 -E 'trainer (resumed|starts)' "$tmp/log.$k")
  if [ -n "$started" ] && [ "$last_step" -gt 0 ]; then
    case "$started" in
      *"trainer resumed at step $last_step "*) ;;
      *) fail "session $k did not resume from step $last_step: $started" ;;
    esac
  fi
  if [ ! -f "$run/config.textproto" ]; then
    echo "session $k ($SECONDS s): killed before the run dir was set up"
    survived=$((survived + 1))
    continue
  fi
  report=$("$pincer" --log-level warn checkrun --dir "$run" 2>&1) || { fail "after kill $k: $report"; break; }
  for chunk in $before; do
    [ -f "$run/records/$chunk" ] || fail "after kill $k: record chunk $chunk is gone"
  done
  last_step=$(echo "$report" | grep -o 'checkpoint_step=-\?[0-9]*' | cut -d= -f2)
  echo "session $k ($SECONDS s): ${started:-killed before the trainer started}; $report"
  [ $k -le $kills ] && survived=$((survived + 1))
done
chunks=$(ls "$run/records" | grep -c '\.chunk$')
[ "$chunks" -gt 0 ] || fail "no record chunk was ever written"
[ "$last_step" -gt 0 ] || fail "no checkpoint was ever written"
if [ "$growth" = 1 ]; then
  # Whatever the kills, the run ends with the grown network, its take-over at step 350.
  case "$report" in
    *"network=2x16 growth=net_2x16_since_step_350"*) ;;
    *) fail "the run did not end with the grown network: $report" ;;
  esac
  grep -q ',growth,350,' "$run/metrics.csv" || fail "no growth row at step 350 in metrics.csv"
fi
echo "kills survived: $survived of $kills; $chunks chunks; last checkpoint step $last_step"
pid=0
exit $((failures > 0))
