#!/usr/bin/env bash
# Fault soak of the redis:// store (docs/distributed.md): a Redis server (append-only file with
# appendfsync always, on 127.0.0.1, in a temporary folder), a trainer, a gatekeeper and 3 self-play workers as separate
# `pincer` processes on a tiny SE!ZE config, while every 30-60 s one of them, Redis included, is
# killed with SIGKILL at random (each of the six once in every six kills) and started again at once (Redis from its append-only file, the
# others with the same --writer and --cache). At the end, after a clean stop:
#   - every record chunk a worker was told was stored (its log line `stored record chunk NAME`)
#     is in the store, stream entry and bytes, and no chunk is listed twice;
#   - the run copied out of Redis reads whole (`pincer checkrun`);
#   - the model chain is unbroken: each candidate was trained from the one before it, each gate
#     played the best of its time, and the store's best is the last one promoted;
#   - the run resumed each time: every trainer session after the first resumed from the last
#     checkpoint it wrote, every worker session that ran 90 s stored games, every process made
#     progress after its last restart, and no process died but those killed.
# Prints the figures (kills by kind, games written, chunks and games lost) and exits 1 on any
# failed check.
#
# Usage: scripts/soak.sh [--minutes N] [--kill-every MIN-MAX] [--pincer PATH] [--seed N] [--keep]
#   --minutes N          how long the faults go on (default 20)
#   --kill-every A-B     seconds between kills, drawn from A..B (default 30-60)
#   --pincer PATH        the binary (default build/cli/pincer)
#   --seed N             the random draw of victims and intervals (default: the process id)
#   --keep               keep the temporary folder (logs, Redis files) and print its path
# Everything runs under `nice -n 10`, with one self-play and one torch thread per process.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
minutes=20
kill_min=30
kill_max=60
pincer="$root/build/cli/pincer"
seed=$$
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes=$2; shift 2 ;;
    --kill-every) kill_min=${2%-*}; kill_max=${2#*-}; shift 2 ;;
    --pincer) pincer=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h | --help) sed -n '2,/^set -u/p' "$0" | sed 's/^# \{0,1\}//;$d'; exit 0 ;;
    *) echo "soak.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$minutes" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "soak.sh: --minutes takes a number" >&2; exit 2; }
[[ "$kill_min" =~ ^[0-9]+$ && "$kill_max" =~ ^[0-9]+$ && $kill_min -ge 1 && $kill_max -ge $kill_min ]] ||
  { echo "soak.sh: --kill-every takes MIN-MAX seconds, 1 <= MIN <= MAX" >&2; exit 2; }
[ -x "$pincer" ] || { echo "soak.sh: no pincer binary at $pincer (build it, or --pincer PATH)" >&2; exit 2; }
[ -f "$(dirname "$pincer")/pincer-torch.so" ] ||
  { echo "soak.sh: no pincer-torch.so beside $pincer (build the pincer_torch target)" >&2; exit 2; }
for tool in redis-server redis-cli python3; do
  command -v $tool > /dev/null || { echo "soak.sh: $tool is not installed (scripts/install-deps.sh)" >&2; exit 2; }
done
pincer=$(realpath "$pincer")
RANDOM=$seed

