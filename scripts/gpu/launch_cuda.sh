#!/usr/bin/env bash
# Launch overhead on an NVIDIA GPU (issue 12): the trivial parallel_for
# (examples/trivial.py, N=1, 10,000 calls, median of 5, PKC_FUSION=0) built
# for CUDA against Kokkos 3.4 (carried Debian source) and Kokkos 4 (the
# tarball and cuda13.patch from ../shared/kokkos4, copied to build/k4/), each
# with the shim's C fast path (pykokkos._fastcall, built here for the GPU
# machine's Python when its headers exist) and without it (PKC_FASTCALL=0);
# then the floor under it: the same kernel in hand-written Kokkos and as a raw
# CUDA kernel, launched back to back from C++ (bench/cuda/launch_floor.cpp).
# Usage: scripts/gpu/launch_cuda.sh (carry .deps/kokkos-src build/bin build/lib build/k4).
source "$(dirname "${BASH_SOURCE[0]}")/cuda_env.sh"
K4=$WORK/kokkos4-cuda
if [[ ! -f $K4/lib/cmake/Kokkos/KokkosConfig.cmake && ! -f $K4/lib64/cmake/Kokkos/KokkosConfig.cmake ]]; then
  say "building Kokkos 4 (CUDA, Hopper)"
  src=$WORK/k4src-unpack
  rm -rf "$src" && mkdir -p "$src" && tar xzf build/k4/kokkos-4*.tar.gz -C "$src"
  k4src=$(dirname "$(ls "$src"/*/CMakeLists.txt | head -n 1)")
  patch -p1 -d "$k4src" < build/k4/cuda13.patch > "$LOG/k4-patch.log" 2>&1
  cmake -S "$k4src" -B "$WORK/k4build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ARCH_HOPPER90=ON \
    -DKokkos_ENABLE_DEPRECATED_CODE_4=OFF -DCMAKE_CXX_COMPILER="$k4src/bin/nvcc_wrapper" \
    -DCMAKE_INSTALL_PREFIX="$K4" > "$LOG/k4-config.log" 2>&1 &&
  cmake --build "$WORK/k4build" -j"$J" > "$LOG/k4-build.log" 2>&1 &&
  cmake --install "$WORK/k4build" > "$LOG/k4-install.log" 2>&1 || { tail -20 "$LOG"/k4-*.log; }
fi
fastcall() { # $1: a pkc project dir (it holds dlpack/dlpack.h)
  inc=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
  ext=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  if [[ -f $inc/Python.h ]]; then
    cc -O2 -fPIC -shared -I"$inc" -Iruntime-shim -I"$1" runtime-shim/fastcall.c \
      -o "build/lib/_fastcall$ext" && say "built pykokkos._fastcall for $("$PY" --version)"
  else
    say "no Python.h for $("$PY" --version): the C fast path is not measured"
  fi
}
for k in 3 4; do
  root=$KC; [[ $k == 4 ]] && root=$K4
  out=$WORK/trivial-k$k
  rm -rf "$out" && mkdir -p "$out" && cp examples/trivial.py "$out/"
  Kokkos_ROOT=$root pkc build -q --backend cuda --kokkos-root "$root" "$out/trivial.py" \
    > "$LOG/trivial-k$k.log" 2>&1 || { echo "BUILD FAILED k$k"; tail -20 "$LOG/trivial-k$k.log"; continue; }
  [[ $k == 3 ]] && fastcall "$out/trivial.pk"
  for fc in 1 0; do
    r=$(PKC_FASTCALL=$fc PKC_FUSION=0 Kokkos_ROOT=$root timeout 120 "$PY" "$out/trivial.py" 1 10000 5 2>&1 |
        grep -E "launch overhead|FAILED|Error" | tail -2)
    echo "Kokkos $k CUDA, fastcall=$fc: $r"
  done
done
for k in 3 4; do
  root=$KC; [[ $k == 4 ]] && root=$K4
  ( cmake -S bench/cuda -B "$WORK/bench-launch-k$k" -DKokkos_ROOT="$root" \
      -DCMAKE_CXX_COMPILER="$root/bin/nvcc_wrapper" && cmake --build "$WORK/bench-launch-k$k" \
      -j"$J" --target launch_floor ) > "$LOG/launch-floor-k$k.log" 2>&1 &&
    "$WORK/bench-launch-k$k/launch_floor" 10000 5 || { echo "launch_floor k$k FAILED"; tail -5 "$LOG/launch-floor-k$k.log"; }
done
say "done"
