#!/usr/bin/env bash
# Sets up everything pkc needs on a Debian bookworm machine, from nothing:
#   1. Debian packages (compiler, CMake, tree-sitter runtime, cmocka, OpenSSL,
#      DLPack header, numpy, git, and node/npm only if npm is missing),
#   2. the pinned Python grammar from npm (package-lock.json, no install scripts),
#      clang + libclang-rt-14-dev (libFuzzer: scripts/fuzz.sh),
#   3. Kokkos 3.4.01 from Debian's trilinos *source*, built with OpenMP + Serial
#      as shared libraries into .deps/kokkos-openmp (skipped when present),
#      and Kokkos 4 from ../shared/kokkos4 into .deps/kokkos4-openmp when that
#      folder is there (make test's kokkos4 group),
#   4. Kokkos with CUDA (nvcc, sm_90) into .deps/kokkos-cuda and with HIP
#      (Debian's hipcc, gfx908) into .deps/kokkos-hip, for CI's compile-only
#      GPU checks; each skipped when present, or (one line says why) when its
#      compiler is unavailable -- then `make test`'s gpu-compile group fails,
#   5. pkc itself (make).
# Run as root (sudo bash scripts/setup.sh) from any directory. Idempotent: a
# second run only checks and rebuilds what is missing. After the packages are
# installed, a non-root user may re-run it too.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
JOBS=$(nproc)
KOKKOS_PREFIX=$ROOT/.deps/kokkos-openmp
KOKKOS_SRC=$ROOT/.deps/kokkos-src
installed=()

say() { echo "setup: $*"; }

# --- 1. Debian packages ------------------------------------------------------
# openmpi-bin + python3-mpi4py: several ranks (pykokkos.mpi, examples/mpi_*.py)
# python3-sklearn: the PyKokkos-world ML programs of tests/compat (data sets)
# python3-mypy: tests/shim/test_typing.py type-checks programs against the shim's stub
PKGS=(build-essential cmake libtree-sitter-dev libcmocka-dev libssl-dev
      libdlpack-dev python3-numpy git ca-certificates dpkg-dev
      openmpi-bin python3-mpi4py python3-pip python3-setuptools pkgconf groff-base
      clang libclang-rt-14-dev python3-numba chromium python3-sklearn python3-mypy)
command -v npm >/dev/null 2>&1 || PKGS+=(nodejs npm)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $EUID -ne 0 ]]; then
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: run as root: sudo bash scripts/setup.sh" >&2
    exit 1
  fi
  say "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${PKGS[@]}" >/dev/null
  installed+=("Debian packages (${missing[*]})")
else
  say "Debian packages present"
fi

# --- 2. tree-sitter-python grammar (npm, pinned by package-lock.json) ---------
# and the tree-sitter runtime's C sources (the npm package's vendor/ copy)
want=$(sed -n 's/.*"tree-sitter-python": *"\([^"]*\)".*/\1/p' package.json | head -1)
have=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' node_modules/tree-sitter-python/package.json 2>/dev/null | head -1 || true)
rt_want=$(sed -n 's/.*"tree-sitter": *"\([^"]*\)".*/\1/p' package.json | head -1)
rt_have=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' node_modules/tree-sitter/package.json 2>/dev/null | head -1 || true)
if [[ -n $want && $want == "$have" && -f node_modules/tree-sitter-python/src/parser.c &&
      $rt_want == "$rt_have" && -f node_modules/tree-sitter/vendor/tree-sitter/lib/src/lib.c ]]; then
  say "tree-sitter-python $have and tree-sitter $rt_have present"
else
  say "installing tree-sitter-python $want and tree-sitter $rt_want from npm (npm ci)"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  installed+=("tree-sitter-python $want (npm)")
fi

# --- 3. Kokkos (Debian's source, OpenMP + Serial, shared) ---------------------
has_kokkos() { compgen -G "$1/lib*/cmake/Kokkos/KokkosConfig.cmake" >/dev/null; }
kokkos_src() {
  if [[ ! -f $KOKKOS_SRC/CMakeLists.txt ]]; then
    say "fetching Kokkos source from Debian's trilinos source package"
    rm -rf "$KOKKOS_SRC"
    bash scripts/kokkos-from-debian.sh fetch "$KOKKOS_SRC"
  fi
}
if has_kokkos "$KOKKOS_PREFIX"; then
  say "Kokkos present in $KOKKOS_PREFIX"
else
  kokkos_src
  say "building Kokkos (OpenMP + Serial) with $JOBS jobs"
  bash scripts/kokkos-from-debian.sh build "$KOKKOS_SRC" "$KOKKOS_PREFIX" openmp "$JOBS"
  installed+=("Kokkos 3.4.01 OpenMP+Serial in .deps/kokkos-openmp")
fi

# --- 3b. Kokkos 4 (OpenMP + Serial, deprecated code off) ---------------------
# From ../shared/kokkos4 (the develop tree at 4.6.99) when it is there: make
# test also builds and runs the examples and feature programs against it.
K4_TAR=$(compgen -G "$ROOT/../shared/kokkos4/kokkos-4*.tar.gz" | head -n 1 || true)
if has_kokkos "$ROOT/.deps/kokkos4-openmp"; then
  say "Kokkos 4 present in .deps/kokkos4-openmp"
