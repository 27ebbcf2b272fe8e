#!/usr/bin/env bash
# pkc under AddressSanitizer + UndefinedBehaviorSanitizer: builds
# build/asan/bin/pkc (gcc) and runs `pkc check`, `pkc ir` and `pkc emit` on
# every Python file in the tree (examples, tests, the shim's kernel files,
# benchmarks). A sanitizer report, a signal or an exit status other than 0
# (clean) or 1 (input errors) fails; the offending command is printed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
B=build/asan
make -s -j"$(nproc)" B=$B CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
  $B/bin/pkc || exit 2
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
files=$(find examples tests bench runtime-shim/python/pykokkos -name '*.py' -not -path '*/.pk/*' \
          -not -path '*.pk/*' | LC_ALL=C sort)
n=0 bad=0
for f in $files; do
  for cmd in check ir emit; do
    args=("$cmd" "$f")
    [[ $cmd == emit ]] && args+=(-o "$out/x.pk")
    log=$($B/bin/pkc "${args[@]}" 2>&1 >/dev/null)
    rc=$?
    n=$((n + 1))
    if [[ $rc -gt 1 && $rc -ne 3 ]] || grep -q "runtime error:\|AddressSanitizer\|LeakSanitizer" <<<"$log"; then
      bad=$((bad + 1))
      echo "sanitize: FAIL pkc ${args[*]} (exit $rc)"
      grep -m 20 "runtime error:\|Sanitizer\|#[0-9]" <<<"$log" | sed 's/^/    | /'
    fi
  done
done
echo "sanitize: $n runs over $(wc -w <<<"$files") files, $bad with findings"
[[ $bad -eq 0 ]]
