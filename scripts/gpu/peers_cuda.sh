#!/usr/bin/env bash
# The peer benchmark on a GPU host (issue 24, items 3 and 5), in one call of
# at most 8 minutes:
#   1. Kokkos 3.4 with CUDA ($WORK/kokkos-cuda, cuda_env.sh) and with OpenMP
#      ($WORK/kokkos-openmp, from a copy of the carried source) built at once;
#      bench/peers/pk_kernels.py built for both backends at once;
#   2. GPU mode: bench/peers/run.py --gpu (pkc on CUDA with default tiles
#      against CuPy and Numba-CUDA; tables in peers_gpu.md);
#   3. CPU mode: run.py --threads 1,2,4,8,16 (pkc on OpenMP against Numba;
#      fewer repetitions than the default to fit; peers_threads.md, and the
#      full table of each count in last_run_T<n>.md). BOUNDS=1 adds
#      --bounds-check (the "pkc checked" column; about a third longer).
# Usage: scripts/gpu/peers_cuda.sh [LOGDIR]   (carry .deps/kokkos-src build/bin
# build/lib). The markdown tables land in LOGDIR (default build/gpu-logs) and,
# where the device tool gives one, in $OUT. Env: PYTHON (default
# /opt/torch/.venv/bin/python3: numpy, CuPy, numba, numba-cuda), REPEATS (5).
LOG=${1:-}
[[ -n $LOG ]] || unset LOG
WORK=${WORK:-/tmp/pkc-gpu}
KO=${KO:-$WORK/kokkos-openmp}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$WORK"
(   # beside the CUDA build: Kokkos OpenMP (its own source copy), then pk_kernels.py for OpenMP
  if [[ ! -f $KO/include/KokkosCore_config.h ]]; then
    rm -rf "$WORK/ksrc-omp" && cp -a "$HERE/../../.deps/kokkos-src" "$WORK/ksrc-omp" &&
      bash "$HERE/../kokkos-from-debian.sh" build "$WORK/ksrc-omp" "$KO" openmp "$(nproc)" ||
      { echo "Kokkos OpenMP build FAILED"; exit 1; }
  fi
  cd "$HERE/../.." && PATH=$PWD/build/bin:$PATH Kokkos_ROOT=$KO pkc build -q --backend openmp bench/peers/pk_kernels.py
) >"$WORK/peers-openmp.log" 2>&1 &
source "$HERE/cuda_env.sh"   # cd ROOT; Kokkos CUDA; PY, LOG, say
say "Kokkos CUDA ready; $("$PY" -c 'import numpy; print("numpy", numpy.__version__)' 2>&1)"
pkc build -q --backend cuda bench/peers/pk_kernels.py >"$LOG/peers-build-cuda.log" 2>&1 || tail -20 "$LOG/peers-build-cuda.log"
wait
tail -5 "$WORK/peers-openmp.log"
[[ -f $KO/include/KokkosCore_config.h ]] || { say "no Kokkos OpenMP: the CPU mode cannot run"; }
say "pk_kernels.py built for CUDA and OpenMP"
R=${REPEATS:-5}
timeout 200 "$PY" bench/peers/run.py --gpu --repeats "$R" --md "$LOG/peers_gpu.md"
say "GPU mode done (exit $?)"
LEFT=$((465 - (SECONDS - t0)))   # the call has 8 minutes
((LEFT >= 30)) || LEFT=30
PKC_BACKEND=openmp Kokkos_ROOT=$KO timeout $((LEFT + 10)) "$PY" bench/peers/run.py --threads 1,2,4,8,16 \
  --repeats "$R" --rep-seconds 1 --time-limit "$LEFT" ${BOUNDS:+--bounds-check} --md "$LOG/peers_threads.md"
say "CPU mode done (exit $?)"
if [[ -n ${OUT:-} ]]; then
  cp "$LOG"/peers_gpu.md "$LOG"/peers_threads.md "$LOG"/last_run_T*.md "$OUT"/ 2>/dev/null
fi
