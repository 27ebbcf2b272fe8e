/*
 * pkc_abi.h - the plain C ABI between a module built by pkc and its host.
 *
 * A built module (app.<backend>.so) exports exactly one symbol,
 * PKC_MODULE_SYMBOL, returning a static, self-describing descriptor table.
 * Nothing but plain C crosses this boundary: no C++ types, no exceptions,
 * no Kokkos objects. Arrays cross as DLPack tensors (dlpack.h, DLTensor;
 * strides counted in elements as DLPack defines them), scalars by value.
 *
 * Ownership: every pointer in a descriptor is owned by the module and lives
 * until it is unloaded. Tensors passed to a kernel stay owned by the caller;
 * the kernel only views their memory for the duration of the call.
 */
#ifndef PKC_ABI_H
#define PKC_ABI_H

#include <stddef.h>
#include <stdint.h>

#include <dlpack/dlpack.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever any struct below changes layout or meaning. */
#define PKC_ABI_VERSION 3
#define PKC_MODULE_SYMBOL "pkc_module_v2"

/* Parallel pattern of a kernel (Kokkos::parallel_for / _reduce / _scan). */
typedef enum pkc_pattern {
  PKC_PATTERN_FOR = 0,
  PKC_PATTERN_REDUCE = 1,
  PKC_PATTERN_SCAN = 2,
  /* a @pk.workload's @pk.main, run by pk.execute: host code that launches
   * kernels itself. params = the workload's members; policy is NULL; after it
   * returns, scalar members with PKC_ACCESS_WRITE hold their new values in
   * their pkc_value slots (so @pk.callback methods see them). */
  PKC_PATTERN_MAIN = 3
} pkc_pattern;

/* Execution policy kind a kernel was written for. */
typedef enum pkc_policy_kind {
  PKC_POLICY_RANGE = 0,   /* Kokkos::RangePolicy: begin[0]..end[0] */
  PKC_POLICY_MDRANGE = 1, /* Kokkos::MDRangePolicy: rank dims */
  PKC_POLICY_TEAM = 2     /* Kokkos::TeamPolicy: league/team/vector */
} pkc_policy_kind;

/* Reducer of a reduction kernel (sum is PyKokkos' default). */
typedef enum pkc_reducer {
  PKC_REDUCER_SUM = 0,
  PKC_REDUCER_PROD = 1,
  PKC_REDUCER_MIN = 2,
  PKC_REDUCER_MAX = 3,
  /* pk.MaxLoc / pk.MinLoc (Kokkos::MaxLoc/MinLoc<T, int64_t>): the kernel's
   * `result` points at two pkc_values, the extremum and its location (.i) */
  PKC_REDUCER_MAXLOC = 4,
  PKC_REDUCER_MINLOC = 5,
  /* reducer=pk.BAnd / BOr / LAnd / LOr at a PyKokkos launch (Kokkos::BAnd ...) */
  PKC_REDUCER_BAND = 6,
  PKC_REDUCER_BOR = 7,
  PKC_REDUCER_LAND = 8,
  PKC_REDUCER_LOR = 9,
  /* reducer=pk.MinMax (Kokkos::MinMax<T>): `result` points at two pkc_values,
   * the minimum and the maximum; pk.MinMaxLoc (Kokkos::MinMaxLoc<T, int64_t>):
   * four, the minimum, its location (.i), the maximum, its location (.i) */
  PKC_REDUCER_MINMAX = 10,
  PKC_REDUCER_MINMAXLOC = 11
} pkc_reducer;

/* Kind of a kernel parameter. */
typedef enum pkc_param_kind {
  PKC_PARAM_SCALAR = 0, /* passed by value through a pkc_value slot */
  PKC_PARAM_VIEW = 1,   /* passed as a DLTensor* */
  PKC_PARAM_POOL = 2,   /* a random pool: a pkc_value whose .u is the handle from
                           pool_create; rank is 64 or 1024 (XorShift64/1024) */
  PKC_PARAM_CLASS_VIEW = 3 /* a View of @pk.classtype values: a pkc_class_view*;
                              dtype 0, layout PKC_LAYOUT_AOS/_SOA or DEFAULT (either) */
} pkc_param_kind;

/* View layouts, as in Kokkos. DEFAULT follows the execution space's
 * array_layout: LayoutRight on host backends, LayoutLeft on GPUs. */
