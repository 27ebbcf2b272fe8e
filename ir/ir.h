/*
 * ir.h - pkc's typed kernel IR (prefix pki_).
 *
 * One IR, independent of Python syntax and of Kokkos spelling. The frontend
 * builds it (names resolved to variables, annotations turned into types);
 * pki_check() then gives every expression a type and makes every implicit
 * conversion an explicit PKI_E_CAST; passes work on it; backends only read it.
 * Every node carries the source span it came from.
 *
 * Memory: every node, string and array lives in one pki_arena owned by the
 * pki_module; pki_module_free() releases all of it. There is no global state.
 */
#ifndef PKC_IR_H
#define PKC_IR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- arena */

typedef struct pki_arena pki_arena;

pki_arena *pki_arena_new(void);
void pki_arena_free(pki_arena *a);
/* Zeroed, 16-byte aligned memory that lives as long as the arena. */
void *pki_alloc(pki_arena *a, size_t bytes);
char *pki_strndup(pki_arena *a, const char *s, size_t n);
char *pki_strdup(pki_arena *a, const char *s);
char *pki_sprintf(pki_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The one growth idiom for arena arrays: before arr[n++] = x, write
 * arr = pki_grow(arena, arr, n, &cap, sizeof *arr) (doubles cap when n ==
 * cap, copying the n elements into a new arena block; the old one stays in
 * the arena). */
void *pki_grow(pki_arena *a, void *items, int n, int *cap, size_t sz);

/* Growable array of pointers in an arena (pki_grow underneath). */
typedef struct pki_vec {
  void **items;
  int n, cap;
} pki_vec;
void pki_vec_push(pki_arena *a, pki_vec *v, void *item);
/* Whether item is one of v's items (compared as pointers). */
bool pki_vec_has(const pki_vec *v, const void *item);
#define PKI_AT(vec, i, T) ((T *)(vec).items[i])

/* ------------------------------------------------------ spans, diagnostics */

/* 1-based line and column (columns count bytes), plus the byte range. */
typedef struct pki_span {
  uint32_t line, col;
  uint32_t end_line, end_col;
  uint32_t start_byte, end_byte;
} pki_span;

typedef enum { PKI_SEV_ERROR, PKI_SEV_WARNING, PKI_SEV_NOTE } pki_severity;

typedef struct pki_diag {
  pki_severity severity;
  pki_span span;
  const char *code;    /* stable rule id, e.g. "unsupported-statement" */
  const char *message; /* what is wrong, and what to do about it */
} pki_diag;

/* The diagnostics of one source file, in the order they were reported. */
typedef struct pki_diags {
  pki_arena *arena;
  const char *path;   /* the file as named on the command line */
  const char *source; /* its bytes (NUL-terminated), for source lines/carets */
  size_t source_len;
  pki_diag *items;
  int n, cap;
  int errors;
} pki_diags;

void pki_diags_init(pki_diags *d, pki_arena *a, const char *path,
                    const char *source, size_t len);
void pki_diags_free(pki_diags *d);
void pki_error(pki_diags *d, pki_span at, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void pki_warning(pki_diags *d, pki_span at, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void pki_note(pki_diags *d, pki_span at, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The name of names[0..n) closest to word (edit distance at most 2, and at
 * most a third of word's length plus one), for "did you mean"; NULL if none. */
const char *pki_closest(const char *word, const char *const *names, int n);

/* ---------------------------------------------------------------- types */

typedef enum pki_kind {
  PKI_VOID = 0,
  PKI_BOOL,
  PKI_I8, PKI_I16, PKI_I32, PKI_I64,
  PKI_U8, PKI_U16, PKI_U32, PKI_U64,
  PKI_F32, PKI_F64,
  PKI_VIEW, /* elem, rank, layout, traits, space */
  PKI_STR,  /* only as pk.printf's format */
  PKI_TEAM_MEMBER, /* pk.TeamMember: work index of a TeamPolicy workunit */
  PKI_CLASS,       /* a @pk.classtype value: cls */
  PKI_ARRAY,       /* typing.List[T] of fixed small length: elem (scalar), length */
  PKI_POOL,        /* pk.Random_XorShift64_Pool (rank 64) / _1024_Pool (rank 1024) */
  PKI_RAND_STATE,  /* a generator state from pool.get_state(); rank as the pool's */
  PKI_TIMER,       /* pk.Timer (host code of @pk.main only) */
  PKI_BINOP,       /* pk.BinOp1D/3D (host code of @pk.main only): elem, rank, layout
                      = the key View's; length = 1 or 3 (the BinOp's dimensions) */
  PKI_BINSORT,     /* pk.BinSort over such a BinOp: fields as PKI_BINOP */
  PKI_KIND_COUNT
} pki_kind;

typedef enum pki_layout {
  PKI_LAYOUT_DEFAULT = 0, /* the execution space's array_layout */
  PKI_LAYOUT_RIGHT,
  PKI_LAYOUT_LEFT,
  PKI_LAYOUT_STRIDE, /* subviews (Kokkos::LayoutStride; emitted as auto) */
  /* Views of a @pk.classtype (elem PKI_CLASS): PKI_LAYOUT_DEFAULT there means
   * either, the kernel is instantiated for both and the wrapper picks one */
  PKI_LAYOUT_AOS, /* array of structs: Kokkos::View<T *> of the struct */
  PKI_LAYOUT_SOA  /* struct of arrays: one View per field behind an accessor */
} pki_layout;

typedef enum pki_space {
  PKI_SPACE_DEFAULT = 0, /* the execution space's memory space */
  PKI_SPACE_HOST,        /* HostSpace */
  PKI_SPACE_SCRATCH      /* team/thread scratch (ScratchView1D..3D) */
} pki_space;

enum { /* View memory traits (bit set) */
  PKI_TRAIT_ATOMIC = 1,
  PKI_TRAIT_RANDOM_ACCESS = 2,
  PKI_TRAIT_RESTRICT = 4,
  PKI_TRAIT_UNMANAGED = 8
};

/* Types are small values, compared with pki_type_eq. */
typedef struct pki_type {
  pki_kind kind;
  pki_kind elem; /* PKI_VIEW: element kind (PKI_CLASS: a View of classtype cls) */
  int rank;      /* PKI_VIEW: 1..8 */
  pki_layout layout;
  unsigned traits;
  pki_space space;          /* PKI_VIEW */
  int length;               /* PKI_ARRAY: number of elements */
  /* PKI_ARRAY uses rank too: 0 for a List[T]; for a List[List[T]] the number
   * of columns (stored flat, row by row: m[r][k] is element r * rank + k) */
  struct pki_entity *cls;   /* PKI_CLASS, and PKI_VIEW of elem PKI_CLASS: the @pk.classtype */
} pki_type;

extern const pki_type pki_void_type, pki_bool_type, pki_int_type /* I64 */,
    pki_float_type /* F64 */;
pki_type pki_scalar(pki_kind k);
pki_type pki_view(pki_kind elem, int rank, pki_layout layout);
pki_type pki_class_type(struct pki_entity *cls);
pki_type pki_array_type(pki_kind elem, int length);
bool pki_type_eq(pki_type a, pki_type b);
/* A workunit takes at most this many Views of classtype values (each doubles
 * the instantiations of its functor: AoS and SoA). */
#define PKI_MAX_CLASS_VIEWS 3
/* t is a View whose elements are @pk.classtype values (t.cls). */
bool pki_is_class_view(pki_type t);
/* Depth of classtype fields nested in a View's element type (Body.pos.x: 2). */
#define PKI_MAX_CLASS_NESTING 4
/* Elements of a fixed-size List field of a classtype (self.v: List[float] = [...]). */
#define PKI_MAX_ARRAY_FIELD 64
/* Why a View cannot hold values of classtype cls (a field of it, or of a
 * classtype nested in it, is neither a scalar nor a classtype; a nesting
 * deeper than PKI_MAX_CLASS_NESTING), a message saying what to do; NULL if
 * it can. */
const char *pki_class_view_field_error(pki_arena *a, const struct pki_entity *cls);
bool pki_is_int(pki_kind k);   /* signed or unsigned integer, not bool */
bool pki_is_signed(pki_kind k);
bool pki_is_float(pki_kind k);
bool pki_is_numeric(pki_kind k); /* bool, ints, floats */
int pki_kind_bits(pki_kind k);
/* Python-facing spelling: "int64", "float64", "View2D[float64]". */
const char *pki_kind_name(pki_kind k);
const char *pki_type_str(pki_arena *a, pki_type t);

/* ------------------------------------------------------------ variables */

typedef enum pki_var_kind {
  PKI_VAR_LOCAL,  /* declared in a body */
  PKI_VAR_PARAM,  /* kernel argument (FunctionSty) or device-function parameter */
  PKI_VAR_MEMBER, /* functor data member (self.x) */
  PKI_VAR_INDEX,  /* work index of a workunit */
  PKI_VAR_ACC,    /* reduction / scan accumulator (pk.Acc[T]) */
  PKI_VAR_FINAL   /* scan's final-pass flag */
} pki_var_kind;

typedef struct pki_var {
  const char *name; /* the Python name, kept in the generated code */
  pki_var_kind kind;
  pki_type type;    /* PKI_VOID until known (inferred locals) */
  bool annotated;   /* type came from an annotation */
  bool loop_alias;  /* a loop variable its body reassigns, declared from the loop's
                       own counter at each iteration (frontend count_apart) */
  bool from_global; /* a module global a kernel or @pk.main reads: an implicit
                       argument the host reads from the module at each call */
  pki_span span;    /* where it was declared */
  unsigned access;  /* PKI_ACCESS_* bits, computed by pki_check */
  unsigned uses;    /* PKI_USE_* bits, recorded by pki_check (pki_record_uses) */
  int id;           /* unique within the module */
} pki_var;

enum { PKI_ACCESS_READ = 1, PKI_ACCESS_WRITE = 2 };
/* How a function's body uses a variable (closures included), for backends:
 * READ its value is read (as an operand, an index, in a target that is not
 * the plain variable, or as a nested pattern's / dispatch's result, which
 * Kokkos writes through a reference); NAMED it appears anywhere, targets
 * included; DECLARED a declaration statement introduces it; ASSIGNED a
 * statement other than its declaration stores to it (=, op=, a result). */
enum { PKI_USE_READ = 1, PKI_USE_NAMED = 2, PKI_USE_DECLARED = 4, PKI_USE_ASSIGNED = 8 };

/* ---------------------------------------------------------- expressions */

typedef enum pki_expr_kind {
  PKI_E_INT,     /* ival */
  PKI_E_FLOAT,   /* fval; str set for math constants ("pi") */
  PKI_E_BOOL,    /* ival 0/1 */
  PKI_E_STR,     /* str (printf format only) */
  PKI_E_VAR,     /* var */
  PKI_E_UNARY,   /* op: PKI_OP_NEG/POS/NOT/INVERT; args[0] */
  PKI_E_BINARY,  /* op: arithmetic/bitwise; args[0], args[1] */
  PKI_E_COMPARE, /* op: LT..NE; args[0], args[1] (chains are ANDs of compares) */
  PKI_E_LOGICAL, /* op: PKI_OP_AND/OR; args[0], args[1] */
  PKI_E_COND,    /* args[0] ? args[1] : args[2] */
  PKI_E_CAST,    /* args[0] converted to type (inserted by pki_check, or int()/float()/bool()) */
  PKI_E_INDEX,   /* args[0] is a View; args[1..] indices, one per rank */
  PKI_E_EXTENT,  /* args[0] is a View; ival = dimension (len(v): 0) */
  PKI_E_CALL,    /* func(args...); for a classtype method args[0] is the receiver */
  PKI_E_BUILTIN, /* builtin(args...): math functions, abs, min, max */
  PKI_E_INTRINSIC, /* intrinsic(args...): pk.* operations, see PKI_INTRINSIC_TABLE */
  PKI_E_FIELD,   /* args[0].str: a classtype field (var = the field's member var) */
  PKI_E_CONSTRUCT, /* type's classtype constructed from args (calls its __init__) */
  PKI_E_LIST,    /* [args...]: a typing.List literal (type PKI_ARRAY) */
  PKI_E_SLICE,   /* a subview slice: args[0] begin, args[1] end (either may be NULL = open);
                    ival 1 for ':' (Kokkos::ALL) */
  PKI_E_SELF     /* self in a classtype method: the value it runs on (C++ *this); type its
                    classtype */
} pki_expr_kind;

typedef enum pki_op {
  PKI_OP_NONE = 0,
  /* binary arithmetic / bitwise (also augmented assignment) */
  PKI_OP_ADD, PKI_OP_SUB, PKI_OP_MUL,
  PKI_OP_DIV,      /* Python '/': true division, result is floating */
  PKI_OP_FLOORDIV, /* Python '//': floors */
  PKI_OP_MOD,      /* Python '%': sign of the divisor */
  PKI_OP_POW,      /* Python '**' */
  PKI_OP_BITAND, PKI_OP_BITOR, PKI_OP_BITXOR, PKI_OP_SHL, PKI_OP_SHR,
  /* comparisons */
  PKI_OP_LT, PKI_OP_LE, PKI_OP_GT, PKI_OP_GE, PKI_OP_EQ, PKI_OP_NE,
  /* logical */
  PKI_OP_AND, PKI_OP_OR,
  /* unary */
  PKI_OP_NEG, PKI_OP_POS, PKI_OP_NOT, PKI_OP_INVERT,
  PKI_OP_COUNT
} pki_op;

/* Builtins callable in kernels: Python's abs/min/max and math.* functions.
 * PKI_BUILTIN_TABLE(X) lists (id, Python name, arity min, arity max). */
#define PKI_BUILTIN_TABLE(X)                                                 \
  X(ABS, "abs", 1, 1) X(MIN, "min", 2, 8) X(MAX, "max", 2, 8)                \
  X(SQRT, "sqrt", 1, 1) X(CBRT, "cbrt", 1, 1) X(EXP, "exp", 1, 1)            \
  X(EXP2, "exp2", 1, 1) X(EXPM1, "expm1", 1, 1) X(LOG, "log", 1, 2)          \
  X(LOG2, "log2", 1, 1) X(LOG10, "log10", 1, 1) X(LOG1P, "log1p", 1, 1)      \
  X(POW, "pow", 2, 2) X(SIN, "sin", 1, 1) X(COS, "cos", 1, 1)                \
  X(TAN, "tan", 1, 1) X(ASIN, "asin", 1, 1) X(ACOS, "acos", 1, 1)            \
  X(ATAN, "atan", 1, 1) X(ATAN2, "atan2", 2, 2) X(SINH, "sinh", 1, 1)        \
  X(COSH, "cosh", 1, 1) X(TANH, "tanh", 1, 1) X(ASINH, "asinh", 1, 1)        \
  X(ACOSH, "acosh", 1, 1) X(ATANH, "atanh", 1, 1) X(HYPOT, "hypot", 2, 2)    \
  X(FLOOR, "floor", 1, 1) X(CEIL, "ceil", 1, 1) X(TRUNC, "trunc", 1, 1)      \
  X(FABS, "fabs", 1, 1) X(FMOD, "fmod", 2, 2) X(COPYSIGN, "copysign", 2, 2)  \
  X(REMAINDER, "remainder", 2, 2)                                            \
  X(ISNAN, "isnan", 1, 1) X(ISINF, "isinf", 1, 1) X(ISFINITE, "isfinite", 1, 1) \
  X(ERF, "erf", 1, 1) X(ERFC, "erfc", 1, 1) X(LGAMMA, "lgamma", 1, 1)        \
  X(TGAMMA, "gamma", 1, 1) X(ROUND, "round", 1, 2) /* Python's round(), not math's */  \
  /* C++ <cmath> names PyKokkos kernels call bare (upstream's lib/ufuncs.py) */  \
  X(FMAX, "fmax", 2, 2) X(FMIN, "fmin", 2, 2) X(NEARBYINT, "nearbyint", 1, 1)   \
  X(LOGB, "logb", 1, 1) X(SIGNBIT, "signbit", 1, 1) X(CTGAMMA, "tgamma", 1, 1)

typedef enum pki_builtin {
#define PKI_X(id, py, lo, hi) PKI_BUILTIN_##id,
  PKI_BUILTIN_TABLE(PKI_X)
#undef PKI_X
  PKI_BUILTIN_COUNT
} pki_builtin;

/* pk.* operations inside annotated code. X(id, spelling, min args, max args);
 * the spelling is how the frontend sees it ("m.league_rank" = method on a
 * TeamMember, "pk.atomic_add" = module function, "s.drand" = method on a
 * random state). Arguments are listed in Python order. */
#define PKI_INTRINSIC_TABLE(X)                                                    \
  /* TeamMember methods (args[0] = the member) */                                 \
  X(LEAGUE_RANK, "m.league_rank", 1, 1) X(TEAM_RANK, "m.team_rank", 1, 1)         \
  X(LEAGUE_SIZE, "m.league_size", 1, 1) X(TEAM_SIZE, "m.team_size", 1, 1)         \
  X(TEAM_BARRIER, "m.team_barrier", 1, 1)                                         \
  /* m.team_broadcast(x, 0): x from team rank 0 to every thread; pkc inserts it   \
     (ir/team_sync.c), the dialect has no spelling for it */                      \
  X(TEAM_BROADCAST, "m.team_broadcast", 3, 3)                                     \
  X(TEAM_SCRATCH, "m.team_scratch", 2, 2) X(THREAD_SCRATCH, "m.thread_scratch", 2, 2) \
  /* pk.ScratchView1D..3D(m.team_scratch(level), n0[, n1, n2]): type = the View */ \
  X(SCRATCH_VIEW, "pk.ScratchView", 2, 4)                                         \
  /* atomics: args = view, index..., value (value omitted for increment/decrement; \
     compare_exchange: view, index..., expected, desired) */                      \
  X(ATOMIC_FETCH_ADD, "pk.atomic_fetch_add", 3, 10) X(ATOMIC_FETCH_SUB, "pk.atomic_fetch_sub", 3, 10) \
  X(ATOMIC_FETCH_MUL, "pk.atomic_fetch_mul", 3, 10) X(ATOMIC_FETCH_DIV, "pk.atomic_fetch_div", 3, 10) \
  X(ATOMIC_FETCH_MAX, "pk.atomic_fetch_max", 3, 10) X(ATOMIC_FETCH_MIN, "pk.atomic_fetch_min", 3, 10) \
  X(ATOMIC_FETCH_MOD, "pk.atomic_fetch_mod", 3, 10) X(ATOMIC_FETCH_AND, "pk.atomic_fetch_and", 3, 10) \
  X(ATOMIC_FETCH_OR, "pk.atomic_fetch_or", 3, 10) X(ATOMIC_FETCH_XOR, "pk.atomic_fetch_xor", 3, 10) \
  X(ATOMIC_FETCH_LSHIFT, "pk.atomic_fetch_lshift", 3, 10)                         \
  X(ATOMIC_FETCH_RSHIFT, "pk.atomic_fetch_rshift", 3, 10)                         \
  X(ATOMIC_ADD, "pk.atomic_add", 3, 10) X(ATOMIC_SUB, "pk.atomic_sub", 3, 10)     \
  X(ATOMIC_INCREMENT, "pk.atomic_increment", 2, 9)                                \
  X(ATOMIC_DECREMENT, "pk.atomic_decrement", 2, 9)                                \
  X(ATOMIC_COMPARE_EXCHANGE, "pk.atomic_compare_exchange", 4, 11)                 \
  /* random numbers (args[0] = pool or state) */                                  \
  X(POOL_GET_STATE, "p.get_state", 1, 1) X(POOL_FREE_STATE, "p.free_state", 2, 2) \
  X(RAND_DRAND, "s.drand", 1, 3) X(RAND_FRAND, "s.frand", 1, 3)                   \
  X(RAND_URAND, "s.urand", 1, 3) X(RAND_URAND64, "s.urand64", 1, 3)               \
  X(RAND_RAND, "s.rand", 1, 3) X(RAND_RAND64, "s.rand64", 1, 3)                   \
  X(RAND_NORMAL, "s.normal", 1, 3)                                                \
  /* subviews: args[0] = view, then one index or PKI_E_SLICE per dimension */     \
  X(SUBVIEW, "pk.subview", 2, 9)                                                  \
  /* binary search of sorted View elements [0, n): pk.lower_bound(view, n, value) \
     is the first index whose element is >= value (upper_bound: > value), else n */ \
  X(LOWER_BOUND, "pk.lower_bound", 3, 3) X(UPPER_BOUND, "pk.upper_bound", 3, 3)   \
  /* pk.inclusive_scan(m, view): the team's in-place prefix sums of a rank-1 View  \
     (PyKokkos' team scan of scratch), a collective of the team body */          \
  X(TEAM_INCLUSIVE_SCAN, "pk.inclusive_scan", 2, 2)                               \
  /* host code of @pk.main */                                                     \
  X(TIMER_NEW, "pk.Timer", 0, 0) X(TIMER_SECONDS, "t.seconds", 1, 1)              \
  X(TIMER_RESET, "t.reset", 1, 1) X(FENCE, "pk.fence", 0, 0)                     \
  /* Kokkos::BinSort in @pk.main. BINOP_NEW: keys, nbins, min, max (1-D) or     \
     keys, nbins x3, min x3, max x3 (3-D); BINSORT_NEW: keys, begin, end, binop, \
     sort_within_bins; then methods on the sorter (args[0]) */                    \
  X(BINOP_NEW, "pk.BinOp", 4, 10) X(BINSORT_NEW, "pk.BinSort", 5, 5)              \
  X(BINSORT_CREATE, "s.create_permute_vector", 1, 1)                              \
  X(BINSORT_SORT, "s.sort", 2, 4) X(BINSORT_COUNT, "s.get_bin_count", 1, 1)       \
  X(BINSORT_OFFSETS, "s.get_bin_offsets", 1, 1)                                   \
  X(BINSORT_PERMUTE, "s.get_permute_vector", 1, 1)                                \
  /* pk.ScratchView1D..3D[T].shmem_size(n0[, n1, n2]) in @pk.main: bytes (int64);  \
     type.elem = T (double if not given), ival = rank */                          \
  X(SCRATCH_SHMEM, "pk.ScratchView.shmem_size", 1, 3)

typedef enum pki_intrinsic {
#define PKI_X(id, py, lo, hi) PKI_INTRINSIC_##id,
  PKI_INTRINSIC_TABLE(PKI_X)
#undef PKI_X
  PKI_INTRINSIC_COUNT
} pki_intrinsic;

typedef struct pki_builtin_info {
  const char *py_name;
  int min_args, max_args;
} pki_builtin_info;
extern const pki_builtin_info pki_builtins[PKI_BUILTIN_COUNT];
extern const pki_builtin_info pki_intrinsics[PKI_INTRINSIC_COUNT];
/* Looks an intrinsic up by its table spelling ("pk.atomic_add"); -1 if none. */
int pki_intrinsic_lookup(const char *spelling);
/* Looks a builtin up by its Python name (without "math."); -1 if none. */
int pki_builtin_lookup(const char *py_name);

struct pki_func;

typedef struct pki_expr {
  pki_expr_kind kind;
  pki_type type; /* PKI_VOID until pki_check runs */
  pki_span span;
  pki_op op;
  int64_t ival;
  double fval;
  const char *str;   /* PKI_E_STR text (unescaped); PKI_E_FLOAT: the math constant ("pi") */
  const char *cname; /* PKI_E_INT/FLOAT/BOOL: the module constant it stands for (NULL: a literal) */
  pki_var *var;
  struct pki_func *func;
  pki_builtin builtin;
  pki_intrinsic intrinsic;
  struct pki_expr **args;
  int nargs;
  /* PKI_E_BINARY // or %: C++'s / and % compute it (pki_nonneg_plan_module) */
  bool plain_div;
  /* PKI_E_INT: a literal above INT64_MAX (a 64-bit hash constant), typed
   * uint64; ival holds its bits */
  bool unsigned_lit;
} pki_expr;

/* ----------------------------------------------------------- statements */

typedef enum pki_stmt_kind {
  PKI_S_DECL,      /* var (type may be PKI_VOID until checked) = value (may be NULL) */
  PKI_S_ASSIGN,    /* target (VAR or INDEX) = value */
  PKI_S_AUGASSIGN, /* target op= value */
  PKI_S_IF,        /* if cond: body else: orelse (elif is a nested IF in orelse) */
  PKI_S_FOR,       /* for var in range(begin, end, step): body (step may be negative or runtime) */
  PKI_S_WHILE,     /* while cond: body */
  PKI_S_BREAK,
  PKI_S_CONTINUE,
  PKI_S_RETURN,    /* value may be NULL */
  PKI_S_EXPR,      /* value evaluated for its effect (a call) */
  PKI_S_PRINTF,    /* pk.printf(args[0] format, args[1..]) */
  PKI_S_ASSERT,    /* assert cond[, message in args[0] (PKI_E_STR)]: device-side check */
  /* Nested pattern inside a team workunit (or inside another nested closure):
   * pk.parallel_for/reduce/scan(pk.TeamThreadRange(m, [b,] e), closure).
   * range: PKI_RANGE_*; args = [member, begin, end] (TEAM_THREAD_MD: [member,
   * end0, end1, ...]); closure = the nested def; target = variable receiving a
   * reduction's/scan's result (NULL if discarded). */
  PKI_S_NESTED,
  /* pk.single(pk.PerTeam(m) | pk.PerThread(m), closure): range = PKI_RANGE_PER_TEAM /
   * PKI_RANGE_PER_THREAD, args[0] = member. */
  PKI_S_SINGLE,
  /* Host code of @pk.main only: a parallel dispatch. pattern; policy = kind;
   * args = policy arguments (RANGE: begin, end; MDRANGE: PKI_E_LIST begin, PKI_E_LIST end
   * [, PKI_E_LIST tile]; TEAM: league, team (NULL = AUTO)[, vector]);
   * closure = the workunit (a func of the same workload) or a lambda closure;
   * target = variable / member (PKI_E_VAR) receiving the result, or NULL;
   * str = the kernel's label if one was given. */
  PKI_S_DISPATCH
} pki_stmt_kind;

typedef enum pki_range {
  PKI_RANGE_TEAM_THREAD, PKI_RANGE_THREAD_VECTOR, PKI_RANGE_TEAM_VECTOR,
  PKI_RANGE_TEAM_THREAD_MD, PKI_RANGE_PER_TEAM, PKI_RANGE_PER_THREAD
} pki_range;

typedef struct pki_block {
  struct pki_stmt **stmts;
  int n, cap;
} pki_block;

typedef struct pki_stmt {
  pki_stmt_kind kind;
  pki_span span;
  pki_op op;           /* PKI_S_AUGASSIGN */
  pki_var *var;        /* PKI_S_DECL, PKI_S_FOR */
  pki_expr *target;    /* PKI_S_ASSIGN, PKI_S_AUGASSIGN */
  pki_expr *value;     /* DECL init, ASSIGN/AUGASSIGN rhs, RETURN, EXPR */
  pki_expr *cond;      /* IF, WHILE */
  pki_expr *begin, *end, *step; /* FOR */
  pki_block body;      /* IF then, FOR, WHILE */
  pki_block orelse;    /* IF else */
  pki_expr **args;     /* PRINTF, ASSERT, NESTED, SINGLE, DISPATCH */
  int nargs;
  /* NESTED, SINGLE, DISPATCH */
  int pattern;         /* pki_pattern */
  int range;           /* pki_range (NESTED, SINGLE) / pki_policy (DISPATCH) */
  struct pki_func *closure;
  const char *str;     /* DISPATCH label */
  /* DISPATCH with a TeamPolicy(...).set_scratch_size(level, pk.PerTeam(x)[,
   * pk.PerThread(y)]): bytes per [level][0 team, 1 thread]; NULL = not set */
  pki_expr *scratch[2][2];
} pki_stmt;

void pki_block_push(pki_arena *a, pki_block *b, pki_stmt *s);

/* ---------------------------------------------- functions and entities */

typedef enum pki_pattern { PKI_PATTERN_FOR, PKI_PATTERN_REDUCE, PKI_PATTERN_SCAN } pki_pattern;
typedef enum pki_policy { PKI_POLICY_RANGE, PKI_POLICY_MDRANGE, PKI_POLICY_TEAM } pki_policy;
/* MAXLOC/MINLOC (pk.MaxLoc[T]/pk.MinLoc[T]): the accumulator is a value and
 * location pair, acc.val (T) and acc.loc (int64), as Kokkos' ValLocScalar. */
/* BAND/BOR/LAND/LOR (reducer=pk.BAnd ... at a launch, PyKokkos): `acc &= x`,
 * `acc |= x`, `acc = acc and x`, `acc = acc or x`. */
/* MINMAX/MINMAXLOC (reducer=pk.MinMax / pk.MinMaxLoc, PyKokkos): acc.min_val
 * and acc.max_val (T), for MINMAXLOC also acc.min_loc and acc.max_loc (int64),
 * as Kokkos' MinMaxScalar / MinMaxLocScalar. */
typedef enum pki_reducer {
  PKI_REDUCER_SUM, PKI_REDUCER_PROD, PKI_REDUCER_MIN, PKI_REDUCER_MAX,
  PKI_REDUCER_MAXLOC, PKI_REDUCER_MINLOC, PKI_REDUCER_BAND, PKI_REDUCER_BOR,
  PKI_REDUCER_LAND, PKI_REDUCER_LOR, PKI_REDUCER_MINMAX, PKI_REDUCER_MINMAXLOC
} pki_reducer;

/* Whether r's accumulator is a struct updated through its fields (MaxLoc,
 * MinLoc, MinMax, MinMaxLoc). */
bool pki_reducer_has_fields(pki_reducer r);
/* Whether such an accumulator has field `name`; *is_loc: an int64 location
 * (else a value of the accumulator's type). */
bool pki_reducer_field(pki_reducer r, const char *name, bool *is_loc);

struct pki_entity;

/* A @pk.workunit (kernel), a @pk.function (device function), a classtype
 * constructor/method, a nested closure (def inside a team workunit, or a lambda
 * in @pk.main), or a workload's @pk.main (host code). */
typedef struct pki_func {
  const char *name;
  pki_span span;        /* the def's name */
  struct pki_entity *owner;
  bool is_workunit;
  bool is_main;         /* @pk.main of a workload: host code, run by pk.execute */
  bool is_closure;      /* nested def / lambda: index/acc/final as for workunits;
                           outer variables are used directly (captured by reference) */
  bool is_method;       /* classtype method/ctor with implicit receiver (self) */
  bool is_ctor;         /* classtype __init__ */
  struct pki_func *parent; /* closures: the enclosing function */
  /* workunits */
  pki_pattern pattern;
  pki_policy policy;
  pki_reducer reducer;
  pki_var **index;      /* work index parameter(s) */
  int nindex, capi;
  pki_var *acc;         /* reduce/scan accumulator, or NULL */
  pki_var *final;       /* scan's final flag, or NULL */
  /* kernel arguments (FunctionSty workunit) or parameters (device function) */
  pki_var **params;
  int nparams, capp;
  pki_type ret;         /* device functions: return type (PKI_VOID for none) */
  bool ret_annotated;
  pki_block body;
  pki_var **locals;     /* every local declared in the body, in order */
  int nlocals, capl;
  struct pki_func **closures; /* nested defs/lambdas lowered inside this body */
  int nclosures, capc;
  /* FunctionSty workunits: some parameter type came from call-site inference
   * (not an annotation), so a call with other argument types is specialized
   * at run time; runtime_typed: some parameter could not be typed before the
   * call at all (the body is not lowered; the module omits the workunit). */
  bool inferred;
  bool runtime_typed;
  /* pki_extent_rule * (access.h): what a launch range must fit; set by
   * pki_extent_plan_module for RangePolicy/MDRangePolicy workunits */
  pki_vec extent_rules;
  /* MDRange workunits and lambdas: the work index that runs along contiguous
   * memory in the Views the kernel touches, [0] when the backend's default
   * layout is LayoutRight (host backends), [1] when LayoutLeft (CUDA, HIP);
   * set by pki_mdrange_plan_module (ir/mdrange.c), valid when md_planned */
  int md_contiguous[2];
  bool md_planned;
  /* host backends: rows along md_contiguous[0] pay (no View is indexed by
   * that index in another dimension than its contiguous one; a transpose
   * keeps Kokkos' tiles) */
  bool md_rows;
  /* RangePolicy and host-rows MDRange parallel_for workunits, set by
   * pki_range_plan_module (ir/range.c), valid when range_planned. range_own:
   * every work item touches each View it writes only at its own index (a
   * RangePolicy's i, an MDRange's md_contiguous[0]; no atomics), so once
   * those Views (range_written) overlap none of the others it touches
   * (range_others; pki_var *, checked at the launch) no iteration of a loop
   * over that index depends on another. range_copy_dst/src: a RangePolicy
   * body dst[i] = src[i], two rank-1 Views of one element type (NULL
   * otherwise). */
  bool range_planned, range_own;
  pki_vec range_written, range_others;
  const pki_var *range_copy_dst, *range_copy_src;
  /* RangePolicy/MDRange parallel_for workunits, set by
   * pki_footprint_plan_module (ir/footprint.c), valid when footprint_planned:
   * the elements of each View a work item touches (pki_footprint *, one per
   * View), or footprint_known false where some access cannot be bounded.
   * pk.Graph orders captured launches by them (pkc_footprint_v1). */
  bool footprint_planned, footprint_known;
  pki_vec footprint;
} pki_func;

#define PKI_FOOTPRINT_ANY (-2)   /* pki_footprint_dim.work: any element */
#define PKI_FOOTPRINT_CONST (-1) /* pki_footprint_dim.work: the constants lo..hi */

/* One dimension of a View's footprint: work index `work` + lo .. + hi
 * (work >= 0), the constants lo .. hi, or any element. */
typedef struct pki_footprint_dim {
  int work;
  int64_t lo, hi;
} pki_footprint_dim;

/* The elements of one View (a parameter or data member) that a work item
 * touches, and how (union of PKI_MEM_* modes, access.h). */
typedef struct pki_footprint {
  const pki_var *view;
  unsigned mode;
  int rank;
  pki_footprint_dim dim[8];
} pki_footprint;

typedef enum pki_entity_kind {
  PKI_ENT_WORKUNIT, /* FunctionSty: a top-level @pk.workunit def; funcs[0] */
  PKI_ENT_FUNCTION, /* a top-level @pk.function def; funcs[0] */
  PKI_ENT_FUNCTOR,  /* ClassSty: @pk.functor class; members + funcs */
  PKI_ENT_WORKLOAD, /* ClassStyWithMain: @pk.workload class; members + funcs (one is_main) */
  PKI_ENT_CLASSTYPE /* @pk.classtype: fields (members) + ctor/methods (funcs) */
} pki_entity_kind;

typedef struct pki_entity {
  pki_entity_kind kind;
  const char *name;
  pki_span span;
  pki_span extent;   /* the whole definition, decorators included (pki_select) */
  pki_var **members; /* PKI_ENT_FUNCTOR: data members typed in __init__ */
  int nmembers, capm;
  pki_func **funcs;  /* workunits and device functions, in source order */
  int nfuncs, capf;
} pki_entity;

/* An entity a partial build leaves out of the module (pki_select), and why:
 * calling one of its kernels raises message (located at `at`). */
typedef enum pki_omit_kind {
  PKI_OMIT_REJECTED,    /* it (or an entity it uses) has errors */
  PKI_OMIT_RUNTIME_TYPED /* parameters typed at the call: built as a specialization */
} pki_omit_kind;
typedef struct pki_omitted {
  const char *entity;
  pki_omit_kind kind;
  pki_span at;
  const char *message;
} pki_omitted;

/* A statement of the file's host code (outside @pk entities) that launches
 * a FunctionSty workunit of the file with plain arguments,
 * `pk.parallel_for([name,] policy, kernel, p=x, ...)` or
 * `r = pk.parallel_reduce(...)`: a link of a host chain (kernel fusion; the
 * shim finds the statement at run time by its lines). */
typedef struct pki_host_launch {
  const pki_func *kernel;  /* the workunit (funcs[0] of a PKI_ENT_WORKUNIT) */
  int pattern;             /* pki_pattern of the call */
  pki_span span;           /* the statement */
  const char *policy;      /* the policy argument as written */
  const char **args;       /* per kernel->params[k]: the argument as written */
  const char *target;      /* a reduction's assignment target as written (NULL: a for) */
} pki_host_launch;

/* Consecutive launch statements of one block of host code, or the launch
 * statements forming the whole body of `for var in range(...)`. */
typedef struct pki_host_chain {
  const char *where;        /* the enclosing function, "<module>" at top level */
  pki_host_launch *launches;
  int n;
  bool loop;                /* launches are the body of the loop at loop_span */
  pki_span loop_span;
  const char *loop_var;
  const char *range[3];     /* start, stop, step as written ("0" and "1" if omitted) */
} pki_host_chain;

typedef struct pki_module {
  pki_arena *arena;
  const char *path;   /* source path as given */
  const char *abspath;
  const char *source; /* bytes, NUL-terminated */
  size_t source_len;
  const char *name;   /* module name: the file's stem, a C identifier */
  pki_entity **entities;
  int nentities, cape;
  int next_var_id;
  pki_omitted *omitted; /* entities left out by pki_select, in source order */
  int nomitted;
  struct pki_fusion_plan *fusion; /* set by pki_fusion_plan_module (ir/access.h); NULL: none */
  pki_vec host_chains; /* pki_host_chain *, in source order (frontend/host_chains.c) */
} pki_module;

/* The module name of a source path (docs/NAMING.md): the file name up to its
 * first '.', each non-ASCII code point `u%04x`, other characters outside
 * [A-Za-z0-9_] (and bytes that are not UTF-8) '_', `m_` before a leading
 * digit. The shim's _loader.module_name computes the same. */
const char *pki_module_name(pki_arena *a, const char *path);
pki_module *pki_module_new(const char *path, const char *abspath,
                           const char *source, size_t len);
void pki_module_free(pki_module *m);

/* Constructors (allocate in the module's arena, zero the rest). */
pki_var *pki_new_var(pki_module *m, const char *name, pki_var_kind kind,
                     pki_type type, pki_span span);
pki_expr *pki_new_expr(pki_module *m, pki_expr_kind kind, pki_span span);
pki_expr *pki_new_expr_n(pki_module *m, pki_expr_kind kind, pki_span span, int nargs);
pki_stmt *pki_new_stmt(pki_module *m, pki_stmt_kind kind, pki_span span);
pki_func *pki_new_func(pki_module *m, const char *name, pki_span span);
pki_entity *pki_new_entity(pki_module *m, pki_entity_kind kind, const char *name,
                           pki_span span);
void pki_func_add_local(pki_module *m, pki_func *f, pki_var *v);
void pki_func_add_closure(pki_module *m, pki_func *f, pki_func *closure); /* sets parent */
void pki_func_add_index(pki_module *m, pki_func *f, pki_var *v);
void pki_func_add_param(pki_module *m, pki_func *f, pki_var *v);
void pki_entity_add_member(pki_module *m, pki_entity *e, pki_var *v);
void pki_entity_add_func(pki_module *m, pki_entity *e, pki_func *f); /* sets f->owner */
void pki_module_add_entity(pki_module *m, pki_entity *e);
/* Finds a member by name; NULL if none. */
pki_var *pki_entity_member(const pki_entity *e, const char *name);
/* The workunit, device function or @pk.main a (possibly nested) closure f
 * belongs to (f itself when it is no closure). */
pki_func *pki_root_func(pki_func *f);
/* Wraps e in a PKI_E_CAST to t (returns e itself if it already has type t). */
pki_expr *pki_cast(pki_module *m, pki_expr *e, pki_type t);

/* ---------------------------------------------------------------- passes */

/* Types every expression, inserts explicit casts, infers local types,
 * computes parameter/member access modes and checks the rules of docs/DIALECT.md.
 * Reports into d; returns the number of errors it reported. */
int pki_check(pki_module *m, pki_diags *d);

/* Team synchronization (team_sync.c, docs/DIALECT.md "Team synchronization"):
 * hoists team collectives out of branches on team_rank() (note "team-hoist")
 * or rejects them ("divergent-collective"), inserts team_barrier() where a
 * nested parallel_for's writes are read by other threads ("team-barrier"),
 * and warns of non-atomic scatters ("possible-race"). pki_check runs it;
 * returns the number of errors it reported. */
int pki_team_sync(pki_module *m, pki_diags *d);

/* Whether block b (closures included) takes a scratch View at level (0/1) from
 * m.team_scratch (thread false) or m.thread_scratch (thread true); a level that
 * is not a literal counts as every level. */
bool pki_uses_scratch(const pki_block *b, int level, bool thread);
/* How many times b (closures included) takes team (or thread) scratch at
 * level; -1 where some level is known only at run time. */
int pki_scratch_use_count(const pki_block *b, int level, bool thread);
/* f (closures included) has a parallel_scan over a team's threads
 * (TeamThreadRange), which Kokkos runs on GPUs only with a power-of-two team. */
bool pki_has_team_scan(const pki_func *f);
/* e with its conversions (CASTs the checker inserted or pk.<dtype>(x)) peeled
 * off; NULL for NULL. Borrowed: a node of e. */
const pki_expr *pki_uncast(const pki_expr *e);
/* e is an integer constant (through casts and unary minus): its value in *v. */
bool pki_const_int(const pki_expr *e, int64_t *v);
/* Where Python would raise inside f or the functions it calls: integer // or
 * % (ZeroDivisionError), range() with a run-time step (step 0: ValueError).
 * "line 12" / "lines 12, 15 or 20" (arena string), NULL when nowhere. */
const char *pki_raising_lines(pki_arena *a, const pki_func *f);

/* The one walk over the IR: calls the visitor's hooks on every function of an
 * entity (params, locals, statements, expressions, closures), in source
 * order, a statement before its expressions and blocks; any hook may be NULL.
 * Passes and backends hook into it instead of writing walkers of their own. */
typedef struct pki_visitor {
  void (*expr)(struct pki_visitor *v, const pki_expr *e);
  void (*stmt)(struct pki_visitor *v, const pki_stmt *s);
  void (*var)(struct pki_visitor *v, const pki_var *var); /* declarations only */
  /* when set, a statement's target goes here instead of through expr (the
   * hook may walk it with pki_visit_expr) */
  void (*target)(struct pki_visitor *v, const pki_stmt *s, const pki_expr *t);
  /* pki_visit_block/stmt: also walk the body of a statement's closure (nested
   * def, lambda, dispatched workunit); pki_visit_func reaches closures anyway */
  bool closures;
  void *data;
} pki_visitor;
void pki_visit_func(pki_visitor *v, const pki_func *f);
void pki_visit_expr(pki_visitor *v, const pki_expr *e); /* e and its operands */
void pki_visit_stmt(pki_visitor *v, const pki_stmt *s); /* s, its expressions and blocks */
void pki_visit_block(pki_visitor *v, const pki_block *b);
void pki_visit_entity(pki_visitor *v, const pki_entity *e);
/* Records var->uses (PKI_USE_*) for every variable of m; pki_check calls it
 * last (a pass that adds statements later must call it again). */
void pki_record_uses(pki_module *m);

/* Partial builds (PyKokkos compiles per workunit): drops from m every entity
 * with an error diagnostic (d->items[first..]) in its extent, every
 * runtime-typed workunit, and (transitively) every entity that uses a dropped
 * one, recording each in m->omitted. Returns false if one of those errors
 * lies outside every entity (the file as a whole is rejected); a second pass
 * after pki_check gives first = the diagnostics the first pass saw, whose
 * entities are gone. Diagnostics are not changed. */
bool pki_select(pki_module *m, const pki_diags *d, int first);
/* Keeps only the entity named root and the entities it uses (specialization
 * builds); false if root is not a FunctionSty workunit of m. */
bool pki_keep_only(pki_module *m, const char *root);
/* True if a diagnostic at `at` lies in e's extent (its name if no extent). */
bool pki_span_in_entity(const pki_entity *e, pki_span at);

/* Whether function f changes its classtype parameter p (assigns a field of it,
 * calls a method that assigns fields, or passes it on to a function that
 * does): such parameters are passed by reference, as Python passes objects. */
bool pki_param_written(const pki_func *f, const pki_var *p);
/* Whether evaluating e may do more than compute a value: an atomic, a random
 * draw, or a call (a function may do either); such an operand must be
 * evaluated once (the middle of a chained comparison, a target's index). */
bool pki_expr_has_effects(const pki_expr *e);
/* Whether call (a PKI_E_CALL of a @pk.function or method) changes its
 * argument i: a method's receiver (i 0) when the method changes self, else
 * the classtype parameter that argument binds to (pki_param_written). */
bool pki_call_changes_arg(const pki_expr *call, int i);
/* Whether a statement of b (nested blocks included, closures not) assigns v
 * (=, op=). */
bool pki_block_assigns(const pki_block *b, const pki_var *v);
/* Whether f's accumulator only ever adds to itself: never read, stored to
 * only by acc += e / acc -= e (closures included). Its contributions may then
 * be summed in any grouping (Kokkos leaves their order open); an accumulator
 * read as a running index (ExaMiniMD's serial fill) keeps one sequence. */
bool pki_acc_only_summed(const pki_func *f);
/* Whether method f assigns a field of its receiver (self.x = ..., self.pos.x
 * = ...) or changes a classtype field of it (self.pos.scale(2.0)). */
bool pki_func_writes_self(const pki_func *f);

/* Prints the module in pkc's stable text form (`pkc ir`). */
void pki_print(const pki_module *m, FILE *out);

#endif /* PKC_IR_H */
