/*
 * specialize.c - run-time specialization signatures (`pkc build --specialize`).
 *
 * A signature names a FunctionSty workunit and gives a type to its
 * parameters, the way the shim derives them from a call's arguments:
 *
 *   kernel(x: pk.View1D[pk.float32], A: pk.View2D[pk.float64, pk.LayoutLeft], n: int)
 *   kernel[2](a: pk.View2D[pk.float64], ny: int)
 *
 * `[R]`: launched with an MDRangePolicy of rank R, so its first R integer
 * parameters are its work indices (a kernel its own file never launches).
 * Types: int (int64), float (float64), bool, pk.<dtype> (int8..uint64,
 * float32, float64, double), pk.View<R>D[pk.<dtype>] with an optional
 * pk.LayoutLeft / pk.LayoutRight, pk.Random_XorShift64_Pool and
 * pk.Random_XorShift1024_Pool. Only parameters without an annotation
 * take the signature's type (an annotation always wins).
 */
#include "fe.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct { const char *name; pki_kind kind; } dtypes[] = {
    {"int8", PKI_I8},     {"int16", PKI_I16},     {"int32", PKI_I32},   {"int64", PKI_I64},
    {"uint8", PKI_U8},    {"uint16", PKI_U16},    {"uint32", PKI_U32},  {"uint64", PKI_U64},
    {"float32", PKI_F32}, {"float64", PKI_F64},   {"double", PKI_F64},  {"bool", PKI_BOOL},
    {"int", PKI_I64},     {"float", PKI_F64}};

typedef struct cursor {
  const char *p, *start;
  pki_arena *a;
} cursor;

static void skip_ws(cursor *c) {
  while (*c->p == ' ' || *c->p == '\t')
    c->p++;
}

static bool eat(cursor *c, const char *tok) {
  skip_ws(c);
  size_t n = strlen(tok);
  if (strncmp(c->p, tok, n))
    return false;
  c->p += n;
  return true;
}

static bool ident_char(unsigned char ch) {
  return isalnum(ch) || ch == '_' || ch >= 0x80; /* Python identifiers are Unicode */
}

/* An identifier (arena copy), NULL if none is at the cursor. */
static const char *ident(cursor *c) {
  skip_ws(c);
  size_t n = 0;
  while (ident_char((unsigned char)c->p[n]))
    n++;
  if (!n || isdigit((unsigned char)c->p[0]))
    return NULL;
  const char *r = pki_strndup(c->a, c->p, n);
  c->p += n;
  return r;
}

static bool dtype(cursor *c, bool pk_prefix_required, pki_kind *out) {
  bool pk = eat(c, "pk.");
  if (!pk && pk_prefix_required)
    return false;
  const char *nm = ident(c);
  for (size_t i = 0; nm && i < sizeof dtypes / sizeof dtypes[0]; i++)
    if (!strcmp(nm, dtypes[i].name)) {
      /* bare int/float/bool are Python's; pk.float is PyKokkos' float32 */
      *out = pk && !strcmp(nm, "float") ? PKI_F32 : pk && !strcmp(nm, "int") ? PKI_I32
                                                                            : dtypes[i].kind;
      return true;
    }
  return false;
}

/* pk.View<R>D[ with 1 <= R <= 8: the rank, else 0 (cursor unmoved). */
static int view_head(cursor *c) {
  skip_ws(c);
  const char *p = c->p;
  if (strncmp(p, "pk.View", 7) || p[7] < '1' || p[7] > '8' || p[8] != 'D')
    return 0;
  p += 9;
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p != '[')
    return 0;
  int rank = c->p[7] - '0';
  c->p = p + 1;
  return rank;
}

static bool type(cursor *c, pki_type *out) {
  int pool = eat(c, "pk.Random_XorShift64_Pool") ? 64 : eat(c, "pk.Random_XorShift1024_Pool") ? 1024 : 0;
  if (pool) { /* a random pool; rank: its generator's state size */
    *out = pki_void_type;
    out->kind = PKI_POOL;
    out->rank = pool;
    return true;
  }
  int rank = view_head(c);
  if (rank) {
    pki_kind k;
    if (!dtype(c, true, &k))
      return false;
    pki_layout lay = PKI_LAYOUT_DEFAULT;
    if (eat(c, ",")) {
      if (eat(c, "pk.LayoutLeft"))
        lay = PKI_LAYOUT_LEFT;
      else if (eat(c, "pk.LayoutRight"))
        lay = PKI_LAYOUT_RIGHT;
      else
        return false;
    }
    if (!eat(c, "]"))
      return false;
    *out = pki_view(k, rank, lay);
    return true;
  }
  const char *save = c->p;
  pki_kind k;
  if (!dtype(c, false, &k)) {
    c->p = save;
    return false;
  }
  *out = pki_scalar(k);
  return true;
}

/* Reports a parse error at the cursor: message in err, 1-based column in *col. */
static bool fail(cursor *c, int *col, char *err, size_t errlen, const char *fmt, const char *arg) {
  skip_ws(c);
  *col = (int)(c->p - c->start) + 1;
  snprintf(err, errlen, fmt, arg ? arg : "");
  return false;
}

