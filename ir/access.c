/*
 * access.c - access summaries of kernels (access.h): the Views a kernel
 * touches, how, and how each index relates to the work indices.
 *
 * The kernel is walked with the IR visitor (pki_visit_func). A call to a
 * device function is followed by walking the callee again in a frame that
 * binds its parameters to the call's arguments (recursion and call chains
 * deeper than MAX_CALL_DEPTH make the summary unknown). Index expressions
 * are evaluated to a linear form over the work indices (struct lin); a local
 * stands for the join of its definitions, which the visitor collects per
 * frame; a local View stands for the View it aliases (through pk.subview).
 */
#include "access.h"

#include <string.h>

#define MAX_CALL_DEPTH 8
#define MAX_EVAL_DEPTH 32
#define EVAL_BUDGET 4096 /* evaluation steps per access (pathological def chains) */

/* --------------------------------------------------------- linear forms */

enum { L_DEP = 1, L_IND = 2, L_UNK = 4, L_SYM = 8, L_VAR = 16 };

/* sum_k coef[k] * work_k + c (+ run-time work-independent terms if L_SYM;
 * symc bit k: coefficient k is a run-time value; + vk * var if L_VAR: one
 * integer scalar the kernel reads and never assigns, its parameter or data
 * member, as in x[i + off]). L_DEP: depends on the work indices but not
 * affinely; L_IND: reads a View; L_UNK: not analysed (the affine part means
 * nothing then). dep: the work indices it depends on. */
typedef struct lin {
  unsigned flags, symc, dep;
  int64_t coef[PKI_ACCESS_MAX_DIMS];
  int64_t c, vk;
  const pki_var *var;
} lin;

/* l with its var term made an anonymous run-time term (L_SYM). */
static lin lin_forget_var(lin l) {
  if (l.flags & L_VAR) {
    l.flags = (l.flags & ~(unsigned)L_VAR) | L_SYM;
    l.var = NULL;
    l.vk = 0;
  }
  return l;
}

static lin lin_const(int64_t v) {
  lin l = {0};
  l.c = v;
  return l;
}

static lin lin_flag(unsigned f) {
  lin l = {0};
  l.flags = f;
  return l;
}

static lin lin_work(int k) {
  lin l = {0};
  l.coef[k] = 1;
  l.dep = 1u << k;
  return l;
}

/* The run-time integer scalar v (a parameter or member the kernel never assigns). */
static lin lin_var(const pki_var *v) {
  lin l = {0};
  l.flags = L_VAR;
  l.var = v;
  l.vk = 1;
  return l;
}

static bool lin_is_const(const lin *l) { return !l->flags && !l->dep && !l->symc; }

/* a + sign * b */
static lin lin_add(lin a, lin b, int64_t sign) {
  lin r = a;
  r.flags |= b.flags;
  r.symc |= b.symc;
  r.dep |= b.dep;
  int64_t t;
  for (int k = 0; k < PKI_ACCESS_MAX_DIMS; k++)
    if (__builtin_mul_overflow(b.coef[k], sign, &t) ||
        __builtin_add_overflow(r.coef[k], t, &r.coef[k]))
      r.flags |= L_UNK;
  if (__builtin_mul_overflow(b.c, sign, &t) || __builtin_add_overflow(r.c, t, &r.c))
    r.flags |= L_UNK;
  if (b.flags & L_VAR) { /* r has a's var term, if any: the two add up or are forgotten */
    if (!(a.flags & L_VAR)) {
      r.var = b.var;
      r.vk = 0;
    }
    if (r.var != b.var || __builtin_mul_overflow(b.vk, sign, &t) ||
        __builtin_add_overflow(r.vk, t, &r.vk))
      r = lin_forget_var(r);
  }
  return r;
}

static lin lin_scale(lin a, int64_t k) {
  if (k == 0) {
    lin z = lin_const(0);
    z.flags = a.flags & (L_IND | L_UNK);
    return z;
  }
  lin r = lin_add(lin_const(0), a, k);
  return r;
}

/* A function of a and b that is not affine: keeps what they read and depend on. */
static lin lin_opaque(lin a, lin b) {
  lin r = lin_flag((a.flags | b.flags) & (L_IND | L_UNK | L_DEP));
  r.dep = a.dep | b.dep;
  r.flags |= r.dep ? L_DEP : L_SYM;
  return r;
}

/* x times s, a run-time value that does not depend on the work indices */
static lin lin_times_symbol(lin x) {
  lin r = lin_forget_var(x);
  for (int k = 0; k < PKI_ACCESS_MAX_DIMS; k++)
    if (x.coef[k])
      r.symc |= 1u << k;
  r.flags |= L_SYM;
  return r;
}

static lin lin_mul(lin a, lin b) {
  if ((a.flags | b.flags) & (L_IND | L_UNK | L_DEP))
    return lin_opaque(a, b);
  if (lin_is_const(&a))
    return lin_scale(b, a.c);
  if (lin_is_const(&b))
    return lin_scale(a, b.c);
  if (!a.dep)
    return lin_times_symbol(b);
  if (!b.dep)
    return lin_times_symbol(a);
  return lin_opaque(a, b); /* i * j */
}