typedef enum pkc_layout {
  PKC_LAYOUT_DEFAULT = 0,
  PKC_LAYOUT_RIGHT = 1, /* row-major, C order */
  PKC_LAYOUT_LEFT = 2,  /* column-major, Fortran order */
  PKC_LAYOUT_AOS = 3,   /* Views of classtype values: an array of structs */
  PKC_LAYOUT_SOA = 4    /* Views of classtype values: one array per field */
} pkc_layout;

/* A View of @pk.classtype values (PKC_PARAM_CLASS_VIEW), as one strided
 * DLTensor per field in the order the classtype's __init__ declares them.
 * AoS: the fields of one array of C structs (field k of element i at
 * fields[0]'s element i plus the field's offset; strides in elements of each
 * field). SoA: one contiguous array per field. Owned by the caller. */
typedef struct pkc_class_view {
  int32_t layout;          /* PKC_LAYOUT_AOS or PKC_LAYOUT_SOA */
  int32_t nfields;
  const DLTensor *fields;  /* nfields tensors, all of one shape */
} pkc_class_view;

/* How a kernel uses a parameter (bit set). */
enum { PKC_ACCESS_READ = 1, PKC_ACCESS_WRITE = 2 };

/* A scalar argument or result, by value. Integers of every width and bool
 * are passed widened in .i (signed) or .u (unsigned); floats in .f. */
typedef union pkc_value {
  int64_t i;
  uint64_t u;
  double f;
} pkc_value;

/* One declared kernel parameter. dtype is a DLPack dtype (code, bits;
 * lanes are always 1). rank is 0 for scalars, 1..8 for Views. */
typedef struct pkc_param_desc {
  const char *name;   /* Python name, as written in the source */
  int32_t kind;       /* pkc_param_kind */
  uint8_t dtype_code; /* DLDataTypeCode: kDLInt, kDLUInt, kDLFloat, kDLBool */
  uint8_t dtype_bits;
  int16_t rank;
  int32_t layout;     /* pkc_layout (Views only) */
  int32_t access;     /* PKC_ACCESS_* bits */
  int32_t flags;      /* PKC_PARAM_FROM_GLOBAL: not a kernel argument of the Python
                         call but the module global of this name, which the host
                         reads at each call (PyKokkos captures globals the same way);
                         PKC_PARAM_LAYOUT_DEFAULT: a View whose layout nothing
                         declared (the backend's default): a call with a View of the
                         other layout runs a variant built for it, as PyKokkos
                         builds one per layout of the Views passed */
} pkc_param_desc;

enum { PKC_PARAM_FROM_GLOBAL = 1, PKC_PARAM_LAYOUT_DEFAULT = 2 };

/* A gate on an MDRange parallel_for's points (pk.Graph on CUDA, issue 25):
 * the launch runs beside the halo exchange that fills the ghost cells some
 * of its points read, and those points (index < head[d] or >= tail[d] along
 * some dimension d < rank) first wait until *counter >= target, which the
 * exchange's last block raises once the ghosts are written
 * (pykokkos/_nvshmem_halo.cu), or the neighbours' sends do (a send-only
 * exchange). counter: device memory, owned by the caller; the other points
 * run at once. */
enum { PKC_GATE_GPU = 0, PKC_GATE_SYSTEM = 1 };
typedef struct pkc_gate {
  const uint32_t *counter;
  uint32_t target;
  int32_t scope; /* PKC_GATE_SYSTEM: other GPUs raise the counter (a send-only
                    exchange's neighbours): system-scope loads */
  int64_t head[8];
  int64_t tail[8];
} pkc_gate;

/* The launch shape. For RANGE: begin[0], end[0]. For MDRANGE: rank, begin,
 * end and tile (tile 0 = let Kokkos choose). For TEAM: league_size,
 * team_size (0 = Kokkos::AUTO), vector_length (0 = default), scratch bytes
 * per level (0, 1) per team and per thread. */
typedef struct pkc_policy {
  int32_t kind; /* pkc_policy_kind */
  int32_t rank;
  int64_t begin[8];
  int64_t end[8];
  int64_t tile[8];
  int64_t league_size;
  int64_t team_size;
  int64_t vector_length;
  int64_t scratch_team[2];
  int64_t scratch_thread[2];
  int32_t iterate;  /* MDRANGE iteration order: 0 default, 1 Right, 2 Left */
  int32_t reserved;
  const pkc_gate *gate; /* MDRANGE parallel_for of a module whose footprint says
                           "gate": NULL, or the points that wait (pkc_gate) */
} pkc_policy;

