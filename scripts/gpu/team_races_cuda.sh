#!/usr/bin/env bash
# Team synchronization on an NVIDIA GPU (issue 23): the feature programs of
# the two shapes pkc fixes at compile time (tests/features/feat_team_hoist.py:
# a team reduction under `if team_rank() == 0`, which summed only thread 0's
# share on CUDA; feat_team_barrier.py: a read after a nested TeamThreadRange
# parallel_for, which saw stale values; feat_team_shared_writes.py: rank-0
# fills, broadcasts and write-after-read; feat_team_histogram.py: `h[k] += 1`
# in team scratch, made atomic), with teams of 128 threads on CUDA,
# then the team examples (tutorial_team_policy*, tutorial_team_vector_loop*,
# bytes_and_flops*), each built for CUDA and run with PKC_BACKEND=cuda.
# pkc's notes for the feature programs are printed first (what it moved,
# where it put barriers). Usage: scripts/gpu/team_races_cuda.sh [LOGDIR]
# (carry .deps/kokkos-src build/bin build/lib; Kokkos CUDA is built once into
# $WORK/kokkos-cuda, about 90 s).
LOG=${1:-}
[[ -n $LOG ]] || unset LOG
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
feats=(tests/features/feat_team_hoist.py tests/features/feat_team_barrier.py
       tests/features/feat_team_shared_writes.py tests/features/feat_team_histogram.py)
exs=(examples/tutorial_team_policy*.py examples/tutorial_team_vector_loop*.py examples/bytes_and_flops*.py)
for f in "${feats[@]}"; do
  pkc check "$f" 2>&1 | grep -E ": (note|warning|error):" | cut -c1-200
done
say "building the team programs for CUDA"
printf '%s\n' "${feats[@]}" "${exs[@]}" |
  xargs -P "$J" -I{} sh -c 'pkc build -q --backend cuda "$1" >/dev/null 2>&1 || echo "BUILD FAILED $1"' _ {}
pass=0 fail=0
for f in "${feats[@]}" "${exs[@]}"; do
  args=$(sed -n 's/^# *test-args:\(.*\)$/\1/p' "$f" | head -1)
  for rep in 1 2 3; do # the races show on some runs only
    if out=$(timeout 300 "$PY" "$f" $args 2>&1) && grep -q "PASSED\|^OK$" <<<"$out"; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1)); echo "FAIL $f (run $rep): $(tail -2 <<<"$out" | tr '\n' ' ' | cut -c1-300)"
    fi
  done
done
say "team programs on CUDA: $pass passed, $fail failed (3 runs each)"
[[ $fail -eq 0 ]]
