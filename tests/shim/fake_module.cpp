// fake_module.cpp - a hand-written module following pkc_abi.h exactly, used
// to test libpkcrt and the pykokkos shim before/independently of pkc. Its
// kernels mirror tests/shim/fake.py (FAKE_SOURCE_SHA256 = sha256 of fake.py).
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
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
  if (t->ndim > 0 && !t->shape) {
    snprintf(err, errlen, "%s: argument '%s': NULL shape pointer", kernel, p.name);
    return false;
  }
  for (int d = 0; d < t->ndim; d++)
    if (t->shape[d] < 0) {
      snprintf(err, errlen, "%s: argument '%s': negative extent %lld in dimension %d", kernel,
               p.name, static_cast<long long>(t->shape[d]), d);
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
  if (k.pattern != PKC_PATTERN_MAIN && pol->kind != k.policy) {
    snprintf(err, errlen, "%s: policy kind %d, expected %d", k.name, pol->kind,
             k.policy);
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


// ---- dialect kernels: team, MDRange, Max reducer, random pool, workload ----
using Team = Kokkos::TeamPolicy<Kokkos::DefaultExecutionSpace>;
using Member = Team::member_type;
using Scratch1 = Kokkos::View<double *, Kokkos::DefaultExecutionSpace::scratch_memory_space,
                              Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using V3i = Kokkos::View<int32_t ***, Kokkos::LayoutRight, Kokkos::HostSpace,
                         Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using Pool64 = Kokkos::Random_XorShift64_Pool<Kokkos::DefaultExecutionSpace>;
using Pool1024 = Kokkos::Random_XorShift1024_Pool<Kokkos::DefaultExecutionSpace>;

int k_noop_raw(void *const *, const pkc_policy *, pkc_value *, char *, size_t) {
  return 0;
}

Team team_of(const pkc_policy *p) {
  Team t = p->team_size > 0
               ? Team(p->league_size, p->team_size,
                      p->vector_length > 0 ? p->vector_length : 1)
               : Team(p->league_size, Kokkos::AUTO);
  return t.set_scratch_size(0, Kokkos::PerTeam(p->scratch_team[0]),
                            Kokkos::PerThread(p->scratch_thread[0]));
}

int k_team_sum(void *const *args, const pkc_policy *pol, pkc_value *res,
               char *err, size_t errlen) {
  if (!check_all(g_kernels[8], args, pol, err, errlen)) return 1;
  if (pol->scratch_team[0] + pol->scratch_thread[0] == 0) {
    snprintf(err, errlen, "team_sum: uses team scratch level 0 but the policy sets "
             "no scratch size; call set_scratch_size");
    return PKC_ERROR_VALUE;  /* as generated modules: a ValueError */
  }
  V2 x(data_of<double>(args[0]), extent(args[0], 0), extent(args[0], 1));
  double r = 0;
  Kokkos::parallel_reduce("team_sum", team_of(pol),
      KOKKOS_LAMBDA(const Member &m, double &acc) {
        const int64_t row = m.league_rank();
        Scratch1 s(m.team_scratch(0), 1);
        double t = 0;
        Kokkos::parallel_reduce(Kokkos::TeamThreadRange(m, (int64_t)x.extent(1)),
            [&](int64_t j, double &a) { a += x(row, j); }, t);
        Kokkos::single(Kokkos::PerTeam(m), [&]() { s(0) = t; });
        m.team_barrier();
        Kokkos::single(Kokkos::PerTeam(m), [&]() { acc += s(0); });
      }, r);
  res->f = r;
  return 0;
}

template <class Body> void md2(const pkc_policy *p, const char *name, Body body) {
  if (p->iterate == 2) {
    using P = Kokkos::MDRangePolicy<Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
    Kokkos::parallel_for(name, P({p->begin[0], p->begin[1]}, {p->end[0], p->end[1]},
                                 {p->tile[0], p->tile[1]}), body);
  } else {
    using P = Kokkos::MDRangePolicy<Kokkos::Rank<2, Kokkos::Iterate::Right, Kokkos::Iterate::Right>>;
    Kokkos::parallel_for(name, P({p->begin[0], p->begin[1]}, {p->end[0], p->end[1]},
                                 {p->tile[0], p->tile[1]}), body);
  }
}

bool check_rank(const char *name, const pkc_policy *pol, int rank, char *err,
                size_t errlen) {
  if (pol->rank == rank) return true;
  snprintf(err, errlen, "%s: the kernel takes %d indices but the MDRangePolicy has rank %d",
           name, rank, (int)pol->rank);
  return false;
}

int k_md_fill(void *const *args, const pkc_policy *pol, pkc_value *, char *err,
              size_t errlen) {
  if (!check_all(g_kernels[9], args, pol, err, errlen) ||
      !check_rank("md_fill", pol, 2, err, errlen)) return 1;
  V2 M(data_of<double>(args[0]), extent(args[0], 0), extent(args[0], 1));
  md2(pol, "md_fill", KOKKOS_LAMBDA(int64_t i, int64_t j) { M(i, j) = i * 100 + j; });
  Kokkos::fence();
  return 0;
}

int k_md_fill3(void *const *args, const pkc_policy *pol, pkc_value *, char *err,
               size_t errlen) {
  if (!check_all(g_kernels[10], args, pol, err, errlen) ||
      !check_rank("md_fill3", pol, 3, err, errlen)) return 1;
  V3i T(data_of<int32_t>(args[0]), extent(args[0], 0), extent(args[0], 1),
        extent(args[0], 2));
  using P = Kokkos::MDRangePolicy<Kokkos::Rank<3>>;
  const pkc_policy *p = pol;
  Kokkos::parallel_for("md_fill3",
      P({p->begin[0], p->begin[1], p->begin[2]}, {p->end[0], p->end[1], p->end[2]},
        {p->tile[0], p->tile[1], p->tile[2]}),
      KOKKOS_LAMBDA(int64_t i, int64_t j, int64_t k) { T(i, j, k) = i * 100 + j * 10 + k; });
  Kokkos::fence();
  return 0;
}

int k_md_max(void *const *args, const pkc_policy *pol, pkc_value *res, char *err,
             size_t errlen) {
  if (!check_all(g_kernels[11], args, pol, err, errlen) ||
      !check_rank("md_max", pol, 2, err, errlen)) return 1;
  V2 M(data_of<double>(args[0]), extent(args[0], 0), extent(args[0], 1));
  using P = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
  double r;
  Kokkos::parallel_reduce("md_max",
      P({pol->begin[0], pol->begin[1]}, {pol->end[0], pol->end[1]}),
      KOKKOS_LAMBDA(int64_t i, int64_t j, double &acc) { if (M(i, j) > acc) acc = M(i, j); },
      Kokkos::Max<double>(r));
  res->f = r;
  return 0;
}

int k_rand_fill(void *const *args, const pkc_policy *pol, pkc_value *, char *err,
                size_t errlen) {
  if (!check_all(g_kernels[12], args, pol, err, errlen)) return 1;
  Pool64 *pool = reinterpret_cast<Pool64 *>(static_cast<pkc_value *>(args[0])->u);
  if (!pool) {
    snprintf(err, errlen, "rand_fill: argument 'pool' is not a created pool");
    return 1;
  }
  V1 out(data_of<double>(args[1]), extent(args[1], 0));
  Pool64 p = *pool;
  Kokkos::parallel_for("rand_fill", range_of(pol), KOKKOS_LAMBDA(int64_t i) {
    auto st = p.get_state();
    out(i) = st.drand();
    p.free_state(st);
  });
  Kokkos::fence();
  return 0;
}

// Work.run (a @pk.main): fill x[i] = i, total = sum(x), iters += 1, done = true.
int k_work_main(void *const *args, const pkc_policy *pol, pkc_value *, char *err,
                size_t errlen) {
  if (pol) {
    snprintf(err, errlen, "Work.run: a main takes no policy");
    return 1;
  }
  if (!check_all(g_kernels[13], args, pol, err, errlen)) return 1;
  int64_t n = static_cast<pkc_value *>(args[0])->i;
  V1 x(data_of<double>(args[1]), extent(args[1], 0));
  Kokkos::parallel_for("Work.fill", Range(0, n), KOKKOS_LAMBDA(int64_t i) { x(i) = i; });
  double total = 0;
  Kokkos::parallel_reduce("Work.lambda", Range(0, n),
      KOKKOS_LAMBDA(int64_t i, double &acc) { acc += x(i); }, total);
  static_cast<pkc_value *>(args[2])->f = total;
  static_cast<pkc_value *>(args[3])->i += 1;
  static_cast<pkc_value *>(args[4])->i = 1;
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

#define SCALAR_RW(n, code, bits, acc) {n, PKC_PARAM_SCALAR, code, bits, 0, 0, acc}
const pkc_param_desc p_team_sum[] = {VIEW("x", kDLFloat, 64, 2, PKC_ACCESS_READ)};
const pkc_param_desc p_md_fill[] = {VIEW("M", kDLFloat, 64, 2, PKC_ACCESS_WRITE)};
const pkc_param_desc p_md_fill3[] = {VIEW("T", kDLInt, 32, 3, PKC_ACCESS_WRITE)};
const pkc_param_desc p_md_max[] = {VIEW("M", kDLFloat, 64, 2, PKC_ACCESS_READ)};
const pkc_param_desc p_rand_fill[] = {
    {"pool", PKC_PARAM_POOL, kDLUInt, 64, 64, 0, PKC_ACCESS_READ},
    VIEW("out", kDLFloat, 64, 1, PKC_ACCESS_WRITE)};
const pkc_param_desc p_work[] = {
    SCALAR_RW("n", kDLInt, 64, PKC_ACCESS_READ), VIEW("x", kDLFloat, 64, 1, RW),
    SCALAR_RW("total", kDLFloat, 64, PKC_ACCESS_WRITE),
    SCALAR_RW("iters", kDLInt, 64, RW), SCALAR_RW("done", 6 /* kDLBool */, 8, PKC_ACCESS_WRITE)};

const pkc_kernel_desc g_kernels[] = {
    {"nstream", "nstream", PKC_PATTERN_FOR, PKC_POLICY_RANGE, 0, 4, p_nstream, 0, 0, 7, k_nstream},
    {"noop", "noop", PKC_PATTERN_FOR, PKC_POLICY_RANGE, 0, 0, nullptr, 0, 0, 14, k_noop},
    {"dot_sum", "dot_sum", PKC_PATTERN_REDUCE, PKC_POLICY_RANGE, PKC_REDUCER_SUM, 1, p_dot, kDLFloat, 64, 19, k_dot_sum},
    {"count_pos", "count_pos", PKC_PATTERN_REDUCE, PKC_POLICY_RANGE, PKC_REDUCER_SUM, 1, p_count, kDLInt, 64, 24, k_count_pos},
    {"prefix", "prefix", PKC_PATTERN_SCAN, PKC_POLICY_RANGE, 0, 2, p_prefix, kDLFloat, 64, 30, k_prefix},
    {"fill2d", "fill2d", PKC_PATTERN_FOR, PKC_POLICY_RANGE, 0, 2, p_fill2d, 0, 0, 38, k_fill2d},
    {"run", "Axpy", PKC_PATTERN_FOR, PKC_POLICY_RANGE, 0, 3, p_axpy, 0, 0, 51, k_axpy},
    {"noop_raw", "noop_raw", PKC_PATTERN_FOR, PKC_POLICY_RANGE, 0, 0, nullptr, 0, 0, 58, k_noop_raw},
    {"team_sum", "team_sum", PKC_PATTERN_REDUCE, PKC_POLICY_TEAM, PKC_REDUCER_SUM, 1, p_team_sum, kDLFloat, 64, 63, k_team_sum},
    {"md_fill", "md_fill", PKC_PATTERN_FOR, PKC_POLICY_MDRANGE, 0, 1, p_md_fill, 0, 0, 83, k_md_fill},
    {"md_fill3", "md_fill3", PKC_PATTERN_FOR, PKC_POLICY_MDRANGE, 0, 1, p_md_fill3, 0, 0, 88, k_md_fill3},
    {"md_max", "md_max", PKC_PATTERN_REDUCE, PKC_POLICY_MDRANGE, PKC_REDUCER_MAX, 1, p_md_max, kDLFloat, 64, 93, k_md_max},
    {"rand_fill", "rand_fill", PKC_PATTERN_FOR, PKC_POLICY_RANGE, 0, 2, p_rand_fill, 0, 0, 98, k_rand_fill},
    {"run", "Work", PKC_PATTERN_MAIN, PKC_POLICY_RANGE, 0, 5, p_work, 0, 0, 113, k_work_main},
    {"team_raw", "team_raw", PKC_PATTERN_FOR, PKC_POLICY_TEAM, 0, 0, nullptr, 0, 0, 132, k_noop_raw},
    {"md_raw", "md_raw", PKC_PATTERN_FOR, PKC_POLICY_MDRANGE, 0, 0, nullptr, 0, 0, 137, k_noop_raw},
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

void *fake_pool_create(int32_t bits, uint64_t seed, char *err, size_t errlen) {
  if (getenv("FAKE_TRACE_FINALIZE")) fprintf(stderr, "fake: pool_create %d\n", (int)bits);
  if (bits == 64) return new Pool64(seed);
  if (bits == 1024) return new Pool1024(seed);
  snprintf(err, errlen, "pool_create: bits must be 64 or 1024, got %d", (int)bits);
  return nullptr;
}

void fake_pool_destroy(int32_t bits, void *p) {
  if (!Kokkos::is_initialized()) return;
  if (getenv("FAKE_TRACE_FINALIZE")) fprintf(stderr, "fake: pool_destroy %d\n", (int)bits);
  if (bits == 64) delete static_cast<Pool64 *>(p);
  else if (bits == 1024) delete static_cast<Pool1024 *>(p);
}

const pkc_module_desc g_module = {
    PKC_ABI_VERSION_OVERRIDE, "fake-0", FAKE_SOURCE_PATH, FAKE_SOURCE_SHA256,
    "fakekey", "openmp", "3.4.1", kDLCPU,
    (int32_t)(sizeof g_kernels / sizeof g_kernels[0]), g_kernels,
    fake_initialize, fake_finalize, fake_fence, nullptr, nullptr, nullptr,
    fake_pool_create, fake_pool_destroy, ""};

} // namespace

extern "C" __attribute__((visibility("default"))) const pkc_module_desc *
pkc_module_v2(void) {
  return &g_module;
}