static pki_idx lin_classify(const lin *l) {
  pki_idx x = {.kind = PKI_IDX_AFFINE, .works = l->dep};
  if (l->flags & L_VAR) { /* an affine index with a run-time part, as before; and: */
    lin anon = lin_forget_var(*l);
    x = lin_classify(&anon);
    int k = l->dep && !(l->dep & (l->dep - 1)) ? __builtin_ctz(l->dep) : -1;
    if (x.kind == PKI_IDX_AFFINE && !(l->flags & L_SYM) && !l->symc && k >= 0 &&
        l->coef[k] == 1 && l->vk) { /* i + c + vk * var */
      x.work = k;
      x.offset = l->c;
      x.var = l->var;
      x.var_coef = l->vk;
    }
    return x;
  }
  if (l->flags & L_IND) {
    x.kind = PKI_IDX_INDIRECT;
  } else if (l->flags & L_UNK) {
    x.kind = PKI_IDX_UNKNOWN;
  } else if (l->flags & L_DEP) {
    x.kind = PKI_IDX_NONAFFINE;
  } else if (!l->dep) {
    x.kind = PKI_IDX_INDEPENDENT;
    x.constant = !(l->flags & L_SYM);
    x.offset = x.constant ? l->c : 0;
  } else if (!(l->flags & L_SYM) && !l->symc && !(l->dep & (l->dep - 1))) {
    int k = __builtin_ctz(l->dep);
    if (l->coef[k] == 1) {
      x.work = k;
      x.offset = l->c;
      x.kind = l->c ? PKI_IDX_OFFSET : PKI_IDX_IDENTITY;
    }
  }
  return x;
}

/* ---------------------------------------------------------- the walk */

/* A function being walked: the kernel (caller NULL) or a device function
 * entered through call (an expression in the caller's body). */
typedef struct frame {
  const pki_func *f;
  const struct frame *caller;
  const pki_expr *call;
  pki_vec defs; /* const pki_stmt *: the statements that define f's locals */
  int depth;    /* calls from the kernel */
} frame;

/* State shared by the frames of one summary. */
typedef struct shared {
  pki_module *m;
  pki_access_summary *s;
  pki_vec handled; /* View-typed PKI_E_VAR nodes whose use is understood */
  pki_vec busy;    /* locals being evaluated (cycles through definitions) */
  int budget;
  bool acc_seen;
} shared;

typedef struct walk {
  shared *sh;
  const frame *fr;
  const pki_expr *target;    /* lhs of the assignment being walked */
  const pki_expr *target_elem; /* p[i] of a target p[i].x (p a View of classtype values) */
  unsigned target_mode;
  const pki_expr *discarded; /* value of the expression statement being walked */
  pki_span call;             /* the call in the kernel's body leading to fr */
} walk;

static void set_unknown(walk *w, pki_span at, const char *why, bool class_view) {
  pki_access_summary *s = w->sh->s;
  if (s->unknown) {
    s->unknown_class_views_only &= class_view;
    return;
  }
  s->unknown = true;
  s->unknown_class_views_only = class_view;
  s->unknown_why = why;
  s->unknown_at = at;
}

static void mark_unknown(walk *w, pki_span at, const char *why) { set_unknown(w, at, why, false); }

static const pki_var *def_var(const pki_stmt *s) {
  if (s->kind == PKI_S_DECL || s->kind == PKI_S_FOR)
    return s->var;
  return s->target && s->target->kind == PKI_E_VAR ? s->target->var : NULL;
}

typedef struct defs_q {
  pki_arena *a;
  pki_vec *defs;
} defs_q;

static void on_def(pki_visitor *v, const pki_stmt *s) {
  defs_q *q = v->data;
  bool defines = s->kind == PKI_S_DECL || s->kind == PKI_S_FOR || s->kind == PKI_S_ASSIGN ||
                 s->kind == PKI_S_AUGASSIGN || s->kind == PKI_S_NESTED;
  if (defines && def_var(s))
    pki_vec_push(q->a, q->defs, (void *)s);
}

static void collect_defs(pki_arena *a, frame *fr) {
  defs_q q = {a, &fr->defs};
  pki_visitor v = {.stmt = on_def, .data = &q};
  pki_visit_func(&v, fr->f);
}

static int count_defs(const frame *fr, const pki_var *var, const pki_stmt **one) {
  int n = 0;
  for (int i = 0; i < fr->defs.n; i++)
    if (def_var(PKI_AT(fr->defs, i, pki_stmt)) == var) {
      *one = PKI_AT(fr->defs, i, pki_stmt);
      n++;
    }
  return n;
}

/* The argument of fr's call bound to parameter p, or NULL. */
static const pki_expr *call_arg(const frame *fr, const pki_var *p) {
  if (!fr->caller)
    return NULL;
  int off = fr->f->is_method ? 1 : 0;
  for (int k = 0; k < fr->f->nparams; k++)
    if (fr->f->params[k] == p)
      return k + off < fr->call->nargs ? fr->call->args[k + off] : NULL;
  return NULL;
}