tmp=$(mktemp -d /tmp/pincer-soak.XXXXXX)
logs="$tmp/logs"
mkdir -p "$logs" "$tmp/redis"
kinds=(redis trainer gate w1 w2 w3)
declare -A pid=() session=() since=() kills=() span=()
for k in "${kinds[@]}"; do session[$k]=0; kills[$k]=0; done
cleanup() {
  for k in "${kinds[@]}"; do [ -n "${pid[$k]:-}" ] && kill -9 "${pid[$k]}" 2> /dev/null; done
  wait 2> /dev/null
  if [ -n "$keep" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
die() {
  echo "FAIL $*"
  for f in "$logs"/*.log; do echo "== $f"; tail -n 12 "$f"; done
  exit 1
}
log_of() { echo "$logs/$1.${session[$1]}.log"; }
# await SECONDS FILE REGEX: until FILE has a line matching REGEX.
await() {
  local deadline=$((SECONDS + $1))
  until grep -qE "$3" "$2" 2> /dev/null; do
    [ $SECONDS -ge $deadline ] && return 1
    sleep 0.5
  done
}

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
run=soak
url="redis://127.0.0.1:$port/$run"
rc() { redis-cli -p "$port" "$@"; }

# The tiny SE!ZE settings: one self-play thread per worker, a checkpoint every 10 steps, gates
# of 4 games that promote a candidate scoring at least half.
checkpoint_every=10
cat > "$tmp/config.textproto" <<CONFIG
rules: "seize-reference"
seed: 11
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
  checkpoint_every: $checkpoint_every
  threads: 1
}
gating { games: 4 threshold: 0.5 search { simulations: 4 } random_opening_plies: 2 }
CONFIG

export OMP_NUM_THREADS=1
# start KIND: a new session of one process, its log logs/KIND.SESSION.log.
start() {
  local k=$1
  session[$k]=$((session[$k] + 1))
  local log
  log=$(log_of "$k")
  case $k in
    redis)
      # Loads the append-only file of the sessions before.
      nice -n 10 redis-server --port "$port" --bind 127.0.0.1 --dir "$tmp/redis" --appendonly yes \
        --appendfsync always --save '' --daemonize no > "$log" 2>&1 &
      pid[$k]=$!
      for ((i = 0; i < 600; ++i)); do
        rc ping 2> /dev/null | grep -q PONG && break
        sleep 0.1
      done
      rc ping 2> /dev/null | grep -q PONG || die "redis-server did not answer within 60 s"
      ;;
    trainer)
      nice -n 10 "$pincer" trainer --store "$url" --config "$tmp/config.textproto" \
        --cache "$tmp/trainer" > "$log" 2>&1 &
      pid[$k]=$!
      ;;
    gate)
      nice -n 10 "$pincer" gate --store "$url" --watch --cache "$tmp/gate" > "$log" 2>&1 &
      pid[$k]=$!
      ;;
    w*)
      nice -n 10 "$pincer" selfplay --store "$url" --writer "$k" --cache "$tmp/$k" > "$log" 2>&1 &
      pid[$k]=$!
      ;;
  esac
  since[$k]=$SECONDS
}
# A process that exited without being killed is a failure (its log's end is shown).
check_alive() {
  local k
  for k in "${kinds[@]}"; do
    if ! kill -0 "${pid[$k]}" 2> /dev/null; then
      wait "${pid[$k]}" 2> /dev/null
      local status=$?
      echo "FAIL $k (session ${session[$k]}) exited by itself with status $status:"
      tail -n 15 "$(log_of "$k")"
      failures=$((failures + 1))
      start "$k"
    fi
  done
}

started=$SECONDS
start redis
start trainer
await 120 "$(log_of trainer)" 'trainer (starts|resumed)' || die "the trainer did not start the run"
for k in gate w1 w2 w3; do start "$k"; done
echo "soak: $minutes minutes, a kill every $kill_min-$kill_max s, seed $seed, Redis on port $port, in $tmp"

# The faults.
end=$((SECONDS + $(awk "BEGIN { printf \"%d\", $minutes * 60 }")))
n_kills=0
bag=()
while :; do
  next=$((SECONDS + kill_min + RANDOM % (kill_max - kill_min + 1)))
  [ $next -ge $end ] && next=$end
  while [ $SECONDS -lt $next ]; do
    sleep 1
    check_alive
  done
  [ $SECONDS -ge $end ] && break
  # Drawn from a shuffled bag of the six, refilled when empty: random, and every kind is hit
  # once in every six kills.
  [ ${#bag[@]} -eq 0 ] && bag=("${kinds[@]}")
  i=$((RANDOM % ${#bag[@]}))
  victim=${bag[$i]}
  bag=("${bag[@]:0:$i}" "${bag[@]:$((i + 1))}")
  kill -9 "${pid[$victim]}" 2> /dev/null
  wait "${pid[$victim]}" 2> /dev/null
  kills[$victim]=$((kills[$victim] + 1))
  span[$victim.${session[$victim]}]=$((SECONDS - since[$victim]))
  n_kills=$((n_kills + 1))
  echo "kill $n_kills at $((SECONDS - started)) s: $victim (session ${session[$victim]}, up $((SECONDS - since[$victim])) s)"
  start "$victim"
done

# The run goes on after the last restarts: each worker stores a chunk, the trainer writes a
# checkpoint, within 3 minutes of their last start.
for k in w1 w2 w3; do
  await 180 "$(log_of "$k")" 'stored record chunk' || fail "worker $k stored nothing after its last start"
done
await 180 "$(log_of trainer)" 'step [0-9]+: .*wrote' || fail "the trainer wrote no checkpoint after its last start"
check_alive
faults_s=$((SECONDS - started))

# A clean stop: the workers send their last chunks, the trainer writes its checkpoint. Each
# process is signalled once it has opened the store (its "working on" line, logged after its
# stop handler is in place): a background job of this script starts with SIGINT ignored, so
# one sent earlier would be lost.
for k in w1 w2 w3 gate trainer; do
  await 60 "$(log_of "$k")" '\] working on ' || fail "$k (session ${session[$k]}) did not open the store within 60 s"
done
for k in w1 w2 w3 gate; do kill -INT "${pid[$k]}" 2> /dev/null; done
kill -TERM "${pid[trainer]}" 2> /dev/null
for k in w1 w2 w3 gate trainer; do
  for ((i = 0; i < 1200 && $(kill -0 "${pid[$k]}" 2> /dev/null && echo 1 || echo 0); ++i)); do sleep 0.1; done
  if kill -0 "${pid[$k]}" 2> /dev/null; then
    fail "$k did not stop within 120 s of its signal"
    kill -9 "${pid[$k]}" 2> /dev/null
  fi
  wait "${pid[$k]}" 2> /dev/null
  pid[$k]=""
done
for k in w1 w2 w3; do
  left=$(find "$tmp/$k/records" -name '*.chunk' 2> /dev/null | wc -l)
  [ "$left" -eq 0 ] || fail "worker $k stopped with $left chunks unsent"
done

# Every acknowledged chunk is in the store: its stream entry and its bytes.
grep -ho 'stored record chunk [^ ]*' "$logs"/w*.log | cut -d' ' -f4 | sort -u > "$tmp/acknowledged"
rc XRANGE "pincer:$run:records" - + | grep '\.chunk$' | sort > "$tmp/listed"
acknowledged=$(wc -l < "$tmp/acknowledged")
[ "$acknowledged" -gt 0 ] || fail "no worker stored anything"
duplicates=$(uniq -d "$tmp/listed" | wc -l)
[ "$duplicates" -eq 0 ] || fail "$duplicates chunks are listed twice in the store"
# Names with both (the stream entry and the chunk's hash), then the acknowledged ones without.
rc --scan --pattern "pincer:$run:chunk:*" | sed "s/^pincer:$run:chunk://" | sort > "$tmp/hashes"
comm -12 <(sort -u "$tmp/listed") "$tmp/hashes" > "$tmp/whole"
comm -23 "$tmp/acknowledged" "$tmp/whole" > "$tmp/lost"
lost=$(wc -l < "$tmp/lost")
while read -r name; do
  fail "chunk $name was acknowledged to its worker but is not in the store"
done < <(head -n 10 "$tmp/lost")

# The run copied out of Redis reads whole.
"$pincer" store copy --from "$url" --to "dir://$tmp/copy" > "$tmp/copy.txt" 2>&1 ||
  fail "store copy: $(tail -n 3 "$tmp/copy.txt")"
"$pincer" --log-level warn checkrun --dir "$tmp/copy" > "$tmp/checkrun.txt" 2>&1 ||
  fail "checkrun: $(tail -n 3 "$tmp/checkrun.txt")"
games=$(grep -oE 'games=[0-9]+' "$tmp/checkrun.txt" | cut -d= -f2)

# The model chain: each candidate's parent is the candidate before it (at most a checkpoint
# interval earlier: the last one is at the step the trainer stopped); each gate
# played the best of its time; the store's best is the last one promoted.
store_best=$(rc HGET "pincer:$run:best" model_id)
python3 - "$tmp/copy" "$checkpoint_every" "$store_best" > "$tmp/chain.txt" 2>&1 <<'PY' ||
import os, re, sys
root, every, store_best = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def fields(text):
    return dict(re.findall(r'^\s*(\w+): "?([^"\n]*)"?\s*$', text, re.M))
models = {}
for name in os.listdir(os.path.join(root, "models")):
    m = re.fullmatch(r"model-(\d+)\.meta\.textproto", name)
    if m:
        models[int(m.group(1))] = fields(open(os.path.join(root, "models", name)).read())
problems = []
steps = sorted(models)
for before, step in zip(steps, steps[1:]):
    # Each `every` steps, and at the step where the trainer was stopped (its last checkpoint).
    if step - before > every:
        problems.append(f"no model between step {before} and model-{step:06d} in the store")
    if models[step].get("parent_model") != models[before].get("model_id"):
        problems.append(f"model-{step:06d} was trained from {models[step].get('parent_model')}, "
                        f"not from model-{before:06d} ({models[before].get('model_id')})")
best = models[0]["model_id"]
gates = re.findall(r"gates \{(.*?)\n\}", open(os.path.join(root, "gating.textproto")).read(), re.S) \
    if os.path.exists(os.path.join(root, "gating.textproto")) else []
promotions = 0
for g in map(fields, gates):
    if g.get("best_id") != best:
        problems.append(f"the gate of {g.get('candidate')} played {g.get('best_id')}, "
                        f"but the best was {best}")
    if g.get("promoted") == "true":
        best = g.get("candidate_id")
        promotions += 1
if store_best != best:
    problems.append(f"the store's best is {store_best}, the gate log's last promotion {best}")
print(f"models={len(models)} gates={len(gates)} promotions={promotions}")
for p in problems:
    print("CHAIN " + p)
sys.exit(1 if problems else 0)
PY
  fail "the model chain is broken: $(grep CHAIN "$tmp/chain.txt" | head -n 5)"

# Every trainer session after the first resumed from the last checkpoint it had written: the
# step logged last, or one checkpoint later (a kill between writing and logging).
last=-1
for ((s = 1; s <= session[trainer]; ++s)); do
  f="$logs/trainer.$s.log"
  if [ $s -gt 1 ] && [ $last -ge 0 ]; then
    resumed=$(grep -oE 'trainer resumed at step [0-9]+' "$f" | head -n 1 | grep -oE '[0-9]+$')
    if [ -z "$resumed" ]; then
      grep -qE 'trainer (starts|resumed)' "$f" && fail "trainer session $s did not resume: $(grep -m1 -E 'trainer (starts|resumed)' "$f")"
    elif [ "$resumed" -ne "$last" ] && [ "$resumed" -ne $((last + checkpoint_every)) ]; then
      fail "trainer session $s resumed at step $resumed, its last checkpoint was step $last"
    else
      last=$resumed
    fi
  fi
  logged=$(grep -oE 'step [0-9]+: .*wrote' "$f" | tail -n 1 | grep -oE '^step [0-9]+' | cut -d' ' -f2)
  [ -n "$logged" ] && last=$logged
done
# Every worker session that ran 90 s stored games (a new worker fetches the run and plays).
for k in w1 w2 w3; do
  for ((s = 1; s < session[$k]; ++s)); do
    [ "${span[$k.$s]:-0}" -ge 90 ] && ! grep -q 'stored record chunk' "$logs/$k.$s.log" &&
      fail "worker $k session $s ran ${span[$k.$s]} s and stored nothing"
  done
done
# Redis came back from its append-only file every time.
for ((s = 2; s <= session[redis]; ++s)); do
  grep -q 'DB loaded from' "$logs/redis.$s.log" ||
    fail "Redis session $s did not load its append-only file"
done
grep -h "Segmentation\|terminate called\|Aborted\|AddressSanitizer" "$logs"/*.log && fail "a process crashed"
rc SHUTDOWN NOSAVE > /dev/null 2>&1
wait "${pid[redis]}" 2> /dev/null
pid[redis]=""

chunks=$(wc -l < "$tmp/listed")
echo "soak: $(awk "BEGIN{printf \"%.1f\", $faults_s/60}") minutes of faults, $n_kills kills" \
  "(redis ${kills[redis]}, trainer ${kills[trainer]}, gate ${kills[gate]}," \
  "selfplay $((kills[w1] + kills[w2] + kills[w3]))); $chunks chunks, ${games:-?} games in the store;" \
  "$acknowledged chunks acknowledged to workers, $lost lost ($((lost * 2)) games at most);" \
  "$(head -n 1 "$tmp/chain.txt"); checkrun: $(cat "$tmp/checkrun.txt")"
[ $failures -eq 0 ] && echo "soak: all passed" || echo "soak: $failures checks failed"
exit $((failures > 0))
