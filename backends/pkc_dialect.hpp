// pkc_dialect.hpp - device-side support for the PyKokkos dialect beyond plain
// range kernels: team policies and loops, scratch, atomics, random numbers,
// subviews, MDRange iteration order. Included at the end of pkc_kokkos.hpp
// (inside nothing: it opens namespace pkc itself).
#ifndef PKC_DIALECT_HPP
#define PKC_DIALECT_HPP

#include <Kokkos_Random.hpp>
#include <Kokkos_Sort.hpp>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

namespace pkc {

// ------------------------------------------------------------ team policies
// The work index of a TeamPolicy workunit.
using TeamMember = Kokkos::TeamPolicy<ExecSpace>::member_type;

template <class Tag>
using TeamPolicy = Kokkos::TeamPolicy<ExecSpace, Tag>;

// The TeamPolicy a wrapper launches, from the host's pkc_policy: team_size 0
// = Kokkos::AUTO, vector_length 0 = 1, scratch bytes per level (team/thread).
template <class Tag>
inline TeamPolicy<Tag> team_policy(const pkc_policy &p) {
  const int league = static_cast<int>(p.league_size);
  const int vector = p.vector_length > 0 ? static_cast<int>(p.vector_length) : 1;
  TeamPolicy<Tag> pol = p.team_size > 0
                            ? TeamPolicy<Tag>(league, static_cast<int>(p.team_size), vector)
                            : TeamPolicy<Tag>(league, Kokkos::AUTO, vector);
  for (int level = 0; level < 2; level++)
    if (p.scratch_team[level] > 0 || p.scratch_thread[level] > 0)
      pol = pol.set_scratch_size(level,
                                 Kokkos::PerTeam(static_cast<size_t>(p.scratch_team[level])),
                                 Kokkos::PerThread(static_cast<size_t>(p.scratch_thread[level])));
  return pol;
}

// team_policy for a kernel with a nested parallel_scan over TeamThreadRange:
// Kokkos' team scan on GPUs needs a power-of-two team (cuda_intra_block_scan
// asserts), and Kokkos::AUTO may choose another size; there AUTO becomes the
// largest power of two not above the size Kokkos recommends for f.
template <class Tag, class Functor, class PatternTag>
inline TeamPolicy<Tag> scan_team_policy(const pkc_policy &p, const Functor &f, PatternTag pattern) {
#if defined(PKC_BACKEND_CUDA) || defined(PKC_BACKEND_HIP)
  if (p.team_size <= 0) {
    pkc_policy q = p;
    const int vector = p.vector_length > 0 ? static_cast<int>(p.vector_length) : 1;
    const int rec = TeamPolicy<Tag>(static_cast<int>(p.league_size), Kokkos::AUTO, vector)
                        .team_size_recommended(f, pattern);
    q.team_size = 1;
    while (q.team_size * 2 <= rec) q.team_size *= 2;
    return team_policy<Tag>(q);
  }
#else
  (void)f;
  (void)pattern;
#endif
  return team_policy<Tag>(p);
}

// Whether the host's team shape fits what the backend allows for this functor,
// checked before any Kokkos::TeamPolicy with that shape exists (Kokkos aborts
// the process on a team size it cannot run; pkc reports an error instead).
// PatternTag: Kokkos::ParallelForTag or Kokkos::ParallelReduceTag.
template <class Tag, class Functor, class PatternTag>
inline bool team_fits(const pkc_policy &p, const Functor &f, PatternTag pattern,
                      const char *kernel, char *err, size_t errlen) {
  char msg[200];
  if (p.league_size < 0 || p.team_size < 0 || p.vector_length < 0) {
    std::snprintf(msg, sizeof msg, "league size, team size and vector length must not be negative");
    return fail(err, errlen, kernel, msg) == 0;
  }
  const int64_t vmax = TeamPolicy<Tag>::vector_length_max();
  if (p.vector_length > vmax) {
    std::snprintf(msg, sizeof msg, "vector length %lld is larger than %lld, the most this backend allows",
                  static_cast<long long>(p.vector_length), static_cast<long long>(vmax));
    return fail(err, errlen, kernel, msg) == 0;
  }
  if (p.team_size <= 0)
    return true;  // Kokkos::AUTO
  const int vector = p.vector_length > 0 ? static_cast<int>(p.vector_length) : 1;
  const int64_t tmax =
      TeamPolicy<Tag>(static_cast<int>(p.league_size), Kokkos::AUTO, vector).team_size_max(f, pattern);
  if (p.team_size > tmax) {
    std::snprintf(msg, sizeof msg,
                  "team size %lld is larger than %lld, the most this backend allows for this kernel "
                  "(use pk.AUTO)", static_cast<long long>(p.team_size), static_cast<long long>(tmax));
    return fail(err, errlen, kernel, msg) == 0;
  }
  return true;
}

// Whether the team scratch Views at the top of a team kernel's body (bytes:
// their elements, padding aside) fit what the policy gives a team at level
// (set_scratch_size: per team, plus per thread times the team size); past
// the end Kokkos hands out a null pointer, which the kernel would write
// through. With pk.AUTO and a per-thread size the team size is not known:
// no verdict.
inline bool team_scratch_fits(const pkc_policy &p, int level, int64_t bytes, const char *kernel,
                              char *err, size_t errlen) {
  const int64_t team = p.scratch_team[level], thread = p.scratch_thread[level];
  if (p.team_size <= 0 && thread > 0) return true;
  const int64_t have = team + thread * (p.team_size > 0 ? p.team_size : 0);
  if (bytes <= have) return true;
  char msg[320];
  std::snprintf(msg, sizeof msg,
                "its team scratch Views at level %d take %lld bytes, but the policy gives a team "
                "%lld (set_scratch_size(%d, pk.PerTeam(...)) with the sum of "
                "pk.ScratchView1D.shmem_size(n) of the Views)",
                level, static_cast<long long>(bytes), static_cast<long long>(have), level);
  return fail(err, errlen, kernel, msg) == 0;
}

// team_fits for a TeamPolicy dispatch inside @pk.main (team 0: Kokkos::AUTO):
// throws range_error (ValueError) instead of letting Kokkos abort the process.
template <class Tag, class Functor, class PatternTag>
inline void main_team_fits(int64_t league, int64_t team, int64_t vector, const Functor &f,
                           PatternTag pattern, const char *kernel) {
  pkc_policy p{};
  p.kind = PKC_POLICY_TEAM;
  p.league_size = league;
  p.team_size = team;
  p.vector_length = vector;
  char msg[320];
  if (!team_fits<Tag>(p, f, pattern, kernel, msg, sizeof msg)) throw range_error(msg);
}

// Whether the host's MDRange tiles fit the backend, checked before the policy
// exists: Kokkos aborts the process when the product of the tile dimensions
// exceeds what its backend allows (Impl::get_tile_size_properties, 3.4 and 4.x),
// and on GPUs a tile is a block of at most 1024 threads; Kokkos 4 aborts too on
// an end below its begin (the Python shim passes end = begin for an empty range;
// a C caller gets this error).
#if PKC_GLUE_BODIES
PKC_GLUE bool tiles_fit(const pkc_policy &p, int rank, const char *kernel, char *err,
                        size_t errlen) {
  for (int k = 0; k < rank && k < 8; k++)
    if (p.end[k] < p.begin[k]) {
      char msg[200];
      std::snprintf(msg, sizeof msg, "MDRange end[%d] = %lld is below begin[%d] = %lld; pass "
                    "end >= begin (end == begin: an empty range)", k,
                    static_cast<long long>(p.end[k]), k, static_cast<long long>(p.begin[k]));
      return fail(err, errlen, kernel, msg) == 0;
    }
  int64_t prod = 1;
  for (int k = 0; k < rank && k < 8; k++) {
    if (p.tile[k] < 0) return fail(err, errlen, kernel, "MDRange tile sizes must not be negative") == 0;
    if (p.tile[k] > 0) prod *= p.tile[k];
    if (prod > (int64_t(1) << 40)) break;
  }
  int64_t max = Kokkos::Impl::get_tile_size_properties(ExecSpace()).max_threads;
#if defined(PKC_BACKEND_CUDA) || defined(PKC_BACKEND_HIP)
  // Kokkos (3.4 and 4.x) allows a multiprocessor's threads (2048 on an H100);
  // an MDRange tile is one block, at most 1024 threads on every GPU
  if (max > 1024) max = 1024;
#endif
  if (prod <= max) return true;
  char msg[200];
  std::snprintf(msg, sizeof msg, "the MDRange tiles hold %lld points; this backend allows at most %lld",
                static_cast<long long>(prod), static_cast<long long>(max));
  return fail(err, errlen, kernel, msg) == 0;
}
#endif  // PKC_GLUE_BODIES

// MDRangePolicy with an explicit iteration order (pk.Iterate.Right / Left).
template <int Rank, class Tag, Kokkos::Iterate It>
using MDRangePolicyIter = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<Rank, It, It>, Tag,
                                                Kokkos::IndexType<int64_t>>;

// Lambdas dispatched from @pk.main (no work tag).
using LambdaRange = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>;
template <int Rank>
using LambdaMDRange = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<Rank>, Kokkos::IndexType<int64_t>>;
using LambdaTeam = Kokkos::TeamPolicy<ExecSpace>;

// ------------------------------------------------------------ Views apart
// A loop marked free of loop-carried dependences (the block loop of a
// RangePolicy, the row loop of an MDRange, when the Views are apart).
#if defined(__clang__)
#define PKC_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define PKC_IVDEP _Pragma("GCC ivdep")
#else
#define PKC_IVDEP
#endif

namespace impl {
// Block t of nblocks equal blocks of [b, e) (the blocks of Kokkos' static
// schedule and of Numba's prange): host loops over a range or over rows.
inline void block_of(int64_t b, int64_t e, int64_t t, int64_t nblocks, int64_t &lo, int64_t &hi) {
  const int64_t n = e > b ? e - b : 0;
  lo = b + n / nblocks * t + (t < n % nblocks ? t : n % nblocks);
  hi = lo + n / nblocks + (t < n % nblocks ? 1 : 0);
}
inline int64_t host_blocks() {
  const int c = ExecSpace().concurrency();
  return c > 0 ? c : 1;
}

// g(bytes, size) for each memory block of View v: one for a View (its span),
// one per field View of an SoA View of classtype values (for_each_field).
template <class V, class G>
inline auto each_block(const V &v, const G &g) -> decltype(v.span(), void()) {
  g(reinterpret_cast<const char *>(v.data()), v.span() * sizeof(typename V::value_type));
}
template <class V, class G>
inline auto each_block(const V &v, const G &g) -> decltype(v.for_each_field(g), void()) {
  v.for_each_field([&](const auto &field) { each_block(field, g); });
}
// Whether no memory block of w overlaps one of v (empty ones never do).
template <class W, class V>
inline bool disjoint(const W &w, const V &v) {
  bool ok = true;
  each_block(w, [&](const char *a, const size_t na) {
    each_block(v, [&](const char *b, const size_t nb) {
      ok = ok && (na == 0 || nb == 0 || a + na <= b || b + nb <= a);
    });
  });
  return ok;
}
}  // namespace impl

// Whether View w's memory overlaps none of the Views others (a View of
// classtype values: any of its fields' memory).
template <class W>
inline bool apart(const W &) {
  return true;
}
template <class W, class V, class... R>
inline bool apart(const W &w, const V &v, const R &...rest) {
  return impl::disjoint(w, v) && apart(w, rest...);
}

// ------------------------------------------------------------ MDRange launches
// An MDRange kernel is launched with pkc::md_parallel_for / md_parallel_reduce /
// md_parallel_sum <Scheme, Right, Left>(label, policy, functor[, results]) (a
// parallel_for whose points write only their own elements along the rows also
// passes apart, below):
// Right and Left are the work index that runs along contiguous memory in the
// Views the kernel touches when the backend's default layout is LayoutRight
// (host) or LayoutLeft (CUDA, HIP), and Scheme how host backends run it
// (md_rows, or md_tiles where some View is strided along every index), all
// found by pkc's IR pass ir/mdrange.c.
//
// GPUs: the MDRangePolicy as written; a policy with no tile (or an entry 0
// in it) gets default_tile (Kokkos' own default tile is tiny: a 2-D stencil
// ran 3.6x slower than with [32, 8] on an H200). A tile the program gives is kept.
//
// Host backends, rank 2 and 3, md_rows: a RangePolicy over the rows (every index but
// the contiguous one, flattened), each row a plain loop along the contiguous
// index, the shape of Numba's prange loop nest: g++ vectorizes the row
// (tests/unit/test_mdrange.c checks it). Tiles and the iteration order
// (pk.Iterate) are not used there: a parallel_for's points are independent
// and each point computes what it did under Kokkos' host MDRange (bitwise,
// tests/features/feat_mdrange_host.py); rows measured 1.0-1.6x faster than
// Kokkos 3.4's host tiles (bench/peers, stencil). Reductions add the points
// of a row into the thread's accumulator in order; a sum whose accumulator
// only adds (pkc::md_parallel_sum) adds them in impl::host_sum's eight
// partial sums. md_tiles (B[i][j] += A[j][i]: rows along j read A strided,
// 2.2x slower than Kokkos' 32 x 32 tiles) and ranks 4 to 6 keep Kokkos'
// MDRangePolicy.
enum md_scheme { md_rows, md_tiles };

template <int Right, int Left>
struct contiguous {
  static constexpr int index = layout_default == PKC_LAYOUT_LEFT ? Left : Right;
};

// The tile of an MDRange kernel on a GPU when the program gives none (every
// tile entry 0): 256 threads, the 32 threads of a warp along the contiguous
// index. Kokkos (3.4 and 4.x, CUDA and HIP) maps index 0 to threadIdx.x,
// index 1 to threadIdx.y, index 2 to threadIdx.z, so a contiguous index 0
// gets 32 (2-D 32 x 8; 3-D 32 x 4 x 2, threadIdx.z's limit is 64), and a
// later one gets the whole warp with 1 (or 2: two full 128-byte lines per
// warp) along the indices before it. 256 is under Kokkos 4's
// max_total_tile_size (512) and every GPU's 1024 threads per block.
// Ranks 4 to 6: Kokkos' own tile (all 0).
template <int Rank>
inline Kokkos::Array<int64_t, Rank> default_tile(int contiguous_index) {
  Kokkos::Array<int64_t, Rank> t;
  for (int k = 0; k < Rank; k++) t[k] = 0;
  if (Rank == 2) {
    t[0] = contiguous_index == 0 ? 32 : 2;
    t[1] = contiguous_index == 0 ? 8 : 128;
  } else if (Rank == 3) {
    const int64_t c0[3] = {32, 4, 2}, c1[3] = {1, 32, 8}, c2[3] = {1, 2, 128};
    const int64_t *c = contiguous_index == 0 ? c0 : contiguous_index == 1 ? c1 : c2;
    for (int k = 0; k < 3; k++) t[k] = c[k];
  }
  return t;
}

namespace impl {
// The default tile t fitted to a policy's extents: an index whose extent is
// below its entry gets the power of two at or above the extent, and the
// threads that frees go, doubling, to the other indices while their extents
// need them, nearest the contiguous index first (index 2 at most 64,
// threadIdx.z's limit), up to the default's total. A boundary slab one cell
// thick along the contiguous index (a 3-D face on CUDA: 32 x 4 x 2 on a
// 1 x 512 x 512 box) otherwise runs one thread in 32.
template <int Rank>
inline void fit_tile(Kokkos::Array<int64_t, Rank> &t, const int64_t *extent, int c) {
  int64_t cap[Rank], total = 1, used = 1;
  for (int k = 0; k < Rank; k++) {
    total *= t[k];
    cap[k] = 1;
    while (cap[k] < extent[k]) cap[k] *= 2;
    if (k == 2 && cap[k] > 64) cap[k] = 64;
    if (t[k] > cap[k]) t[k] = cap[k];
    used *= t[k];
  }
  for (int dist = 0; dist < Rank && used < total; dist++)
    for (int k = 0; k < Rank; k++) {
      if (k - c != dist && c - k != dist) continue;
      while (used < total && t[k] * 2 <= cap[k]) {
        t[k] *= 2;
        used *= 2;
      }
    }
}

// p, or p with default_tile (fitted to p's extents) when the program gave no tile. Kokkos fills a
// tile entry 0 with its own choice (impl_tune_tile_size() then, 3.4 and 4.x),
// so a tile with an entry 0 counts as none: pkc chooses all of it.
// S == md_tiles (a View read or written across the contiguous index, as in a
// transpose): 8 x 32 (2-D), whichever index is contiguous, so that a warp
// covers 8 x 4 points and both Views see 32- to 64-byte segments (an H200's
// 8192^2 transpose: 0.90 ms against 2.25 ms with 32 x 8; the best tile of
// the sweep, bench/tiles).
template <int C, md_scheme S, class Policy>
inline Policy tiled(const Policy &p) {
  if (Policy::rank > 3 || !p.impl_tune_tile_size()) return p;
  Kokkos::Array<int64_t, Policy::rank> t = default_tile<Policy::rank>(C);
  if (S == md_tiles && Policy::rank == 2) {
    t[0] = 8;
    t[1] = 32;
  }
  int64_t extent[Policy::rank];
  for (unsigned k = 0; k < Policy::rank; k++) extent[k] = p.m_upper[k] - p.m_lower[k];
  fit_tile<Policy::rank>(t, extent, C);
  typename Policy::tile_type tile;
  for (unsigned k = 0; k < Policy::rank; k++) tile[k] = t[k];
  return Policy(p.m_lower, p.m_upper, tile);
}

// f(idx..., acc...), with the policy's work tag first when it has one.
template <class Tag>
struct call {
  template <class F, class... A>
  KOKKOS_FORCEINLINE_FUNCTION static void at(const F &f, A &&...a) { f(Tag(), a...); }
};
template <>
struct call<void> {
  template <class F, class... A>
  KOKKOS_FORCEINLINE_FUNCTION static void at(const F &f, A &&...a) { f(a...); }
};

// The value type of a reduction result: a Kokkos reducer's, or the scalar's.
template <class R, class = void>
struct acc_of { using type = R; };
template <class R>
struct acc_of<R, decltype(void(sizeof(typename R::reducer)))> {
  using type = typename R::value_type;
};

// A sum over [b, e) of f(i, acc), on the host: in eight partial sums, item i
// into partial i % 8, which stay in registers (g++ makes them one vector) and
// are added at the end. Kokkos' host loops accumulate through a reference to
// memory that the Views' elements may alias (a store and a load per item),
// and one chain of additions is bounded by the adder's latency. Kokkos leaves
// the order of a reduction's contributions open; this one is fixed per range.
template <class Tag, class F, class T>
inline T host_sum(const F &f, const int64_t b, const int64_t e) {
  constexpr int K = 8;
  T s[K] = {};
  int64_t i = b;
  // the partial sums' loop (tests/unit/test_range.c finds this line)
  for (; i + K <= e; i += K)
    for (int k = 0; k < K; k++) call<Tag>::at(f, i + k, s[k]);
  for (; i < e; ++i) call<Tag>::at(f, i, s[0]);
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

// The rows of a rank-2 or rank-3 MDRange along contiguous index C: row r
// fixes every other index (row-major over them).
template <int Rank, int C>
struct rows {
  int64_t lo[3], hi[3], n[3];
  template <class Policy>
  explicit rows(const Policy &p) {
    for (int k = 0; k < Rank; k++) {
      lo[k] = static_cast<int64_t>(p.m_lower[k]);
      hi[k] = static_cast<int64_t>(p.m_upper[k]);
      n[k] = hi[k] > lo[k] ? hi[k] - lo[k] : 0;
    }
  }
  int64_t count() const {
    if (n[C] == 0) return 0;
    int64_t c = 1;
    for (int k = 0; k < Rank; k++)
      if (k != C) c *= n[k];
    return c;
  }
  // The two other indices of row r (rank 3): a before b in index order.
  void split(int64_t r, int64_t &a, int64_t &b) const {
    const int ka = C == 0 ? 1 : 0, kb = C == 2 ? 1 : 2;
    a = lo[ka] + r / n[kb];
    b = lo[kb] + r % n[kb];
  }
};

// One row of a parallel_for: a plain loop the compiler vectorizes, over the
// block's local copy of the functor g (rows_for: no View element can alias
// its scalars, which then stay in registers). Apart: the Views the kernel
// writes overlap none of the others and each point writes only its own
// elements along the row (ir/range.c), so the loop is marked free of
// loop-carried dependences (g++ gives up proving eight Views apart itself:
// the Euler flux difference of bench/layout ran 3x slower).
template <class Tag, bool Apart, int C, class F>
inline void for_row(const F &g, const rows<2, C> &w, const int64_t r) {
  const int64_t o = w.lo[1 - C] + r, b = w.lo[C], e = w.hi[C];
  if (Apart) {
    // the row loop of a 2-D parallel_for over Views apart (tests/unit/test_mdrange.c finds this line)
    PKC_IVDEP
    for (int64_t k = b; k < e; ++k) {
      if (C == 1) call<Tag>::at(g, o, k);
      else call<Tag>::at(g, k, o);
    }
    return;
  }
  // the plain row loop of a 2-D parallel_for
  for (int64_t k = b; k < e; ++k) {
    if (C == 1) call<Tag>::at(g, o, k);
    else call<Tag>::at(g, k, o);
  }
}
template <class Tag, bool Apart, int C, class F>
inline void for_row(const F &g, const rows<3, C> &w, const int64_t r) {
  int64_t x, y;
  w.split(r, x, y);
  const int64_t b = w.lo[C], e = w.hi[C];
  const auto at = [&](const int64_t k) {
    if (C == 0) call<Tag>::at(g, k, x, y);
    else if (C == 1) call<Tag>::at(g, x, k, y);
    else call<Tag>::at(g, x, y, k);
  };
  if (Apart) {
    PKC_IVDEP
    for (int64_t k = b; k < e; ++k) at(k);
    return;
  }
  for (int64_t k = b; k < e; ++k) at(k);
}
// A row's accumulator: a local copy of the thread's (its address never
// escapes, so the compiler keeps it in a register: the thread's value is
// memory that the Views' elements of its type may alias), stored back after
// the row. Sum 2-D measured 1.39x slower through the reference.
template <class T>
struct row_acc {
  T &out;
  T v;
  explicit row_acc(T &o) : out(o), v(o) {}
  ~row_acc() { out = v; }
};

// One row of a parallel_reduce: the points' contributions into acc, in order.
template <class Tag, int C, class F, class... L>
inline void reduce_row_in(const F &f, const rows<2, C> &w, const int64_t r, L &&...acc) {
  const int64_t o = w.lo[1 - C] + r, b = w.lo[C], e = w.hi[C];
  for (int64_t k = b; k < e; ++k) {
    if (C == 1) call<Tag>::at(f, o, k, acc.v...);
    else call<Tag>::at(f, k, o, acc.v...);
  }
}
template <class Tag, int C, class F, class... L>
inline void reduce_row_in(const F &f, const rows<3, C> &w, const int64_t r, L &&...acc) {
  int64_t x, y;
  w.split(r, x, y);
  const int64_t b = w.lo[C], e = w.hi[C];
  for (int64_t k = b; k < e; ++k) {
    if (C == 0) call<Tag>::at(f, k, x, y, acc.v...);
    else if (C == 1) call<Tag>::at(f, x, k, y, acc.v...);
    else call<Tag>::at(f, x, y, k, acc.v...);
  }
}
template <class Tag, class W, class F, class... A>
inline void reduce_row(const F &f, const W &w, const int64_t r, A &...acc) {
  reduce_row_in<Tag>(f, w, r, row_acc<A>(acc)...);
}

// The sum of one row of a parallel_reduce whose accumulator only adds:
// host_sum's partial sums along the row.
template <class Tag, class T, int C, class F>
inline T sum_row(const F &f, const rows<2, C> &w, const int64_t r) {
  const int64_t o = w.lo[1 - C] + r;
  const auto at = [&](const int64_t k, T &s) {
    if (C == 1) call<Tag>::at(f, o, k, s);
    else call<Tag>::at(f, k, o, s);
  };
  return host_sum<void, decltype(at), T>(at, w.lo[C], w.hi[C]);
}
template <class Tag, class T, int C, class F>
inline T sum_row(const F &f, const rows<3, C> &w, const int64_t r) {
  int64_t x, y;
  w.split(r, x, y);
  const auto at = [&](const int64_t k, T &s) {
    if (C == 0) call<Tag>::at(f, k, x, y, s);
    else if (C == 1) call<Tag>::at(f, x, k, y, s);
    else call<Tag>::at(f, x, y, k, s);
  };
  return host_sum<void, decltype(at), T>(at, w.lo[C], w.hi[C]);
}

// A module built with -DPKC_HOST_MDRANGE_TILES runs every MDRange through
// Kokkos' MDRangePolicy on host backends too (bench/mdrange/ab.py compares).
#if (defined(PKC_BACKEND_SERIAL) || defined(PKC_BACKEND_OPENMP)) && !defined(PKC_HOST_MDRANGE_TILES)
template <md_scheme S, class Policy>
struct host_rows
    : std::integral_constant<bool, S == md_rows && (Policy::rank == 2 || Policy::rank == 3)> {};
#else
template <md_scheme S, class Policy>
struct host_rows : std::false_type {};
#endif

// The launches over rows depend on the tag, rank and contiguous index only:
// the policies of pk.Iterate.Right / Left / the default share them.
// The rows in one block per thread, each block over its own copy of the
// functor (one copy per thread, not per row: rows may be short).
template <class Tag, bool Apart, int Rank, int C, class F>
inline void rows_for(const char *label, const rows<Rank, C> &w, const F &f) {
  const int64_t n = w.count(), nblocks = n < host_blocks() ? n : host_blocks();
  Kokkos::parallel_for(label, LambdaRange(0, nblocks), [=](const int64_t t) {
    int64_t lo, hi;
    block_of(0, n, t, nblocks, lo, hi);
    const F g = f;
    for (int64_t r = lo; r < hi; ++r) for_row<Tag, Apart>(g, w, r);
  });
}
template <class Tag, int Rank, int C, class F, class... R>
inline void rows_reduce(const char *label, const rows<Rank, C> &w, const F &f, R &&...results) {
  Kokkos::parallel_reduce(
      label, LambdaRange(0, w.count()),
      [=](const int64_t r, typename acc_of<typename std::decay<R>::type>::type &...acc) {
        reduce_row<Tag>(f, w, r, acc...);
      },
      std::forward<R>(results)...);
}

template <class Tag, int Rank, int C, class F, class T>
inline void rows_sum(const char *label, const rows<Rank, C> &w, const F &f, T &value) {
  Kokkos::parallel_reduce(
      label, LambdaRange(0, w.count()),
      [=](const int64_t r, T &acc) {
        const F g = f;  // a local copy: its scalars stay in registers
        acc += sum_row<Tag, T>(g, w, r);
      },
      value);
}

// A module built with -DPKC_HOST_ROWS_PLAIN runs every row loop as if its
// Views were not apart (bench/mdrange/ab.py compares).
// (No gate on host backends: pk.Graph sets one only in a CUDA capture.)
template <int C, md_scheme S, class Policy, class F>
inline void md_for(const char *label, const Policy &p, const F &f, std::true_type,
                   const bool apart, const pkc_gate *) {
  using Tag = typename Policy::work_tag;
#if defined(PKC_HOST_ROWS_PLAIN)
  (void)apart;
  rows_for<Tag, false>(label, rows<Policy::rank, C>(p), f);
  return;
#endif
  if (apart) rows_for<Tag, true>(label, rows<Policy::rank, C>(p), f);
  else rows_for<Tag, false>(label, rows<Policy::rank, C>(p), f);
}

template <int C, md_scheme S, class Policy, class F, class... R>
inline void md_reduce(const char *label, const Policy &p, const F &f, std::true_type,
                      R &&...results) {
  rows_reduce<typename Policy::work_tag>(label, rows<Policy::rank, C>(p), f,
                                         std::forward<R>(results)...);
}

// Point k of a rank-2 or rank-3 box flattened with the contiguous index C
// fastest (f called with the reduction's accumulator, if any) (consecutive k, consecutive elements: a warp's loads coalesce). I:
// the type of the index arithmetic, uint32_t where the box has fewer than
// 2^32 points (a 64-bit division is a long software routine on GPUs).
template <int Rank, int C>
struct flat_point;
template <int C>
struct flat_point<2, C> {
  template <class Tag, class I, class F, class... A>
  KOKKOS_FORCEINLINE_FUNCTION static void at(const F &f, const Kokkos::Array<int64_t, 2> &lo,
                                             const Kokkos::Array<I, 2> &n, const I k, A &...acc) {
    const int64_t c = lo[C] + static_cast<int64_t>(k % n[C]);
    const int64_t o = lo[1 - C] + static_cast<int64_t>(k / n[C]);
    if (C == 0) call<Tag>::at(f, c, o, acc...);
    else call<Tag>::at(f, o, c, acc...);
  }
};
template <int C>
struct flat_point<3, C> {
  // the slowest index and the middle one: the View's memory order where C is
  // the first (LayoutLeft, GPUs) or the last index (LayoutRight); for C = 0
  // against the order 0, 2, 1 (one H200, bench/mdrange/gpu_flat.py's
  // kernels): a copy 0.92 of the time at 256^3 and 512^3, Jacobi 0.98-1.00)
  static constexpr int ka = C == 0 ? 2 : 0, kb = C == 1 ? 2 : 1;
  template <class I>
  KOKKOS_FORCEINLINE_FUNCTION static Kokkos::Array<int64_t, 3> index(
      const Kokkos::Array<int64_t, 3> &lo, const Kokkos::Array<I, 3> &n, const I k) {
    constexpr int c = C, a = ka, b = kb;   // locals: Kokkos::Array's [] binds a reference
    const I q = k / n[c];
    Kokkos::Array<int64_t, 3> x;
    x[c] = lo[c] + static_cast<int64_t>(k % n[c]);
    x[a] = lo[a] + static_cast<int64_t>(q / n[b]);
    x[b] = lo[b] + static_cast<int64_t>(q % n[b]);
    return x;
  }
  template <class Tag, class I, class F, class... A>
  KOKKOS_FORCEINLINE_FUNCTION static void at(const F &f, const Kokkos::Array<int64_t, 3> &lo,
                                             const Kokkos::Array<I, 3> &n, const I k, A &...acc) {
    const Kokkos::Array<int64_t, 3> x = index(lo, n, k);
    call<Tag>::at(f, x[0], x[1], x[2], acc...);
  }
};

// CUDA: a rank-3 MDRange parallel_for whose program gives no tile (md_rows:
// every View contiguous along index C) runs over the flattened box, C
// fastest, as a RangePolicy (flat_for3, 32-bit index arithmetic where the box
// has fewer than 2^32 points). Kokkos 3.4's rank-3 tiles walk three nested
// 64-bit tile loops per point: on an H200 a 7-point Jacobi sweep took 1.45 ms
// at 512^3 against 0.87 ms flattened (0.19 against 0.12 ms at 256^3), 1.5x
// the instructions and 48 registers against 32 (bench/mdrange/gpu_flat.py;
// a module built with -DPKC_GPU_MDRANGE_TILES keeps Kokkos' tiles). Rank 2
// keeps the tiles (the same time at 8192^2), as do md_tiles kernels (a
// transpose ran 3x slower flattened), given tiles and HIP (not measured).
// ------------------------------------------------------------ gated launches
// A gate (pkc_gate, pkc_abi.h) lets pk.Graph run an MDRange parallel_for
// beside the halo exchange that fills the ghosts some of its points read:
// those points spin on an acquire load of the exchange's counter (so the
// ghost writes before its release are visible to the loads after it;
// system scope where the neighbours' GPUs raise it, pkc_gate.scope); the
// others run at once. A hand-written probe of one 128^3 slab step ran in
// 0.97 of the time without an exchange, against 0.82 with the exchange as
// a graph branch beside the inner cells (bench/mpi/gate_probe.cu). pk.Graph
// sets a gate only in a CUDA capture, behind a launch-order edge that has
// every block of the exchange resident first, so the spinning points never
// keep the exchange off the GPU (pykokkos/_graph_branches.py); a count that
// only other GPUs raise needs no such edge.
KOKKOS_INLINE_FUNCTION bool gate_open(const uint32_t *counter, const uint32_t target,
                                      const int32_t scope) {
#if defined(__CUDA_ARCH__)
  uint32_t v;
#if __CUDA_ARCH__ >= 700
  if (scope)
    asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(counter) : "memory");
  else
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(counter) : "memory");
#else
  v = *static_cast<const volatile uint32_t *>(counter);
  __threadfence_system();
#endif
  return static_cast<int32_t>(v - target) >= 0;
#else
  (void)counter;
  (void)target;
  (void)scope;
  return true;
#endif
}

// One lane of each warp polls (sleeping between loads, so that thousands of
// waiting points do not keep the L2 slice of the counter busy); the warp's
// barrier then orders its acquire before the other lanes' loads (PTX:
// bar.warp.sync orders memory among its threads), so one acquire serves the
// warp. Not inlined: the launch's registers stay those of its points
// (inlined, a 128^3 update took 21.0 instead of 15.6 us on an H200 with the
// gate open). scope: PKC_GATE_SYSTEM where other GPUs raise the counter.
#if defined(__CUDACC__)
__noinline__
#endif
KOKKOS_FUNCTION inline void gate_wait(const uint32_t *counter, const uint32_t target,
                                      const int32_t scope) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  const unsigned mask = __activemask();
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (lane == static_cast<unsigned>(__ffs(mask) - 1))
    while (!gate_open(counter, target, scope)) __nanosleep(100);
  __syncwarp(mask);
#else
  while (!gate_open(counter, target, scope)) {
  }
#endif
}

