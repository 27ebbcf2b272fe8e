/*
 * ir.c - the IR's memory (arena, vectors), diagnostics list, types and
 * node constructors. Passes live in their own files (check.c, print.c).
 */
#include "ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- arena */

typedef struct pki_chunk {
  struct pki_chunk *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
} pki_chunk;

struct pki_arena {
  pki_chunk *head;
};

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fputs("pkc: out of memory\n", stderr);
    exit(3);
  }
  return p;
}

pki_arena *pki_arena_new(void) {
  pki_arena *a = xmalloc(sizeof *a);
  a->head = NULL;
  return a;
}

void pki_arena_free(pki_arena *a) {
  if (!a)
    return;
  for (pki_chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(a);
}

void *pki_alloc(pki_arena *a, size_t bytes) {
  bytes = (bytes + 15) & ~(size_t)15;
  pki_chunk *c = a->head;
  if (!c || c->size - c->used < bytes) {
    size_t size = bytes > 64 * 1024 ? bytes : 64 * 1024;
    c = xmalloc(sizeof *c + size);
    c->size = size;
    c->used = 0;
    c->next = a->head;
    a->head = c;
  }
  void *p = c->data + c->used;
  c->used += bytes;
  memset(p, 0, bytes);
  return p;
}

char *pki_strndup(pki_arena *a, const char *s, size_t n) {
  char *p = pki_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *pki_strdup(pki_arena *a, const char *s) { return pki_strndup(a, s, strlen(s)); }

static char *pki_vsprintf(pki_arena *a, const char *fmt, va_list ap) {
  char tmp[256]; /* one pass when it fits, a second into the arena if not */
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap2);
  va_end(ap2);
  char *p = pki_alloc(a, (size_t)n + 1);
  if ((size_t)n < sizeof tmp)
    memcpy(p, tmp, (size_t)n + 1);
  else
    vsnprintf(p, (size_t)n + 1, fmt, ap);
  return p;
}

char *pki_sprintf(pki_arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *p = pki_vsprintf(a, fmt, ap);
  va_end(ap);
  return p;
}

void *pki_grow(pki_arena *a, void *items, int n, int *cap, size_t sz) {
  if (n < *cap)
    return items;
  int ncap = *cap ? *cap * 2 : 4;
  void *p = pki_alloc(a, sz * (size_t)ncap);
  if (n)
    memcpy(p, items, sz * (size_t)n);
  *cap = ncap;
  return p;
}

void pki_vec_push(pki_arena *a, pki_vec *v, void *item) {
  v->items = pki_grow(a, v->items, v->n, &v->cap, sizeof(void *));
  v->items[v->n++] = item;
}

bool pki_vec_has(const pki_vec *v, const void *item) {
  for (int i = 0; i < v->n; i++)
    if (v->items[i] == item)
      return true;
  return false;
}

void pki_block_push(pki_arena *a, pki_block *b, pki_stmt *s) {
  b->stmts = pki_grow(a, b->stmts, b->n, &b->cap, sizeof(pki_stmt *));
  b->stmts[b->n++] = s;
}

/* ---------------------------------------------------------- diagnostics */

void pki_diags_init(pki_diags *d, pki_arena *a, const char *path,
                    const char *source, size_t len) {
  memset(d, 0, sizeof *d);
  d->arena = a;
  d->path = path;
  d->source = source;
  d->source_len = len;
}

void pki_diags_free(pki_diags *d) { (void)d; /* everything lives in the arena */ }

static void report(pki_diags *d, pki_severity sev, pki_span at, const char *code,
                   const char *fmt, va_list ap) {
  d->items = pki_grow(d->arena, d->items, d->n, &d->cap, sizeof(pki_diag));
  pki_diag *g = &d->items[d->n++];
  g->severity = sev;
  g->span = at;
  g->code = code;
  g->message = pki_vsprintf(d->arena, fmt, ap);
  if (sev == PKI_SEV_ERROR)
    d->errors++;
}

#define PKI_REPORT_FN(fname, sev)                                            \
  void fname(pki_diags *d, pki_span at, const char *code, const char *fmt, ...) { \
    va_list ap;                                                              \
    va_start(ap, fmt);                                                       \
    report(d, sev, at, code, fmt, ap);                                       \
    va_end(ap);                                                              \
  }
PKI_REPORT_FN(pki_error, PKI_SEV_ERROR)
PKI_REPORT_FN(pki_warning, PKI_SEV_WARNING)
PKI_REPORT_FN(pki_note, PKI_SEV_NOTE)

/* Levenshtein distance of a and b (short names: at most 63 bytes each). */
static int edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 63 || lb > 63)
    return 64;
  int row[64];
  for (size_t j = 0; j <= lb; j++)
    row[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  return row[lb];
}

