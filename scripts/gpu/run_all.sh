#!/usr/bin/env bash
# Everything GPU in one go, on a machine with an NVIDIA GPU (H200: sm_90):
#   1. Kokkos 3.4.01 (Debian's source, .deps/kokkos-src) built with CUDA into
#      .deps/kokkos-cuda (recipe patches incl. the block-size backport), and an
#      UNPATCHED CUDA build into $WORK/kokkos-cuda-unpatched for comparison;
#   2. pkc (build/bin/pkc; make if missing; PKC=... overrides);
#   3. every examples/*.py built for CUDA (in parallel) and run with
#      PKC_BACKEND=cuda with its '# test-args:' sizes;
#   4. the bandwidth benchmark: raw CUDA (bench/cuda/raw.cu) vs hand-written
#      Kokkos (bench/cuda/kokkos_stream.cpp, patched and unpatched Kokkos) vs
#      pkc (bench/cuda/stream_pk.py, patched and unpatched Kokkos);
#   5. a summary.  Usage: scripts/gpu/run_all.sh [LOGDIR]   (< 10 min, 16 cores)
# Env: PYTHON (default /opt/torch/.venv/bin/python3, else python3),
#      PKC_DLPACK_INCLUDE (folder with dlpack/dlpack.h if not in /usr/include;
#      default .deps/dlpack-include when present), BENCH_LOG2 (26), BENCH_ITERS (50).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$PWD
LOG=${1:-$ROOT/build/gpu-logs}
WORK=${WORK:-/tmp/pkc-gpu}
mkdir -p "$LOG" "$WORK"
export PATH=/usr/local/cuda/bin:$PATH
J=$(nproc)
PY=${PYTHON:-/opt/torch/.venv/bin/python3}
[[ -x $PY ]] || PY=python3
PKC=${PKC:-$ROOT/build/bin/pkc}
KC=$ROOT/.deps/kokkos-cuda
KU=$WORK/kokkos-cuda-unpatched
[[ -z ${PKC_DLPACK_INCLUDE:-} && ! -f /usr/include/dlpack/dlpack.h && -d .deps/dlpack-include ]] \
  && export PKC_DLPACK_INCLUDE=$ROOT/.deps/dlpack-include