/* ----------------------------------------------- index expressions */

static lin eval(walk *w, const frame *fr, const pki_expr *e, int depth);

static lin eval_args(walk *w, const frame *fr, const pki_expr *e, int from, int depth) {
  lin r = lin_flag(0);
  for (int i = from; i < e->nargs; i++)
    if (e->args[i])
      r = lin_opaque(r, eval(w, fr, e->args[i], depth + 1));
  return r.flags ? r : lin_flag(L_SYM);
}

/* One definition's contribution to its local (joined with the others). */
static lin eval_def(walk *w, const frame *fr, const pki_stmt *d, int depth) {
  switch (d->kind) {
  case PKI_S_DECL:
    return d->value ? eval(w, fr, d->value, depth + 1) : lin_flag(0);
  case PKI_S_ASSIGN:
  case PKI_S_AUGASSIGN:
    return eval(w, fr, d->value, depth + 1);
  case PKI_S_FOR: {
    lin r = lin_opaque(eval(w, fr, d->begin, depth + 1), eval(w, fr, d->end, depth + 1));
    return d->step ? lin_opaque(r, eval(w, fr, d->step, depth + 1)) : r;
  }
  default: /* a nested reduction's result */
    return lin_flag(L_UNK);
  }
}

static lin eval_local(walk *w, const frame *fr, const pki_var *v, int depth) {
  const pki_stmt *one = NULL;
  int n = count_defs(fr, v, &one);
  if (n == 0)
    return lin_flag(L_SYM); /* captured from the host code that dispatches the lambda */
  if (pki_vec_has(&w->sh->busy, v))
    return lin_flag(0); /* a cycle adds nothing to the join */
  pki_vec_push(w->sh->m->arena, &w->sh->busy, (void *)v);
  lin r = lin_flag(0);
  if (n == 1 && one->kind == PKI_S_DECL && one->value) {
    r = eval(w, fr, one->value, depth + 1);
  } else {
    for (int i = 0; i < fr->defs.n; i++)
      if (def_var(PKI_AT(fr->defs, i, pki_stmt)) == v)
        r = lin_opaque(r, eval_def(w, fr, PKI_AT(fr->defs, i, pki_stmt), depth));
  }
  w->sh->busy.n--;
  return r;
}

static lin eval_var(walk *w, const frame *fr, const pki_var *v, int depth) {
  const pki_stmt *one = NULL;
  /* a work index or parameter the body assigns is not its incoming value */
  if ((v->kind == PKI_VAR_INDEX || v->kind == PKI_VAR_PARAM) && count_defs(fr, v, &one) > 0)
    return lin_flag(L_UNK);
  if (!fr->caller)
    for (int k = 0; k < fr->f->nindex && k < PKI_ACCESS_MAX_DIMS; k++)
      if (fr->f->index[k] == v)
        return lin_work(k);
  bool scalar = pki_is_int(v->type.kind);
  switch (v->kind) {
  case PKI_VAR_INDEX: /* a nested closure's index: a loop of the team */
    return lin_flag(L_SYM);
  case PKI_VAR_MEMBER:
    return scalar ? lin_var(v) : lin_flag(L_SYM);
  case PKI_VAR_PARAM: {
    if (!fr->caller)
      return scalar ? lin_var(v) : lin_flag(L_SYM);
    const pki_expr *a = call_arg(fr, v);
    return a ? eval(w, fr->caller, a, depth + 1) : lin_flag(L_UNK);
  }
  case PKI_VAR_LOCAL:
    return eval_local(w, fr, v, depth);
  default: /* the accumulator, the scan's final flag */
    return lin_flag(L_UNK);
  }
}

static bool is_atomic(pki_intrinsic k) {
  return k >= PKI_INTRINSIC_ATOMIC_FETCH_ADD && k <= PKI_INTRINSIC_ATOMIC_COMPARE_EXCHANGE;
}

typedef struct touch_q {
  int depth;
  bool hit;
} touch_q;

static bool func_touches_views(const pki_func *f, int depth);

static void on_touch(pki_visitor *v, const pki_expr *e) {
  touch_q *q = v->data;
  if (e->kind == PKI_E_INDEX || (e->kind == PKI_E_INTRINSIC && is_atomic(e->intrinsic)))
    q->hit = true;
  else if (e->kind == PKI_E_CALL && e->func && !q->hit)
    q->hit = func_touches_views(e->func, q->depth + 1);
}

/* Whether f (or what it calls) may read a View; true when too deep to tell. */
static bool func_touches_views(const pki_func *f, int depth) {
  touch_q q = {depth, depth > MAX_CALL_DEPTH};
  pki_visitor v = {.expr = on_touch, .data = &q};
  if (!q.hit)
    pki_visit_func(&v, f);
  return q.hit;
}