// Where the launch cannot gate its points (Kokkos' tiles, rank 2, boxes of
// 2^32 points or more): one thread waits before it, in stream order, as a
// graph edge from the exchange would.
struct gate_before {
  const uint32_t *counter;
  uint32_t target;
  int32_t scope;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t) const { gate_wait(counter, target, scope); }
};

inline void wait_gate_before(const pkc_gate *gate) {
  if (gate && gate->counter)
    Kokkos::parallel_for("pkc::gate", LambdaRange(0, 1),
                         gate_before{gate->counter, gate->target, gate->scope});
}

// A box of a flattened walk: its lower corner and extents.
struct flat_box3 {
  Kokkos::Array<int64_t, 3> lo;
  Kokkos::Array<uint32_t, 3> n;
};

// A flattened rank-3 parallel_for. Ungated, flat index k walks box. Gated
// (counter not null), the points that read no ghost come first (box, k <
// inner) and run at once; the points that do come last (up to six peel
// boxes, the planes outside the gate along each index, starting at flat
// index start[p]) and wait. Blocks start in index order, so by the time
// the waiting points are reached the exchange beside the launch is
// usually done and nothing spins (at most two peels per index).
template <class Tag, int C, class F>
struct flat_for3 {
  static constexpr int kMaxPeel = 6;
  F f;
  flat_box3 box{};
  uint32_t inner = UINT32_MAX;
  const uint32_t *counter = nullptr;
  uint32_t target = 0;
  int32_t scope = 0;
  int npeel = 0;
  Kokkos::Array<uint32_t, kMaxPeel> start{};
  Kokkos::Array<flat_box3, kMaxPeel> peel{};
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t k) const {
    uint32_t i = static_cast<uint32_t>(k);
    Kokkos::Array<int64_t, 3> lo = box.lo;
    Kokkos::Array<uint32_t, 3> n = box.n;
    if (i >= inner) {
      gate_wait(counter, target, scope);
      uint32_t first = start[0];
      lo = peel[0].lo;
      n = peel[0].n;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (int p = 1; p < kMaxPeel; p++)
        if (p < npeel && i >= start[p]) {
          first = start[p];
          lo = peel[p].lo;
          n = peel[p].n;
        }
      i -= first;
    }
    flat_point<3, C>::template at<Tag, uint32_t>(f, lo, n, i);
  }
};