const char *pki_closest(const char *word, const char *const *names, int n) {
  const char *best = NULL;
  int bd = 3, limit = (int)strlen(word) / 3 + 1; /* pk.doubel -> double: 2 */
  for (int i = 0; i < n; i++) {
    if (!names[i] || !strcmp(names[i], word))
      continue;
    int dist = edit_distance(word, names[i]);
    if (dist < bd && dist <= limit) {
      bd = dist;
      best = names[i];
    }
  }
  return best;
}

/* ---------------------------------------------------------------- types */

const pki_type pki_void_type = {.kind = PKI_VOID};
const pki_type pki_bool_type = {.kind = PKI_BOOL};
const pki_type pki_int_type = {.kind = PKI_I64};
const pki_type pki_float_type = {.kind = PKI_F64};

pki_type pki_scalar(pki_kind k) { return (pki_type){.kind = k}; }

pki_type pki_view(pki_kind elem, int rank, pki_layout layout) {
  return (pki_type){.kind = PKI_VIEW, .elem = elem, .rank = rank, .layout = layout};
}

pki_type pki_class_type(struct pki_entity *cls) {
  return (pki_type){.kind = PKI_CLASS, .cls = cls};
}

pki_type pki_array_type(pki_kind elem, int length) {
  return (pki_type){.kind = PKI_ARRAY, .elem = elem, .length = length};
}

bool pki_type_eq(pki_type a, pki_type b) {
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case PKI_VIEW:
    return a.elem == b.elem && a.rank == b.rank && a.layout == b.layout &&
           a.traits == b.traits && a.space == b.space && a.cls == b.cls;
  case PKI_CLASS: return a.cls == b.cls;
  case PKI_ARRAY: return a.elem == b.elem && a.length == b.length;
  case PKI_POOL: case PKI_RAND_STATE: return a.rank == b.rank;
  case PKI_BINOP: case PKI_BINSORT:
    return a.elem == b.elem && a.rank == b.rank && a.layout == b.layout && a.length == b.length;
  default: return true;
  }
}

bool pki_is_class_view(pki_type t) { return t.kind == PKI_VIEW && t.elem == PKI_CLASS; }

/* The first field of cls (at nesting depth) a View cannot hold; *owner its classtype. */
static const pki_var *bad_field(const pki_entity *cls, int depth, const pki_entity **owner) {
  for (int i = 0; i < cls->nmembers; i++) {
    pki_type ft = cls->members[i]->type;
    if (pki_is_numeric(ft.kind) || (ft.kind == PKI_ARRAY && ft.rank == 0 && ft.length > 0))
      continue;
    if (ft.kind == PKI_CLASS && ft.cls && ft.cls->nmembers && depth < PKI_MAX_CLASS_NESTING) {
      const pki_var *v = bad_field(ft.cls, depth + 1, owner);
      if (v)
        return v;
      continue;
    }
    *owner = cls;
    return cls->members[i];
  }
  return NULL;
}