static lin eval_arith(walk *w, const frame *fr, const pki_expr *e, int depth) {
  if (e->kind == PKI_E_UNARY) {
    lin a = eval(w, fr, e->args[0], depth + 1);
    if (e->op == PKI_OP_NEG)
      return lin_scale(a, -1);
    return e->op == PKI_OP_POS ? a : lin_opaque(a, lin_flag(0));
  }
  lin a = eval(w, fr, e->args[0], depth + 1), b = eval(w, fr, e->args[1], depth + 1);
  switch (e->op) {
  case PKI_OP_ADD:
    return lin_add(a, b, 1);
  case PKI_OP_SUB:
    return lin_add(a, b, -1);
  case PKI_OP_MUL:
    return lin_mul(a, b);
  default:
    return lin_opaque(a, b);
  }
}

static lin eval(walk *w, const frame *fr, const pki_expr *e, int depth) {
  if (!e || depth > MAX_EVAL_DEPTH || --w->sh->budget < 0)
    return lin_flag(L_UNK);
  switch (e->kind) {
  case PKI_E_INT:
  case PKI_E_BOOL:
    return lin_const(e->ival);
  case PKI_E_FLOAT:
  case PKI_E_EXTENT:
    return lin_flag(L_SYM);
  case PKI_E_VAR:
    return eval_var(w, fr, e->var, depth);
  case PKI_E_UNARY:
  case PKI_E_BINARY:
    return eval_arith(w, fr, e, depth);
  case PKI_E_CAST: { /* only a conversion to int64 keeps every index value */
    lin a = eval(w, fr, e->args[0], depth + 1);
    bool keeps = e->type.kind == PKI_I64 && pki_is_int(e->args[0]->type.kind) &&
                 e->args[0]->type.kind != PKI_U64;
    return keeps ? a : lin_opaque(a, lin_flag(0));
  }
  case PKI_E_INDEX: {
    lin r = eval_args(w, fr, e, 1, depth);
    r.flags |= L_IND;
    return r;
  }
  case PKI_E_INTRINSIC:
    if (e->intrinsic == PKI_INTRINSIC_TEAM_RANK) /* differs between a team's threads */
      return lin_opaque(eval_args(w, fr, e, 0, depth), lin_flag(0));
    if (e->intrinsic == PKI_INTRINSIC_LEAGUE_SIZE || e->intrinsic == PKI_INTRINSIC_TEAM_SIZE)
      return lin_flag(L_SYM);
    if (e->intrinsic == PKI_INTRINSIC_LEAGUE_RANK && !fr->caller && e->nargs == 1 &&
        e->args[0] && e->args[0]->kind == PKI_E_VAR && fr->f->nindex == 1 &&
        fr->f->index[0] == e->args[0]->var)
      return lin_work(0); /* the kernel's own member: its work index */
    /* fall through */
  case PKI_E_CALL: {
    lin r = eval_args(w, fr, e, 0, depth);
    if ((e->kind == PKI_E_INTRINSIC && is_atomic(e->intrinsic)) ||
        (e->kind == PKI_E_CALL && e->func && func_touches_views(e->func, fr->depth + 1)))
      r.flags |= L_IND;
    return r;
  }
  case PKI_E_COMPARE:
  case PKI_E_LOGICAL:
  case PKI_E_COND:
  case PKI_E_BUILTIN:
  case PKI_E_FIELD:
    return eval_args(w, fr, e, 0, depth);
  default:
    return lin_flag(L_UNK);
  }
}

/* --------------------------------------------------------- Views */

/* What a View expression refers to: root (a parameter, member or captured
 * View) seen through at most one subview `sub` (evaluated in subfr). */
typedef enum { REF_OK, REF_SCRATCH, REF_UNKNOWN } ref_status;
typedef struct vref {
  ref_status status;
  const pki_var *root;
  const pki_expr *sub;
  const frame *subfr;
  bool deep; /* a subview of a subview: indices not mapped */
} vref;

static vref resolve(const frame *fr, const pki_expr *e, int depth);

static vref resolve_local(const frame *fr, const pki_var *v, int depth) {
  vref r = {.status = REF_UNKNOWN};
  const pki_stmt *one = NULL;
  int n = count_defs(fr, v, &one);
  if (n == 0)
    return (vref){.status = REF_OK, .root = v}; /* captured by a lambda */
  if (n != 1 || one->kind != PKI_S_DECL || !one->value)
    return r;
  const pki_expr *val = one->value;
  if (val->kind == PKI_E_VAR)
    return resolve(fr, val, depth + 1);
  if (val->kind == PKI_E_INTRINSIC && val->intrinsic == PKI_INTRINSIC_SCRATCH_VIEW)
    return (vref){.status = REF_SCRATCH};
  if (val->kind == PKI_E_INTRINSIC && val->intrinsic == PKI_INTRINSIC_SUBVIEW && val->nargs) {
    r = resolve(fr, val->args[0], depth + 1);
    if (r.status == REF_OK && r.sub)
      r.deep = true;
    else if (r.status == REF_OK) {
      r.sub = val;
      r.subfr = fr;
    }
  }
  return r;
}

