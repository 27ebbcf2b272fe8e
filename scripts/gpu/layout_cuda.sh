#!/usr/bin/env bash
# Views of @pk.classtype values on an NVIDIA GPU (issue 26): the feature
# program (every kernel use on AoS, SoA and mixes, checked against numpy) and
# the host API tests run with PKC_BACKEND=cuda, then bench/layout (particle
# push touching 4 of 10 fields, all-fields update, 2-D Euler FORCE flux over
# x-faces, and the flux difference over all four faces of a 4096 x 4096 grid
# (Ripple's Table 4 subject, checked against numpy first); AoS vs SoA vs
# hand-written one-View-per-field) at GPU sizes. One call, under 8 minutes
# (about 3 of them building Kokkos and the modules; the flux difference adds
# a larger module and an estimated 20 s of numpy checking; not yet timed on a GPU).
# Usage: scripts/gpu/layout_cuda.sh [LOGDIR]
# (carry .deps/kokkos-src build/bin build/lib; Kokkos CUDA is built once into
# $WORK/kokkos-cuda, about 90 s).
LOG=${1:-}
[[ -n $LOG ]] || unset LOG
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
progs=(tests/features/feat_classtype_views.py tests/api/kern_classview.py bench/layout/layout_bench.py)
say "building the classtype-View programs for CUDA"
printf '%s\n' "${progs[@]}" |
  xargs -P "$J" -I{} sh -c 'pkc build -q --backend cuda "$1" >/dev/null 2>&1 || echo "BUILD FAILED $1"' _ {}
fail=0
if out=$(timeout 120 "$PY" tests/features/feat_classtype_views.py 2>&1) && grep -q "^OK$" <<<"$out"; then
  say "feat_classtype_views on CUDA: OK"
else
  fail=1; echo "FAIL feat_classtype_views: $(tail -3 <<<"$out" | tr '\n' ' ' | cut -c1-400)"
fi
(cd tests/api && timeout 120 "$PY" -m unittest test_classview 2>&1 | tail -4) || fail=1
say "bench/layout on CUDA (2^24 particles, 4096 x 4096 cells, 30 reps)"
timeout 240 "$PY" bench/layout/layout_bench.py $((1 << 24)) 4096 30 || fail=1
say "done"
[[ $fail -eq 0 ]]
