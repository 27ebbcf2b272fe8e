#!/usr/bin/env bash
# Fields of a View of a @pk.classtype as CuPy arrays, zero copy (issue 26
# item 3, device side) on an NVIDIA GPU: tests/api/gpu_classview_cupy.py (a
# kernel writes AoS and SoA Views, cupy.asarray(p.x) reads them; CuPy writes
# fields a kernel reads; nested and List fields; from_dlpack; one OK/BAD line
# per check), then tests/api/test_classview.py with PKC_BACKEND=cuda (field
# Views of device-resident Views, an SoA field passed to a scalar kernel).
# One call, under 6 minutes (about 90 s of it building Kokkos CUDA once, about
# a minute building the module).
# Usage: scripts/gpu/classview_cupy_cuda.sh [LOGDIR]
# (carry .deps/kokkos-src build/bin build/lib; needs CuPy in $PYTHON, by
# default /opt/torch/.venv/bin/python3).
LOG=${1:-}
[[ -n $LOG ]] || unset LOG
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
say "building tests/api/kern_classview.py for CUDA"
pkc build -q --backend cuda tests/api/kern_classview.py >"$LOG/kern_classview-cuda-build.log" 2>&1 ||
  { echo "BUILD FAILED"; tail -20 "$LOG/kern_classview-cuda-build.log"; exit 1; }
rc=0
say "tests/api/gpu_classview_cupy.py"
timeout 150 "$PY" tests/api/gpu_classview_cupy.py 2>&1 | tee "$LOG/gpu_classview_cupy.log"
grep -q "^OK$" "$LOG/gpu_classview_cupy.log" || rc=1
say "tests/api/test_classview.py on CUDA"
(cd tests/api && timeout 120 "$PY" -m unittest test_classview 2>&1 | tail -4) || rc=1
say "done (rc $rc)"
exit $rc