static vref resolve(const frame *fr, const pki_expr *e, int depth) {
  vref unknown = {.status = REF_UNKNOWN};
  if (!e || e->kind != PKI_E_VAR || depth > MAX_EVAL_DEPTH)
    return unknown;
  const pki_var *v = e->var;
  if (v->type.space == PKI_SPACE_SCRATCH)
    return (vref){.status = REF_SCRATCH};
  switch (v->kind) {
  case PKI_VAR_PARAM:
    if (fr->caller) {
      const pki_expr *a = call_arg(fr, v);
      return a ? resolve(fr->caller, a, depth + 1) : unknown;
    }
    return (vref){.status = REF_OK, .root = v};
  case PKI_VAR_MEMBER:
    return (vref){.status = REF_OK, .root = v};
  case PKI_VAR_LOCAL:
    return resolve_local(fr, v, depth);
  default:
    return unknown;
  }
}

/* The root's index lins of an access with indices ix[0..nix-1] in fr, and
 * per dimension the expression whose source text shows it (or NULL). */
static void root_indices(walk *w, const vref *r, pki_expr *const *ix, int nix, int rank,
                         lin *out, const pki_expr **src) {
  const frame *fr = w->fr;
  if (!r->sub || r->deep) {
    for (int d = 0; d < rank; d++) {
      bool known = !r->deep && d < nix;
      out[d] = known ? eval(w, fr, ix[d], 0) : lin_flag(L_UNK);
      src[d] = known ? ix[d] : NULL;
    }
    return;
  }
  int k = 0; /* next index of the access: one per sliced dimension */
  for (int d = 0; d < rank; d++) {
    const pki_expr *a = d + 1 < r->sub->nargs ? r->sub->args[d + 1] : NULL;
    src[d] = NULL;
    if (!a) {
      out[d] = lin_flag(L_UNK);
    } else if (a->kind == PKI_E_SLICE) {
      const pki_expr *b = a->nargs > 0 ? a->args[0] : NULL, *x = k < nix ? ix[k++] : NULL;
      lin l = x ? eval(w, fr, x, 0) : lin_flag(L_UNK);
      out[d] = b ? lin_add(eval(w, r->subfr, b, 0), l, 1) : l;
      src[d] = b ? NULL : x;
    } else {
      out[d] = eval(w, r->subfr, a, 0);
      src[d] = r->subfr->caller ? NULL : a;
    }
  }
}

static const char *source_text(const pki_module *m, pki_span sp) {
  if (!m->source || sp.end_byte <= sp.start_byte || sp.end_byte > m->source_len)
    return NULL;
  return pki_strndup(m->arena, m->source + sp.start_byte, sp.end_byte - sp.start_byte);
}

static bool same_access(const pki_access *a, const pki_access *b) {
  if (a->view != b->view || a->mode != b->mode || a->atomic != b->atomic || a->rank != b->rank)
    return false;
  for (int d = 0; d < a->rank; d++) {
    const pki_idx *x = &a->idx[d], *y = &b->idx[d];
    if (x->kind != y->kind || x->work != y->work || x->offset != y->offset ||
        x->var != y->var || x->var_coef != y->var_coef || x->works != y->works || (x->text == NULL) != (y->text == NULL) ||
        (x->text && strcmp(x->text, y->text)))
      return false;
  }
  return true;
}

static void add_access(shared *sh, pki_access *x) {
  pki_access_summary *s = sh->s;
  for (int i = 0; i < s->accesses.n; i++)
    if (same_access(PKI_AT(s->accesses, i, pki_access), x))
      return;
  pki_access *keep = pki_alloc(sh->m->arena, sizeof *keep);
  *keep = *x;
  pki_vec_push(sh->m->arena, &s->accesses, keep);
  for (int i = 0; i < s->views.n; i++)
    if (PKI_AT(s->views, i, pki_view_use)->view == x->view) {
      PKI_AT(s->views, i, pki_view_use)->mode |= x->mode;
      return;
    }
  pki_view_use *u = pki_alloc(sh->m->arena, sizeof *u);
  u->view = x->view;
  u->mode = x->mode;
  pki_vec_push(sh->m->arena, &s->views, u);
}

/* Records an access of View expression view with indices ix[0..nix-1]. */
static void record(walk *w, const pki_expr *view, pki_expr *const *ix, int nix, unsigned mode,
                   pki_atomic_class cls, pki_span at) {
  vref r = resolve(w->fr, view, 0);
  if (r.status == REF_SCRATCH) {
    w->sh->s->scratch = true;
    return;
  }
  if (r.status == REF_UNKNOWN) {
    const char *nm = view->kind == PKI_E_VAR ? view->var->name : "?";
    mark_unknown(w, at, pki_sprintf(w->sh->m->arena, "View '%s' does not stand for one "
                                    "parameter or data member (or a subview of one)", nm));
    return;
  }
  pki_access x = {.view = r.root, .mode = mode, .atomic = cls, .span = at};
  x.rank = r.root->type.rank < PKI_ACCESS_MAX_DIMS ? r.root->type.rank : PKI_ACCESS_MAX_DIMS;
  if (x.rank <= 0)
    x.rank = nix < PKI_ACCESS_MAX_DIMS ? nix : PKI_ACCESS_MAX_DIMS;
  lin dims[PKI_ACCESS_MAX_DIMS];
  const pki_expr *src[PKI_ACCESS_MAX_DIMS];
  w->sh->budget = EVAL_BUDGET;
  root_indices(w, &r, ix, nix, x.rank, dims, src);
  for (int d = 0; d < x.rank; d++) {
    x.idx[d] = lin_classify(&dims[d]);
    if (!w->fr->caller && src[d])
      x.idx[d].text = source_text(w->sh->m, src[d]->span);
  }
  if (w->fr->caller) {
    x.callee = w->fr->f->name;
    x.call = w->call;
  }
  add_access(w->sh, &x);
}

