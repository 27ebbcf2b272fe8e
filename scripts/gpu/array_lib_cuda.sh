#!/usr/bin/env bash
# The array library on an NVIDIA GPU (issue 8): Kokkos 3.4 with CUDA from the
# carried Debian source, the library's kernel modules and the logistic
# regression example and tests/compat/s8_binsort_main.py built for CUDA, then
# tests/api/test_array_library.py, the example and the BinSort program run with
# PKC_BACKEND=cuda. Usage: scripts/gpu/array_lib_cuda.sh
# (carry .deps/kokkos-src build/bin build/lib).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$PWD
WORK=${WORK:-/tmp/pkc-gpu}
LOG=${LOG:-$ROOT/build/gpu-logs}
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
say "building the array library and the example for CUDA"
for f in runtime-shim/python/pykokkos/lib/_kernels_*.py examples/logistic_regression.py \
         tests/compat/s8_binsort_main.py; do
  (pkc build -q --backend cuda "$f" >"$LOG/$(basename "$f").log" 2>&1 || echo "BUILD FAILED $f") &
done
wait
say "built"
"$PY" -c "import numpy; print('numpy', numpy.__version__)"
(cd tests/api && timeout 400 "$PY" -m unittest -v test_array_library 2>&1 | tail -40)
timeout 120 "$PY" examples/logistic_regression.py 2000 8 100
timeout 120 "$PY" examples/logistic_regression.py 200000 32 50
echo "BinSort in @pk.main on CUDA: $(timeout 120 "$PY" tests/compat/s8_binsort_main.py 2>&1 | tail -1)"
say "done"
