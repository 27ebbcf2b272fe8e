#!/usr/bin/env bash
# Everything GPU in one command, on a machine with an NVIDIA GPU (H200: sm_90):
#   1. Kokkos 3.4.01 from Debian's source (.deps/kokkos-src, recipe patches incl.
#      the block-size backport) built with CUDA into $KC (default
#      $WORK/kokkos-cuda; reused if present); raw CUDA baselines; pkc (carried
#      build/bin/pkc, else make);
#   2. crash probe: examples/trivial.py built first, scripts/gpu/probe.py step
#      by step under faulthandler (cuda-gdb backtrace if it dies);
#   3. every examples/*.py built for CUDA in parallel (xargs -P 16), then run
#      with PKC_BACKEND=cuda and its '# test-args:' sizes;
#   4. bandwidth: raw CUDA (bench/cuda/raw.cu) vs hand-written Kokkos
#      (bench/cuda/kokkos_stream.cpp) vs pkc (bench/cuda/stream_pk.py), same run;
#      pkc examples vs the hand-written Kokkos baselines of bench/*.cpp, in
#      both timing modes (default: launch + fence per iteration; PK_TIMING=batch:
#      K launches + one fence, / K, median of R = PK_TIMING_REPEATS (5) batches);
#   5. launch overhead per call from Python (examples/trivial.py on CUDA);
#   6. CuPy / torch zero-copy and host numpy arguments (scripts/gpu/interop.py);
#   7. a summary table.        Usage: scripts/gpu/run_all.sh [LOGDIR]  (< 10 min)
# Env: PYTHON (default /opt/torch/.venv/bin/python3: numpy, cupy, torch),
#      BENCH_LOG2 (26), BENCH_ITERS (50), UNPATCHED=1 (also benchmark
#      an unpatched Kokkos), BS256=0 (skip the ">= 256 threads" block-size
#      experiment), KC (Kokkos CUDA install to use/build).
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
KC=${KC:-$WORK/kokkos-cuda}
KU=$WORK/kokkos-cuda-unpatched
# as cuda_env.sh (compat_cuda.sh): the shim's run-time builds (specializations,
# rebuilds) find this Kokkos through Kokkos_ROOT, not the default .deps/kokkos-cuda
export Kokkos_ROOT=$KC
export PYTHONPATH=$ROOT/runtime-shim/python PKC PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
[[ -f build/lib/libpkcrt.so ]] && export PKC_RUNTIME_LIB=${PKC_RUNTIME_LIB:-$ROOT/build/lib/libpkcrt.so}
t0=$SECONDS
say() { echo "[$((SECONDS - t0))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$LOG/gpu.txt"
nvcc --version | tail -1
say "python: $PY ($("$PY" -c 'import numpy; print("numpy", numpy.__version__)' 2>&1))"

# --- 1. Kokkos CUDA + raw CUDA + pkc ----------------------------------------
say "building Kokkos CUDA -> $KC, raw CUDA"
if ! grep -q '^#define KOKKOS_ENABLE_CUDA$' "$KC/include/KokkosCore_config.h" 2>/dev/null; then
  bash scripts/kokkos-from-debian.sh build .deps/kokkos-src "$KC" cuda "$J" >"$LOG/kokkos-cuda.log" 2>&1 &
fi
if [[ ${UNPATCHED:-0} == 1 && ! -d $KU ]]; then
  rm -rf "$WORK/ksrc"; cp -a .deps/kokkos-src "$WORK/ksrc"
  PKC_KOKKOS_NO_BLOCKSIZE_PATCH=1 bash scripts/kokkos-from-debian.sh build \
    "$WORK/ksrc" "$KU" cuda "$J" >"$LOG/kokkos-cuda-unpatched.log" 2>&1 &
fi
K256=$WORK/kokkos-cuda-bs256   # experiment: ties go to >= 256 threads (BS256=0 skips)
if [[ ${BS256:-1} == 1 && ! -d $K256 ]]; then
  rm -rf "$WORK/ksrc256"; cp -a .deps/kokkos-src "$WORK/ksrc256"
  sed -i 's/(block_size >= 128) \&\& (threads_per_sm == opt_threads_per_sm)/(block_size >= 256) \&\& (threads_per_sm == opt_threads_per_sm)/' \
    "$WORK/ksrc256/core/src/Cuda/Kokkos_Cuda_BlockSize_Deduction.hpp"
  bash scripts/kokkos-from-debian.sh build "$WORK/ksrc256" "$K256" cuda "$J" >"$LOG/kokkos-cuda-bs256.log" 2>&1 &
fi
nvcc -O3 -arch=sm_90 -o "$WORK/raw" bench/cuda/raw.cu >"$LOG/raw-build.log" 2>&1 &
"$PKC" --version >/dev/null 2>&1 || make -j"$J" build/bin/pkc build/lib/libpkcrt.so >"$LOG/make.log" 2>&1
wait
[[ -f $KC/include/KokkosCore_config.h ]] || { say "Kokkos CUDA build FAILED"; tail -30 "$LOG/kokkos-cuda.log"; exit 1; }
for k in "$KC" "$KU" "$K256"; do [[ -d $k ]] && bash scripts/kokkos-from-debian.sh fixconfig "$k"; done
if [[ -d $K256 ]]; then   # hand-written Kokkos + pkc stream against the >= 256 variant
  ( cmake -S bench/cuda -B "$WORK/bench-256" -DKokkos_ROOT="$K256" -DCMAKE_CXX_COMPILER="$K256/bin/nvcc_wrapper" \
    && cmake --build "$WORK/bench-256" -j 4 ) >"$LOG/bench-256-build.log" 2>&1 &
  mkdir -p "$WORK/pk256"; cp bench/cuda/stream_pk.py "$WORK/pk256/"
  "$PKC" build --backend cuda --kokkos-root "$K256" "$WORK/pk256/stream_pk.py" >"$LOG/build-stream_pk-256.log" 2>&1 &
fi
grep -c 'pkc: block-size tie rule' "$KC/include/Cuda/Kokkos_Cuda_BlockSize_Deduction.hpp" >/dev/null \
  && say "Kokkos block-size patch: present" || say "Kokkos block-size patch: MISSING"
# hand-written Kokkos baselines (GPU stream + bench/*.cpp), in the background
( cmake -S bench/cuda -B "$WORK/bench-cuda" -DKokkos_ROOT="$KC" -DCMAKE_CXX_COMPILER="$KC/bin/nvcc_wrapper" \
  && cmake --build "$WORK/bench-cuda" -j 4 ) >"$LOG/bench-cuda-build.log" 2>&1 &
( cmake -S bench -B "$WORK/bench-hw" -DKokkos_ROOT="$KC" -DCMAKE_CXX_COMPILER="$KC/bin/nvcc_wrapper" \
  && cmake --build "$WORK/bench-hw" -j 4 ) >"$LOG/bench-hw-build.log" 2>&1 &
say "Kokkos done"

build_one() {  # example.py -> "<stem> <exit status>" in $WORK/build-status
  local ex=$1 stem; stem=$(basename "$ex" .py)
  "$PKC" build --backend cuda --kokkos-root "$KC" -j 2 "$ex" >"$LOG/build-$stem.log" 2>&1
  echo "$stem $?" >>"$WORK/build-status"
}
export -f build_one; export LOG KC WORK PKC

# --- 2. crash probe ---------------------------------------------------------
rm -f "$WORK/build-status"
build_one examples/trivial.py
say "probe (trivial built: $(cat "$WORK/build-status"))"
{ echo "host compiler: $(g++ --version | head -1)"
  echo "std:: symbols exported by trivial.cuda.so: $(nm -D --defined-only examples/trivial.pk/trivial.cuda.so | c++filt | grep -c 'std::')"
  cat examples/trivial.pk/build-cuda/CMakeFiles/*/link.txt; } >"$LOG/module-diag.txt" 2>&1
head -2 "$LOG/module-diag.txt"
PKC_BACKEND=cuda timeout 60 "$PY" -X faulthandler scripts/gpu/probe.py >"$LOG/probe.log" 2>&1
prc=$?
cat "$LOG/probe.log"
if [[ $prc != 0 ]] && command -v cuda-gdb >/dev/null; then
  say "probe failed ($prc): cuda-gdb backtrace"
  PKC_BACKEND=cuda timeout 120 cuda-gdb -q -batch -ex run -ex bt -ex 'info sharedlibrary' \
    --args "$PY" scripts/gpu/probe.py >"$LOG/probe-gdb.log" 2>&1
  grep -v '^\[New Thread\|^\[Thread' "$LOG/probe-gdb.log" | tail -60
fi

# --- 3. examples: build all for CUDA in parallel, then run each ------------
ls examples/*.py bench/cuda/stream_pk.py | grep -v 'examples/trivial.py' \
  | xargs -P 16 -I{} bash -c 'build_one "$1"' _ {}   # the name as an argument, not as code
say "example builds done"
summary=()
for ex in examples/*.py; do
  stem=$(basename "$ex" .py)
  st=$(awk -v s="$stem" '$1==s{print $2}' "$WORK/build-status")
  if [[ $st != 0 ]]; then
    summary+=("BUILD-FAIL $stem: $(grep -m1 -i 'error' "$LOG/build-$stem.log" | cut -c1-110)"); continue
  fi
  args=$(sed -n 's/^#[[:space:]]*test-args:[[:space:]]*//p' "$ex" | head -1)
  [[ $stem == trivial ]] && args="1 2000 3"
  PKC_BACKEND=cuda timeout 120 "$PY" "$ex" $args >"$LOG/run-$stem.log" 2>&1
  rc=$?
  if [[ $rc == 0 ]]; then summary+=("PASS $stem: $(grep -m1 -i 'median\|PASSED' "$LOG/run-$stem.log" | cut -c1-100)")
  else summary+=("RUN-FAIL($rc) $stem: $(grep -v '^ ' "$LOG/run-$stem.log" | tail -1 | cut -c1-110)"); fi
done
printf '%s\n' "${summary[@]}" >"$LOG/summary.txt"
say "examples run"

# --- 4. bandwidth + pairs ----------------------------------------------------
LG=${BENCH_LOG2:-26}; IT=${BENCH_ITERS:-50}
wait   # hand-written builds
say "benchmark N=2^$LG, $IT iterations"
{
  "$WORK/raw" "$LG" "$IT"
  echo "== hand-written Kokkos (patched Kokkos 3.4)"; "$WORK/bench-cuda/kokkos_stream" "$LG" "$IT"
  echo "== pkc (patched Kokkos 3.4)"; PKC_BACKEND=cuda timeout 120 "$PY" bench/cuda/stream_pk.py "$LG" "$IT"
  echo "== raw CUDA again (spread)"; "$WORK/raw" "$LG" "$IT"
  echo "== pkc again (spread)"; PKC_BACKEND=cuda timeout 120 "$PY" bench/cuda/stream_pk.py "$LG" "$IT"
  if [[ -x $WORK/bench-256/kokkos_stream ]]; then
    echo "== experiment: Kokkos 3.4 patched with ties -> >= 256 threads"
    "$WORK/bench-256/kokkos_stream" "$LG" "$IT"
    PKC_BACKEND=cuda timeout 120 "$PY" "$WORK/pk256/stream_pk.py" "$LG" "$IT"
  fi
} 2>&1 | tee "$LOG/bench.txt"
pairs=(
  "nstream|examples/nstream.py|nstream_kokkos|33554432 20"
  "stencil|examples/stencil.py|stencil_kokkos|4000 20 32"
  "transpose|examples/transpose.py|transpose_kokkos|4096 20 32"
  "team_policy|examples/tutorial_team_policy.py|team_policy_kokkos|4096 1024 100"
  "gups|examples/gups.py|gups_kokkos|16777216 16777216 10"
)
ms() { grep -o -m1 -E '(median kernel|kernel median) [0-9.]+ ms' | grep -o -E '[0-9.]+ ms' || echo "n/a"; }
pair_table() {  # $1: PK_TIMING value ("" = default, "batch"); one table of all pairs
  printf '%-12s %-26s %14s %14s %7s\n' example args "pkc (ms)" "Kokkos (ms)" ratio
  for p in "${pairs[@]}"; do
    IFS='|' read -r name ex hw args <<<"$p"
    a=$(PK_TIMING=$1 PKC_BACKEND=cuda timeout 120 "$PY" "$ex" $args 2>&1 | tee -a "$LOG/pairs-raw.log" | ms)
    b=$(PK_TIMING=$1 timeout 120 "$WORK/bench-hw/$hw" $args 2>&1 | tee -a "$LOG/pairs-raw.log" | ms)
    r=$(awk -v a="${a% ms}" -v b="${b% ms}" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "n/a" }')
    printf '%-12s %-26s %14s %14s %7s\n' "$name" "$args" "$a" "$b" "$r"
  done
}
{
  echo "== timing: launch + fence per iteration (default), median"
  pair_table ""
  echo "== timing: PK_TIMING=batch (K launches + one fence, / K), median of R batches"
  pair_table batch
} 2>&1 | tee "$LOG/pairs.txt"

# --- 5./6. launch overhead, interop -----------------------------------------
say "launch overhead (trivial, N=1, 20000 calls x 5) and interop"
PKC_BACKEND=cuda timeout 120 "$PY" examples/trivial.py 1 20000 5 2>&1 | tee "$LOG/overhead.txt"
PKC_BACKEND=cuda timeout 120 "$PY" scripts/gpu/interop.py 2>&1 | tee "$LOG/interop.txt"

# --- 7. summary -------------------------------------------------------------
say "summary"
cat "$LOG/summary.txt"
npass=$(grep -c '^PASS' "$LOG/summary.txt"); ntot=$(wc -l <"$LOG/summary.txt")
echo "---- bandwidth (N=2^$LG) ----"; grep -E 'median|check|block size|^==' "$LOG/bench.txt" | head -40
echo "---- pkc vs hand-written Kokkos ----"; cat "$LOG/pairs.txt"
echo "---- launch overhead ----"; grep -m1 'overhead' "$LOG/overhead.txt"
echo "---- interop ----"; grep -E '^(PASS|FAIL)|interop:' "$LOG/interop.txt"
say "examples: $npass/$ntot passed on CUDA"
[[ $npass == "$ntot" ]]
