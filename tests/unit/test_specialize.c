/*
 * test_specialize.c - run-time specialization signatures (frontend/
 * specialize.c): the signature parser (columns of malformed input, Unicode
 * names, `pk.View1D)` without '[', an MDRange rank `k[3](...)`), the sidecar parser (file:line:col per
 * bad line) and the sidecar reader (a FIFO or a device is refused at once).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend.h"

static void bad(const char *sig, int want_col, const char *want) {
  pki_arena *a = pki_arena_new();
  pkf_spec s;
  int col = 0;
  char err[512] = "";
  if (pkf_spec_parse(a, sig, &s, &col, err, sizeof err))
    fail_msg("'%s' was accepted", sig);
  if (col != want_col || !strstr(err, want))
    fail_msg("'%s': column %d '%s', want column %d '%s'", sig, col, err, want_col, want);
  pki_arena_free(a);
}

static void test_spec_malformed(void **state) {
  (void)state;
  bad("k(x: pk.View1D)", 6, "unknown type for 'x'");
  bad("k(x: pk.View1D", 6, "unknown type for 'x'");
  bad("k(x: pk.View9D[pk.double])", 6, "unknown type");
  bad("k(x: pk.View0D[pk.double])", 6, "unknown type");
  bad("k(x: pk.View1D[pk.double, pk.Layout])", 27, "unknown type");
  bad("k(x: pk.View1D[pk.double)", 25, "unknown type");
  bad("k(x: pk.View", 6, "unknown type");
  bad("k(x: pk.", 6, "unknown type");
  bad("k(x:", 5, "unknown type");
  bad("k(x", 4, "expected 'name: type'");
  bad("k(x: int y: int)", 10, "expected ',' or ')'");
  bad("k(x: int) z", 11, "unexpected text");
  bad("(x: int)", 1, "expected 'kernel(");
  bad("", 1, "expected 'kernel(");
  bad("1k(x: int)", 1, "expected 'kernel(");
  bad("k[1](x: int)", 3, "with R in 2..6");
  bad("k[7](x: int)", 3, "with R in 2..6");
  bad("k[2(x: int)", 4, "with R in 2..6");
  bad("k[](x: int)", 3, "with R in 2..6");
}

static void test_spec_ok(void **state) {
  (void)state;
  pki_arena *a = pki_arena_new();
  pkf_spec s;
  int col = 0;
  char err[512];
  assert_true(pkf_spec_parse(a, "escalar_\xc3\xb1(v: pk.View2D [pk.float32, pk.LayoutLeft], "
                                "\xce\xb1: float)", &s, &col, err, sizeof err));
  assert_string_equal(s.kernel, "escalar_\xc3\xb1");
  assert_int_equal(s.n, 2);
  assert_string_equal(s.names[1], "\xce\xb1");
  assert_int_equal(s.types[0].kind, PKI_VIEW);
  assert_int_equal(s.types[0].rank, 2);
  assert_int_equal(s.rank, 0);
  /* launched with an MDRangePolicy of rank 3 */
  assert_true(pkf_spec_parse(a, "fill[ 3 ](a: pk.View3D[pk.float64], n: int)", &s, &col, err,
                             sizeof err));
  assert_string_equal(s.kernel, "fill");
  assert_int_equal(s.rank, 3);
  assert_int_equal(s.n, 2);
  /* a long name: no fixed buffer */
  char *big = malloc(70000);
  memset(big, 'a', 65000);
  strcpy(big + 65000, "(x: int)");
  assert_true(pkf_spec_parse(a, big, &s, &col, err, sizeof err));
  assert_int_equal(strlen(s.kernel), 65000);
  free(big);
  pki_arena_free(a);
}

static void test_sidecar_lines(void **state) {
  (void)state;
  pki_arena *a = pki_arena_new();
  static const char text[] = "k(x: int)\n# note\n\nk(x: pk.View1D)\r\nk(x: float)\r\nk(\0x)\nk(";
  char *msgs = NULL;
  size_t msize = 0;
  FILE *diag = open_memstream(&msgs, &msize);
  pkf_sidecar_line *v;
  int n;
  assert_int_equal(pkf_sidecar_parse(a, "app.pkc-signatures", text, sizeof text - 1, &v, &n,
                                     diag), 3);
  fclose(diag);
  assert_int_equal(n, 2);
  assert_int_equal(v[0].line, 1);
  assert_int_equal(v[1].line, 5);
  assert_string_equal(v[1].text, "k(x: float)");
  assert_non_null(strstr(msgs, "app.pkc-signatures:4:6: error: bad signature: unknown type"));
  assert_non_null(strstr(msgs, "app.pkc-signatures:6:3: error: a NUL byte"));
  assert_non_null(strstr(msgs, "app.pkc-signatures:7:3: error: bad signature"));
  free(msgs);
  pki_arena_free(a);
}

static void test_sidecar_not_regular(void **state) {
  (void)state;
  pki_arena *a = pki_arena_new();
  char dir[] = "/tmp/pkc_test_spec_XXXXXX", fifo[64];
  assert_non_null(mkdtemp(dir));
  snprintf(fifo, sizeof fifo, "%s/app.pkc-signatures", dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  char *text, err[512];
  size_t len;
  assert_int_equal(pkf_sidecar_read(a, fifo, &text, &len, err, sizeof err), -1);
  assert_non_null(strstr(err, ":1:1: error: the recorded signatures are not a regular file"));
  assert_int_equal(pkf_sidecar_read(a, "/dev/zero", &text, &len, err, sizeof err), -1);
  assert_int_equal(pkf_sidecar_read(a, dir, &text, &len, err, sizeof err), -1);
  unlink(fifo);
  assert_int_equal(pkf_sidecar_read(a, fifo, &text, &len, err, sizeof err), 0); /* absent */
  FILE *f = fopen(fifo, "w");
  fputs("k(x: int)\n", f);
  fclose(f);
  assert_int_equal(pkf_sidecar_read(a, fifo, &text, &len, err, sizeof err), 1);
  assert_int_equal(len, 10);
  assert_string_equal(text, "k(x: int)\n");
  unlink(fifo);
  rmdir(dir);
  pki_arena_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spec_malformed),
      cmocka_unit_test(test_spec_ok),
      cmocka_unit_test(test_sidecar_lines),
      cmocka_unit_test(test_sidecar_not_regular),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
