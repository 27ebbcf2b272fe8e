/* fuzz_signature.c - libFuzzer harness for the run-time specialization
 * signature parser (frontend/specialize.c, pkf_spec_parse): every input is
 * parsed as one signature; a parse error must come with a column inside the
 * text. Built and run by scripts/fuzz.sh (make fuzz). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = 0;
  pki_arena *a = pki_arena_new();
  pkf_spec s;
  int col = 0;
  char err[512];
  if (!pkf_spec_parse(a, text, &s, &col, err, sizeof err) &&
      (col < 1 || (size_t)col > strlen(text) + 1))
    abort(); /* a located message points into the text */
  pki_arena_free(a);
  free(text);
  return 0;
}