/* A kernel entry point. args[i] points at a pkc_value for scalar parameter i
 * and at a DLTensor for View parameter i, in the order of the descriptor's
 * params. result receives a reduction's value or a scan's total (ignored
 * for parallel_for; may be NULL then). On failure it returns non-zero and
 * writes a NUL-terminated message naming the kernel and argument into err
 * (errlen bytes); it never throws and never aborts on bad arguments. */
typedef int (*pkc_kernel_fn)(void *const *args, const pkc_policy *policy,
                             pkc_value *result, char *err, size_t errlen);

/* What a kernel's non-zero return says went wrong (the Python shim raises
 * the matching exception; any other non-zero value is a RUNTIME error). */
enum {
  PKC_ERROR_RUNTIME = 1, /* RuntimeError: Kokkos or C++ failed, module not ready */
  PKC_ERROR_VALUE = 2,   /* ValueError: an argument's value, e.g. a launch range
                            that leaves a View's extent; range() with step 0 */
  PKC_ERROR_ZERO_DIVISION = 3, /* ZeroDivisionError: integer // or % by zero */
  PKC_ERROR_INDEX = 4          /* IndexError: a View index past its extent
                                  (modules built with pkc build --bounds-check) */
};

/* Kernel flags. INFERRED: some parameter type was inferred from the file's
 * call sites, not annotated (PyKokkos types such parameters per call): a host
 * calling it with other argument types builds a run-time specialization. */
enum { PKC_KERNEL_INFERRED = 1 };

typedef struct pkc_kernel_desc {
  const char *name;   /* workunit name */
  const char *entity; /* enclosing functor class, or the function's name */
  int32_t pattern;    /* pkc_pattern */
  int32_t policy;     /* pkc_policy_kind */
  int32_t reducer;    /* pkc_reducer (reductions only) */
  int32_t nparams;
  const pkc_param_desc *params;
  uint8_t result_code; /* DLPack dtype of the result (reduce/scan) */
  uint8_t result_bits;
  int32_t line;        /* line of the workunit in the Python source */
  pkc_kernel_fn fn;
  int32_t flags;       /* PKC_KERNEL_* bits */
} pkc_kernel_desc;

typedef struct pkc_module_desc {
  uint32_t abi_version;       /* PKC_ABI_VERSION the module was built with */
  const char *pkc_version;
  const char *source_path;    /* absolute path of the Python source */
  const char *source_sha256;  /* hex SHA-256 of the source bytes */
  const char *cache_key;      /* hex SHA-256 over source, pkc, backend, Kokkos, compiler, flags */
  const char *backend;        /* "serial" | "openmp" | "cuda" | "hip" */
  const char *kokkos_version; /* e.g. "3.4.1" */
  int32_t device_type;        /* DLDeviceType kernels expect Views in (kDLCPU, kDLCUDA, kDLROCM) */
  int32_t nkernels;
  const pkc_kernel_desc *kernels;
  /* Initializes Kokkos if no module in the process has yet (num_threads <= 0:
   * Kokkos' default). Returns non-zero with a message on failure. */
  int (*initialize)(int num_threads, char *err, size_t errlen);
  /* Finalizes Kokkos if this process initialized it; safe to call twice. */
  void (*finalize)(void);
  /* Waits for all outstanding work (Kokkos::fence). */
  void (*fence)(void);
  /* Device memory for Views on GPU backends (Kokkos::kokkos_malloc/free in the
   * module's memory space); NULL on host backends. */
  void *(*allocate)(size_t bytes, char *err, size_t errlen);
  void (*deallocate)(void *ptr);
  /* Copies between host and the module's memory space (Kokkos::deep_copy of bytes). */
  int (*copy)(void *dst, int dst_on_device, const void *src, int src_on_device,
              size_t bytes, char *err, size_t errlen);
  /* Random pools (Kokkos::Random_XorShift64_Pool / _1024_Pool in the module's
   * execution space): bits is 64 or 1024. The handle must be destroyed before
   * Kokkos is finalized; pool_destroy after finalize does nothing. */
  void *(*pool_create)(int32_t bits, uint64_t seed, char *err, size_t errlen);
  void (*pool_destroy)(int32_t bits, void *pool);
  /* Entities of the source left out of this module, one per line,
   * "<entity>\t<why>\t<file>:<line>:<col>: <message>\n"; why is "rejected"
   * (it has errors: calling it must raise the message) or "runtime-typed"
   * (its parameter types come from a call's arguments: the host builds a
   * specialization, `pkc build --specialize`). Empty string if none. */
  const char *omitted;
} pkc_module_desc;

typedef const pkc_module_desc *(*pkc_module_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* PKC_ABI_H */
