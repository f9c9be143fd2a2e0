#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for tests: munged, slurmctld and slurmd (Debian
# 12's `munge` and `slurm-wlm`) as root on localhost, everything (config, keys, state, logs,
# sockets) under one folder. Sourced by tests/cluster/slurm.sh:
#
#   . tests/cluster/slurm_cluster.sh
#   slurm_cluster_start DIR CPUS     # writes DIR/slurm.conf, starts the daemons, exports SLURM_CONF
#   sbatch ...; squeue ...
#   slurm_cluster_stop               # every daemon it started (also from an EXIT trap)
#
# The node: proctrack/linuxproc, task/none, no cgroups, no accounting, select/cons_tres counting
# CPUs only, and each CPU may be shared by up to 4 jobs (OverSubscribe=FORCE:4): a test runs more
# small tasks than this machine has cores.

slurm_cluster_pids=()

slurm_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# slurm_cluster_await SECONDS CMD...: until CMD succeeds; 1 after SECONDS.
slurm_cluster_await() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@" > /dev/null 2>&1; do
    [ $SECONDS -ge $deadline ] && return 1
    sleep 0.5
  done
}

slurm_cluster_start() {
  local dir=$1 cpus=${2:-2}
  local node
  node=$(hostname -s)
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
  chmod 700 "$dir/munge"
  # munge: a key of the cluster's own and a socket in the folder (not the system's munged).
  mungekey --create --keyfile="$dir/munge/munge.key" || return 1
  munged --force --foreground --key-file="$dir/munge/munge.key" \
    --socket="$dir/munge/munge.socket" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" \
    > "$dir/munge/munged.out" 2>&1 &
  slurm_cluster_pids+=($!)
  slurm_cluster_await 20 munge --socket="$dir/munge/munge.socket" --string=ping ||
    { echo "munged did not start: $(tail -n 5 "$dir/munge/munged.log")"; return 1; }

  cat > "$dir/slurm.conf" <<CONF
ClusterName=pincertest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(slurm_free_port)
SlurmdPort=$(slurm_free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
KillWait=10
InactiveLimit=0
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=4096 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=60 State=UP OverSubscribe=FORCE:4
CONF
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -D -f "$SLURM_CONF" > "$dir/slurmctld.out" 2>&1 &
  slurm_cluster_pids+=($!)
  slurmd -D -f "$SLURM_CONF" -N "$node" > "$dir/slurmd.out" 2>&1 &
  slurm_cluster_pids+=($!)
  # Up when the node is idle (sinfo answers only once slurmctld listens).
  local up=0
  for ((i = 0; i < 120; ++i)); do
    sinfo -h -N -o '%T' 2>/dev/null | grep -qx idle && { up=1; break; }
    sleep 0.5
  done
  if [ $up = 0 ]; then
    echo "the Slurm node did not come up: $(sinfo -h -N -o '%N %T %E' 2>&1)"
    tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" "$dir/slurmctld.out" "$dir/slurmd.out"
    return 1
  fi
}

# Cancels every job, then stops the daemons (SIGTERM, SIGKILL after 10 s).
slurm_cluster_stop() {
  [ ${#slurm_cluster_pids[@]} -eq 0 ] && return 0
  scancel --full --user=root > /dev/null 2>&1
  local deadline=$((SECONDS + 20))
  while [ -n "$(squeue -h 2>/dev/null)" ] && [ $SECONDS -lt $deadline ]; do sleep 0.5; done
  local pid
  for pid in "${slurm_cluster_pids[@]}"; do kill -TERM "$pid" 2> /dev/null; done
  deadline=$((SECONDS + 10))
  for pid in "${slurm_cluster_pids[@]}"; do
    while kill -0 "$pid" 2> /dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
    kill -KILL "$pid" 2> /dev/null
  done
  wait "${slurm_cluster_pids[@]}" 2> /dev/null
  slurm_cluster_pids=()
}
