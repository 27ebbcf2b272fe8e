#!/usr/bin/env bash
# Where the time of a halo exchange goes on CUDA: Nsight Systems over 2 ranks of
# bench/mpi/jacobi_scaling.py's worker (cases whose name contains $1, default
# "small": 3-D 128^3 per rank), then the kernel and CUDA API summaries of rank 0
# and the GPU trace of its last 60 operations. Needs the modules built (run
# scaling_cuda.sh first in the same call) and nsys on the machine; reports go to
# $OUT (or build/gpu-logs). Usage: scripts/gpu/halo_profile_cuda.sh [CASE]
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
dest=${OUT:-$LOG}
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys \
  /usr/local/cuda/nsight-systems*/bin/nsys 2>/dev/null | head -1)
[[ -n $NSYS ]] || { echo "no nsys on this machine"; exit 0; }
mpirun --allow-run-as-root --oversubscribe -np 2 -x PYTHONPATH -x PATH -x PKC_BACKEND \
  -x NCCL_NVLS_ENABLE -x Kokkos_ROOT -x PKC_RUNTIME_LIB -x LD_LIBRARY_PATH \
  "$NSYS" profile -t cuda,nvtx -o "$dest/rank%q{OMPI_COMM_WORLD_RANK}" --force-overwrite true \
  "$PY" bench/mpi/jacobi_scaling.py --worker --gpu --only "${1:-small}" --warmup 5 --blocks 3 \
  --iters 10 2>&1 | grep -v "^Collecting\|^Generating\|^Processing" | tail -8
"$NSYS" stats -q --report cuda_gpu_kern_sum,cuda_api_sum --format table "$dest/rank0.nsys-rep" \
  2>&1 | cut -c1-220 | head -70
"$NSYS" stats -q --report cuda_gpu_trace --format csv "$dest/rank0.nsys-rep" 2>/dev/null \
  | tail -60 | cut -d, -f1-3,14-20 | cut -c1-200
