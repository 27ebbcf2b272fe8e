/*
 * access.h - access summaries of kernels and the legality of fusing a
 * sequence of kernels into one (prefix pki_; kernel-fusion item 1).
 *
 * access.c summarizes one kernel (a workunit of any entity style, or a lambda
 * dispatched by @pk.main): every View it touches, how (read, write, atomic
 * update), and how each index of each access relates to the work index(es);
 * calls into @pk.function device functions are followed. fusion.c decides,
 * from the summaries and what the caller knows about the arguments (which
 * Views are the same memory, launch domains, reduction results), whether a
 * sequence of kernels may run as one kernel over one launch domain: a
 * kernel's points may only depend on the same point of the kernels before
 * it (the fusion constraints of Diffuse, ASPLOS'25). Every refusal names the
 * rule, the kernels, the View and the source lines.
 *
 * Memory: summaries and reason strings live in the module's / caller's arena.
 * The IR is only read.
 */
#ifndef PKC_IR_ACCESS_H
#define PKC_IR_ACCESS_H

#include "ir.h"

#define PKI_ACCESS_MAX_DIMS 8 /* View ranks and work indices (MDRange <= 6) */

/* How one index of an access relates to the kernel's work indices. */
typedef enum pki_idx_kind {
  PKI_IDX_IDENTITY,    /* exactly work index `work` (v[i]) */
  PKI_IDX_OFFSET,      /* work index `work` + `offset`, a nonzero compile-time integer */
  PKI_IDX_AFFINE,      /* another affine function of the work indices (2*i, i*n + j) */
  PKI_IDX_NONAFFINE,   /* depends on the work indices, not affinely (i % 4, i*i) */
  PKI_IDX_INDIRECT,    /* reads a View (idx[i], or a local computed from one) */
  PKI_IDX_INDEPENDENT, /* does not depend on the work indices (constant, loop index, scalar) */
  PKI_IDX_UNKNOWN      /* not analysed (partially indexed subview, accumulator, ...) */
} pki_idx_kind;

typedef struct pki_idx {
  pki_idx_kind kind;
  int work;         /* IDENTITY/OFFSET: which work index (0 = the first, i) */
  int64_t offset;   /* OFFSET: c in i + c; INDEPENDENT with constant: the value */
  bool constant;    /* INDEPENDENT: a compile-time integer (offset holds it) */
  unsigned works;   /* bit k: depends on work index k (all kinds but INDIRECT/UNKNOWN) */
  const char *text; /* the index's source text, NULL where it is not the kernel's own
                       (inside a device function or through a subview) */
  /* AFFINE of the form work index `work` + `offset` + var_coef * var, where var is
   * an integer scalar parameter or data member the kernel never assigns
   * (x[i + off]); var NULL otherwise */
  const struct pki_var *var;
  int64_t var_coef;
} pki_idx;

enum { /* pki_access.mode bits */
  PKI_MEM_READ = 1,
  PKI_MEM_WRITE = 2,
  PKI_MEM_ATOMIC = 4, /* a pk.atomic_* update (always with READ|WRITE) */
  PKI_MEM_FETCH = 8   /* an atomic whose old value is used (fetch_*, compare_exchange) */
};

/* Atomic updates of one class commute with each other (Diffuse's reduction
 * privilege); OTHER (mod, shifts, div, compare_exchange) commutes with nothing. */
typedef enum pki_atomic_class {
  PKI_ATOMIC_NONE, PKI_ATOMIC_SUM, PKI_ATOMIC_PROD, PKI_ATOMIC_MAX, PKI_ATOMIC_MIN,
  PKI_ATOMIC_AND, PKI_ATOMIC_OR, PKI_ATOMIC_XOR, PKI_ATOMIC_OTHER
} pki_atomic_class;

/* One access (or several identical ones: the first is kept) to a View. */
typedef struct pki_access {
  const pki_var *view;     /* a View parameter, data member, or View captured by a lambda */
  unsigned mode;           /* PKI_MEM_* */
  pki_atomic_class atomic; /* PKI_ATOMIC_NONE unless PKI_MEM_ATOMIC */
  int rank;                /* number of indices (the View's rank) */
  pki_idx idx[PKI_ACCESS_MAX_DIMS];
  pki_span span;           /* v[...] or the pk.atomic_* call */
  const char *callee;      /* device function containing it; NULL in the kernel's body */
  pki_span call;           /* then: the call in the kernel's body that leads there */
} pki_access;

