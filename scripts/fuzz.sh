#!/usr/bin/env bash
# Fuzzes pkc's translator with libFuzzer (tests/fuzz/fuzz_translate.c).
#   scripts/fuzz.sh SECONDS   build build/fuzz/fuzz_translate (clang, ASan +
#                             UBSan + libFuzzer) and run it that long on a
#                             corpus seeded from examples/ and tests/
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
$CC $FLAGS -fsanitize=fuzzer -std=c11 $DEFS -I$RT/include -Iir -Ifrontend -Ibackends -Iruntime-shim \
  tests/fuzz/fuzz_translate.c "${objs[@]}" -lcrypto -lm -o $B/fuzz_translate
for f in examples/*.py tests/*/*.py tests/diagnostics/ok/*.py; do
  cp -n "$f" "$B/corpus/$(echo "$f" | tr / _)" 2>/dev/null || true
done
echo "fuzz: running $B/fuzz_translate for $secs s on $(ls $B/corpus | wc -l) inputs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  $B/fuzz_translate -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$B/findings/" -print_final_stats=1 "$B/corpus" 2>&1 | tail -n 25
exit "${PIPESTATUS[0]}"
