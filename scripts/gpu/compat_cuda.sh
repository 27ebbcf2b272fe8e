#!/usr/bin/env bash
# Drop-in checks on an NVIDIA GPU (issue 7): Kokkos 3.4 with CUDA from the
# carried Debian source (as run_all.sh builds it), then every example built
# in parallel and run with PKC_BACKEND=cuda, then a subset of tests/compat
# (run-time specialization, lambdas, globals, MaxLoc, scratch, partial builds)
# on CUDA. Usage: scripts/gpu/compat_cuda.sh [LOGDIR]   (carry .deps/kokkos-src
# build/bin build/lib; about 6 minutes on an H100).
LOG=${1:-}
[[ -n $LOG ]] || unset LOG
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
say "building every example for CUDA"
ls examples/*.py | xargs -P "$J" -I{} sh -c 'pkc build -q --backend cuda "$1" >/dev/null 2>&1 || echo "BUILD FAILED $1"' _ {}
pass=0 fail=0
for ex in examples/*.py; do
  args=$(sed -n 's/^# *test-args:\(.*\)$/\1/p' "$ex" | head -1)
  if out=$(timeout 120 "$PY" "$ex" $args 2>&1) && grep -q "PASSED\|OK" <<<"$out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL example $ex: $(tail -2 <<<"$out" | tr '\n' ' ' | cut -c1-300)"
  fi
done
say "examples on CUDA: $pass passed, $fail failed"
cpass=0 cfail=0
for t in s1_unannotated_params s1_two_dtypes s1_runtime_specialization s1_numpy_dtype \
         s1_two_layouts s1_team_scratch_unannotated s2_float_into_int s3_lambda_reduce \
         s3_lambda_for s3_module_globals s3_maxloc_minloc s3_scratch_in_main s3_nested_list \
         s5_bad_kernel_isolated s4_classtype_by_reference; do
  if out=$(timeout 200 "$PY" "tests/compat/$t.py" 2>&1) && [[ $(tail -1 <<<"$out") == OK ]]; then
    cpass=$((cpass + 1))
  else
    cfail=$((cfail + 1)); echo "FAIL compat $t: $(tail -3 <<<"$out" | tr '\n' ' ' | cut -c1-400)"
  fi
done
say "compat on CUDA: $cpass passed, $cfail failed"