static pki_atomic_class atomic_class(pki_intrinsic k) {
  switch (k) {
  case PKI_INTRINSIC_ATOMIC_FETCH_ADD: case PKI_INTRINSIC_ATOMIC_FETCH_SUB:
  case PKI_INTRINSIC_ATOMIC_ADD: case PKI_INTRINSIC_ATOMIC_SUB:
  case PKI_INTRINSIC_ATOMIC_INCREMENT: case PKI_INTRINSIC_ATOMIC_DECREMENT:
    return PKI_ATOMIC_SUM;
  case PKI_INTRINSIC_ATOMIC_FETCH_MUL: return PKI_ATOMIC_PROD;
  case PKI_INTRINSIC_ATOMIC_FETCH_MAX: return PKI_ATOMIC_MAX;
  case PKI_INTRINSIC_ATOMIC_FETCH_MIN: return PKI_ATOMIC_MIN;
  case PKI_INTRINSIC_ATOMIC_FETCH_AND: return PKI_ATOMIC_AND;
  case PKI_INTRINSIC_ATOMIC_FETCH_OR: return PKI_ATOMIC_OR;
  case PKI_INTRINSIC_ATOMIC_FETCH_XOR: return PKI_ATOMIC_XOR;
  default: return PKI_ATOMIC_OTHER;
  }
}

static bool returns_old(pki_intrinsic k) {
  return k == PKI_INTRINSIC_ATOMIC_COMPARE_EXCHANGE ||
         (k >= PKI_INTRINSIC_ATOMIC_FETCH_ADD && k <= PKI_INTRINSIC_ATOMIC_FETCH_RSHIFT);
}

static bool is_view_var(const pki_expr *e) {
  return e && e->kind == PKI_E_VAR && e->var && e->var->type.kind == PKI_VIEW;
}

static void handle(walk *w, const pki_expr *e) {
  if (is_view_var(e))
    pki_vec_push(w->sh->m->arena, &w->sh->handled, (void *)e);
}

static void on_atomic(walk *w, const pki_expr *e) {
  const pki_expr *view = e->args[0];
  handle(w, view);
  int rank = view->type.kind == PKI_VIEW ? view->type.rank
             : is_view_var(view)         ? view->var->type.rank
                                         : e->nargs - 2;
  if (rank > e->nargs - 1)
    rank = e->nargs - 1;
  unsigned mode = PKI_MEM_READ | PKI_MEM_WRITE | PKI_MEM_ATOMIC;
  if (returns_old(e->intrinsic) && e != w->discarded)
    mode |= PKI_MEM_FETCH;
  record(w, view, e->args + 1, rank, mode, atomic_class(e->intrinsic), e->span);
}

static void on_intrinsic(walk *w, const pki_expr *e) {
  pki_access_summary *s = w->sh->s;
  pki_intrinsic k = e->intrinsic;
  if (is_atomic(k) && e->nargs >= 2)
    on_atomic(w, e);
  else if (k == PKI_INTRINSIC_SUBVIEW && e->nargs)
    handle(w, e->args[0]);
  else if ((k == PKI_INTRINSIC_LOWER_BOUND || k == PKI_INTRINSIC_UPPER_BOUND) && e->nargs) {
    handle(w, e->args[0]); /* a binary search: reads elements it picks itself */
    record(w, e->args[0], NULL, 0, PKI_MEM_READ, PKI_ATOMIC_NONE, e->span);
  }
  else if (k == PKI_INTRINSIC_TEAM_SCRATCH || k == PKI_INTRINSIC_THREAD_SCRATCH ||
           k == PKI_INTRINSIC_SCRATCH_VIEW)
    s->scratch = true;
  else if (k >= PKI_INTRINSIC_POOL_GET_STATE && k <= PKI_INTRINSIC_RAND_NORMAL)
    s->random = true;
}

static void walk_func(walk *w, const pki_func *f);

/* The element p[i] a place is part of (p[i], p[i].x, p[i].pos.v[k]) where p is
 * a View of classtype values; NULL otherwise. */
