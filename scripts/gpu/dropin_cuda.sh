#!/usr/bin/env bash
# The drop-in programs of issue 21 on an NVIDIA GPU: the compat programs of
# its constructs and host API (tests/compat/i21_*, h21_*, s8/s9) and the
# application examples (MiniMD in both styles, Monte Carlo transport), each
# built for CUDA in parallel, then run with PKC_BACKEND=cuda and checked as in
# `make test` (OK / verification PASSED). Usage: scripts/gpu/dropin_cuda.sh
# [LOGDIR] (carry .deps/kokkos-src build/bin build/lib; Kokkos CUDA is built
# once into $WORK/kokkos-cuda).
LOG=${1:-}
[[ -n $LOG ]] || unset LOG
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
progs=(tests/compat/i21_*.py tests/compat/h21_*.py tests/compat/s8_binsort_main.py
       tests/compat/s9_*.py)
for f in examples/md_minimd.py examples/md_minimd_workload.py examples/mc_transport.py; do
  [[ -f $f ]] && progs+=("$f")
done
say "building ${#progs[@]} programs for CUDA"
printf '%s\n' "${progs[@]}" |
  xargs -P "$J" -I{} sh -c 'pkc build -q --backend cuda "$1" >/dev/null 2>&1 || echo "BUILD FAILED $1"' _ {}
pass=0 fail=0
for f in "${progs[@]}"; do
  args=$(sed -n 's/^# *test-args:\(.*\)$/\1/p' "$f" | head -1)
  if out=$(cd "$(dirname "$f")" && timeout 300 "$PY" "$(basename "$f")" $args 2>&1) &&
     grep -q "PASSED\|^OK$" <<<"$out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $f: $(tail -3 <<<"$out" | tr '\n' ' ' | cut -c1-400)"
  fi
done
say "drop-in programs on CUDA: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