// Gates g's walk (flat_for3): the box's points that can read a ghost
// (gate.head/tail per index) move behind the others. Peels along the
// slowest index first, so that a slab split keeps its inner points one
// contiguous range in memory order.
template <class G>
inline void flat_gate(G &g, const pkc_gate &gate, const int ka, const int kb, const int c) {
  const int order[3] = {ka, kb, c};
  flat_box3 rest = g.box;   // the box minus the peels so far
  uint32_t at = 0;
  g.npeel = 0;
  g.counter = gate.counter;
  g.target = gate.target;
  g.scope = gate.scope;
  Kokkos::Array<uint32_t, G::kMaxPeel> start{};
  for (const int d : order) {
    const int64_t lo = rest.lo[d], hi = lo + rest.n[d];
    const int64_t a = gate.head[d] < lo ? lo : gate.head[d] > hi ? hi : gate.head[d];
    const int64_t b = gate.tail[d] < a ? a : gate.tail[d] > hi ? hi : gate.tail[d];
    const int64_t side[2][2] = {{lo, a}, {b, hi}};
    for (const auto &s : side) {
      flat_box3 p = rest;
      p.lo[d] = s[0];
      p.n[d] = static_cast<uint32_t>(s[1] - s[0]);
      const uint32_t count = p.n[0] * p.n[1] * p.n[2];
      if (!count) continue;
      g.peel[g.npeel] = p;
      start[g.npeel++] = at;
      at += count;
    }
    rest.lo[d] = a;
    rest.n[d] = static_cast<uint32_t>(b - a);
  }
  // the inner box first: shift the peels behind it
  g.box = rest;
  g.inner = rest.n[0] * rest.n[1] * rest.n[2];
  for (int p = 0; p < g.npeel; p++) g.start[p] = start[p] + g.inner;
}