bool pkf_spec_parse(pki_arena *a, const char *text, pkf_spec *out, int *col, char *err,
                    size_t errlen) {
  cursor c = {text, text, a};
  memset(out, 0, sizeof *out);
  const char *nm = ident(&c);
  if (nm && eat(&c, "[")) { /* kernel[R]: launched with an MDRangePolicy of rank R */
    skip_ws(&c);
    int r = *c.p - '0';
    if (r < 2 || r > 6 || (c.p++, !eat(&c, "]")))
      return fail(&c, col, err, errlen, "expected 'kernel[R](...)' with R in 2..6%s", NULL);
    out->rank = r;
  }
  if (!nm || !eat(&c, "("))
    return fail(&c, col, err, errlen, "expected 'kernel(name: type, ...)'%s", NULL);
  out->kernel = nm;
  int cap = 8;
  out->names = pki_alloc(a, sizeof *out->names * (size_t)cap);
  out->types = pki_alloc(a, sizeof *out->types * (size_t)cap);
  if (eat(&c, ")"))
    goto end;
  for (;;) {
    pki_type t;
    if (!(nm = ident(&c)) || !eat(&c, ":"))
      return fail(&c, col, err, errlen, "expected 'name: type'%s", NULL);
    if (!type(&c, &t))
      return fail(&c, col, err, errlen,
                  "unknown type for '%s' (int, float, bool, pk.<dtype>, "
                  "pk.View<R>D[pk.<dtype>[, pk.LayoutLeft|pk.LayoutRight]] with R in 1..8)", nm);
    if (out->n == cap) {
      cap *= 2;
      const char **nn = pki_alloc(a, sizeof *nn * (size_t)cap);
      pki_type *nt = pki_alloc(a, sizeof *nt * (size_t)cap);
      memcpy(nn, out->names, sizeof *nn * (size_t)out->n);
      memcpy(nt, out->types, sizeof *nt * (size_t)out->n);
      out->names = nn, out->types = nt;
    }
    out->names[out->n] = nm;
    out->types[out->n++] = t;
    if (eat(&c, ")"))
      break;
    if (!eat(&c, ","))
      return fail(&c, col, err, errlen, "expected ',' or ')'%s", NULL);
  }
end:
  skip_ws(&c);
  if (*c.p)
    return fail(&c, col, err, errlen, "unexpected text after the signature%s", NULL);
  return true;
}

int pkf_sidecar_parse(pki_arena *a, const char *file, const char *text, size_t len,
                      pkf_sidecar_line **out, int *nout, FILE *diag) {
  int errors = 0, n = 0, cap = 0;
  pkf_sidecar_line *v = NULL;
  unsigned line = 0;
  for (size_t at = 0; at < len;) {
    const char *eol = memchr(text + at, '\n', len - at);
    size_t ll = eol ? (size_t)(eol - (text + at)) : len - at;
    line++;
    const char *nul = memchr(text + at, 0, ll);
    char *s = pki_strndup(a, text + at, ll);
    at += ll + 1;
    if (nul) {
      errors++;
      if (diag)
        fprintf(diag, "%s:%u:%zu: error: a NUL byte in the signature line; one signature "
                      "'kernel(name: type, ...)' per line\n", file, line, strlen(s) + 1);
      continue;
    }
    if (ll && s[ll - 1] == '\r')
      s[ll - 1] = 0;
    const char *t = s;
    while (*t == ' ' || *t == '\t')
      t++;
    if (!*t || *t == '#')
      continue;
    pkf_spec spec;
    int col = 0;
    char err[512];
    if (!pkf_spec_parse(a, s, &spec, &col, err, sizeof err)) {
      errors++;
      if (diag)
        fprintf(diag, "%s:%u:%d: error: bad signature: %s; one signature 'kernel(name: type, "
                      "...)' per line (delete the line or the file to drop it)\n",
                file, line, col, err);
      continue;
    }
    v = pki_grow(a, v, n, &cap, sizeof *v);
    v[n++] = (pkf_sidecar_line){line, s, spec};
  }
  *out = v;
  *nout = n;
  return errors;
}

int pkf_sidecar_read(pki_arena *a, const char *path, char **text, size_t *len, char *err,
                     size_t errlen) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      return 0;
    snprintf(err, errlen, "%s:1:1: error: cannot read the recorded signatures: %s", path,
             strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
    close(fd);
    snprintf(err, errlen, "%s:1:1: error: the recorded signatures are not a regular file; "
                          "remove it (a run with PKC_RECORD_SIGNATURES=1 writes it)", path);
    return -1;
  }
  size_t cap = (size_t)st.st_size + 1, n = 0;
  char *buf = pki_alloc(a, cap);
  for (;;) {
    if (n + 1 >= cap) { /* the file grew since fstat */
      char *nb = pki_alloc(a, cap * 2);
      memcpy(nb, buf, n);
      buf = nb, cap *= 2;
    }
    ssize_t r = read(fd, buf + n, cap - n - 1);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      snprintf(err, errlen, "%s:1:1: error: cannot read the recorded signatures: %s", path,
               strerror(errno));
      close(fd);
      return -1;
    }
    if (r == 0)
      break;
    n += (size_t)r;
  }
  close(fd);
  buf[n] = 0;
  *text = buf;
  *len = n;
  return 1;
}

bool pkf_spec_type(const pkf_spec *s, const char *param, pki_type *out) {
  for (int i = 0; s && i < s->n; i++)
    if (!strcmp(s->names[i], param)) {
      *out = s->types[i];
      return true;
    }
  return false;
}
