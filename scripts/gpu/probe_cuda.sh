#!/usr/bin/env bash
# Probe run (one session's investigation): host-code fusion timing split and
# the host fusion feature test on CUDA.
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
for f in bench/fusion/host_subjects.py tests/features/feat_fusion_host.py; do
  (pkc build -q --backend cuda "$f" >"$LOG/$(basename "$f").log" 2>&1 || echo "BUILD FAILED $f") &
done
wait
say "built"
timeout 200 "$PY" scripts/gpu/fusion_probe.py 2>&1 | tail -40
echo "feat_fusion_host: $(timeout 200 "$PY" tests/features/feat_fusion_host.py 2>&1 | tail -1)"
say "done"