template <int C, class Policy, class F>
inline bool flat_md_for(const char *, const Policy &, const F &, std::false_type,
                        const pkc_gate *) {
  return false;
}
template <int C, class Policy, class F>
inline bool flat_md_for(const char *label, const Policy &p, const F &f, std::true_type,
                        const pkc_gate *gate) {
  if (!p.impl_tune_tile_size()) return false;   // the program's tile is kept
  int64_t count = 1;
  for (unsigned k = 0; k < 3; k++)
    count *= p.m_upper[k] > p.m_lower[k] ? p.m_upper[k] - p.m_lower[k] : 0;
  if (count > static_cast<int64_t>(UINT32_MAX)) return false;
  flat_for3<typename Policy::work_tag, C, F> g{f};
  for (unsigned k = 0; k < 3; k++) {
    g.box.lo[k] = p.m_lower[k];
    g.box.n[k] = static_cast<uint32_t>(p.m_upper[k] > p.m_lower[k] ? p.m_upper[k] - p.m_lower[k] : 0);
  }
  if (gate && gate->counter) flat_gate(g, *gate, flat_point<3, C>::ka, flat_point<3, C>::kb, C);
  Kokkos::parallel_for(label, LambdaRange(0, count), g);
  return true;
}

template <int C, md_scheme S, class Policy, class F>
inline void md_for(const char *label, const Policy &p, const F &f, std::false_type, bool,
                   const pkc_gate *gate) {
#if defined(PKC_BACKEND_CUDA) && !defined(PKC_GPU_MDRANGE_TILES)
  if (flat_md_for<C>(label, p, f,
                     std::integral_constant<bool, S == md_rows && Policy::rank == 3>(), gate))
    return;
#endif
  wait_gate_before(gate);
  Kokkos::parallel_for(label, tiled<C, S>(p), f);
}

