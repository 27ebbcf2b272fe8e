#!/usr/bin/env bash
# Rank-3 MDRange launches on an NVIDIA GPU: the MDRange feature programs
# (tests/features/feat_mdrange*.py, numbers against numpy), then
# bench/mdrange/gpu_flat.py (the flattened launch pkc uses when the program
# gives no tile, against Kokkos' tiles, -DPKC_GPU_MDRANGE_TILES).
# Usage: scripts/gpu/mdrange_flat_cuda.sh [LOGDIR] (carry .deps/kokkos-src
# build/bin build/lib; Kokkos CUDA is built once into $WORK/kokkos-cuda).
# SIZES changes the sizes (default "128 256 512").
LOG=${1:-}
[[ -n $LOG ]] || unset LOG
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
progs=(tests/features/feat_mdrange.py tests/features/feat_mdrange_empty.py
       tests/features/feat_mdrange_schemes.py)
printf '%s\n' "${progs[@]}" |
  xargs -P "$J" -I{} sh -c 'pkc build -q --backend cuda "$1" >/dev/null 2>&1 || echo "BUILD FAILED $1"' _ {}
fail=0
for f in "${progs[@]}"; do
  if out=$(timeout 120 "$PY" "$f" 2>&1) && [[ $(tail -1 <<<"$out") == OK ]]; then
    say "PASS $f"
  else
    fail=1; say "FAIL $f: $(tail -3 <<<"$out" | tr '\n' ' ' | cut -c1-400)"
  fi
done
say "flattened against tiled"
# shellcheck disable=SC2086
timeout 400 "$PY" bench/mdrange/gpu_flat.py ${SIZES:-128 256 512} || fail=1
say "done"
exit $fail
