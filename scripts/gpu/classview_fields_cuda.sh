#!/usr/bin/env bash
# Views of classtypes with nested classtype fields and fixed-size List fields
# (issue 26 item 1) on an NVIDIA GPU: the three feature programs (values vs
# numpy, both layouts; the SoA proxies Vec_ref / pkc::array_ref in device
# code) and the host-side API tests, each building its module for CUDA.
# Usage: scripts/gpu/classview_fields_cuda.sh [LOGDIR]   (carry .deps/kokkos-src
# build/bin build/lib; Kokkos CUDA is built once into $WORK/kokkos-cuda).
LOG=${1:-}
[[ -n $LOG ]] || unset LOG
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
rc=0
for f in tests/features/feat_classtype_views.py tests/features/feat_classtype_views_nested.py \
         tests/features/feat_classtype_views_arrays.py; do
  say "$f"
  "$PY" "$f" >"$LOG/$(basename "$f" .py)-cuda.log" 2>&1 || rc=1
  tail -3 "$LOG/$(basename "$f" .py)-cuda.log"
done
say "tests/api/test_classview.py"
"$PY" tests/api/test_classview.py >"$LOG/test_classview-cuda.log" 2>&1 || rc=1
tail -3 "$LOG/test_classview-cuda.log"
say "done (rc $rc)"
exit $rc
