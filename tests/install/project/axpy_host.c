/* axpy_host.c - the install test's C program: loads the module that
 * pkc_add_module built (AXPY_MODULE, or argv[1]) through libpkcrt, runs
 * axpy (y += a * x) over n elements twice and checks y against the closed
 * form y[i] = 2 - i + 2 * 3 * 0.5 i = 2 + 2i. Prints "axpy_host: ok". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pkcrt.h>

enum { N = 1000 };

static DLTensor vector(double *data, int64_t *shape) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = 1;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 64;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}

/* The argument slots in the kernel's parameter order, found by name. */
static int bind(const pkc_kernel_desc *k, void *y, void *x, void *a, void *args[3]) {
  if (k->nparams != 3)
    return -1;
  for (int i = 0; i < 3; i++) {
    const char *n = k->params[i].name;
    args[i] = !strcmp(n, "y") ? y : !strcmp(n, "x") ? x : !strcmp(n, "a") ? a : NULL;
    if (!args[i])
      return -1;
  }
  return 0;
}

static int run(pkr_module *m, const pkc_kernel_desc *k) {
  static double x[N], y[N];
  int64_t shape = N;
  for (int i = 0; i < N; i++)
    x[i] = 0.5 * i, y[i] = 2.0 - i;
  DLTensor tx = vector(x, &shape), ty = vector(y, &shape);
  pkc_value a = {.f = 3.0};
  void *args[3];
  if (bind(k, &ty, &tx, &a, args) != 0) {
    fprintf(stderr, "axpy_host: axpy's parameters are not (y, x, a)\n");
    return 1;
  }
  pkc_policy pol;
  memset(&pol, 0, sizeof pol);
  pol.kind = PKC_POLICY_RANGE;
  pol.rank = 1;
  pol.end[0] = N;
  char err[512];
  for (int rep = 0; rep < 2; rep++)
    if (pkr_call(m, k, args, &pol, NULL, err, sizeof err) != 0) {
      fprintf(stderr, "axpy_host: %s\n", err);
      return 1;
    }
  pkr_fence(m);
  for (int i = 0; i < N; i++)
    if (y[i] != 2.0 + 2.0 * i) {
      fprintf(stderr, "axpy_host: y[%d] = %g, expected %g\n", i, y[i], 2.0 + 2.0 * i);
      return 1;
    }
  return 0;
}

int main(int argc, char **argv) {
#ifdef AXPY_MODULE
  const char *so = argc > 1 ? argv[1] : AXPY_MODULE;
#else
  const char *so = argc > 1 ? argv[1] : NULL;
#endif
  if (!so) {
    fprintf(stderr, "usage: axpy_host MODULE.so\n");
    return 2;
  }
  char err[512];
  pkr_module *m = pkr_open(so, 0, err, sizeof err);
  if (!m) {
    fprintf(stderr, "axpy_host: %s\n", err);
    return 1;
  }
  const pkc_kernel_desc *k = pkr_find_kernel(m, "axpy", "axpy");
  int bad = !k || run(m, k);
  if (!k)
    fprintf(stderr, "axpy_host: %s has no kernel axpy\n", so);
  pkr_close(m);
  if (bad)
    return 1;
  printf("axpy_host: ok (%s)\n", so);
  return 0;
}
