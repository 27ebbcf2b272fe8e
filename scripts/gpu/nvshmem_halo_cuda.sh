#!/usr/bin/env bash
# Issue 25 item 3: pykokkos.mpi.Halo's NVSHMEM transport (GPU-initiated: the
# packing kernels store faces into the neighbours' symmetric buffers) next to
# the NCCL one, on the host's GPUs (up to 4), one rank per GPU:
#   1. tests/api/mpi_halo_prog.py (2-D and 3-D, widths 1 and 2, exchange()
#      and start()/finish(), every ghost checked) with PKC_HALO_TRANSPORT=nvshmem
#      on 2 and 4 ranks, and on 2 ranks through put-with-signal (PKC_HALO_NVSHMEM_P2P=0);
#      GRAPH=1: tests/api/mpi_graph_send_prog.py on 1, 2 and 4 ranks (a 3-D
#      step replayed four steps per graph, its later exchanges send-only);
#   2. bench/mpi/jacobi_scaling.py --transport auto,nvshmem: both transports in
#      the same run (one mpirun each, ranks not bound to one core: NVSHMEM's
#      progress thread would share it with Python), verified on every rank
#      (SCALING_ARGS picks cases, e.g. "--only '3D weak'"; BLOCKS, ITERS,
#      RANKS). GRAPH=1: modules built with --default-stream per-thread and the
#      step replayed from pk.Graph too, checked bitwise, for both transports;
#   3. TIMELINE="args" (with GRAPH=1): bench/mpi/graph_timeline.py on 1, 2
#      and 4 ranks, overlap on and off (TIMELINE_OVERLAP="on": on only), with
#      those arguments (e.g. --slabs; several sets separated by ';');
#      TIMELINE_ENV="PKC_HALO_NVSHMEM_BLOCKS=64 PKC_HALO_NVSHMEM_DIRECT=0": also
#      on the most ranks with each of those settings; TIMELINE_NP="4": those rank counts only;
#      SCALING=0: no scaling run. CHECK=0: not step 1.
#   4. SHAPES="args" (with GRAPH=1): bench/mpi/step_shapes.py on one rank (the
#      overlapped 128^3 step taken apart on one GPU), e.g. SHAPES="--blocks 15
#      --timeline self1".
# Usage: scripts/gpu/nvshmem_halo_cuda.sh (carry .deps/kokkos-src build/bin
# build/lib; kind nvidia-h100-x4 / nvidia-h200-x4 or -x2). Outputs under $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1   # never NVLink multicast (device/KINDS.md)
export PKC_CACHE_DIR=$WORK/cache
graph=()
if [[ ${GRAPH:-0} == 1 ]]; then
  export CXXFLAGS="--default-stream per-thread" CXX="$Kokkos_ROOT/bin/nvcc_wrapper"
  graph=(--graph)
fi
OUTD=${OUT:-/tmp/nvshmem-out}
mkdir -p "$OUTD"
for f in runtime-shim/python/pykokkos/_halo_kernels.py bench/mpi/jacobi_scaling.py \
         tests/api/mpi_halo_prog.py tests/api/kern_send3.py; do
  (pkc build -q --backend cuda "$f" >"$LOG/$(basename "$f").log" 2>&1 || echo "BUILD FAILED $f") &
done
wait
say "modules built"
"$PY" -c "import pykokkos._nvshmem as s; print('nvshmem', s.nvshmem_home()); print(s.library_path())" \
  >"$OUTD/nvshmem_lib.log" 2>&1 || { echo "NVSHMEM LIBRARY BUILD FAILED"; tail -40 "$OUTD/nvshmem_lib.log"; }
tail -2 "$OUTD/nvshmem_lib.log"
say "transport library"
n=$(nvidia-smi -L | wc -l)
mpi() {
  timeout "${MPI_TIMEOUT:-120}" mpirun --allow-run-as-root --oversubscribe -x PYTHONPATH -x PATH -x PKC_BACKEND \
    -x Kokkos_ROOT -x PKC_RUNTIME_LIB -x PKC_HALO_TRANSPORT -x PKC_HALO_NVSHMEM_P2P -x PKC_HALO_NVSHMEM_BLOCKS -x PKC_HALO_NVSHMEM_DIRECT \
    -x PKC_CACHE_DIR -x NVSHMEM_DISABLE_NVLS -x NCCL_NVLS_ENABLE "$@"
}
for np in 2 4; do
  (( np <= n )) && [[ ${CHECK:-1} != 0 ]] || continue
  for p2p in 1 0; do
    [[ $p2p == 0 && $np == 4 ]] && continue
    d=$OUTD/halo_np${np}_p2p$p2p
    mkdir -p "$d"
    PKC_HALO_TRANSPORT=nvshmem PKC_HALO_NVSHMEM_P2P=$p2p mpi -np "$np" "$PY" tests/api/mpi_halo_prog.py "$d" \
      >"$d/out.log" 2>&1
    echo "halo nvshmem np=$np p2p=$p2p rc=$? ranks: $(cat "$d"/rank*.txt 2>/dev/null | tr '\n' ' ')"
    grep -v "^\s*$" "$d/out.log" | tail -5
  done
