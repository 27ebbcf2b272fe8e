#!/usr/bin/env bash
# Jacobi weak scaling at GPU-filling sizes on 1 and 2 GPUs (issue 10's goal:
# >= 95% with overlap on): 2-D 8192x8192 and 3-D 320^3 cells per rank,
# ITERS iterations (default 30), NCCL halo path, overlap off and on; prints
# ms per iteration and the efficiency t1/t2. Usage: scripts/gpu/mpi_weak_cuda.sh
# [ITERS] (carry .deps/kokkos-src build/bin build/lib; the nvidia-h200-x2 kind).
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
export NCCL_NVLS_ENABLE=0   # never NVLink multicast on shared machines (device/KINDS.md)
for f in runtime-shim/python/pykokkos/_halo_kernels.py examples/mpi_jacobi2d.py examples/mpi_jacobi3d.py; do
  (pkc build -q --backend cuda "$f" >"$LOG/$(basename "$f").log" 2>&1 || echo "BUILD FAILED $f") &
done
wait
say "built"
"$PY" -c "import sys; sys.path.insert(0, 'runtime-shim/python'); from pykokkos.mpi import cuda_aware; print('CUDA-aware MPI:', cuda_aware())"
MPI=(mpirun --allow-run-as-root --oversubscribe -x PYTHONPATH -x PKC_BACKEND -x Kokkos_ROOT
     -x PKC_RUNTIME_LIB -x PATH -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE)
it=${1:-30}
ms() { grep -o '[0-9.]* ms per iteration' | cut -d' ' -f1; }
for ov in "" "--overlap"; do
  a=$("${MPI[@]}" -np 1 "$PY" examples/mpi_jacobi2d.py 8192 8192 "$it" $ov 2>&1 | ms)
  b=$("${MPI[@]}" -np 2 "$PY" examples/mpi_jacobi2d.py 8192 16384 "$it" $ov 2>&1 | ms)
  echo "2D 8192^2/rank overlap=${ov:-off}: 1 rank $a ms, 2 ranks $b ms, efficiency $("$PY" -c "print(f'{100 * $a / $b:.0f}%')" 2>/dev/null)"
  a=$("${MPI[@]}" -np 1 "$PY" examples/mpi_jacobi3d.py 320 320 320 "$it" $ov 2>&1 | ms)
  b=$("${MPI[@]}" -np 2 "$PY" examples/mpi_jacobi3d.py 320 320 640 "$it" $ov 2>&1 | ms)
  echo "3D 320^3/rank overlap=${ov:-off}: 1 rank $a ms, 2 ranks $b ms, efficiency $("$PY" -c "print(f'{100 * $a / $b:.0f}%')" 2>/dev/null)"
done
say "done"
