#!/usr/bin/env bash
# The array library on an NVIDIA GPU (issue 8): Kokkos 3.4 with CUDA from the
# carried Debian source, the library's kernel modules and the logistic
# regression example and tests/compat/s8_binsort_main.py built for CUDA, then
# tests/api/test_array_library.py, the example and the BinSort program run with
# PKC_BACKEND=cuda. Usage: scripts/gpu/array_lib_cuda.sh
# (carry .deps/kokkos-src build/bin build/lib).
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
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