export PYTHONPATH=$ROOT/runtime-shim/python PKC PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
[[ -f build/lib/libpkcrt.so ]] && export PKC_RUNTIME_LIB=${PKC_RUNTIME_LIB:-$ROOT/build/lib/libpkcrt.so}
t0=$SECONDS
say() { echo "[$((SECONDS - t0))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$LOG/gpu.txt"
nvcc --version | tail -1

# --- 1. Kokkos CUDA (patched and unpatched) + raw CUDA, in parallel ----------
say "building Kokkos CUDA (patched -> $KC, unpatched -> $KU) and raw CUDA"
if ! grep -q '^#define KOKKOS_ENABLE_CUDA$' "$KC/include/KokkosCore_config.h" 2>/dev/null; then
  bash scripts/kokkos-from-debian.sh build .deps/kokkos-src "$KC" cuda "$J" >"$LOG/kokkos-cuda.log" 2>&1 &
fi
rm -rf "$WORK/ksrc"; cp -a .deps/kokkos-src "$WORK/ksrc"
[[ -d $KU ]] || PKC_KOKKOS_NO_BLOCKSIZE_PATCH=1 bash scripts/kokkos-from-debian.sh build \
  "$WORK/ksrc" "$KU" cuda "$J" >"$LOG/kokkos-cuda-unpatched.log" 2>&1 &
nvcc -O3 -arch=sm_90 -o "$WORK/raw" bench/cuda/raw.cu >"$LOG/raw-build.log" 2>&1 &
[[ -x $PKC ]] || make -j"$J" build/bin/pkc build/lib/libpkcrt.so >"$LOG/make.log" 2>&1
wait
grep -q 'installed' "$LOG/kokkos-cuda.log" 2>/dev/null || [[ -f $KC/include/KokkosCore_config.h ]] \
  || { say "Kokkos CUDA build FAILED"; tail -30 "$LOG/kokkos-cuda.log"; }
for k in "$KC" "$KU"; do bash scripts/kokkos-from-debian.sh fixconfig "$k"; done
say "Kokkos builds done"

# --- 2./3. examples: build all for CUDA in parallel, then run each ------------
build_one() {  # example.py -> exit status; log in $LOG/build-<stem>.log
  local ex=$1 stem; stem=$(basename "$ex" .py)
  "$PKC" build --backend cuda --kokkos-root "$KC" -j 2 "$ex" >"$LOG/build-$stem.log" 2>&1
  echo "$stem $?" >>"$WORK/build-status"
}
export -f build_one; export LOG KC WORK
rm -f "$WORK/build-status"
ls examples/*.py bench/cuda/stream_pk.py | xargs -P "$((J / 2))" -I{} bash -c 'build_one {}'
say "example builds done"
summary=()
for ex in examples/*.py; do
  stem=$(basename "$ex" .py)
  st=$(awk -v s="$stem" '$1==s{print $2}' "$WORK/build-status")
  if [[ $st != 0 ]]; then summary+=("BUILD-FAIL $stem"); continue; fi
  args=$(sed -n 's/^#[[:space:]]*test-args:[[:space:]]*//p' "$ex" | head -1)
  PKC_BACKEND=cuda timeout 120 "$PY" "$ex" $args >"$LOG/run-$stem.log" 2>&1
  rc=$?
  summary+=("$([[ $rc == 0 ]] && echo PASS || echo "RUN-FAIL($rc)") $stem: $(tail -1 "$LOG/run-$stem.log" | cut -c1-110)")
done

# --- 4. benchmark ---------------------------------------------------------
LG=${BENCH_LOG2:-26}; IT=${BENCH_ITERS:-50}
say "benchmark N=2^$LG, $IT iterations"
for k in patched unpatched; do
  kr=$KC; [[ $k == unpatched ]] && kr=$KU
  cmake -S bench/cuda -B "$WORK/bench-$k" -DKokkos_ROOT="$kr" -DCMAKE_CXX_COMPILER="$kr/bin/nvcc_wrapper" \
    >"$LOG/bench-$k.log" 2>&1 && cmake --build "$WORK/bench-$k" -j "$J" >>"$LOG/bench-$k.log" 2>&1 &
done
mkdir -p "$WORK/pk-unpatched"; cp bench/cuda/stream_pk.py "$WORK/pk-unpatched/"
"$PKC" build --backend cuda --kokkos-root "$KU" "$WORK/pk-unpatched/stream_pk.py" >"$LOG/build-stream_pk-unpatched.log" 2>&1 &
wait
{
  "$WORK/raw" "$LG" "$IT"
  echo "== hand-written Kokkos, patched Kokkos 3.4"; "$WORK/bench-patched/kokkos_stream" "$LG" "$IT"
  echo "== pkc, patched Kokkos 3.4"; PKC_BACKEND=cuda "$PY" bench/cuda/stream_pk.py "$LG" "$IT"
  echo "== hand-written Kokkos, unpatched Kokkos 3.4"; "$WORK/bench-unpatched/kokkos_stream" "$LG" "$IT"
  echo "== pkc, unpatched Kokkos 3.4"; PKC_BACKEND=cuda "$PY" "$WORK/pk-unpatched/stream_pk.py" "$LG" "$IT"
  echo "== raw CUDA again (spread)"; "$WORK/raw" "$LG" "$IT"
} 2>&1 | tee "$LOG/bench.txt"

# --- 5. summary -------------------------------------------------------------
say "summary"
printf '%s\n' "${summary[@]}" | tee "$LOG/summary.txt"
npass=$(grep -c '^PASS' "$LOG/summary.txt"); ntot=$(wc -l <"$LOG/summary.txt")
say "examples: $npass/$ntot passed on CUDA"
[[ $npass == "$ntot" ]]
