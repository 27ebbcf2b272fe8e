#!/usr/bin/env bash
# Every feature program (tests/features) and compat program (tests/compat) on
# an NVIDIA GPU through tests/run_tests.py --backend cuda: each builds its
# module for CUDA on first use and checks its results (feat_python_errors.py:
# ZeroDivisionError / ValueError raised from device kernels).
# Usage: scripts/gpu/features_cuda.sh [LOGDIR]   (carry .deps/kokkos-src
# build/bin build/lib; Kokkos CUDA is built once into $WORK/kokkos-cuda).
LOG=${1:-}
[[ -n $LOG ]] || unset LOG
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
say "features and compat programs on CUDA"
PKC_TEST_PYTHON=$PY "$PY" tests/run_tests.py --only "${GROUPS_CUDA:-features,compat}" --backend cuda \
  >"$LOG/features-cuda.log" 2>&1
rc=$?
grep -E "^(FAIL|[0-9]+ passed)" "$LOG/features-cuda.log"
say "done (rc $rc)"
exit $rc
