#!/usr/bin/env bash
# Several ranks on GPUs (issue 10): Kokkos 3.4 with CUDA from the carried Debian
# source, the MPI examples built for CUDA, then run with 1 and 2 ranks
# (mpirun; one GPU per rank, bound by the node-local rank). Halo faces are
# packed by pkc-compiled kernels on the device and sent with NCCL (CuPy's)
# where it is there, else staged through the host (PKC_HALO_NCCL=0 forces
# that); then the weak/strong scaling table of bench/mpi/jacobi_scaling.py --gpu.
# Usage: scripts/gpu/mpi_cuda.sh [REPEATS] (carry .deps/kokkos-src build/bin
# build/lib; the nvidia-h200-x2 kind).
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
for f in examples/mpi_jacobi2d.py examples/mpi_jacobi3d.py examples/mpi_babelstream.py \
         runtime-shim/python/pykokkos/_halo_kernels.py; do
  (pkc build -q --backend cuda "$f" >"$LOG/$(basename "$f").log" 2>&1 || echo "BUILD FAILED $f") &
done
wait
say "built"
"$PY" -c "import mpi4py; print('mpi4py', mpi4py.__version__)"
"$PY" -c "from cupy.cuda import nccl; print('cupy nccl', nccl.get_version())" 2>&1 | tail -1
nvidia-smi --query-gpu=index,name --format=csv,noheader
export NCCL_NVLS_ENABLE=0   # never NVLink multicast on shared machines (device/KINDS.md)
MPI=(mpirun --allow-run-as-root --oversubscribe -x PYTHONPATH -x PKC_BACKEND -x Kokkos_ROOT
     -x PKC_RUNTIME_LIB -x PATH -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE)
for np_ in 1 2; do
  "${MPI[@]}" -np $np_ "$PY" examples/mpi_babelstream.py $((1 << 26)) 10 2>&1 | tail -2
  "${MPI[@]}" -np $np_ "$PY" examples/mpi_jacobi2d.py 2048 $((2048 * np_)) 20 2>&1 | tail -25
  "${MPI[@]}" -np $np_ "$PY" examples/mpi_jacobi3d.py 128 128 $((128 * np_)) 20 2>&1 | tail -2
done
echo "host staging instead of NCCL:"
PKC_HALO_NCCL=0 "${MPI[@]}" -x PKC_HALO_NCCL -np 2 "$PY" examples/mpi_jacobi3d.py 128 128 256 20 2>&1 | tail -2
say "scaling"
PY=$PY timeout 400 "$PY" bench/mpi/jacobi_scaling.py --gpu --ranks 1,2 --blocks "${1:-3}"
say "done"