const char *pki_class_view_field_error(pki_arena *a, const pki_entity *cls) {
  const pki_entity *owner = cls;
  const pki_var *v = bad_field(cls, 1, &owner);
  if (!v)
    return NULL;
  const char *of = owner == cls ? "" : pki_sprintf(a, " of nested classtype '%s'", owner->name);
  if (v->type.kind == PKI_CLASS && v->type.cls && v->type.cls->nmembers)
    return pki_sprintf(a, "a View of classtype '%s' nests classtypes at most %d deep, but field "
                       "'self.%s'%s is %s one level deeper; flatten the innermost classtype's "
                       "fields into '%s'", cls->name, PKI_MAX_CLASS_NESTING, v->name, of,
                       v->type.cls->name, owner->name);
  return pki_sprintf(a, "a View of classtype '%s' holds fields of scalar, fixed-size List "
                     "and classtype types only, but field 'self.%s'%s is %s; store that field's values in a View "
                     "of their own", cls->name, v->name, of, pki_type_str(a, v->type));
}

bool pki_is_int(pki_kind k) { return k >= PKI_I8 && k <= PKI_U64; }
bool pki_is_signed(pki_kind k) { return k >= PKI_I8 && k <= PKI_I64; }
bool pki_is_float(pki_kind k) { return k == PKI_F32 || k == PKI_F64; }
bool pki_is_numeric(pki_kind k) { return k == PKI_BOOL || pki_is_int(k) || pki_is_float(k); }

int pki_kind_bits(pki_kind k) {
  switch (k) {
  case PKI_BOOL: return 8;
  case PKI_I8: case PKI_U8: return 8;
  case PKI_I16: case PKI_U16: return 16;
  case PKI_I32: case PKI_U32: case PKI_F32: return 32;
  case PKI_I64: case PKI_U64: case PKI_F64: return 64;
  default: return 0;
  }
}

const char *pki_kind_name(pki_kind k) {
  static const char *const names[PKI_KIND_COUNT] = {
      [PKI_VOID] = "None",   [PKI_BOOL] = "bool",   [PKI_I8] = "int8",
      [PKI_I16] = "int16",   [PKI_I32] = "int32",   [PKI_I64] = "int64",
      [PKI_U8] = "uint8",    [PKI_U16] = "uint16",  [PKI_U32] = "uint32",
      [PKI_U64] = "uint64",  [PKI_F32] = "float32", [PKI_F64] = "float64",
      [PKI_VIEW] = "View",   [PKI_STR] = "str",     [PKI_TEAM_MEMBER] = "TeamMember",
      [PKI_CLASS] = "classtype", [PKI_ARRAY] = "List", [PKI_POOL] = "Random_Pool",
      [PKI_RAND_STATE] = "RandomState", [PKI_TIMER] = "Timer",
      [PKI_BINOP] = "BinOp", [PKI_BINSORT] = "BinSort"};
  return (unsigned)k < PKI_KIND_COUNT ? names[k] : "?";
}

const char *pki_type_str(pki_arena *a, pki_type t) {
  if (t.kind == PKI_CLASS)
    return t.cls ? t.cls->name : "classtype";
  if (t.kind == PKI_ARRAY)
    return pki_sprintf(a, "List[%s; %d]", pki_kind_name(t.elem), t.length);
  if (t.kind == PKI_POOL)
    return pki_sprintf(a, "Random_XorShift%d_Pool", t.rank);
  if (t.kind == PKI_RAND_STATE)
    return pki_sprintf(a, "Random_XorShift%d", t.rank);
  if (t.kind == PKI_BINOP || t.kind == PKI_BINSORT)
    return pki_sprintf(a, "%s%s", t.kind == PKI_BINOP ? "BinOp" : "BinSort",
                       t.length == 3 ? "3D" : "1D");
  if (t.kind != PKI_VIEW)
    return pki_kind_name(t.kind);
  if (t.space == PKI_SPACE_SCRATCH)
    return pki_sprintf(a, "ScratchView%dD[%s]", t.rank, pki_kind_name(t.elem));
  const char *layout = t.layout == PKI_LAYOUT_RIGHT    ? ", LayoutRight"
                       : t.layout == PKI_LAYOUT_LEFT   ? ", LayoutLeft"
                       : t.layout == PKI_LAYOUT_STRIDE ? ", LayoutStride"
                       : t.layout == PKI_LAYOUT_AOS    ? ", AoS"
                       : t.layout == PKI_LAYOUT_SOA    ? ", SoA"
                                                       : "";
  const char *elem = pki_is_class_view(t) && t.cls ? t.cls->name : pki_kind_name(t.elem);
  return pki_sprintf(a, "View%dD[%s%s]", t.rank, elem, layout);
}

