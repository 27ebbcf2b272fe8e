# Sourced by the scripts/gpu/*_cuda.sh scripts (run on the GPU machine from a
# copy of the tree carrying .deps/kokkos-src, build/bin, build/lib): cd to the
# tree, set PATH/PYTHONPATH/PKC_BACKEND=cuda for the shim, find a Python with
# numpy (PY), and build Kokkos 3.4 with CUDA from the carried Debian source
# into $WORK/kokkos-cuda once (Kokkos_ROOT). Defines say() (elapsed seconds).
# LOG: where build logs go (first argument of the script, or build/gpu-logs).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$PWD
LOG=${LOG:-$ROOT/build/gpu-logs}
WORK=${WORK:-/tmp/pkc-gpu}
mkdir -p "$LOG" "$WORK"
export PATH=/usr/local/cuda/bin:$ROOT/build/bin:$PATH
J=$(nproc)
PY=${PYTHON:-/opt/torch/.venv/bin/python3}
[[ -x $PY ]] || PY=python3
KC=${KC:-$WORK/kokkos-cuda}
export PYTHONPATH=$ROOT/runtime-shim/python PKC_BACKEND=cuda Kokkos_ROOT=$KC
export PKC_RUNTIME_LIB=$ROOT/build/lib/libpkcrt.so PYTHONUNBUFFERED=1
t0=$SECONDS
say() { echo "[$((SECONDS - t0))s] $*"; }
nvidia-smi --query-gpu=name --format=csv,noheader
if [[ ! -f $KC/lib/cmake/Kokkos/KokkosConfig.cmake && ! -f $KC/lib64/cmake/Kokkos/KokkosConfig.cmake ]]; then
  say "building Kokkos (CUDA)"
  bash scripts/kokkos-from-debian.sh build .deps/kokkos-src "$KC" cuda "$J" >"$LOG/kokkos-cuda.log" 2>&1 ||
    { tail -30 "$LOG/kokkos-cuda.log"; exit 1; }
fi
bash scripts/kokkos-from-debian.sh fixconfig "$KC" >/dev/null 2>&1
