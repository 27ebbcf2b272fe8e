#!/usr/bin/env bash
# Fuzzes pkc with libFuzzer: the translator (tests/fuzz/fuzz_translate.c),
# the specialization signature parser (fuzz_signature.c) and the recorded-
# signatures reader (fuzz_sidecar.c).
#   scripts/fuzz.sh SECONDS   build build/fuzz/fuzz_* (clang, ASan + UBSan +
#                             libFuzzer); run the translator that long on a
#                             corpus seeded from examples/ and tests/, then
#                             each other target for SECONDS/6 (at least 10 s;
#                             FUZZ_SMALL_SECONDS overrides) on seeds of
#                             signatures
# Findings (crash-*, leak-*, timeout-*) are written to build/fuzz/findings/;
# the exit status is libFuzzer's (non-zero on a finding).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
secs=${1:-60}
B=build/fuzz
mkdir -p "$B/obj" "$B/corpus" "$B/findings"
CC=${FUZZ_CC:-clang}
FLAGS="-g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
DEFS="-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DPKC_VERSION=\"fuzz\""
G=node_modules/tree-sitter-python/src
RT=node_modules/tree-sitter/vendor/tree-sitter/lib
objs=()
compile() { # src obj [flags...]
  local src=$1 obj=$2; shift 2
  if [[ ! -f $obj || $src -nt $obj || ir/ir.h -nt $obj || node_modules/.package-lock.json -nt $obj ]]; then
    $CC $FLAGS "$@" -c "$src" -o "$obj"
  fi
  objs+=("$obj")
}
pids=()
for src in ir/*.c frontend/*.c backends/*.c build/gen/embedded.c; do
  obj=$B/obj/$(echo "$src" | tr / _).o
  compile "$src" "$obj" -std=c11 $DEFS -I$RT/include -Iir -Ifrontend -Ibackends -Iruntime-shim
done
compile $G/parser.c $B/obj/parser.o -w -I$G
compile $G/scanner.c $B/obj/scanner.o -w -I$G
compile $RT/src/lib.c $B/obj/ts_runtime.o -w -std=c11 -D_DEFAULT_SOURCE -I$RT/include -I$RT/src
link() { # target
  $CC $FLAGS -fsanitize=fuzzer -std=c11 $DEFS -I$RT/include -Iir -Ifrontend -Ibackends -Iruntime-shim \
    tests/fuzz/$1.c "${objs[@]}" -lcrypto -lm -o $B/$1
}
link fuzz_translate
link fuzz_signature
link fuzz_sidecar
for f in examples/*.py tests/*/*.py tests/diagnostics/ok/*.py; do
  cp -n "$f" "$B/corpus/$(echo "$f" | tr / _)" 2>/dev/null || true
done
mkdir -p "$B/corpus-sig"
i=0
for sig in 'k()' 'axpy(a: float, x: pk.View1D[pk.float64], y: pk.View1D[pk.double], n: int)' \
    'k(A: pk.View2D[pk.float32, pk.LayoutLeft], b: bool, c: pk.int8)' \
    'k(v: pk.View8D[pk.uint64, pk.LayoutRight])' 'escalar_ñ(α: pk.float)'; do
  printf '%b' "$sig" > "$B/corpus-sig/seed$((i++))"
done
printf 'k(x: int)\n# note\n\nk(y: pk.View1D[pk.double])\r\n' > "$B/corpus-sig/seed-lines"
small=${FUZZ_SMALL_SECONDS:-$(( secs / 6 > 10 ? secs / 6 : 10 ))}
status=0
fuzz() { # target seconds corpus
  echo "fuzz: running $B/$1 for $2 s on $(ls "$3" | wc -l) inputs"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    $B/$1 -max_total_time="$2" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$B/findings/$1-" -print_final_stats=1 "$3" 2>&1 | tail -n 25
  local rc=${PIPESTATUS[0]}
  if [[ $rc != 0 ]]; then status=$rc; fi
}
fuzz fuzz_translate "$secs" "$B/corpus"
fuzz fuzz_signature "$small" "$B/corpus-sig"
mkdir -p "$B/corpus-sidecar"
cp -n "$B"/corpus-sig/* "$B/corpus-sidecar/" 2>/dev/null || true
fuzz fuzz_sidecar "$small" "$B/corpus-sidecar"
exit "$status"