/* A View and the union of the modes of its accesses. */
typedef struct pki_view_use {
  const pki_var *view;
  unsigned mode;
} pki_view_use;

/* A scalar parameter / data member the kernel reads (first read). */
typedef struct pki_scalar_read {
  const pki_var *var;
  pki_span span;
} pki_scalar_read;

typedef struct pki_access_summary {
  const pki_func *kernel;
  const char *name;       /* the kernel's Python name */
  pki_span span;          /* the kernel's def (a lambda: the lambda) */
  pki_policy policy;
  int nwork;              /* work indices (TeamPolicy: 1, the member) */
  const char *work[PKI_ACCESS_MAX_DIMS]; /* their Python names */
  bool reduction;         /* parallel_reduce kernel: reducer says which */
  pki_reducer reducer;
  pki_span acc_span;      /* first update of the accumulator (else the kernel's span) */
  bool scan, team, scratch, random, calls; /* calls: follows @pk.function calls */
  /* Some access could not be analysed (recursive or too deep call chain, a
   * View used whole, an alias assigned twice): then why and where. */
  bool unknown;
  const char *unknown_why;
  pki_span unknown_at;
  /* unknown only because the kernel touches Views of classtype values, whose
   * kernels are instantiated per layout (fusion and footprints leave them
   * alone); their accesses are recorded as the others' */
  bool unknown_class_views_only;
  pki_vec accesses;       /* pki_access *, in source order of first occurrence */
  pki_vec views;          /* pki_view_use *, one per View */
  pki_vec scalars;        /* pki_scalar_read *, one per scalar */
} pki_access_summary;

/* Summarizes kernel f (a workunit, or a lambda closure dispatched by @pk.main)
 * of checked module m; allocated in m's arena. Never fails: what it cannot
 * follow sets unknown (with a reason). */
pki_access_summary *pki_access_summarize(pki_module *m, const pki_func *f);
/* Summaries of every kernel of m (workunits of all entities, then @pk.main
 * lambdas), in entity order; *n gets the count. Array in m's arena. */
pki_access_summary **pki_access_summarize_module(pki_module *m, int *n);
/* f's summary from cache (pki_access_summary *, in m's arena), made and
 * added on first use: passes that look at kernels many times share it. */
const pki_access_summary *pki_access_summary_cached(pki_module *m, pki_vec *cache,
                                                    const pki_func *f);
/* The use of View v in s, or NULL if s does not touch it. */
const pki_view_use *pki_access_view(const pki_access_summary *s, const pki_var *v);
/* "identity", "offset", ...: the kind's name for printing. */
const char *pki_idx_kind_name(pki_idx_kind k);
/* Describes access a's indices as in source: "i + 1", "[j, i]", "idx[i]"
 * (indices without source text by kind: "<indirect>"). In arena a. */
const char *pki_access_where(pki_arena *a, const pki_access_summary *s, const pki_access *x);

/* ------------------------------------------------------------ extents */

/* Dimension `dim` of View `view` is indexed on every work point at work
 * index `work` plus a constant in lo..hi, so a launch over [begin, end) of
 * that index needs begin + lo >= 0 and end - 1 + hi < view.extent(dim). */
/* A top-level `for j in range(begin, end)` of a kernel runs at least once
 * when end > begin: begin a constant, end a constant (view and var NULL),
 * view.extent(dim), or var (an integer argument or member the kernel never
 * assigns). */
typedef struct pki_extent_guard {
  int64_t begin, end;
  const pki_var *view;
  int dim;
  const pki_var *var;
} pki_extent_guard;

typedef struct pki_extent_rule {
  const pki_var *view; /* a View parameter or data member */
  int dim, work;
  int64_t lo, hi;
  /* var_coef * var is added to lo and hi at the launch (x[i + off]); var NULL: none */
  const pki_var *var;
  int64_t var_coef;
  /* the accesses are in the body of a loop: the rule holds when it runs
   * (M[i][j] in `for j in range(M.extent(1))`); NULL: always */
  const pki_extent_guard *guard;
} pki_extent_rule;