// An MDRange reduction's functor over the flattened box (a RangePolicy).
template <class Tag, int Rank, int C, class I, class F, class T>
struct flat_reduction {
  using value_type = T;
  F f;
  Kokkos::Array<int64_t, Rank> lo;
  Kokkos::Array<I, Rank> n;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t k, T &acc) const {
    flat_point<Rank, C>::template at<Tag, I>(f, lo, n, static_cast<I>(k), acc);
  }
};

template <class I, int C, class Policy, class F, class R>
inline void flat_reduce(const char *label, const Policy &p, const F &f, const int64_t count,
                        R &&result) {
  constexpr int Rank = Policy::rank;
  using T = typename acc_of<typename std::decay<R>::type>::type;
  flat_reduction<typename Policy::work_tag, Rank, C, I, F, T> g{f, {}, {}};
  for (int k = 0; k < Rank; k++) {
    g.lo[k] = p.m_lower[k];
    g.n[k] = static_cast<I>(p.m_upper[k] - p.m_lower[k]);
  }
  Kokkos::parallel_reduce(label, LambdaRange(0, count), g, std::forward<R>(result));
}

// GPUs: an MDRange parallel_reduce of rank 2 or 3 with one result and no
// tile given runs over the flattened box, the contiguous index fastest: Kokkos
// 3.4 launches an MDRange reduction as min(threads per tile, tiles) blocks,
// 256 for pkc's default tile, too few to fill an H200 (a Jacobi residual took
// 1.25x the time of the best tile of a sweep); its RangePolicy reduction
// keeps every block busy. Elsewhere, and for a tile the program gives: the
// tiled MDRangePolicy.
template <int C, md_scheme S, class Policy, class F, class R>
inline void untiled_reduce(const char *label, const Policy &p, const F &f, std::true_type,
                           R &&result) {
  if (!p.impl_tune_tile_size()) {
    Kokkos::parallel_reduce(label, tiled<C, S>(p), f, std::forward<R>(result));
    return;
  }
  int64_t count = 1;
  for (unsigned k = 0; k < Policy::rank; k++)
    count *= p.m_upper[k] > p.m_lower[k] ? p.m_upper[k] - p.m_lower[k] : 0;
  if (count <= static_cast<int64_t>(UINT32_MAX))
    flat_reduce<uint32_t, C>(label, p, f, count, std::forward<R>(result));
  else
    flat_reduce<int64_t, C>(label, p, f, count, std::forward<R>(result));
}
template <int C, md_scheme S, class Policy, class F, class R>
inline void untiled_reduce(const char *label, const Policy &p, const F &f, std::false_type,
                           R &&result) {
  Kokkos::parallel_reduce(label, tiled<C, S>(p), f, std::forward<R>(result));
}
#if defined(PKC_BACKEND_CUDA) || defined(PKC_BACKEND_HIP)
template <class Policy>
struct flattens : std::integral_constant<bool, Policy::rank == 2 || Policy::rank == 3> {};
#else
template <class Policy>
struct flattens : std::false_type {};
#endif

