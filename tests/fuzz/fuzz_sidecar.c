/* fuzz_sidecar.c - libFuzzer harness for the recorded-signatures reader
 * (frontend/specialize.c): every input is written to a scratch file, read
 * with pkf_sidecar_read and parsed line by line with pkf_sidecar_parse (its
 * messages go to /dev/null). Built and run by scripts/fuzz.sh (make fuzz). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];
static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!path[0]) {
    snprintf(path, sizeof path, "/tmp/pkc_fuzz_sidecar_%d.pkc-signatures", (int)getpid());
    sink = fopen("/dev/null", "w");
  }
  FILE *f = fopen(path, "wb");
  if (!f)
    return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  pki_arena *a = pki_arena_new();
  char *text, err[512];
  size_t len;
  if (pkf_sidecar_read(a, path, &text, &len, err, sizeof err) == 1) {
    if (len != size || memcmp(text, data, size))
      abort(); /* read back what was written */
    pkf_sidecar_line *lines;
    int n;
    pkf_sidecar_parse(a, path, text, len, &lines, &n, sink);
  }
  pki_arena_free(a);
  return 0;
}