/* Sets extent_rules of every workunit of checked module m. */
void pki_extent_plan_module(pki_module *m);

/* ------------------------------------------------------------ MDRange */

/* Sets md_contiguous and md_rows of every MDRange workunit and @pk.main
 * lambda of m. */
void pki_mdrange_plan_module(pki_module *m);

/* ------------------------------------------------------- 1-D ranges */

/* Sets range_own, range_written/others and range_copy_* of every RangePolicy
 * parallel_for workunit of m (ir/range.c). */
void pki_range_plan_module(pki_module *m);

/* Whether View v of kernel f is bound by name (f.<name> in the wrapper, a
 * keyword at the launch): a parameter of the workunit or a data member of
 * its functor (for a View of classtype values, its accessor). */
bool pki_named_view(const pki_func *f, const pki_var *v);

/* ------------------------------------------------------ footprints */

/* Sets footprint_known and footprint of every RangePolicy/MDRange
 * parallel_for workunit of m (ir/footprint.c). */
void pki_footprint_plan_module(pki_module *m);

/* ---------------------------------------------------- plain divisions */

/* Sets plain_div on every integer // and % of m whose divisor is a positive
 * constant and whose dividend is provably >= 0 (nonneg.c lists the rules;
 * a kernel's work index is not): C++'s / and % give Python's result there. */
void pki_nonneg_plan_module(pki_module *m);
/* ------------------------------------------------------------- fusion */

/* A kernel's bounds compared with those of the sequence's first kernel. */
typedef enum pki_bounds { PKI_BOUNDS_SAME, PKI_BOUNDS_DIFFERENT, PKI_BOUNDS_UNKNOWN } pki_bounds;

/* Argument identity: View parameter/member `view` of a kernel is bound to
 * memory `identity`; equal identities (in any kernels) are the same View.
 * A View with no entry, or a negative identity, may be any View. */
typedef struct pki_fuse_view {
  const pki_var *view;
  int identity;
} pki_fuse_view;

/* Scalar parameter/member `var` of a kernel holds the result of the
 * reduction kernel at index `producer` of the sequence. */
typedef struct pki_fuse_input {
  const pki_var *var;
  int producer;
} pki_fuse_input;

/* One kernel of a sequence, as the caller dispatches it. */
typedef struct pki_fuse_kernel {
  const pki_access_summary *sum;
  pki_policy policy;
  int rank;                     /* MDRange rank (ignored otherwise) */
  pki_bounds bounds;            /* vs kernel 0 (ignored for kernel 0) */
  const pki_fuse_view *views;
  int nviews;
  const pki_fuse_input *inputs;
  int ninputs;
} pki_fuse_kernel;

typedef enum pki_fuse_verdict {
  PKI_FUSE_LEGAL,
  PKI_FUSE_LEGAL_IF_BOUNDS_EQUAL, /* legal once the run-time bounds are found equal */
  PKI_FUSE_ILLEGAL
} pki_fuse_verdict;

typedef enum pki_fuse_rule {
  PKI_FUSE_OK,       /* nothing against it */
  PKI_FUSE_SCAN,     /* a parallel_scan: a barrier, never fused */
  PKI_FUSE_TEAM,     /* a TeamPolicy kernel: not fused */
  PKI_FUSE_SCRATCH,  /* a kernel using team/thread scratch: not fused */
  PKI_FUSE_UNKNOWN,  /* a kernel whose accesses are not known (summary->unknown) */
  PKI_FUSE_POLICY,   /* launch domains of different kinds or ranks */
  PKI_FUSE_BOUNDS,   /* bounds different (ILLEGAL) or known only at run time */
  PKI_FUSE_RAW,      /* a write, then a read of the View at another point */
  PKI_FUSE_WAR,      /* a read, then a write at another point */
  PKI_FUSE_WAW,      /* two writes at different points */
  PKI_FUSE_ATOMIC,   /* an atomic update and another (non-commuting) access */
  PKI_FUSE_RESULT    /* a kernel reads the result of an earlier reduction */
} pki_fuse_rule;

