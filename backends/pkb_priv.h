/*
 * pkb_priv.h - internals of the Kokkos backend (prefix pkb_), shared by
 * the backend's .c files only. The public interface is backends.h.
 */
#ifndef PKC_PKB_PRIV_H
#define PKC_PKB_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "backends.h"

/* ------------------------------------------------------------ outbuf.c */

/* A growable string with an indentation level (2 spaces per level).
 * Memory is malloc'd; pkb_buf_free releases it. Out of memory exits(3). */
typedef struct pkb_buf {
  char *data;
  size_t len, cap;
  int indent;
  /* the last #line to the Python source: its line, and where the text it
   * maps starts (py_line 0: the text since maps to the .cpp itself) */
  unsigned py_line;
  size_t py_from;
} pkb_buf;

void pkb_buf_init(pkb_buf *b);
void pkb_buf_free(pkb_buf *b);
/* Appends text as is (no indentation). */
void pkb_put(pkb_buf *b, const char *s);
void pkb_putf(pkb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether the line being written is longer than column characters. */
bool pkb_line_past(const pkb_buf *b, size_t column);
/* Continues an expression on a new line, two levels deeper. */
void pkb_wrap(pkb_buf *b);
/* Starts a line at the current indentation, appends the text. */
void pkb_begin(pkb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A whole line: indentation + text + newline. */
void pkb_line(pkb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An empty line. */
void pkb_nl(pkb_buf *b);
/* Appends the text of a C string literal (quotes and escapes included). */
void pkb_put_cstr(pkb_buf *b, const char *s);
/* s made safe inside a // or block comment (arena copy where it changes). */
const char *pkb_comment_text(pki_arena *a, const char *s);

/* ------------------------------------------------------------ names.c */

/* C++ spelling of a scalar kind ("int64_t") or a View type. */
const char *pkb_scalar_ctype(pki_kind k);
void pkb_put_type(pkb_buf *b, pki_type t);
/* Appends a Python name as a C++ identifier (one injective scheme, docs/NAMING.md:
 * never `pkc_...`, the prefix of generated temporaries, and never '__'). */
void pkb_put_ident(pkb_buf *b, const char *name);
/* The same identifier as a string (arena-allocated when it changes). */
const char *pkb_ident(pki_arena *a, const char *name);
/* Tag name of a workunit, name of its C entry point. */
const char *pkb_tag_name(pki_arena *a, const pki_func *f);
const char *pkb_wrapper_name(pki_arena *a, const pki_module *m, const pki_func *f);
/* Kernel arguments of a workunit: FunctionSty params or functor members. */
int pkb_kernel_args(const pki_func *f, pki_var *const **out);
/* Is this function emitted as a kernel (a workunit we can launch, or a
 * workload's @pk.main)? */
bool pkb_is_kernel(const pki_func *f);
/* Host function running a workload's @pk.main: "<W>_<main>". */
const char *pkb_main_name(pki_arena *a, const pki_func *f);
/* Does the entity hold functor state (functor or workload)? */
bool pkb_is_class_entity(const pki_entity *e);
/* A pk.MaxLoc/MinLoc/MinMax/MinMaxLoc reduction: the accumulator is a Kokkos
 * struct (pkb_valloc_type), reduced by pkb_valloc_reducer(...)(value). */
bool pkb_valloc(const pki_func *f);
/* "Kokkos::ValLocScalar<T, int64_t>", "Kokkos::MinMaxScalar<T>" or
 * "Kokkos::MinMaxLocScalar<T, int64_t>" (T: the accumulator's C type). */
const char *pkb_valloc_type(pki_arena *a, const pki_func *f);
/* "Kokkos::MaxLoc<T, int64_t>" ... "Kokkos::MinMax<T>": the reducer class. */
const char *pkb_valloc_reducer(pki_arena *a, const pki_func *f);
/* The Kokkos reducer class of r ("Kokkos::Max"); NULL for a sum (a plain
 * value reduces as a sum). */
const char *pkb_kokkos_reducer(pki_reducer r);
/* C++ type of a reduction's or scan's accumulator (f->acc set): its kind's,
 * but a sum or scan of 8- or 16-bit integers adds in 32 bits (int32_t,
 * uint32_t), since Kokkos takes a reduction value of a multiple of
 * sizeof(int) only; the result is cast back (the same value modulo 2^bits). */
const char *pkb_acc_ctype(const pki_func *f);
/* Whether pkb_acc_ctype widens f's accumulator. */
bool pkb_acc_widened(const pki_func *f);
/* Appends the C++ type of f's accumulator (pkb_acc_ctype). */
void pkb_put_acc_type(pkb_buf *b, const pki_func *f);
/* The result variable var of f's reduction as stored: cast back to the
 * accumulator's kind where pkb_acc_ctype widened it (arena text). */
const char *pkb_acc_result(pki_arena *a, const pki_func *f, const char *var);

/* ------------------------------------------------------------ emission */

typedef struct pkb_ctx {
  const pki_module *m;
  const pkb_options *o;
  const pki_func *fn; /* function being emitted */
  const pki_entity *main_of; /* the workload whose @pk.main is being emitted */
  pkb_buf *b;
  size_t lines_scanned; /* restore_line: bytes of b already counted ... */
  int lines_counted;    /* ... and the newlines among them */
  bool unfused;         /* emitting the original statements of a fused group */
  bool names_iterate;   /* the source names an MDRange iteration order (pk.Iterate / iterate=) */
  bool wrap;            /* writing the value of an assignment, declaration or return ... */
  int nest;             /* ... outside calls, indexing and the like: long sums may break */
  /* module constants declared constexpr in the module's namespace (one
   * literal each, pkb_module_constants), written by name while in_ns */
  const pki_expr **consts;
  int nconsts;
  bool in_ns;
  const char *policy_text; /* a fused dispatch's policy, written as is (tiles) */
  const char *results_text; /* a fused launch's reduction results, written as is (several;
                               the caller declares and stores them) */
  /* a repeated chain's link inlined in its fused operator: element accesses
   * at the work point of point_vars[k] are written as the local point_names[k] */
  const pki_var *const *point_vars;
  const char *const *point_names;
  int npoint;
  /* the operands of a chained comparison evaluated once into a local
   * (pkc_chain<k>, k < nchain): written by that name */
  const pki_expr *chain[8];
  int nchain;
  bool assigned; /* emitting the target of an assignment (@pk.main: pkc::host_at) */
  int lanes;     /* inside a ThreadVectorRange, TeamVectorRange or pk.single body */
} pkb_ctx;

/* e is the constant 2 (int or float, through conversions): x ** 2 is x * x. */
bool pkb_is_two(const pki_expr *e);

/* Finds the module constants (pki_expr.cname) the kernels use whose names
 * clash with nothing else in the C++ namespace, declares them `constexpr`
 * with their Python names and lets pkb_emit_expr write those names. */
void pkb_module_constants(pkb_ctx *c);

/* ---- Views of classtype values (emit_classview.c) */
/* At most this many View-of-classtype parameters per kernel (2^n instantiations;
 * the checker reports more, pki_check: PKI_MAX_CLASS_VIEWS). */
#define PKB_MAX_CLASS_VIEWS PKI_MAX_CLASS_VIEWS
/* "template <class pkc_T_p, ...>" before f's signature, if it has such parameters. */
void pkb_template_head(pkb_ctx *c, const pki_func *f);
/* v is a View of classtype values without a layout: a template parameter
 * (pkb_class_view_tname) of its workunit's functor, instantiated per layout. */
bool pkb_class_view_default(const pki_var *v);
const char *pkb_class_view_tname(pki_arena *a, const pki_var *v);
/* C_aos, C_ref, C_soa and bind_class_view of every classtype a View holds. */
void pkb_class_view_types(pkb_ctx *c);
/* How a classtype method is written: defined in the struct, only declared in
 * it (a method using a classtype defined later), or defined after all structs. */
typedef enum { PKB_IN_CLASS, PKB_DECL_ONLY, PKB_OUT_OF_CLASS } pkb_method_mode;
/* Classtype method f of e, written as mode says. */
void pkb_class_method(pkb_ctx *c, const pki_entity *e, const pki_func *f, pkb_method_mode mode);
/* A device-function parameter: classtype values the function changes are
 * passed by reference (Python passes objects by reference; a template
 * forwarding reference where some View holds the class), others by value. */
void pkb_put_fparam(pkb_ctx *c, const pki_func *f, const pki_var *v);

/* Does f or an enclosing function have a parameter or local called name (which
 * would hide the functor member self.name in C++)? */
bool pkb_hides_member(const pki_func *f, const char *name);
/* Appends a C++ expression for e (fully typed IR). */
void pkb_emit_expr(pkb_ctx *c, const pki_expr *e);
/* One View index: as pkb_emit_expr, a module constant as a value (static_cast). */
void pkb_emit_index(pkb_ctx *c, const pki_expr *e);
/* Kokkos::subview(args[0], args[1..n-1]) (indices or PKI_E_SLICE). */
void pkb_emit_subview(pkb_ctx *c, pki_expr *const *args, int n);

/* After Python-mapped code: a #line back to the generated file. */
void pkb_restore_line(pkb_ctx *c);
/* Emits the statements of a block at the current indentation. */
void pkb_emit_block(pkb_ctx *c, const pki_block *blk);
/* `return T();` after the body of function f when its last statement is no
 * return (unreachable when every path returns; compilers warn without it). */
void pkb_default_return(pkb_ctx *c, const pki_func *f);
/* One statement (with its #line directive). */
void pkb_emit_stmt(pkb_ctx *c, const pki_stmt *s);
/* "#line N file" for a statement (when line directives are on). */
void pkb_line_directive(pkb_ctx *c, const pki_stmt *s);

/* emit_dialect.c: team/nested/single/assert statements, @pk.main dispatches,
 * pk.* intrinsics. */
void pkb_emit_nested(pkb_ctx *c, const pki_stmt *s);
bool pkb_emit_atomic_once(pkb_ctx *c, const pki_stmt *s);
void pkb_emit_single(pkb_ctx *c, const pki_stmt *s);
void pkb_emit_assert(pkb_ctx *c, const pki_stmt *s);
void pkb_emit_dispatch(pkb_ctx *c, const pki_stmt *s);
/* s's launch computing the results of dispatches reds[0..n-1] into their
 * targets (a fused kernel's reductions: Kokkos' combined reducers when
 * several, in this order). */
void pkb_emit_dispatch_results(pkb_ctx *c, const pki_stmt *s, const char *fused_tag,
                               const pki_stmt *const *reds, int n);

/* emit_launch.c: the pieces of the wrappers (emit_abi.c) the fused host
 * kernels share (emit_fusion.c): the policy check of kernel f's wrapper
 * (defines begin/end for ranges); the launch range checked against f's
 * Views' extents (f->extent_rules; functor: the C++ object holding f's
 * Views, "f" or "f.<link>"; returns PKC_ERROR_VALUE when it leaves them); the
 * launch of functor type fty with tag (f's own when NULL; c->policy_text
 * replaces the policy), pattern, reducer and result as f's (c->results_text
 * replaces the reducer and result: several); one pkc_param_desc line; one
 * pkc_kernel_desc line (pattern 3 = main; params: the table's name or NULL). */
void pkb_abi_check_policy(pkb_ctx *c, const pki_func *f);
void pkb_abi_check_extents(pkb_ctx *c, const pki_func *f, const char *functor);
struct pki_extent_rule;
/* The arguments of pkc::range_fits after the range for extent rule r of f:
 * "lo, hi, obj.view.extent(d), kernel, "view", d, "i"" (lo/hi plus the run-time
 * offset read from obj: the functor "f", or "self" in @pk.main; kernel_var: the
 * wrapper's `kernel` variable, else f's name as a literal; a team kernel's work
 * index is named "team.league_rank()", built in a). */
void pkb_put_extent_rule(pkb_buf *b, pki_arena *a, const pki_func *f,
                         const struct pki_extent_rule *r, const char *obj, bool kernel_var);
/* "static_cast<int64_t>(obj.M.extent(1)) > 0": when extent rule r holds (its
 * accesses are in a loop that runs only then); false (nothing written) where
 * it always holds. */
bool pkb_put_extent_guard(pkb_buf *b, const struct pki_extent_rule *r, const char *obj);
void pkb_abi_launch(pkb_ctx *c, const pki_func *f, const char *fty, const char *tag);
/* "pkc::md_parallel_<pattern><pkc::md_rows, R, L>(" (pattern "for",
 * "reduce" or "sum"; md_tiles for md_rows where planned): the launch of an MDRange kernel f of rank `rank`, R and L its
 * contiguous work index under a LayoutRight / LayoutLeft default, rows or
 * tiles on host backends (ir/mdrange.c; rows along the last / first index
 * where it was not planned). */
void pkb_put_md_launch(pkb_buf *b, const pki_func *f, int rank, const char *pattern);
/* Raises what Python raises inside kernel f's launch (pkc::take_kernel_error). */
void pkb_abi_kernel_errors(pkb_ctx *c, const pki_func *f);
void pkb_abi_param_desc(pkb_ctx *c, const pki_var *v, const char *name, unsigned access,
                        bool from_global);
void pkb_abi_kernel_desc(pkb_ctx *c, const char *name, const char *entity, int pattern,
                         int policy, int reducer, int nparams, const char *params,
                         const pki_var *acc, unsigned line, const char *wrapper,
                         bool inferred);

/* emit_fusion.c: the fused kernels of workload e (m->fusion): tags, the trip
 * count members of repeated chains, operators; in @pk.main, pkb_emit_fused
 * emits a group at its first statement (true: s was handled). */
void pkb_fused_tags(pkb_ctx *c, const pki_entity *e);
void pkb_fused_members(pkb_ctx *c, const pki_entity *e);
void pkb_fused_operators(pkb_ctx *c, const pki_entity *e);
bool pkb_emit_fused(pkb_ctx *c, const pki_stmt *s);
/* emit_fusion.c: the fused variants of host-code chains (m->fusion->host):
 * struct pkc_fused<N> (inside the namespace), its extern "C" wrapper, its
 * param table and kernel entry in the descriptor (the entry count is
 * returned), and pkc_fusion_v1(), the table the shim matches calls with. */
void pkb_host_fused_functors(pkb_ctx *c);
void pkb_host_fused_wrappers(pkb_ctx *c);
void pkb_host_fused_param_tables(pkb_ctx *c);
int pkb_host_fused_kernels(pkb_ctx *c);
void pkb_host_fusion_table(pkb_ctx *c);
/* s as a JSON string literal (Python names, numbers and notes), in arena a. */
const char *pkb_json_str(pki_arena *a, const char *s);
/* extern "C" const char *name(void) returning lines (char *, each ending in
 * a newline: one JSON object per line) as one string literal. */
void pkb_json_lines_function(pkb_buf *b, const char *name, const pki_vec *lines);

/* emit_footprint.c: pkc_footprint_v1(), the elements each RangePolicy/MDRange
 * kernel's work item touches (ir/footprint.c), for pk.Graph's edges. */
void pkb_footprint_table(pkb_ctx *c);
/* The number of kernels of m with a footprint (0: no pkc_footprint_v1). */
int pkb_footprint_count(const pki_module *m);
/* Whether f's entry point passes pkc_policy.gate to its launch (an MDRange
 * parallel_for); the footprint table says so ("gate": true). */
bool pkb_launch_gated(const pki_func *f);
void pkb_emit_intrinsic(pkb_ctx *c, const pki_expr *e);
/* "(void)x;" for each closure parameter the closure does not read. */
void pkb_void_unread(pkb_ctx *c, const pki_func *f, const pki_var *v);
/* Does the function body read variable v (anywhere but as an assignment target)? */
bool pkb_var_read(const pki_func *f, const pki_var *v);
/* Does the function body mention v at all (read or assigned)? */
bool pkb_var_used(const pki_func *f, const pki_var *v);

/* The C++ source text of <name>.cpp (malloc'd string via buf); true when the
 * module has no kernels of its own ("bare": it includes only pkc_glue.hpp). */
bool pkb_gen_cpp(const pki_module *m, const pkb_options *o, pkb_buf *b);
/* extern "C" wrappers and the module descriptor, after the namespace. */
void pkb_gen_wrappers(pkb_ctx *c);
void pkb_gen_descriptor(pkb_ctx *c);
/* <name>.h: C prototypes. */
void pkb_gen_header(const pki_module *m, const pkb_options *o, pkb_buf *b);
/* Characters a directory CMake builds in (or a cache probe's) cannot hold:
 * CMake splits lists at ';', expands $ and \ in paths it writes, make's
 * recipes quote with " and `; a newline ends a line. */
#define PKB_CMAKE_UNSAFE ";\n\"$\\`"

/* emit_cmake.c: CMakeLists.txt */
void pkb_gen_cmake(const pki_module *m, const pkb_options *o, pkb_buf *b);


/* ------------------------------------------------------------ cache.c */

/* Hex SHA-256 (65 bytes incl. NUL) of data. Returns 0 or -1. */
int pkb_sha256_hex(const void *data, size_t n, char out[65]);
/* SHA-256 (hex) of this machine's CPU model and feature flags (/proc/cpuinfo). */
void pkb_cpu_id(char out[65]);
/* Cache key over the build inputs (cache.c; docs/ARCHITECTURE.md, "The cache key")
 * plus the generated texts. */
int pkb_cache_key(const pki_module *m, const pkb_options *o, const char *generated,
                  char out[65]);

/* ------------------------------------------------------------ fileutil.c */

/* Writes path only if its contents differ. Returns 0 or -1 (errno set). */
int pkb_write_if_changed(const char *path, const char *text, size_t len);
/* Reads a whole file (malloc'd, NUL-terminated) or NULL. */
char *pkb_read_file(const char *path, size_t *len);
/* mkdir -p: creates path and its missing parents; 0 or -1 (errno set). */
int pkb_mkdirs(const char *path);
/* process.c: runs argv (no shell: posix_spawnp) in cwd (NULL: the current
 * directory) with stdout+stderr appended to log, after a "$ <command>" line
 * (verbosity > 0: echoed); a failure appends its cause ("'g++' not found on
 * PATH", "exited with status 1"). Returns the exit status, 128+signal, or -1
 * (cannot start). */
int pkb_run_logged(char *const argv[], const char *cwd, const char *log, int verbosity);
/* Prints the log's error lines (or its tail) to stderr, then the failed
 * command, its cause and its last lines of output. */
void pkb_show_errors(const char *log);
/* fastbuild.c: builds the module of m into so by running the compile and
 * link commands CMake chose for this toolchain (captured once per toolchain
 * from a probe project, with a precompiled pkc_kokkos.hpp) instead of
 * configuring a CMake project per module, linking the toolchain's pkc_glue.o;
 * bare: the source includes only pkc_glue.hpp (no precompiled header). Host
 * backends only. Returns 1
 * built, 0 not available here (the caller builds with CMake), -1 the
 * compiler or linker failed (message in err, output shown). */
int pkb_fast_build(const pki_module *m, const pkb_options *o, bool bare, const char *build_dir,
                   const char *log, const char *so, char *err, size_t errlen);
/* The embedded support file with this name, or NULL. */
const char *pkb_embedded(const char *name);

/* Generates every text for the module; the caller frees with pkb_texts_free. */
typedef struct pkb_texts {
  pkb_buf cpp, h, cmake;
  bool bare; /* no kernels of its own: cpp includes only pkc_glue.hpp (pkb_gen_cpp) */
} pkb_texts;
void pkb_texts_make(const pki_module *m, const pkb_options *o, pkb_texts *t);
void pkb_texts_free(pkb_texts *t);
int pkb_texts_write(const pki_module *m, const pkb_options *o, const pkb_texts *t,
                    char *err, size_t errlen);

#endif /* PKC_PKB_PRIV_H */
