#!/usr/bin/env bash
# MDRange tiles on an NVIDIA GPU (issue 24, item 2), in one call of about 5
# minutes: the MDRange feature programs (tests/features/feat_mdrange*.py: the
# same numbers as numpy with pkc's default tile, with given tiles and with
# pk.Iterate), then bench/tiles/tiles.py: pkc's default tile (the program
# gives none) against the sweep {8,16,32,64,128} x {1,2,4,8,16,32} for a 2-D
# stencil, the PRK transpose and a Jacobi step + residual, 8192 x 8192
# doubles, medians of 21 launches; one table, default vs best (goal:
# default/best <= 1.05). Usage: scripts/gpu/tiles_cuda.sh [LOGDIR] (carry
# .deps/kokkos-src build/bin build/lib; Kokkos CUDA is built once into
# $WORK/kokkos-cuda, about 90 s). N and REPS in the environment change the
# size and the launches.
LOG=${1:-}
[[ -n $LOG ]] || unset LOG
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
progs=(tests/features/feat_mdrange.py tests/features/feat_mdrange_schemes.py bench/tiles/tiles.py)
say "building the MDRange programs for CUDA"
printf '%s\n' "${progs[@]}" |
  xargs -P "$J" -I{} sh -c 'pkc build -q --backend cuda "$1" >/dev/null 2>&1 || echo "BUILD FAILED $1"' _ {}
fail=0
for f in tests/features/feat_mdrange.py tests/features/feat_mdrange_schemes.py; do
  if out=$(timeout 120 "$PY" "$f" 2>&1) && [[ $(tail -1 <<<"$out") == OK ]]; then
    say "PASS $f"
  else
    fail=1; say "FAIL $f: $(tail -3 <<<"$out" | tr '\n' ' ' | cut -c1-400)"
  fi
done
say "tiles sweep"
timeout 420 "$PY" bench/tiles/tiles.py "${N:-8192}" "${REPS:-21}" || fail=1
say "done"
exit $fail