typedef struct pki_fuse_decision {
  pki_fuse_verdict verdict;
  pki_fuse_rule rule;       /* why it is not simply LEGAL */
  int first, second;        /* the kernels (sequence indices; first < second);
                               second = -1 for a rule about one kernel */
  const char *name;         /* the View or scalar involved (Python name), or NULL */
  const pki_access *a, *b;  /* the conflicting accesses of first and second, or NULL */
  pki_span at_first, at_second; /* where in first and second (accesses, or the kernels) */
  int prefix;               /* how many leading kernels can be fused (all when not ILLEGAL) */
} pki_fuse_decision;

/* Decides whether kernels ks[0..n-1], run in this order, can be fused into
 * one kernel over the launch domain of ks[0]. The first refusal found (in
 * order of the later kernel) is returned. n <= 1 is LEGAL. */
pki_fuse_decision pki_fuse_check(const pki_fuse_kernel *ks, int n);
/* The decision as one line a user can act on ("not fused: kernel 'stencil'
 * (line 12) reads 'u' at i + 1, which kernel 'update' (line 20) writes at i
 * (read after write across points)"); in arena a. */
const char *pki_fuse_reason(pki_arena *a, const pki_fuse_kernel *ks, int n,
                            const pki_fuse_decision *d);
/* Whether accesses x and y (of one View, in two kernels over one domain)
 * touch the same element at every point: every index the same work index,
 * unshifted (v[i] and v[i]; not v[i] and v[i + 1], A[i][j] and A[j][i]).
 * The profitability rule fuses kernels only where some View is shared so:
 * kernels sharing only a row (C[i][j] in loops over j: syrk, syr2k, fdtd_2d)
 * measured 0.91-0.99x fused on OpenMP and 0.95-1.01x on an H100. */
bool pki_same_point(const pki_access *x, const pki_access *y);
/* Whether kernel s writes a View through an index read from a View
 * (table[idx[i]] = ..., not an atomic update): a scatter. A fused kernel
 * with one runs only on GPUs by default (`scatter` of pki_fused and
 * pki_host_fused, pkc::fuse_scatter, the shim's _used): on OpenMP, GUPS' index generation fused with its scatter
 * measured 0.69x (the point's stores join the scatter's in the store
 * buffer), on an H100 1.05x. */
bool pki_scatters(const pki_access_summary *s);
/* What the note of a fused chain with a scatter adds. */
#define PKI_SCATTER_NOTE "; used on host backends only with PKC_FUSION=all (it scatters)"
/* "raw", "scan", ...: the rule's stable id. */
const char *pki_fuse_rule_name(pki_fuse_rule r);


/* -------------------------------------------- fusion plan of @pk.main */

/* A group of dispatches of a @pk.main that runs as one kernel (fuse_plan.c):
 * consecutive workunit dispatches of one block, fused per point; or the
 * dispatches forming the whole body of a `for` loop, repeated `loop`'s trip
 * count times per point (PyFuser's repeated chain). The backend emits the
 * fused kernel and, in @pk.main, a run-time choice between
 * it and the original dispatches: PKC_FUSION=0, bounds that differ at run
 * time (bounds_at_run_time) or View members that overlap take the original.
 * Emitted names: pkc_fused<id>_tag and pkc_fused<id>_reps/_begin/_end. */
typedef struct pki_fused {
  int id;
  const pki_func *main;
  const pki_stmt **stmts;    /* the dispatches, in order */
  int n;
  const pki_stmt *loop;      /* repeated chain: the `for` whose body is stmts; else NULL */
  bool bounds_at_run_time;   /* some bounds are other expressions than stmts[0]'s */
  bool scatter;              /* some link scatters (pki_scatters): GPUs only by default */
  const pki_var **views;     /* pairs (views[2k], views[2k+1]) of View members that must
                                not overlap at run time (one of them is written) */
  int nviews;
  const char *why;           /* "fused: ..." */
  /* repeated chains: the View members every link accesses only at the work
   * point, kept in registers over the repetitions (their elements loaded
   * before and stored after); 0 when the links run as calls */
  const pki_var **resident;
  unsigned *resident_mode;   /* PKI_MEM_* of each over the links */
  bool *resident_stored;     /* the links' first access to it is a plain store of the
                                element: it is not loaded before the links */
  int nresident;
} pki_fused;

/* A candidate chain (two or more dispatches, or a loop of dispatches) and
 * the decision on it, for `pkc check --fusion-report`. */
