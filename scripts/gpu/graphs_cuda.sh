#!/usr/bin/env bash
# Issue 25 items 3-4: pk.Graph on one GPU. The NPBench kernels of bench/graphs/
# (jacobi_1d, jacobi_2d, heat_3d, fdtd_2d, adi) on small domains, per step,
# called by hand against replayed from a CUDA graph (pk.Graph: stream capture
# of the per-thread default stream through libpkcrt, cuGraphLaunch per step),
# each checking that replay gives bitwise the plain calls' numbers and numpy's
# (within rounding). Modules are built with CXXFLAGS='--default-stream
# per-thread' (Kokkos 3.4 launches on the legacy default stream otherwise,
# which cannot be captured); a second table builds without it, to show the
# error pk.Graph raises then. Then tests/api/test_graph.py on CUDA.
# Usage: scripts/gpu/graphs_cuda.sh [STEPS] (carry .deps/kokkos-src build/bin
# build/lib; one-GPU kind). Acceptance: >= 1.5x per step with replay.
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
export CXXFLAGS="--default-stream per-thread"
export CXX="$Kokkos_ROOT/bin/nvcc_wrapper"   # the nvcc flag must reach the compiler CMake checks
progs="jacobi_1d jacobi_2d heat_3d fdtd_2d adi"
for p in $progs; do
  (pkc build -q --backend cuda "bench/graphs/$p.py" >"$LOG/graphs_$p.log" 2>&1 ||
     { echo "BUILD FAILED $p"; tail -20 "$LOG/graphs_$p.log"; }) &
done
(pkc build -q --backend cuda tests/api/kern_graph.py >"$LOG/kern_graph.log" 2>&1 || echo "BUILD FAILED kern_graph") &
(pkc build -q --backend cuda tests/api/kern_graph_edges.py >"$LOG/kern_graph_edges.log" 2>&1 || echo "BUILD FAILED kern_graph_edges") &
wait
say "built"
st=${1:-200}
for sz in small tiny; do
  case $sz in
    small) a1=4000 a2=250 a3=40 f="200 240" ad=200 ;;
    tiny)  a1=400 a2=64 a3=16 f="64 64" ad=64 ;;
  esac
  say "$sz domains, $st steps"
  timeout 60 "$PY" bench/graphs/jacobi_1d.py $a1 "$st" 2>&1 | tail -2
  timeout 60 "$PY" bench/graphs/jacobi_2d.py $a2 "$st" 2>&1 | tail -2
  timeout 60 "$PY" bench/graphs/heat_3d.py $a3 "$st" 2>&1 | tail -2
  timeout 60 "$PY" bench/graphs/fdtd_2d.py $f "$st" 2>&1 | tail -2
  timeout 90 "$PY" bench/graphs/adi.py $ad "$((st / 2))" 2>&1 | tail -2
done
say "tests/api/test_graph.py on CUDA (the Replay and Rules cases)"
(cd tests/api && timeout 200 "$PY" -m unittest -v test_graph.Replay test_graph.Rules test_graph_edges \
   test_graph.NPBench 2>&1 | tail -25)   # Ranks: two ranks would share the one GPU
say "without --default-stream per-thread: pk.Graph must say why it cannot capture"
unset CXXFLAGS CXX
timeout 200 "$PY" bench/graphs/jacobi_2d.py 64 20 2>&1 | tail -3
say "done"
