#!/usr/bin/env bash
# NVSHMEM against NCCL for a halo face exchange between the host's GPUs (issue
# 25): builds bench/mpi/nvshmem_probe.cu with relocatable device code against
# the image's nvidia-nvshmem-cu13 and nvidia-nccl-cu13 Python packages and runs
# bench/mpi/nvshmem_probe.py under mpirun, one rank per GPU (unique-id
# bootstrap over mpi4py). Usage: scripts/gpu/nvshmem_cuda.sh (a -x2 kind).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH=/usr/local/cuda/bin:$PATH
PY=${PYTHON:-/opt/torch/.venv/bin/python3}
[[ -x $PY ]] || PY=python3
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0   # never NVLink multicast (device/KINDS.md)
SITE=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
SHMEM=$SITE/nvidia/nvshmem
NCCL=$SITE/nvidia/nccl
[[ -d $NCCL ]] || NCCL=$(dirname "$(dirname "$(find "$SITE/nvidia" -name 'libnccl.so*' | head -1)")")
echo "nvshmem: $SHMEM"; ls "$SHMEM/lib" 2>&1 | tr '\n' ' '; echo
echo "nccl: $NCCL"; ls "$NCCL/lib" "$NCCL/include" 2>&1 | tr '\n' ' '; echo
nvidia-smi --query-gpu=index,name --format=csv,noheader
OUTD=${OUT:-/tmp}
ARCH=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
nvcc -O2 -std=c++17 -rdc=true -arch=sm_${ARCH:-90} -Xcompiler -fPIC -shared \
  -I"$SHMEM/include" -I"$NCCL/include" bench/mpi/nvshmem_probe.cu -o /tmp/libnvshmem_probe.so \
  -L"$SHMEM/lib" -lnvshmem_device -l:libnvshmem_host.so.3 -L"$NCCL/lib" -l:libnccl.so.2 -lcuda \
  >"$OUTD/nvshmem_build.log" 2>&1 || { echo "BUILD FAILED"; tail -30 "$OUTD/nvshmem_build.log"; exit 1; }
echo "built"
export LD_LIBRARY_PATH=$SHMEM/lib:$NCCL/lib:${LD_LIBRARY_PATH:-}
NG=$(nvidia-smi -L | wc -l)
NP=$(( NG >= 2 ? 2 : 1 ))
timeout 240 mpirun --allow-run-as-root --oversubscribe -x LD_LIBRARY_PATH -x PATH \
  -x NVSHMEM_DISABLE_NVLS -x NCCL_NVLS_ENABLE \
  -np "$NP" "$PY" bench/mpi/nvshmem_probe.py /tmp/libnvshmem_probe.so 2>&1 | tail -40
echo "rc=${PIPESTATUS[0]}"