typedef struct pki_fusion_note {
  const pki_func *main;
  pki_span at;               /* the first dispatch (or the loop) */
  bool fused;
  const char *text;          /* "fused: ..." or "not fused: <rule's reason>" */
  const char *rule;          /* pki_fuse_rule_name, "ok" when fused */
} pki_fusion_note;

/* Links first..first+n-1 of a host chain (ir/fuse_host.c) that run as one
 * kernel, pkc_fused<id>: per point in order; repeat: the chain is the body
 * of a loop and all its repetitions run per point (the trip count is an
 * argument). Its parameters are the distinct arguments of the links: a View
 * passed to several links is one parameter (argument fusion; the shim
 * checks it is the same View), scalars are one per argument text and type.
 * The shim launches it only when the queued calls match (pykokkos/_fusion.py). */
typedef struct pki_host_fused {
  int id;
  const pki_host_chain *chain;
  int first, n;
  bool repeat;
  bool bounds_at_run_time;   /* some policy is written differently from the first's */
  bool scatter;              /* some link scatters (pki_scatters): GPUs only by default */
  int nresults;              /* its reductions: the first one's statement runs the kernel,
                                the later ones (after it) take the results it kept */
  int nparams;
  const pki_var **params;    /* per fused parameter: the first kernel parameter bound to it */
  const char **names;        /* per fused parameter: its name (the argument's text) */
  int **bind;                /* bind[k][p]: the fused parameter of link k's parameter p */
  const char *why;           /* "fused: ..." */
  /* repeated chains: per fused parameter, a View every link accesses only at
   * the work point, kept in a register over the repetitions (NULL, or all
   * false, when the links run as calls) */
  bool *resident;
  bool *stored_first;        /* per fused parameter: resident, and the links' first access
                                to it stores the element (not loaded before the links) */
} pki_host_fused;

typedef struct pki_fusion_plan {
  pki_vec groups; /* pki_fused * */
  pki_vec host;   /* pki_host_fused *, chains of the file's host code */
  pki_vec notes;  /* pki_fusion_note *, in source order */
} pki_fusion_plan;

/* Structural equality of two expressions of one function (same variables,
 * literals, operators; calls are never equal): equal values when nothing
 * runs between their evaluations. */
bool pki_same_expr(const pki_expr *a, const pki_expr *b);
/* Plans fusion for every @pk.main of checked module m (m->fusion; an empty
 * plan when there is nothing to fuse). Only reads the IR. */
void pki_fusion_plan_module(pki_module *m);
/* Whether every use of View v in kernel f (summary s) is an element access
 * at the work point (v[i], v[i][j] with f's work indices in order, not
 * atomic, not in a device function) or an extent (*whole: some extent is
 * used): a repeated chain may then keep the point's element in a register
 * over its repetitions (point residency). */
bool pki_point_only(const pki_access_summary *s, const pki_func *f, const pki_var *v,
                    bool *whole);
/* How the body of f first touches View v, statement by statement at its top
 * level: not at all, by a plain store of the element at the work point whose
 * value does not read v (`v[i] = x + 1`; not `+=`, not under an if or a loop),
 * or otherwise (a read, a conditional store, ...). A resident element whose
 * first touch over the links is a store need not be loaded. */
typedef enum pki_first_touch { PKI_TOUCH_NONE, PKI_TOUCH_STORE, PKI_TOUCH_OTHER } pki_first_touch;
pki_first_touch pki_first_touch_of(const pki_func *f, const pki_var *v);
/* Whether f reads an extent of View v (v.extent(k)). */
bool pki_extent_used(const pki_func *f, const pki_var *v);
/* Whether the bodies of kernels fs[0..n-1] can be written inline in a fused
 * operator (no return, no nested closures, no pkc_* names in them or among
 * owner's members, owner may be NULL). */
bool pki_links_inlinable(const pki_func *const *fs, int n, const pki_entity *owner);
/* Plans the chains of m->host_chains into plan (called by
 * pki_fusion_plan_module; ids continue after the workload groups). */
void pki_fusion_plan_host(pki_module *m, pki_fusion_plan *plan);
/* The group whose first dispatch (or loop) is s, or NULL; *inside: s is a
 * later dispatch of some group (emitted by the group's first). */
const pki_fused *pki_fused_at(const pki_module *m, const pki_stmt *s, bool *inside);

#endif /* PKC_IR_ACCESS_H */
