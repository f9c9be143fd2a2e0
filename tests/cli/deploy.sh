#!/usr/bin/env bash
# deploy/: the Slurm scripts parse (bash -n, and shellcheck where installed), the Kubernetes
# manifests parse as YAML with a selector that matches each workload's pod labels, and the
# data-parallel trainer options they use exist.
# Usage: deploy.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"
src=$2

for f in "$src"/deploy/slurm/*.sbatch; do
  bash -n "$f" || fail "bash -n $f"
  if command -v shellcheck > /dev/null; then
    shellcheck -S warning "$f" || fail "shellcheck $f"
  fi
done
if python3 -c 'import yaml' 2> /dev/null; then
  python3 - "$src"/deploy/kubernetes/*.yaml <<'PY' || fail "kubernetes manifests"
import sys, yaml
for path in sys.argv[1:]:
    docs = [d for d in yaml.safe_load_all(open(path)) if d]
    assert docs, path
    for d in docs:
        name = d["metadata"]["name"]
        assert d["apiVersion"] and d["kind"], (path, name)
        if d["kind"] in ("Deployment", "StatefulSet"):
            spec = d["spec"]
            labels = spec["template"]["metadata"]["labels"]
            for k, v in spec["selector"]["matchLabels"].items():
                assert labels.get(k) == v, (path, name, "selector does not match the pod labels")
            for c in spec["template"]["spec"]["containers"]:
                assert c["image"] and (c.get("command") or c.get("args")), (path, name)
PY
else
  echo "python3-yaml not installed: manifests not parsed"
fi

# The trainer options the scripts use (only with the torch half).
if [ -f "$(dirname "$pincer")/pincer-torch.so" ]; then
  help=$("$pincer" trainer --help 2>&1)
  for option in --world-size --rank --master --dist-timeout; do
    case "$help" in *"$option"*) ;; *) fail "pincer trainer has no $option" ;; esac
  done
fi
finish "deploy: all passed"