template <int C, md_scheme S, class Policy, class F, class... R>
inline void md_reduce(const char *label, const Policy &p, const F &f, std::false_type,
                      R &&...results) {
  Kokkos::parallel_reduce(label, tiled<C, S>(p), f, std::forward<R>(results)...);
}
template <int C, md_scheme S, class Policy, class F, class R>
inline void md_reduce(const char *label, const Policy &p, const F &f, std::false_type,
                      R &&result) {
  untiled_reduce<C, S>(label, p, f, flattens<Policy>(), std::forward<R>(result));
}
template <int C, md_scheme S, class Policy, class F, class T>
inline void md_sum(const char *label, const Policy &p, const F &f, std::true_type, T &value) {
  rows_sum<typename Policy::work_tag>(label, rows<Policy::rank, C>(p), f, value);
}
template <int C, md_scheme S, class Policy, class F, class T>
inline void md_sum(const char *label, const Policy &p, const F &f, std::false_type, T &value) {
  untiled_reduce<C, S>(label, p, f, flattens<Policy>(), value);
}
}  // namespace impl

// apart (pkc::apart at the launch, where ir/range.c found that each point
// writes only its own elements along the rows): the row loops are marked free
// of loop-carried dependences.
template <md_scheme Scheme, int Right, int Left, class Policy, class F>
inline void md_parallel_for(const char *label, const Policy &policy, const F &f,
                            const bool apart = false, const pkc_gate *gate = nullptr) {
  impl::md_for<contiguous<Right, Left>::index, Scheme>(label, policy, f,
                                               impl::host_rows<Scheme, Policy>(), apart, gate);
}

// An MDRange parallel_reduce whose one accumulator only adds (pk.Acc +=):
// on host rows, each row in impl::host_sum's partial sums.
template <md_scheme Scheme, int Right, int Left, class Policy, class F, class T>
inline void md_parallel_sum(const char *label, const Policy &policy, const F &f, T &value) {
  impl::md_sum<contiguous<Right, Left>::index, Scheme>(label, policy, f,
                                               impl::host_rows<Scheme, Policy>(), value);
}

template <md_scheme Scheme, int Right, int Left, class Policy, class F, class... R>
inline void md_parallel_reduce(const char *label, const Policy &policy, const F &f,
                               R &&...results) {
  impl::md_reduce<contiguous<Right, Left>::index, Scheme>(label, policy, f,
                                                  impl::host_rows<Scheme, Policy>(),
                                                  std::forward<R>(results)...);
}

// ------------------------------------------------------------ RangePolicy launches
// A RangePolicy parallel_for whose work items touch the Views they write only
// at their own index i (pkc's IR pass ir/range.c) is launched with
// pkc::range_parallel_for(label, policy, f, apart), or, when its body is
// dst[i] = src[i], pkc::range_copy(label, policy, f, dst, src, apart). apart
// (pkc::apart, at the launch): no View the kernel writes overlaps another View
// it touches, so no iteration depends on another.
//
// Host backends, apart: the range in one block per thread (the blocks of
// Kokkos' static schedule and of Numba's prange), each a loop marked free of
// loop-carried dependences (PKC_IVDEP), which g++ vectorizes where it cannot
// prove the Views apart itself (a gather y[i] = x[idx[i]]); each iteration
// computes what it computes under Kokkos::parallel_for. A copy is one memcpy
// per block (glibc streams large blocks past the caches, as the memcpy that
// Numba's prange copy loop becomes). GPUs: a copy is one cudaMemcpyAsync /
// hipMemcpyAsync on the stream the kernels use (CuPy's b[:] = a), other
// kernels Kokkos::parallel_for. Not apart: Kokkos::parallel_for everywhere.
// A module built with -DPKC_HOST_RANGE_KOKKOS runs every one of them through
// Kokkos::parallel_for (bench/range/ab.py compares).


#if defined(PKC_HOST_RANGE_KOKKOS)
template <class Policy, class F, class... A>
inline void range_parallel_for(const char *label, const Policy &p, const F &f, const A &...) {
  Kokkos::parallel_for(label, p, f);
}
template <class Policy, class F, class... A>
inline void range_copy(const char *label, const Policy &p, const F &f, const A &...) {
  Kokkos::parallel_for(label, p, f);
}
#else
template <class Policy, class F>
inline void range_parallel_for(const char *label, const Policy &p, const F &f, const bool apart) {
#if defined(PKC_BACKEND_SERIAL) || defined(PKC_BACKEND_OPENMP)
  if (apart) {
    const int64_t b = p.begin(), e = p.end(), nblocks = impl::host_blocks();
    Kokkos::parallel_for(label, LambdaRange(0, nblocks), [=](const int64_t t) {
      int64_t lo, hi;
      impl::block_of(b, e, t, nblocks, lo, hi);
      // a local copy: no View element can alias its scalars, which then stay in registers
      const F g = f;
      // the block loop of a RangePolicy parallel_for (tests/unit/test_range.c finds this line)
      PKC_IVDEP
      for (int64_t i = lo; i < hi; ++i) impl::call<typename Policy::work_tag>::at(g, i);
    });
    return;
  }
#else
  (void)apart;  // GPUs: Kokkos' launch either way
#endif
  Kokkos::parallel_for(label, p, f);
}

template <class Policy, class F, class D, class S>
inline void range_copy(const char *label, const Policy &p, const F &f, const D &dst, const S &src,
                       const bool apart) {
  static_assert(std::is_same<typename D::value_type, typename S::value_type>::value, "one type");
  using T = typename D::value_type;
  const int64_t b = p.begin(), e = p.end();
  if (!apart || e <= b) {
    Kokkos::parallel_for(label, p, f);
    return;
  }
  T *to = dst.data();
  const T *from = src.data();
#if defined(PKC_BACKEND_CUDA)
  // while pk.Graph captures the stream, a kernel: a copy node would make
  // libpkcrt refuse the graph (it cannot tell it from Kokkos' copies of
  // functors out of host memory, which a replay would read stale)
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(ExecSpace().cuda_stream(), &capture) != cudaSuccess ||
      capture != cudaStreamCaptureStatusNone) {
    Kokkos::parallel_for(label, p, f);
    return;
  }
  const cudaError_t rc = cudaMemcpyAsync(to + b, from + b, static_cast<size_t>(e - b) * sizeof(T),
                                         cudaMemcpyDefault, ExecSpace().cuda_stream());
  if (rc != cudaSuccess) throw std::runtime_error(std::string("cudaMemcpyAsync: ") + cudaGetErrorString(rc));
#elif defined(PKC_BACKEND_HIP)
  const hipError_t rc = hipMemcpyAsync(to + b, from + b, static_cast<size_t>(e - b) * sizeof(T),
                                       hipMemcpyDefault, ExecSpace().hip_stream());
  if (rc != hipSuccess) throw std::runtime_error(std::string("hipMemcpyAsync: ") + hipGetErrorString(rc));
#else
  const int64_t nblocks = impl::host_blocks();
  Kokkos::parallel_for(label, LambdaRange(0, nblocks), [=](const int64_t t) {
    int64_t lo, hi;
    impl::block_of(b, e, t, nblocks, lo, hi);
    if (hi > lo) std::memcpy(to + lo, from + lo, static_cast<size_t>(hi - lo) * sizeof(T));
  });
#endif
}
#endif  // PKC_HOST_RANGE_KOKKOS

// ------------------------------------------------------------ sums

// A RangePolicy parallel_reduce with a sum (pk.Acc +=). Host backends: one
// block of the range per thread (Kokkos' static schedule), each summed by
// impl::host_sum over a local copy of the functor, the blocks' sums joined by
// Kokkos. GPUs, and modules built with -DPKC_HOST_RANGE_KOKKOS:
// Kokkos::parallel_reduce.
template <class Policy, class F, class T>
inline void range_parallel_reduce(const char *label, const Policy &p, const F &f, T &value) {
#if (defined(PKC_BACKEND_SERIAL) || defined(PKC_BACKEND_OPENMP)) && !defined(PKC_HOST_RANGE_KOKKOS)
  const int64_t b = p.begin(), e = p.end(), nblocks = impl::host_blocks();
  Kokkos::parallel_reduce(label, LambdaRange(0, nblocks), [=](const int64_t t, T &sum) {
    int64_t lo, hi;
    impl::block_of(b, e, t, nblocks, lo, hi);
    const F g = f;  // a local copy: its scalars stay in registers
    sum += impl::host_sum<typename Policy::work_tag, F, T>(g, lo, hi);
  }, value);
#else
  Kokkos::parallel_reduce(label, p, f, value);
#endif
}

// The accumulator type of a scan closure (i, T &acc, final).
template <class M>
struct scan_value;
template <class C, class I, class T>
struct scan_value<void (C::*)(I, T &, bool) const> {
  using type = T;
};

