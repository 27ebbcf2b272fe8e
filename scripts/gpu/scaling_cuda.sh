#!/usr/bin/env bash
# Issue 25 item 1: honest weak and strong scaling of Jacobi 2-D and 3-D on 1, 2
# and 4 GPUs (as many as `nvidia-smi -L` lists, up to 4), one GPU per rank, NCCL
# halo path, overlap off and on, default tiles: bench/mpi/jacobi_scaling.py --gpu
# (warm-up outside the timers, median of fenced blocks, the exchange timed alone
# in the same run, verification on samples on every rank). Prints the markdown
# table. Usage: scripts/gpu/scaling_cuda.sh [BLOCKS [ITERS]] (carry .deps/kokkos-src
# build/bin build/lib; kind nvidia-h100-x4 or nvidia-h200-x4, or -x2). Budget:
# Kokkos build ~90 s, module builds ~60 s, each rank count ~60-90 s.
# GRAPH=1: modules built with --default-stream per-thread and a column for the
# step replayed from a CUDA graph (pk.Graph, NCCL captured), checked bitwise.
# SCALING_ARGS: more arguments for jacobi_scaling.py (e.g. --only '3D weak' --log $OUT/s.log).
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
graph=()
if [[ ${GRAPH:-0} == 1 ]]; then
  export CXXFLAGS="--default-stream per-thread" CXX="$Kokkos_ROOT/bin/nvcc_wrapper"
  graph=(--graph)
fi
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1   # never NVLink multicast (device/KINDS.md)
for f in runtime-shim/python/pykokkos/_halo_kernels.py bench/mpi/jacobi_scaling.py; do
  (pkc build -q --backend cuda "$f" >"$LOG/$(basename "$f").log" 2>&1 || echo "BUILD FAILED $f") &
done
wait
say "built"
n=$(nvidia-smi -L | wc -l)
ranks=1
for p in 2 4; do (( p <= n )) && ranks="$ranks,$p"; done
"$PY" -c "from cupy.cuda import nccl; print('cupy nccl', nccl.get_version())" 2>&1 | tail -1
say "ranks $ranks"
PY=$PY timeout 420 "$PY" bench/mpi/jacobi_scaling.py --gpu --ranks "$ranks" "${graph[@]}" \
  --warmup 5 --blocks "${1:-5}" --iters "${2:-10}" --timeout 400 ${SCALING_ARGS:-}
say "done"
