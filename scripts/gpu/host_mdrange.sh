#!/usr/bin/env bash
# Host MDRange on a many-core GPU host (issue 24, item 1; no GPU used), in one
# call of about 5 minutes: builds Kokkos 3.4 for OpenMP from the carried
# Debian source into $WORK/kokkos-openmp once (about 60 s), then
# bench/mdrange/ab.py at 16 threads and at 2 (pkc's rows along the contiguous
# index against Kokkos' host MDRange, -DPKC_HOST_MDRANGE_TILES, in one
# process), then, where Numba imports, bench/peers/run.py --threads 16 --only
# stencil,transpose (pkc/Numba; the issue measured 1.58 for the stencil before).
# Usage: scripts/gpu/host_mdrange.sh [LOGDIR] (carry .deps/kokkos-src
# build/bin build/lib).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$PWD
LOG=${1:-$ROOT/build/gpu-logs}
WORK=${WORK:-/tmp/pkc-gpu}
mkdir -p "$LOG" "$WORK"
J=$(nproc)
PY=${PYTHON:-/usr/bin/python3}
[[ -x $PY ]] || PY=python3
KO=${KO:-$WORK/kokkos-openmp}
export PATH=$ROOT/build/bin:$PATH PYTHONPATH=$ROOT/runtime-shim/python Kokkos_ROOT=$KO
export PKC_RUNTIME_LIB=$ROOT/build/lib/libpkcrt.so PYTHONUNBUFFERED=1 PKC_BACKEND=openmp
export OMP_PROC_BIND=spread OMP_PLACES=threads
t0=$SECONDS
say() { echo "[$((SECONDS - t0))s] $*"; }
say "$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
if [[ ! -f $KO/lib/cmake/Kokkos/KokkosConfig.cmake && ! -f $KO/lib64/cmake/Kokkos/KokkosConfig.cmake ]]; then
  say "building Kokkos (OpenMP)"
  bash scripts/kokkos-from-debian.sh build .deps/kokkos-src "$KO" openmp "$J" >"$LOG/kokkos-openmp.log" 2>&1 ||
    { tail -30 "$LOG/kokkos-openmp.log"; exit 1; }
fi
fail=0
for t in 16 2; do
  say "bench/mdrange/ab.py, OMP_NUM_THREADS=$t"
  OMP_NUM_THREADS=$t timeout 200 "$PY" bench/mdrange/ab.py 8000 400 21 || fail=1
done
if "$PY" -c "import numba" 2>/dev/null; then
  say "bench/peers/run.py --threads 16 --only stencil,transpose"
  timeout 200 "$PY" bench/peers/run.py --threads 16 --only stencil,transpose --md "$LOG/peers_mdrange.md" |
    grep "^|" || fail=1
else
  say "no Numba for $PY: peers rows skipped"
fi
say "done"
exit $fail
