/* fuzz_translate.c - libFuzzer harness for the translator: every input is
 * parsed, lowered and checked; an input the checker accepts is also planned
 * (fusion, extents) and emitted (C++, header, CMakeLists.txt) in memory.
 * Built with clang -fsanitize=fuzzer,address,undefined (make fuzz); any
 * sanitizer report, crash, leak or hang is a bug.
 * Seed corpus: examples/ and tests/ (scripts/fuzz.sh gathers it). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "frontend.h"
#include "pkb_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *src = malloc(size + 1);
  if (!src)
    return 0;
  memcpy(src, data, size);
  src[size] = 0;
  pki_diags d;
  memset(&d, 0, sizeof d);
  pkf_options fo = {.keep_going = true};
  pki_module *m = pkf_lower_with("fuzz.py", src, size, &fo, &d);
  if (m && d.errors == 0 && pki_check(m, &d) == 0) {
    pki_fusion_plan_module(m);
    pki_extent_plan_module(m);
    pki_mdrange_plan_module(m);
    pki_range_plan_module(m);
    pki_footprint_plan_module(m);
    pki_nonneg_plan_module(m);
    pkb_options o = {.outdir = "fuzz.pk", .backend = "openmp", .pkc_version = "fuzz",
                     .line_directives = true};
    pkb_texts t;
    pkb_texts_make(m, &o, &t);
    pkb_texts_free(&t);
  }
  if (m)
    pki_module_free(m);
  free(src);
  return 0;
}
