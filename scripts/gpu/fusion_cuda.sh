#!/usr/bin/env bash
# Kernel fusion on an NVIDIA GPU (issue 9): Kokkos 3.4 with CUDA from the
# carried Debian source, the fusion subjects (bench/fusion/subjects.py,
# host_subjects.py, examples/md_lj.py) and feature tests built for CUDA, then
# tests/features/feat_fusion.py, feat_fusion_reduce.py and feat_fusion_host.py
# (fused == unfused: Views bitwise, reductions within rounding) and
# bench/fusion/run.py with PKC_BACKEND=cuda.
# Usage: scripts/gpu/fusion_cuda.sh [REPEATS] (carry .deps/kokkos-src build/bin build/lib).
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
for f in bench/fusion/subjects.py bench/fusion/host_subjects.py tests/features/feat_fusion.py \
         tests/features/feat_fusion_reduce.py tests/features/feat_fusion_host.py \
         examples/nstream_workload.py examples/md_lj.py; do
  (pkc build -q --backend cuda "$f" >"$LOG/$(basename "$f").log" 2>&1 || { echo "BUILD FAILED $f"; tail -20 "$LOG/$(basename "$f").log"; }) &
done
wait
say "built"
for t in feat_fusion feat_fusion_reduce feat_fusion_host; do
  echo "$t on CUDA: $(timeout 200 "$PY" tests/features/$t.py 2>&1 | tail -1)"
done
for m in 1 0; do PKC_FUSION=$m timeout 100 "$PY" examples/nstream_workload.py 1000000 20 | tail -1; done
timeout 400 "$PY" bench/fusion/run.py --repeats "${1:-7}"
say "done"
