// fake_module.cpp - a hand-written module following pkc_abi.h exactly, used
// to test libpkcrt and the pykokkos shim before/independently of pkc. Its
// kernels mirror tests/shim/fake.py (FAKE_SOURCE_SHA256 = sha256 of fake.py).
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>

#include "pkc_abi.h"

#ifndef FAKE_SOURCE_SHA256
#define FAKE_SOURCE_SHA256 "unknown"
#endif

namespace {

using V1 = Kokkos::View<double *, Kokkos::LayoutRight, Kokkos::HostSpace,
                        Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using V1i = Kokkos::View<int32_t *, Kokkos::LayoutRight, Kokkos::HostSpace,
                         Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using V2 = Kokkos::View<double **, Kokkos::LayoutRight, Kokkos::HostSpace,
                        Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using Range = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>;

bool g_we_initialized = false;

// Checks args[i] is a contiguous C-order host tensor of (code, bits, rank).
bool check_view(const char *kernel, const pkc_param_desc &p, void *arg,
                char *err, size_t errlen) {
  const DLTensor *t = static_cast<const DLTensor *>(arg);
  if (t->device.device_type != kDLCPU) {
    snprintf(err, errlen, "%s: argument '%s': expected a host (CPU) array",
             kernel, p.name);
    return false;
  }
  if (t->dtype.code != p.dtype_code || t->dtype.bits != p.dtype_bits ||
      t->ndim != p.rank) {
    snprintf(err, errlen,
             "%s: argument '%s': expected dtype (%d,%d) rank %d, got (%d,%d) "
             "rank %d",
             kernel, p.name, p.dtype_code, p.dtype_bits, p.rank, t->dtype.code,
             t->dtype.bits, t->ndim);
    return false;
  }
  if (t->strides) {
    int64_t expect = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
      if (t->shape[d] > 1 && t->strides[d] != expect) {
        snprintf(err, errlen, "%s: argument '%s': not C-contiguous", kernel,
                 p.name);
        return false;
      }
      expect *= t->shape[d];
    }
  }
  return true;
}

template <class T> T *data_of(void *arg) {
  const DLTensor *t = static_cast<const DLTensor *>(arg);
  return reinterpret_cast<T *>(static_cast<char *>(t->data) + t->byte_offset);
}
int64_t extent(void *arg, int d) {
  return static_cast<const DLTensor *>(arg)->shape[d];
}

bool check_all(const pkc_kernel_desc &k, void *const *args,
               const pkc_policy *pol, char *err, size_t errlen) {
  if (pol->kind != PKC_POLICY_RANGE) {
    snprintf(err, errlen, "%s: expected a RangePolicy", k.name);
    return false;
  }
  for (int i = 0; i < k.nparams; i++)
    if (k.params[i].kind == PKC_PARAM_VIEW &&
        !check_view(k.name, k.params[i], args[i], err, errlen))
      return false;
  return true;
}

extern const pkc_kernel_desc g_kernels[];
Range range_of(const pkc_policy *p) { return Range(p->begin[0], p->end[0]); }

int k_nstream(void *const *args, const pkc_policy *pol, pkc_value *,
              char *err, size_t errlen) {
  if (!check_all(g_kernels[0], args, pol, err, errlen)) return 1;
  V1 A(data_of<double>(args[0]), extent(args[0], 0));
  V1 B(data_of<double>(args[1]), extent(args[1], 0));
  V1 C(data_of<double>(args[2]), extent(args[2], 0));
  double scalar = static_cast<pkc_value *>(args[3])->f;
  Kokkos::parallel_for("nstream", range_of(pol), KOKKOS_LAMBDA(int64_t i) {
    A(i) += B(i) + scalar * C(i);
  });
  Kokkos::fence();
  return 0;
}

int k_noop(void *const *args, const pkc_policy *pol, pkc_value *, char *err,
           size_t errlen) {
  if (!check_all(g_kernels[1], args, pol, err, errlen)) return 1;
  Kokkos::parallel_for("noop", range_of(pol), KOKKOS_LAMBDA(int64_t) {});
  Kokkos::fence();
  return 0;
}

int k_dot_sum(void *const *args, const pkc_policy *pol, pkc_value *res,
              char *err, size_t errlen) {
  if (!check_all(g_kernels[2], args, pol, err, errlen)) return 1;
  V1 x(data_of<double>(args[0]), extent(args[0], 0));
  double r = 0;
  Kokkos::parallel_reduce("dot_sum", range_of(pol),
      KOKKOS_LAMBDA(int64_t i, double &acc) { acc += x(i); }, r);
  res->f = r;
  return 0;
}

int k_count_pos(void *const *args, const pkc_policy *pol, pkc_value *res,
                char *err, size_t errlen) {
  if (!check_all(g_kernels[3], args, pol, err, errlen)) return 1;
  V1i v(data_of<int32_t>(args[0]), extent(args[0], 0));
  int64_t r = 0;
  Kokkos::parallel_reduce("count_pos", range_of(pol),
      KOKKOS_LAMBDA(int64_t i, int64_t &acc) { if (v(i) > 0) acc += 1; }, r);
  res->i = r;
  return 0;
}

int k_prefix(void *const *args, const pkc_policy *pol, pkc_value *res,
             char *err, size_t errlen) {
  if (!check_all(g_kernels[4], args, pol, err, errlen)) return 1;
  V1 x(data_of<double>(args[0]), extent(args[0], 0));
  V1 out(data_of<double>(args[1]), extent(args[1], 0));
  double total = 0;
  Kokkos::parallel_scan("prefix", range_of(pol),
      KOKKOS_LAMBDA(int64_t i, double &acc, bool final) {
        acc += x(i);
        if (final) out(i) = acc;
      }, total);
  res->f = total;
  return 0;
}

