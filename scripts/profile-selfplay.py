#!/usr/bin/env python3
"""Where a training run's CPU goes: samples a running `pincer train` with perf (call graphs by
DWARF unwinding) and prints each kind of work's share of the samples.

    scripts/profile-selfplay.py --dir runs/seize [--seconds 20] [--frequency 99]
    scripts/profile-selfplay.py --pid PID

Kinds, by the thread a sample was taken on (the loop names its threads) and its call stack:
  network (inference)   the inference thread: batched forward passes of self-play's requests
  heuristic             self-play samples under the hand-made heuristic (capture search, capture
                        and heuristic priors): any frame of the stack names it
  tree search           self-play samples whose innermost pincer frame is in mcts/
  rules                 self-play samples whose innermost pincer frame is the game's code (move
                        generation, apply, result, the input planes)
  self-play (other)     the rest of the self-play threads (allocation, writing records)
  gating and polling    the main thread under Gatekeeper (gates, looking for candidates)
  trainer               the rest of the main thread (training steps, the window, checkpoints,
                        the loop) and any other thread
Needs `perf` (Debian's linux-perf) and permission to attach (root, or perf_event_paranoid <= 1).
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

HEURISTIC = re.compile(r"heuristic|CaptureSearch|capture_search|capture_prior|quiesce", re.I)


def find_pid(run_dir):
    target = os.path.realpath(run_dir)
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        args = [a.decode(errors="replace") for a in args if a]
        try:
            exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
        except OSError:
            continue
        if exe != "pincer" or "train" not in args or "--dir" not in args:
            continue
        i = args.index("--dir")
        if i + 1 < len(args):
            cwd = os.readlink(f"/proc/{pid}/cwd")
            if os.path.realpath(os.path.join(cwd, args[i + 1])) == target:
                return int(pid)
    return None


def samples(script_text):
    """(thread name, thread id, [frame symbols, innermost first]) of each sample of `perf
    script`."""
    out, head, frames = [], None, []
    for line in script_text.splitlines():
        if not line.strip():
            if head is not None:
                out.append((head[0], head[1], frames))
            head, frames = None, []
        elif not line[0].isspace():
            fields = line.split()
            head, frames = (fields[0], fields[1] if len(fields) > 1 else "?"), []
        else:
            parts = line.strip().split(None, 1)
            frames.append(parts[1] if len(parts) > 1 else "")
    if head is not None:
        out.append((head[0], head[1], frames))
    return out


def thread_roles(all_samples):
    """Each thread's role: by its name where the loop named it, else (a binary from before the
    names) by the frames its samples show: the inference service's loop or self-play's."""
    roles = {}
    for comm, tid, frames in all_samples:
        if comm.startswith(("inference", "selfplay")):
            roles[tid] = comm.rstrip("-0123456789")
        elif any("InferenceService::run" in f for f in frames):
            roles[tid] = "inference"
        elif any("SelfPlay::Impl::play_thread" in f for f in frames):
            roles[tid] = "selfplay"
    return roles


def classify(role, frames):
    if role == "inference":
        return "network (inference)"
    if role == "selfplay":
        if any(HEURISTIC.search(f) for f in frames):
            return "heuristic"
        for f in frames:
            if "pincer::" not in f:
                continue
            if "pincer::mcts::" in f:
                return "tree search"
            if re.search(r"pincer::(SelfPlay|InferenceService|RecordWriter|store)", f):
                return "self-play (other)"
            return "rules"
        return "self-play (other)"
    if any("Gatekeeper" in f for f in frames):
        return "gating and polling"
    # The rest of the main thread: training steps (LibTorch's frames often end the unwinding
    # before any pincer frame), the window, checkpoints, the loop's bookkeeping.
    return "trainer"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    who = ap.add_mutually_exclusive_group(required=True)
    who.add_argument("--dir", help="run directory of a running `pincer train`")
    who.add_argument("--pid", type=int, help="process id of a running `pincer train`")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--frequency", type=int, default=99, help="samples a second per thread")
    a = ap.parse_args()
    pid = a.pid if a.pid else find_pid(a.dir)
    if not pid or not os.path.exists(f"/proc/{pid}"):
        sys.exit(f"no running `pincer train` for {a.dir or a.pid}")
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        rec = subprocess.run(["perf", "record", "-F", str(a.frequency), "--call-graph",
                              "dwarf,16384", "-p", str(pid), "-o", data, "--", "sleep",
                              str(a.seconds)], capture_output=True, text=True)
        if rec.returncode != 0 or not os.path.exists(data):
            sys.exit("perf record failed: " + rec.stderr.strip()[-500:])
        out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,tid,ip,sym"],
                             capture_output=True, text=True, errors="replace")
        if out.returncode != 0:
            sys.exit("perf script failed: " + out.stderr.strip()[-500:])
    all_samples = samples(out.stdout)
    roles = thread_roles(all_samples)
    kinds, threads = collections.Counter(), collections.Counter()
    for comm, tid, frames in all_samples:
        role = roles.get(tid, "main")
        kinds[classify(role, frames)] += 1
        threads[role] += 1
    total = sum(kinds.values())
    if total == 0:
        sys.exit("no samples (is the process idle, or perf not allowed to attach?)")
    print(f"pid {pid}: {total} samples over {a.seconds:g} s at {a.frequency} Hz a thread")
    print(f"{'kind':<22} {'share':>7} {'samples':>8}")
    for kind, n in kinds.most_common():
        print(f"{kind:<22} {100 * n / total:6.1f}% {n:8d}")
    print("threads: " + ", ".join(f"{c} {100 * n / total:.1f}%" for c, n in threads.most_common()))


if __name__ == "__main__":
    main()