done
if [[ ${GRAPH:-0} == 1 && ${CHECK:-1} != 0 ]]; then   # send-only exchanges in replayed 3-D steps
  for np in 1 2 4; do
    (( np <= n )) || continue
    d=$OUTD/send_np$np
    mkdir -p "$d"
    PKC_HALO_TRANSPORT=nvshmem PKC_EXPECT_SEND=1 mpi -np "$np" -x PKC_EXPECT_SEND --bind-to none \
      "$PY" tests/api/mpi_graph_send_prog.py "$d" >"$d/out.log" 2>&1
    echo "graph send nvshmem np=$np rc=$? ranks: $(cat "$d"/rank*.txt 2>/dev/null | tr '\n' ' ')"
    grep -v "^\s*$" "$d/out.log" | tail -6
  done
fi
say "correctness done"
if [[ -n ${TIMELINE+x} ]]; then   # GRAPH=1: the replayed step's kernels per rank (bench/mpi/graph_timeline.py)
  IFS=';' read -ra tsets <<<"$TIMELINE"   # argument sets separated by ';', each run in turn
  for t in "${!tsets[@]}"; do
    eval "targs=(${tsets[$t]})"
    for np in ${TIMELINE_NP:-1 2 4}; do
      (( np <= n )) || continue
      for ov in ${TIMELINE_OVERLAP:-on off}; do
        f=$OUTD/timeline${t}_np${np}_$ov
        mpi -np "$np" --bind-to none "$PY" bench/mpi/graph_timeline.py --overlap $ov --out "$f" \
          "${targs[@]}" >"$f.log" 2>&1
        echo "timeline [${tsets[$t]}] np=$np overlap=$ov rc=$?"
        grep -E "^# |^== |time per step|no kernel|x[ 0-9.]+/step" "$f.log" | head -40
      done
    done
  done
  for setting in ${TIMELINE_ENV:-}; do   # A/B settings, on the most ranks, the last set
    for ov in ${TIMELINE_OVERLAP:-on off}; do
      f=$OUTD/timeline_np${np}_${ov}_${setting//[^A-Za-z0-9]/_}
      env "$setting" timeout "${MPI_TIMEOUT:-120}" "$(which mpirun)" --allow-run-as-root \
        --oversubscribe -x PYTHONPATH -x PATH -x PKC_BACKEND -x Kokkos_ROOT -x PKC_RUNTIME_LIB \
        -x PKC_CACHE_DIR -x NVSHMEM_DISABLE_NVLS -x NCCL_NVLS_ENABLE -x "${setting%%=*}" \
        -np "$np" --bind-to none "$PY" bench/mpi/graph_timeline.py --overlap $ov --out "$f" \
        "${targs[@]}" >"$f.log" 2>&1
      echo "timeline np=$np overlap=$ov $setting rc=$?"
      grep -E "^== |time per step|x[ 0-9.]+/step" "$f.log" | head -40
    done
  done
  say "timelines done"
fi
if [[ -n ${SHAPES+x} ]]; then   # GRAPH=1: the overlapped step taken apart on one GPU
  eval "sargs=(${SHAPES})"
  mpi -np 1 --bind-to none "$PY" bench/mpi/step_shapes.py "${sargs[@]}" >"$OUTD/shapes.log" 2>&1
  echo "step_shapes rc=$?"
  grep -vE "^\s+edges|Warn|warn" "$OUTD/shapes.log" | head -60
  say "step shapes done"
fi
[[ ${SCALING:-1} == 0 ]] && exit 0   # timelines only
ranks=1
for p in 2 4; do (( p <= n )) && ranks="$ranks,$p"; done
ranks=${RANKS:-$ranks}
eval "extra=(${SCALING_ARGS:-})"   # quoted words stay whole: --only '3D weak'
PY=$PY timeout "${SCALING_TIMEOUT:-300}" "$PY" bench/mpi/jacobi_scaling.py --gpu --ranks "$ranks" \
  --transport "${TRANSPORTS:-auto,nvshmem}" "${graph[@]}" --mpirun-arg=--bind-to --mpirun-arg=none --warmup 5 --blocks "${BLOCKS:-3}" --iters "${ITERS:-10}" \
  --timeout "${SCALING_TIMEOUT:-300}" --log "$OUTD/scaling.log" "${extra[@]}"
say "done"
