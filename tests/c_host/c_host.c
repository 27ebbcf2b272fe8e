/* c_host.c - a plain C host calling a pkc-built kernel through libpkcrt.
 *
 * usage: c_host MODULE.so [N]
 * Opens MODULE.so, finds kernel entity "nstream" name "nstream" with params
 * (A, B, C: float64 1-D Views, scalar: float64) computing A += B + scalar*C
 * over 0..N, runs it 3 times and checks A against the closed form; then
 * checks that a wrongly typed argument is rejected with a message.
 * Prints "c_host: ok" and exits 0 on success, 1 on failure, 2 on usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pkcrt.h"

static DLTensor tensor_1d(void *data, int64_t *shape, uint8_t code,
                          uint8_t bits) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = 1;
  t.dtype.code = code;
  t.dtype.bits = bits;
  t.dtype.lanes = 1;
  t.shape = shape;
  t.strides = NULL; /* compact, row-major */
  return t;
}

static int check_desc(const pkc_kernel_desc *k) {
  static const char *names[] = {"A", "B", "C", "scalar"};
  if (k->pattern != PKC_PATTERN_FOR || k->nparams != 4) {
    fprintf(stderr, "c_host: nstream: unexpected pattern %d / %d params\n",
            (int)k->pattern, (int)k->nparams);
    return 1;
  }
  for (int i = 0; i < 4; i++)
    if (strcmp(k->params[i].name, names[i]) != 0) {
      fprintf(stderr, "c_host: nstream: param %d is '%s', expected '%s'\n", i,
              k->params[i].name, names[i]);
      return 1;
    }
  return 0;
}

static int run(pkr_module *m, const pkc_kernel_desc *k, int64_t n) {
  char err[512];
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b),
         *c = malloc(n * sizeof *c);
  int64_t shape = n;
  for (int64_t i = 0; i < n; i++) a[i] = 1.0 + i, b[i] = 2.0, c[i] = 0.5 * i;
  DLTensor ta = tensor_1d(a, &shape, kDLFloat, 64);
  DLTensor tb = tensor_1d(b, &shape, kDLFloat, 64);
  DLTensor tc = tensor_1d(c, &shape, kDLFloat, 64);
  pkc_value scalar = {.f = 3.0};
  void *args[4] = {&ta, &tb, &tc, &scalar};
  pkc_policy pol;
  memset(&pol, 0, sizeof pol);
  pol.kind = PKC_POLICY_RANGE;
  pol.rank = 1;
  pol.end[0] = n;
  int bad = 0;
  for (int rep = 0; rep < 3 && !bad; rep++)
    if (pkr_call(m, k, args, &pol, NULL, err, sizeof err) != 0) {
      fprintf(stderr, "c_host: call failed: %s\n", err);
      bad = 1;
    }
  pkr_fence(m);
  for (int64_t i = 0; i < n && !bad; i++) {
    double want = 1.0 + i + 3 * (2.0 + 3.0 * 0.5 * i);
    if (fabs(a[i] - want) > 1e-12 * fabs(want)) {
      fprintf(stderr, "c_host: A[%ld] = %g, expected %g\n", (long)i, a[i], want);
      bad = 1;
    }
  }
  /* A float32 tensor for A must be rejected with a message, not a crash. */
  DLTensor wrong = tensor_1d(a, &shape, kDLFloat, 32);
  args[0] = &wrong;
  if (!bad && pkr_call(m, k, args, &pol, NULL, err, sizeof err) == 0) {
    fprintf(stderr, "c_host: a float32 'A' was accepted\n");
    bad = 1;
  } else if (!bad && !strstr(err, "A")) {
    fprintf(stderr, "c_host: error message does not name 'A': %s\n", err);
    bad = 1;
  }
  /* A NULL shape pointer and a negative extent: an error naming 'A', no crash. */
  DLTensor noshape = tensor_1d(a, NULL, kDLFloat, 64);
  int64_t negative = -5;
  DLTensor neg = tensor_1d(a, &negative, kDLFloat, 64);
  DLTensor *odd[] = {&noshape, &neg};
  const char *want[] = {"NULL shape", "negative extent"};
  for (int i = 0; i < 2 && !bad; i++) {
    args[0] = odd[i];
    err[0] = 0;
    if (pkr_call(m, k, args, &pol, NULL, err, sizeof err) == 0 || !strstr(err, "'A'") ||
        !strstr(err, want[i])) {
      fprintf(stderr, "c_host: tensor with %s: error '%s'\n", want[i], err);
      bad = 1;
    }
  }
  free(a), free(b), free(c);
  return bad;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: c_host MODULE.so [N]\n");
    return 2;
  }
  int64_t n = argc > 2 ? atoll(argv[2]) : 1000;
  char err[512];
  pkr_module *m = pkr_open(argv[1], 0, err, sizeof err);
  if (!m) {
    fprintf(stderr, "c_host: %s\n", err);
    return 1;
  }
  const pkc_kernel_desc *k = pkr_find_kernel(m, "nstream", "nstream");
  if (!k) {
    fprintf(stderr, "c_host: %s has no kernel nstream/nstream\n", argv[1]);
    return 1;
  }
  int bad = check_desc(k) || run(m, k, n);
  pkr_close(m);
  if (bad) return 1;
  printf("c_host: ok\n");
  return 0;
}