// pk.parallel_scan(pk.TeamThreadRange(m, b, e), f). Kokkos 3.4's team scan
// on CUDA and HIP assumes a vector length of 1 (cuda_intra_block_reduce_scan
// requires blockDim.x == 1, and a power-of-two team): with more lanes the
// prefixes came out wrong and it wrote out of bounds. There, with a vector
// length above 1 (or a team size that is not a power of two), one thread of
// the team runs the scan in order (each item once, its final pass, the
// exclusive prefix in acc as the closure reads it) and the team meets at a
// barrier after it, as after Kokkos' scan.
template <class F>
KOKKOS_INLINE_FUNCTION void team_thread_scan(const TeamMember &m, const int64_t b,
                                             const int64_t e, const F &f) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  if (blockDim.x > 1 || (blockDim.y & (blockDim.y - 1))) {   // (and a power-of-two team)
    using T = typename scan_value<decltype(&F::operator())>::type;
    Kokkos::single(Kokkos::PerTeam(m), [&]() {
      T acc = 0;
      for (int64_t i = b; i < e; ++i) f(i, acc, true);
    });
    m.team_barrier();
    return;
  }
#endif
  Kokkos::parallel_scan(Kokkos::TeamThreadRange(m, b, e), f);
}

// pk.inclusive_scan(m, v) (PyKokkos): the team replaces v's elements by their
// inclusive prefix sums; the team meets at a barrier before (the elements its
// threads stored) and after it (team_thread_scan's or Kokkos' scan).
template <class V>
KOKKOS_INLINE_FUNCTION void team_inclusive_scan(const TeamMember &m, const V &v) {
  using T = typename V::non_const_value_type;
  m.team_barrier();
  team_thread_scan(m, 0, static_cast<int64_t>(v.extent(0)),
                   [&](const int64_t i, T &acc, const bool final) {
                     acc += v(i);
                     if (final) v(i) = acc;
                   });
  m.team_barrier();
}

// pk.parallel_scan(pk.TeamVectorRange(m, b, e), f): Kokkos (3.4, and 4.6 too)
// scans a TeamVectorRange on host teams only; on GPUs the team's threads scan
// it as a TeamThreadRange (team_thread_scan).
template <class F>
KOKKOS_INLINE_FUNCTION void team_vector_scan(const TeamMember &m, const int64_t b,
                                             const int64_t e, const F &f) {
#if defined(PKC_BACKEND_CUDA) || defined(PKC_BACKEND_HIP)
  team_thread_scan(m, b, e, f);
#else
  Kokkos::parallel_scan(Kokkos::TeamVectorRange(m, b, e), f);
#endif
}

// pk.parallel_reduce(pk.TeamThreadRange(m, b, e), f) with a sum, into result.
// A host team of one thread (pk.AUTO's team size on OpenMP and Serial):
// impl::host_sum; other teams and GPUs: Kokkos::parallel_reduce over
// Kokkos::TeamThreadRange.
template <class F, class T>
KOKKOS_INLINE_FUNCTION void team_thread_reduce(const TeamMember &m, const int64_t b,
                                               const int64_t e, const F &f, T &result) {
#if (defined(PKC_BACKEND_SERIAL) || defined(PKC_BACKEND_OPENMP)) && !defined(PKC_HOST_RANGE_KOKKOS)
  if (m.team_size() == 1) {
    result = impl::host_sum<void, F, T>(f, b, e);
    return;
  }
#endif
  Kokkos::parallel_reduce(Kokkos::TeamThreadRange(m, b, e), f, result);
}

// ------------------------------------------------------------ @pk.main
// A View element read or written by @pk.main's host code. Where the host can
// reach the View's memory (host backends) it is the element itself; a CUDA or
// HIP View's element goes through a one-element Kokkos::deep_copy (a host
// access would abort), in stream order with the launches before it.
template <class V, bool Host = Kokkos::SpaceAccessibility<
                       Kokkos::HostSpace, typename V::memory_space>::accessible>
struct host_element;
template <class V>
struct host_element<V, true> {
  template <class... I>
  static typename V::reference_type at(const V &v, const I... i) { return v(i...); }
  template <class... I>
  static typename V::non_const_value_type get(const V &v, const I... i) { return v(i...); }
};

// One element of a device View as an assignable value (operator= and the
// compound assignments write it back; reading it copies it to the host).
template <class E>
struct device_element {
  using T = typename E::non_const_value_type;
  E e;   // a rank-0 subview
  operator T() const {
    T x;
    Kokkos::deep_copy(x, e);
    return x;
  }
  const device_element &operator=(const T x) const {
    Kokkos::deep_copy(e, x);
    return *this;
  }
  const device_element &operator=(const device_element &o) const { return *this = T(o); }
#define PKC_DEVICE_ELEMENT_OP(op) \
  template <class X>              \
  const device_element &operator op##=(const X x) const { return *this = T(T(*this) op x); }
  PKC_DEVICE_ELEMENT_OP(+) PKC_DEVICE_ELEMENT_OP(-) PKC_DEVICE_ELEMENT_OP(*)
  PKC_DEVICE_ELEMENT_OP(/) PKC_DEVICE_ELEMENT_OP(%) PKC_DEVICE_ELEMENT_OP(&)
  PKC_DEVICE_ELEMENT_OP(|) PKC_DEVICE_ELEMENT_OP(^) PKC_DEVICE_ELEMENT_OP(<<)
  PKC_DEVICE_ELEMENT_OP(>>)
#undef PKC_DEVICE_ELEMENT_OP
};

template <class V>
struct host_element<V, false> {
  template <class... I>
  static auto at(const V &v, const I... i) {
    auto e = Kokkos::subview(v, i...);
    return device_element<decltype(e)>{e};
  }
  template <class... I>
  static typename V::non_const_value_type get(const V &v, const I... i) {
    typename V::non_const_value_type x;
    Kokkos::deep_copy(x, Kokkos::subview(v, i...));
    return x;
  }
};

// v(i...) in @pk.main: the element to assign (host_at) or its value (host_get).
template <class V, class... I>
inline auto host_at(const V &v, const I... i) -> decltype(host_element<V>::at(v, i...)) {
  return host_element<V>::at(v, i...);
}
template <class V, class... I>
inline typename V::non_const_value_type host_get(const V &v, const I... i) {
  return host_element<V>::get(v, i...);
}

// ------------------------------------------------------------ scratch
using ScratchSpace = ExecSpace::scratch_memory_space;
// pk.ScratchView1D..3D: unmanaged Views in team/thread scratch memory.
template <class T>
using ScratchView = Kokkos::View<T, ScratchSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// ------------------------------------------------------------ nested loops
// pk.TeamThreadMDRange (Kokkos 3.4 has none): a TeamThreadRange over the
// flattened index space, row-major.
template <class F>
KOKKOS_INLINE_FUNCTION void team_thread_md_for(const TeamMember &m, int64_t n0, int64_t n1,
                                               const F &f) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n0 * n1),
                       [&](const int64_t k) { f(k / n1, k % n1); });
}
template <class F>
KOKKOS_INLINE_FUNCTION void team_thread_md_for(const TeamMember &m, int64_t n0, int64_t n1,
                                               int64_t n2, const F &f) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n0 * n1 * n2), [&](const int64_t k) {
    f(k / (n1 * n2), k / n2 % n1, k % n2);
  });
}
template <class T, class F>
KOKKOS_INLINE_FUNCTION void team_thread_md_reduce(const TeamMember &m, int64_t n0, int64_t n1,
                                                  const F &f, T &result) {
  Kokkos::parallel_reduce(
      Kokkos::TeamThreadRange(m, n0 * n1),
      [&](const int64_t k, T &acc) { f(k / n1, k % n1, acc); }, result);
}
template <class T, class F>
KOKKOS_INLINE_FUNCTION void team_thread_md_reduce(const TeamMember &m, int64_t n0, int64_t n1,
                                                  int64_t n2, const F &f, T &result) {
  Kokkos::parallel_reduce(
      Kokkos::TeamThreadRange(m, n0 * n1 * n2),
      [&](const int64_t k, T &acc) { f(k / (n1 * n2), k / n2 % n1, k % n2, acc); }, result);
}

// ------------------------------------------------------------ atomics
// pk.atomic_*: the value converts to the element type (no template clash
// between e.g. an int32 View and an int64 value).
template <class T> struct same { using type = T; };
#define PKC_ATOMIC_FETCH(name)                                                      \
  template <class T>                                                              \
  KOKKOS_INLINE_FUNCTION T name(T *p, const typename same<T>::type v) {          \
    return Kokkos::name(p, v);                                                    \
  }