static const pki_expr *class_elem(const pki_expr *t) {
  while (t && t->nargs > 0 && t->args[0] &&
         (t->kind == PKI_E_FIELD || (t->kind == PKI_E_INDEX && !is_view_var(t->args[0]))))
    t = t->args[0];
  if (t && t->kind == PKI_E_INDEX && t->nargs && is_view_var(t->args[0]) &&
      pki_is_class_view(t->args[0]->var->type))
    return t;
  return NULL;
}

static void follow_call(walk *w, const pki_expr *e) {
  const pki_func *g = e->func;
  w->sh->s->calls = true;
  for (int i = 0; i < e->nargs; i++) {
    handle(w, e->args[i]);
    /* p[i] (or p[i].pos) passed to a function or method that changes it */
    const pki_expr *x = class_elem(e->args[i]);
    if (x && pki_call_changes_arg(e, i))
      record(w, x->args[0], x->args + 1, x->nargs - 1, PKI_MEM_READ | PKI_MEM_WRITE,
             PKI_ATOMIC_NONE, x->span);
  }
  for (const frame *f = w->fr; f; f = f->caller)
    if (f->f == g) {
      mark_unknown(w, e->span, pki_sprintf(w->sh->m->arena, "'%s' is recursive", g->name));
      return;
    }
  if (w->fr->depth >= MAX_CALL_DEPTH) {
    mark_unknown(w, e->span, pki_sprintf(w->sh->m->arena, "the calls leading to '%s' are "
                                         "nested more than %d deep", g->name, MAX_CALL_DEPTH));
    return;
  }
  frame sub = {.f = g, .caller = w->fr, .call = e, .depth = w->fr->depth + 1};
  collect_defs(w->sh->m->arena, &sub);
  walk w2 = {.sh = w->sh, .fr = &sub, .call = w->fr->caller ? w->call : e->span};
  walk_func(&w2, g);
}

static bool is_kernel_input(walk *w, const pki_var *v) {
  const pki_func *k = w->sh->s->kernel;
  const pki_stmt *one;
  while (!k->owner && k->parent) /* a lambda: its workload's members */
    k = k->parent;
  switch (v->kind) {
  case PKI_VAR_PARAM:
    return !w->fr->caller;
  case PKI_VAR_MEMBER:
    return k->owner && pki_entity_member(k->owner, v->name) == v;
  case PKI_VAR_LOCAL:
    return !w->fr->caller && count_defs(w->fr, v, &one) == 0;
  default:
    return false;
  }
}

static void on_var_use(walk *w, const pki_expr *e) {
  pki_access_summary *s = w->sh->s;
  const pki_var *v = e->var;
  if (v->type.kind == PKI_POOL) {
    s->random = true;
  } else if (pki_is_class_view(v->type)) { /* its kernels are instantiated per layout */
    if (!pki_vec_has(&w->sh->handled, e))
      mark_unknown(w, e->span, pki_sprintf(w->sh->m->arena, "View '%s' is used as a whole "
                                           "(not indexed)", v->name));
    set_unknown(w, e->span, pki_sprintf(w->sh->m->arena, "View '%s' holds classtype values, "
                                        "whose kernels are not fused", v->name), true);
  } else if (v->type.kind == PKI_VIEW) {
    if (!pki_vec_has(&w->sh->handled, e) && v->type.space != PKI_SPACE_SCRATCH)
      mark_unknown(w, e->span, pki_sprintf(w->sh->m->arena, "View '%s' is used as a whole "
                                           "(not indexed)", v->name));
  } else if (e != w->target && is_kernel_input(w, v)) {
    for (int i = 0; i < s->scalars.n; i++)
      if (PKI_AT(s->scalars, i, pki_scalar_read)->var == v)
        return;
    pki_scalar_read *r = pki_alloc(w->sh->m->arena, sizeof *r);
    r->var = v;
    r->span = e->span;
    pki_vec_push(w->sh->m->arena, &s->scalars, r);
  }
}

static void on_expr(pki_visitor *v, const pki_expr *e) {
  walk *w = v->data;
  switch (e->kind) {
  case PKI_E_INDEX:
    if (e->nargs && is_view_var(e->args[0])) {
      handle(w, e->args[0]);
      record(w, e->args[0], e->args + 1, e->nargs - 1,
             e == w->target || e == w->target_elem ? w->target_mode : PKI_MEM_READ,
             PKI_ATOMIC_NONE, e->span);
    }
    break;
  case PKI_E_EXTENT:
    if (e->nargs)
      handle(w, e->args[0]);
    break;
  case PKI_E_INTRINSIC:
    on_intrinsic(w, e);
    break;
  case PKI_E_CALL:
    if (e->func)
      follow_call(w, e);
    break;
  case PKI_E_VAR:
    on_var_use(w, e);
    break;
  default:
    break;
  }
}