/* ------------------------------------------------------------- builtins */

const pki_builtin_info pki_builtins[PKI_BUILTIN_COUNT] = {
#define PKI_X(id, py, lo, hi) [PKI_BUILTIN_##id] = {py, lo, hi},
    PKI_BUILTIN_TABLE(PKI_X)
#undef PKI_X
};

const pki_builtin_info pki_intrinsics[PKI_INTRINSIC_COUNT] = {
#define PKI_X(id, py, lo, hi) [PKI_INTRINSIC_##id] = {py, lo, hi},
    PKI_INTRINSIC_TABLE(PKI_X)
#undef PKI_X
};

int pki_intrinsic_lookup(const char *spelling) {
  for (int i = 0; i < PKI_INTRINSIC_COUNT; i++)
    if (strcmp(pki_intrinsics[i].py_name, spelling) == 0)
      return i;
  return -1;
}

int pki_builtin_lookup(const char *py_name) {
  for (int i = 0; i < PKI_BUILTIN_COUNT; i++)
    if (strcmp(pki_builtins[i].py_name, py_name) == 0)
      return i;
  return -1;
}

/* --------------------------------------------------------- constructors */

/* Length of the well-formed UTF-8 sequence at s (the ranges Python's
 * decoder accepts), 0 if none. */
static int utf8_len(const unsigned char *s) {
  int n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
          : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
  unsigned lo = s[0] == 0xE0 ? 0xA0 : s[0] == 0xF0 ? 0x90 : 0x80;
  unsigned hi = s[0] == 0xED ? 0x9F : s[0] == 0xF4 ? 0x8F : 0xBF;
  if (n && (s[1] < lo || s[1] > hi))
    return 0;
  for (int i = 2; i < n; i++)
    if ((s[i] & 0xC0) != 0x80)
      return 0;
  return n;
}

const char *pki_module_name(pki_arena *a, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strcspn(base, ".");
  const unsigned char *p = (const unsigned char *)base, *end = p + (n ? n : strlen(base));
  char *out = pki_alloc(a, (size_t)(end - p) * 3 + 3), *o = out;
  if (p < end && *p >= '0' && *p <= '9')
    o += sprintf(o, "m_");
  while (p < end) {
    int len = *p >= 0x80 ? utf8_len(p) : 1;
    if (len > 1 && p + len <= end) {
      unsigned cp = p[0] & (0xFF >> (len + 1));
      for (int i = 1; i < len; i++)
        cp = cp << 6 | (p[i] & 0x3F);
      o += sprintf(o, "u%04x", cp);
      p += len;
      continue;
    }
    bool keep = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9');
    *o++ = keep ? (char)*p : '_';
    p++;
  }
  *o = 0;
  return out;
}

pki_module *pki_module_new(const char *path, const char *abspath,
                           const char *source, size_t len) {
  pki_arena *a = pki_arena_new();
  pki_module *m = pki_alloc(a, sizeof *m);
  m->arena = a;
  m->path = pki_strdup(a, path);
  m->abspath = pki_strdup(a, abspath ? abspath : path);
  m->source = pki_strndup(a, source, len);
  m->source_len = len;
  m->name = pki_module_name(a, path);
  return m;
}

void pki_module_free(pki_module *m) {
  if (m)
    pki_arena_free(m->arena);
}

pki_var *pki_new_var(pki_module *m, const char *name, pki_var_kind kind,
                     pki_type type, pki_span span) {
  pki_var *v = pki_alloc(m->arena, sizeof *v);
  v->name = pki_strdup(m->arena, name);
  v->kind = kind;
  v->type = type;
  v->span = span;
  v->id = m->next_var_id++;
  return v;
}