PKC_ATOMIC_FETCH(atomic_fetch_add) PKC_ATOMIC_FETCH(atomic_fetch_sub)
PKC_ATOMIC_FETCH(atomic_fetch_mul) PKC_ATOMIC_FETCH(atomic_fetch_div)
PKC_ATOMIC_FETCH(atomic_fetch_max) PKC_ATOMIC_FETCH(atomic_fetch_min)
PKC_ATOMIC_FETCH(atomic_fetch_mod) PKC_ATOMIC_FETCH(atomic_fetch_and)
PKC_ATOMIC_FETCH(atomic_fetch_or) PKC_ATOMIC_FETCH(atomic_fetch_xor)
#undef PKC_ATOMIC_FETCH
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_lshift(T *p, const int64_t v) {
  return Kokkos::atomic_fetch_lshift(p, static_cast<unsigned>(v));
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_rshift(T *p, const int64_t v) {
  return Kokkos::atomic_fetch_rshift(p, static_cast<unsigned>(v));
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_add(T *p, const typename same<T>::type v) {
  Kokkos::atomic_add(p, v);
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_sub(T *p, const typename same<T>::type v) {
  Kokkos::atomic_sub(p, v);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_compare_exchange(T *p, const typename same<T>::type expected,
                                                 const typename same<T>::type desired) {
  return Kokkos::atomic_compare_exchange(p, expected, desired);
}

// ------------------------------------------------------------ binary search
// pk.lower_bound / pk.upper_bound(view, n, value) (PyKokkos): the first index
// in [0, n) of sorted view whose element is >= value (upper: > value), else
// n; n is clamped to the View's extent.
template <bool Upper, class V, class T>
KOKKOS_INLINE_FUNCTION int64_t bound_search(const V &v, int64_t n, const T &value) {
  int64_t lo = 0, hi = n < 0 ? 0 : n > int64_t(v.extent(0)) ? int64_t(v.extent(0)) : n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (Upper ? !(value < v(mid)) : v(mid) < value)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}
template <class V, class T>
KOKKOS_INLINE_FUNCTION int64_t lower_bound(const V &v, int64_t n, const T &value) {
  return bound_search<false>(v, n, value);
}
template <class V, class T>
KOKKOS_INLINE_FUNCTION int64_t upper_bound(const V &v, int64_t n, const T &value) {
  return bound_search<true>(v, n, value);
}

// ------------------------------------------------------------ subviews
// A half-open index range [b, e) of a subview (Python slice b:e).
KOKKOS_INLINE_FUNCTION Kokkos::pair<int64_t, int64_t> range(int64_t b, int64_t e) {
  return Kokkos::make_pair(b, e);
}

// ------------------------------------------------------------ random pools
using Pool64 = Kokkos::Random_XorShift64_Pool<ExecSpace>;
using Pool1024 = Kokkos::Random_XorShift1024_Pool<ExecSpace>;

// Binds a pool argument (a pkc_value whose .u is a handle from pool_create).
template <class P>
inline bool bind_pool(P &x, const void *arg, const char *kernel, const char *name, char *err,
                      size_t errlen) {
  const pkc_value *v = static_cast<const pkc_value *>(arg);
  if (!v || !v->u) {
    char msg[256];
    snprintf(msg, sizeof msg, "argument '%s' is missing (no random pool)", name);
    return !fail(err, errlen, kernel, msg);
  }
  rebind(x, *reinterpret_cast<const P *>(static_cast<uintptr_t>(v->u)));
  return true;
}

// pkc_module_desc.pool_create / pool_destroy. Templates, so that a module
// without random pools does not instantiate the pools' constructors (about
// 0.2 s of every compile: GCC instantiates them at the end of each TU, the
// precompiled header cannot hold them).
template <class = void>
inline void *pool_create(int32_t bits, uint64_t seed, char *err, size_t errlen) {
  try {
    if (!Kokkos::is_initialized()) {
      fail(err, errlen, "pool_create", "Kokkos is not initialized");
      return nullptr;
    }
    if (bits == 64) return new Pool64(seed);
    if (bits == 1024) return new Pool1024(seed);
    fail(err, errlen, "pool_create", "bits must be 64 or 1024");
  } catch (const std::exception &e) {
    fail(err, errlen, "pool_create", e.what());
  }
  return nullptr;
}

template <class = void>
inline void pool_destroy(int32_t bits, void *pool) {
  if (!pool || !Kokkos::is_initialized()) return;  // after finalize: nothing to free
  if (bits == 64) delete static_cast<Pool64 *>(pool);
  else if (bits == 1024) delete static_cast<Pool1024 *>(pool);
}

// ------------------------------------------------------------ BinSort
// pk.BinSort in @pk.main: Kokkos::BinSort with int offsets (PyKokkos'
// int32 bin counts, offsets and permutation), in the keys' memory space.
template <class Key, class Op>
using BinSort = Kokkos::BinSort<Key, Op, typename Key::device_type, int>;

// pk.BinOp1D(keys, nbins, min, max): nbins + 1 bins (Kokkos' definition);
// keys only give the key View type.
template <class Key>
inline Kokkos::BinOp1D<Key> bin_op_1d(const Key &, int64_t nbins,
                                      typename Key::const_value_type min,
                                      typename Key::const_value_type max) {
  return Kokkos::BinOp1D<Key>(static_cast<int>(nbins), min, max);
}

// pk.BinOp3D(keys, [nx, ny, nz], [x0, y0, z0], [x1, y1, z1]).
template <class Key>
inline Kokkos::BinOp3D<Key> bin_op_3d(const Key &, int64_t nx, int64_t ny, int64_t nz,
                                      typename Key::const_value_type x0,
                                      typename Key::const_value_type y0,
                                      typename Key::const_value_type z0,
                                      typename Key::const_value_type x1,
                                      typename Key::const_value_type y1,
                                      typename Key::const_value_type z1) {
  int nbins[3] = {static_cast<int>(nx), static_cast<int>(ny), static_cast<int>(nz)};
  typename Key::non_const_value_type lo[3] = {x0, y0, z0}, hi[3] = {x1, y1, z1};
  return Kokkos::BinOp3D<Key>(nbins, lo, hi);
}

// pk.BinSort(keys, [begin, end,] bin_op[, sort_within_bins]).
template <class Key, class Op>
inline BinSort<Key, Op> bin_sort(const Key &keys, int64_t begin, int64_t end, const Op &op,
                                 bool sort_within_bins) {
  return BinSort<Key, Op>(keys, static_cast<int>(begin), static_cast<int>(end), op,
                          sort_within_bins);
}

template <class Dst, class Src>
struct CopyConverted {
  Dst dst;
  Src src;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t i) const {
    dst(i) = static_cast<typename Dst::non_const_value_type>(src(i));
  }
};

// Managed Views that unmanaged members of a @pk.main functor were rebound to,
// by member name, kept alive until that member is rebound again or Kokkos
// finalizes (the map is never destroyed: no View outlives Kokkos).
template <class V>
inline std::map<std::string, V> &rebound_views() {
  static auto *views = new std::map<std::string, V>();
  static const bool hooked = (Kokkos::push_finalize_hook([] { views->clear(); }), true);
  (void)hooked;
  return *views;
}

// self.x = sorter.get_bin_count() (get_bin_offsets, get_permute_vector). When
// the member has the result's extent the values are copied into it (memory the
// Python program owns, so Python sees them). With another extent the member is
// rebound, as in PyKokkos, to a copy of the result for the rest of @pk.main
// (ExaMiniMD's binning allocates 3 bins and takes the sorter's); the Python
// attribute keeps its own View then.
template <class Dst, class Src>
inline void copy_bin_sort_result(Dst &dst, const Src &src, const char *member,
                                 const char *what) {
  using T = typename Dst::non_const_value_type;
  using Owned = Kokkos::View<T *, typename Dst::array_layout, typename Dst::memory_space>;
  if (dst.extent(0) != src.extent(0)) {
    static std::set<std::string> told; // once per member: ExaMiniMD rebinds every step
    if (told.insert(member).second)
      std::fprintf(stderr,
                   "pykokkos: @pk.main: self.%s (%zu elements) takes %s() (%zu elements) "
                   "for the rest of main; the Python attribute keeps its own View: give it "
                   "%zu elements to read the result after pk.execute\n",
                   member, static_cast<size_t>(dst.extent(0)), what,
                   static_cast<size_t>(src.extent(0)), static_cast<size_t>(src.extent(0)));
    Owned owned(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("pkc::") + member),
                src.extent(0));
    rebound_views<Owned>()[member] = owned;
    dst = Dst(owned.data(), owned.extent(0));
  }
  Kokkos::parallel_for("pkc::copy_bin_sort_result",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(
                           0, static_cast<int64_t>(dst.extent(0))),
                       CopyConverted<Dst, Src>{dst, src});
}

}  // namespace pkc

#endif  // PKC_DIALECT_HPP