int k_fill2d(void *const *args, const pkc_policy *pol, pkc_value *, char *err,
             size_t errlen) {
  if (!check_all(g_kernels[5], args, pol, err, errlen)) return 1;
  V2 M(data_of<double>(args[0]), extent(args[0], 0), extent(args[0], 1));
  int64_t k = static_cast<pkc_value *>(args[1])->i;
  Kokkos::parallel_for("fill2d", range_of(pol), KOKKOS_LAMBDA(int64_t i) {
    for (int64_t j = 0; j < (int64_t)M.extent(1); j++) M(i, j) = i * 10 + j + k;
  });
  Kokkos::fence();
  return 0;
}

int k_axpy(void *const *args, const pkc_policy *pol, pkc_value *, char *err,
           size_t errlen) {
  if (!check_all(g_kernels[6], args, pol, err, errlen)) return 1;
  double a = static_cast<pkc_value *>(args[0])->f;
  V1 x(data_of<double>(args[1]), extent(args[1], 0));
  V1 y(data_of<double>(args[2]), extent(args[2], 0));
  Kokkos::parallel_for("Axpy.run", range_of(pol), KOKKOS_LAMBDA(int64_t i) {
    y(i) = a * x(i) + y(i);
  });
  Kokkos::fence();
  return 0;
}

#define VIEW(n, code, bits, rank, acc) \
  {n, PKC_PARAM_VIEW, code, bits, rank, PKC_LAYOUT_DEFAULT, acc}
#define SCALAR(n, code, bits) {n, PKC_PARAM_SCALAR, code, bits, 0, 0, PKC_ACCESS_READ}
const int RW = PKC_ACCESS_READ | PKC_ACCESS_WRITE;

const pkc_param_desc p_nstream[] = {
    VIEW("A", kDLFloat, 64, 1, RW), VIEW("B", kDLFloat, 64, 1, PKC_ACCESS_READ),
    VIEW("C", kDLFloat, 64, 1, PKC_ACCESS_READ), SCALAR("scalar", kDLFloat, 64)};
const pkc_param_desc p_dot[] = {VIEW("x", kDLFloat, 64, 1, PKC_ACCESS_READ)};
const pkc_param_desc p_count[] = {VIEW("v", kDLInt, 32, 1, PKC_ACCESS_READ)};
const pkc_param_desc p_prefix[] = {VIEW("x", kDLFloat, 64, 1, PKC_ACCESS_READ),
                                   VIEW("out", kDLFloat, 64, 1, PKC_ACCESS_WRITE)};
const pkc_param_desc p_fill2d[] = {VIEW("M", kDLFloat, 64, 2, PKC_ACCESS_WRITE),
                                   SCALAR("k", kDLInt, 64)};
const pkc_param_desc p_axpy[] = {SCALAR("a", kDLFloat, 64),
                                 VIEW("x", kDLFloat, 64, 1, PKC_ACCESS_READ),
                                 VIEW("y", kDLFloat, 64, 1, RW)};

const pkc_kernel_desc g_kernels[] = {
    {"nstream", "nstream", PKC_PATTERN_FOR, PKC_POLICY_RANGE, 0, 4, p_nstream, 0, 0, 7, k_nstream},
    {"noop", "noop", PKC_PATTERN_FOR, PKC_POLICY_RANGE, 0, 0, nullptr, 0, 0, 14, k_noop},
    {"dot_sum", "dot_sum", PKC_PATTERN_REDUCE, PKC_POLICY_RANGE, PKC_REDUCER_SUM, 1, p_dot, kDLFloat, 64, 19, k_dot_sum},
    {"count_pos", "count_pos", PKC_PATTERN_REDUCE, PKC_POLICY_RANGE, PKC_REDUCER_SUM, 1, p_count, kDLInt, 64, 24, k_count_pos},
    {"prefix", "prefix", PKC_PATTERN_SCAN, PKC_POLICY_RANGE, 0, 2, p_prefix, kDLFloat, 64, 30, k_prefix},
    {"fill2d", "fill2d", PKC_PATTERN_FOR, PKC_POLICY_RANGE, 0, 2, p_fill2d, 0, 0, 38, k_fill2d},
    {"run", "Axpy", PKC_PATTERN_FOR, PKC_POLICY_RANGE, 0, 3, p_axpy, 0, 0, 51, k_axpy},
};

int fake_initialize(int num_threads, char *err, size_t errlen) {
  if (Kokkos::is_initialized()) return 0;
  Kokkos::InitArguments args;
  args.num_threads = num_threads > 0 ? num_threads : -1;
  args.disable_warnings = true;
  Kokkos::initialize(args);
  g_we_initialized = true;
  return 0;
}

void fake_finalize() {
  if (!g_we_initialized) return;
  g_we_initialized = false;
  if (getenv("FAKE_TRACE_FINALIZE")) fprintf(stderr, "fake: Kokkos::finalize\n");
  Kokkos::finalize();
}

void fake_fence() { Kokkos::fence(); }

const pkc_module_desc g_module = {
    PKC_ABI_VERSION_OVERRIDE, "fake-0", FAKE_SOURCE_PATH, FAKE_SOURCE_SHA256,
    "fakekey", "openmp", "3.4.1", kDLCPU,
    (int32_t)(sizeof g_kernels / sizeof g_kernels[0]), g_kernels,
    fake_initialize, fake_finalize, fake_fence, nullptr, nullptr, nullptr};

} // namespace

extern "C" __attribute__((visibility("default"))) const pkc_module_desc *
pkc_module_v1(void) {
  return &g_module;
}