pki_expr *pki_new_expr_n(pki_module *m, pki_expr_kind kind, pki_span span, int nargs) {
  pki_expr *e = pki_alloc(m->arena, sizeof *e);
  e->kind = kind;
  e->span = span;
  if (nargs > 0) {
    e->args = pki_alloc(m->arena, sizeof(pki_expr *) * (size_t)nargs);
    e->nargs = nargs;
  }
  return e;
}

pki_expr *pki_new_expr(pki_module *m, pki_expr_kind kind, pki_span span) {
  return pki_new_expr_n(m, kind, span, 0);
}

pki_stmt *pki_new_stmt(pki_module *m, pki_stmt_kind kind, pki_span span) {
  pki_stmt *s = pki_alloc(m->arena, sizeof *s);
  s->kind = kind;
  s->span = span;
  return s;
}

pki_func *pki_new_func(pki_module *m, const char *name, pki_span span) {
  pki_func *f = pki_alloc(m->arena, sizeof *f);
  f->name = pki_strdup(m->arena, name);
  f->span = span;
  return f;
}

pki_entity *pki_new_entity(pki_module *m, pki_entity_kind kind, const char *name,
                           pki_span span) {
  pki_entity *e = pki_alloc(m->arena, sizeof *e);
  e->kind = kind;
  e->name = pki_strdup(m->arena, name);
  e->span = span;
  return e;
}

void pki_func_add_local(pki_module *m, pki_func *f, pki_var *v) {
  f->locals = pki_grow(m->arena, f->locals, f->nlocals, &f->capl, sizeof *f->locals);
  f->locals[f->nlocals++] = v;
}

void pki_func_add_index(pki_module *m, pki_func *f, pki_var *v) {
  f->index = pki_grow(m->arena, f->index, f->nindex, &f->capi, sizeof *f->index);
  f->index[f->nindex++] = v;
}

void pki_func_add_param(pki_module *m, pki_func *f, pki_var *v) {
  f->params = pki_grow(m->arena, f->params, f->nparams, &f->capp, sizeof *f->params);
  f->params[f->nparams++] = v;
}

void pki_entity_add_member(pki_module *m, pki_entity *e, pki_var *v) {
  e->members = pki_grow(m->arena, e->members, e->nmembers, &e->capm, sizeof *e->members);
  e->members[e->nmembers++] = v;
}

void pki_module_add_entity(pki_module *m, pki_entity *e) {
  m->entities = pki_grow(m->arena, m->entities, m->nentities, &m->cape, sizeof(pki_entity *));
  m->entities[m->nentities++] = e;
}

void pki_entity_add_func(pki_module *m, pki_entity *e, pki_func *f) {
  e->funcs = pki_grow(m->arena, e->funcs, e->nfuncs, &e->capf, sizeof(pki_func *));
  e->funcs[e->nfuncs++] = f;
  f->owner = e;
}

void pki_func_add_closure(pki_module *m, pki_func *f, pki_func *closure) {
  f->closures = pki_grow(m->arena, f->closures, f->nclosures, &f->capc, sizeof *f->closures);
  f->closures[f->nclosures++] = closure;
  closure->parent = f;
  closure->owner = f->owner;
}

pki_var *pki_entity_member(const pki_entity *e, const char *name) {
  for (int i = 0; i < e->nmembers; i++)
    if (strcmp(e->members[i]->name, name) == 0)
      return e->members[i];
  return NULL;
}

pki_func *pki_root_func(pki_func *f) {
  for (int guard = 0; f && f->is_closure && f->parent && guard < 64; guard++)
    f = f->parent;
  return f;
}

pki_expr *pki_cast(pki_module *m, pki_expr *e, pki_type t) {
  if (pki_type_eq(e->type, t))
    return e;
  pki_expr *c = pki_new_expr_n(m, PKI_E_CAST, e->span, 1);
  c->args[0] = e;
  c->type = t;
  return c;
}