elif [[ -n $K4_TAR ]]; then
  say "building Kokkos 4 (OpenMP + Serial, deprecated code off) from $(basename "$K4_TAR")"
  t=$SECONDS
  k4=$(mktemp -d)
  tar xzf "$K4_TAR" -C "$k4"
  k4src=$(dirname "$(compgen -G "$k4/*/CMakeLists.txt" | head -n 1)")
  cmake -S "$k4src" -B "$k4/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_DEPRECATED_CODE_4=OFF \
    -DCMAKE_INSTALL_PREFIX="$ROOT/.deps/kokkos4-openmp" >/dev/null
  cmake --build "$k4/build" -j"$JOBS" >/dev/null && cmake --install "$k4/build" >/dev/null
  rm -rf "$k4"
  installed+=("Kokkos 4 OpenMP+Serial in .deps/kokkos4-openmp ($((SECONDS - t)) s)")
else
  say "no ../shared/kokkos4: the Kokkos 4 tests will be skipped"
fi

# --- 4. Kokkos with CUDA and with HIP (compile-only in CI) --------------------
# nvcc: on PATH, else the CUDA toolkit's usual places.
find_nvcc() {
  local c
  for c in "$(command -v nvcc 2>/dev/null)" /usr/local/cuda/bin/nvcc /usr/local/cuda-*/bin/nvcc; do
    [[ -n $c && -x $c ]] && { echo "$c"; return 0; }
  done
  return 1
}
if has_kokkos "$ROOT/.deps/kokkos-cuda"; then
  say "Kokkos CUDA present in .deps/kokkos-cuda"
elif nvcc=$(find_nvcc); then
  kokkos_src
  say "building Kokkos (CUDA, sm_90) with $nvcc, $JOBS jobs"
  t=$SECONDS
  PATH=$(dirname "$nvcc"):$PATH bash scripts/kokkos-from-debian.sh build \
    "$KOKKOS_SRC" "$ROOT/.deps/kokkos-cuda" cuda "$JOBS"
  installed+=("Kokkos CUDA in .deps/kokkos-cuda ($((SECONDS - t)) s)")
else
  say "nvcc not found (PATH, /usr/local/cuda*/bin): no .deps/kokkos-cuda; the gpu-compile tests will fail"
fi

if has_kokkos "$ROOT/.deps/kokkos-hip"; then
  say "Kokkos HIP present in .deps/kokkos-hip"
else
  if ! command -v hipcc >/dev/null 2>&1 && [[ $EUID -eq 0 ]]; then
    say "installing Debian packages: hipcc libamdhip64-dev"
    hip_pkgs() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
                   hipcc libamdhip64-dev >/dev/null 2>&1; }
    { hip_pkgs || { apt-get update -qq && hip_pkgs; }; } \
      && installed+=("Debian packages (hipcc libamdhip64-dev)") || true
  fi
  if command -v hipcc >/dev/null 2>&1; then
    kokkos_src
    say "building Kokkos (HIP, gfx908) with $JOBS jobs"
    t=$SECONDS
    bash scripts/kokkos-from-debian.sh build "$KOKKOS_SRC" "$ROOT/.deps/kokkos-hip" hip "$JOBS"
    installed+=("Kokkos HIP in .deps/kokkos-hip ($((SECONDS - t)) s)")
  else
    say "hipcc unavailable (Debian packages hipcc, libamdhip64-dev not installed): no .deps/kokkos-hip; the gpu-compile tests will fail"
  fi
fi

# Kokkos installs built before a fix to their headers (scripts/kokkos-from-
# debian.sh fixconfig: idempotent) get it too.
for p in "$ROOT"/.deps/kokkos*; do
  has_kokkos "$p" && bash scripts/kokkos-from-debian.sh fixconfig "$p"
done

# --- 5. pkc -------------------------------------------------------------------
say "building pkc (make -j$JOBS)"
make -q all 2>/dev/null || installed+=("pkc (build/bin/pkc)")
make -j"$JOBS" --no-print-directory

# --- 6. the array library's kernels (pk.add, pk.sum, pk.matmul, ...) and ---
# the halo exchange's (pykokkos.mpi.Halo) -----------------------------------
# Built ahead of time for the host backends (openmp, the default, and serial),
# the three modules in parallel (each one's backends in turn: they share its
# output directory); GPU backends build them on first use. pkc skips modules
# that are fresh.
say "building the array library's and the halo exchange's kernels (runtime-shim/python/pykokkos/lib/_kernels_*.py, _halo_kernels.py; openmp and serial)"
t=$SECONDS
pids=()
for f in runtime-shim/python/pykokkos/lib/_kernels_*.py runtime-shim/python/pykokkos/_halo_kernels.py; do
  { build/bin/pkc build "$f" --backend openmp > /dev/null &&
    build/bin/pkc build "$f" --backend serial > /dev/null; } & pids+=($!)
done
for p in "${pids[@]}"; do
  wait "$p" || { say "pkc could not build the array library's kernels"; exit 1; }
done
say "array library kernels ready ($((SECONDS - t)) s)"

# Under sudo, hand what was built back to the invoking user, so that later
# `make` / `pkc build` runs as that user can write there.
if [[ $EUID -eq 0 && -n ${SUDO_UID:-} && ${SUDO_UID} != 0 ]]; then
  chown -R "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" node_modules .deps build \
    runtime-shim/python/pykokkos/lib runtime-shim/python/pykokkos/_halo_kernels.pk 2>/dev/null || true
fi

new="nothing (all present)"
((${#installed[@]})) && new=$(IFS=';'; echo "${installed[*]}" | sed 's/;/; /g')
say "done: Debian packages, tree-sitter-python $want, Kokkos in .deps/kokkos-{openmp,cuda,hip}" \
    "(as available) and build/bin/pkc are ready; installed or rebuilt now: $new"