static void on_stmt(pki_visitor *v, const pki_stmt *s) {
  walk *w = v->data;
  shared *sh = w->sh;
  if (s->kind == PKI_S_ASSIGN || s->kind == PKI_S_AUGASSIGN) {
    w->target = s->target;
    w->target_elem = class_elem(s->target);
    w->target_mode = s->kind == PKI_S_ASSIGN ? PKI_MEM_WRITE : PKI_MEM_READ | PKI_MEM_WRITE;
    handle(w, s->target); /* a local View assigned again: its uses become unknown */
    handle(w, s->value);
    const pki_var *acc = sh->s->kernel->acc;
    if (acc && !sh->acc_seen && !w->fr->caller && s->target && s->target->var == acc) {
      sh->acc_seen = true;
      sh->s->acc_span = s->span;
    }
  } else if (s->kind == PKI_S_EXPR) {
    w->discarded = s->value;
  } else if (s->kind == PKI_S_DECL) {
    handle(w, s->value);
  }
}

static void walk_func(walk *w, const pki_func *f) {
  pki_visitor v = {.expr = on_expr, .stmt = on_stmt, .data = w};
  pki_visit_func(&v, f);
}

/* ------------------------------------------------------------ public */

pki_access_summary *pki_access_summarize(pki_module *m, const pki_func *f) {
  pki_access_summary *s = pki_alloc(m->arena, sizeof *s);
  s->kernel = f;
  s->name = f->name;
  s->span = s->acc_span = f->span;
  s->policy = f->policy;
  s->nwork = f->nindex < PKI_ACCESS_MAX_DIMS ? f->nindex : PKI_ACCESS_MAX_DIMS;
  for (int k = 0; k < s->nwork; k++)
    s->work[k] = f->index[k]->name;
  s->reduction = f->pattern == PKI_PATTERN_REDUCE;
  s->reducer = f->reducer;
  s->scan = f->pattern == PKI_PATTERN_SCAN;
  s->team = f->policy == PKI_POLICY_TEAM;
  shared sh = {.m = m, .s = s};
  frame top = {.f = f};
  collect_defs(m->arena, &top);
  walk w = {.sh = &sh, .fr = &top};
  walk_func(&w, f);
  return s;
}

pki_access_summary **pki_access_summarize_module(pki_module *m, int *n) {
  pki_vec out = {0};
  for (int i = 0; i < m->nentities; i++) {
    const pki_entity *e = m->entities[i];
    for (int k = 0; k < e->nfuncs; k++) {
      const pki_func *f = e->funcs[k];
      if (f && f->is_workunit)
        pki_vec_push(m->arena, &out, pki_access_summarize(m, f));
      for (int c = 0; f && f->is_main && c < f->nclosures; c++)
        if (f->closures[c]->is_workunit)
          pki_vec_push(m->arena, &out, pki_access_summarize(m, f->closures[c]));
    }
  }
  *n = out.n;
  return (pki_access_summary **)out.items;
}

const pki_view_use *pki_access_view(const pki_access_summary *s, const pki_var *v) {
  for (int i = 0; i < s->views.n; i++)
    if (PKI_AT(s->views, i, pki_view_use)->view == v)
      return PKI_AT(s->views, i, pki_view_use);
  return NULL;
}

const char *pki_idx_kind_name(pki_idx_kind k) {
  static const char *const names[] = {"identity", "offset",   "affine", "not affine",
                                      "indirect", "independent", "unknown"};
  return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

static const char *describe_idx(pki_arena *a, const pki_access_summary *s, const pki_idx *x) {
  const char *w = x->work < s->nwork ? s->work[x->work] : "?";
  switch (x->kind) {
  case PKI_IDX_IDENTITY:
    return w;
  case PKI_IDX_OFFSET:
    return pki_sprintf(a, "%s %c %lld", w, x->offset < 0 ? '-' : '+',
                       x->offset < 0 ? -(long long)x->offset : (long long)x->offset);
  case PKI_IDX_INDEPENDENT:
    if (x->constant)
      return pki_sprintf(a, "%lld", (long long)x->offset);
    /* fall through */
  default:
    return x->text ? x->text : pki_sprintf(a, "<%s>", pki_idx_kind_name(x->kind));
  }
}

const char *pki_access_where(pki_arena *a, const pki_access_summary *s, const pki_access *x) {
  if (x->rank == 1)
    return describe_idx(a, s, &x->idx[0]);
  const char *out = "[";
  for (int d = 0; d < x->rank; d++)
    out = pki_sprintf(a, "%s%s%s", out, d ? ", " : "", describe_idx(a, s, &x->idx[d]));
  return pki_sprintf(a, "%s]", out);
}

const pki_access_summary *pki_access_summary_cached(pki_module *m, pki_vec *cache,
                                                    const pki_func *f) {
  for (int i = 0; i < cache->n; i++)
    if (PKI_AT(*cache, i, pki_access_summary)->kernel == f)
      return PKI_AT(*cache, i, pki_access_summary);
  pki_access_summary *s = pki_access_summarize(m, f);
  pki_vec_push(m->arena, cache, s);
  return s;
}

bool pki_named_view(const pki_func *f, const pki_var *v) {
  if (v->kind == PKI_VAR_MEMBER)
    return true;
  for (int i = 0; v->kind == PKI_VAR_PARAM && i < f->nparams; i++)
    if (f->params[i] == v)
      return true;
  return false;
}
