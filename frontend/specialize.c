/*
 * specialize.c - run-time specialization signatures (`pkc build --specialize`).
 *
 * A signature names a FunctionSty workunit and gives a type to its
 * parameters, the way the shim derives them from a call's arguments:
 *
 *   kernel(x: pk.View1D[pk.float32], A: pk.View2D[pk.float64, pk.LayoutLeft], n: int)
 *
 * Types: int (int64), float (float64), bool, pk.<dtype> (int8..uint64,
 * float32, float64, double), pk.View<R>D[pk.<dtype>] with an optional
 * pk.LayoutLeft / pk.LayoutRight. Only parameters without an annotation
 * take the signature's type (an annotation always wins).
 */
#include "fe.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

static const struct { const char *name; pki_kind kind; } dtypes[] = {
    {"int8", PKI_I8},     {"int16", PKI_I16},     {"int32", PKI_I32},   {"int64", PKI_I64},
    {"uint8", PKI_U8},    {"uint16", PKI_U16},    {"uint32", PKI_U32},  {"uint64", PKI_U64},
    {"float32", PKI_F32}, {"float64", PKI_F64},   {"double", PKI_F64},  {"bool", PKI_BOOL},
    {"int", PKI_I64},     {"float", PKI_F64}};

typedef struct cursor {
  const char *p;
} cursor;

static void skip_ws(cursor *c) {
  while (isspace((unsigned char)*c->p))
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

/* An identifier (or dotted tail) into buf. */
static bool ident(cursor *c, char *buf, size_t len) {
  skip_ws(c);
  size_t n = 0;
  while ((isalnum((unsigned char)c->p[n]) || c->p[n] == '_') && n + 1 < len)
    n++;
  if (!n || isdigit((unsigned char)c->p[0]))
    return false;
  memcpy(buf, c->p, n);
  buf[n] = 0;
  c->p += n;
  return true;
}

static bool dtype(cursor *c, bool pk_prefix_required, pki_kind *out) {
  char nm[32];
  bool pk = eat(c, "pk.");
  if (!pk && pk_prefix_required)
    return false;
  if (!ident(c, nm, sizeof nm))
    return false;
  for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
    if (!strcmp(nm, dtypes[i].name)) {
      /* bare int/float/bool are Python's; pk.float is PyKokkos' float32 */
      *out = pk && !strcmp(nm, "float") ? PKI_F32 : pk && !strcmp(nm, "int") ? PKI_I32
                                                                            : dtypes[i].kind;
      return true;
    }
  return false;
}

static bool type(cursor *c, pki_type *out) {
  const char *save = c->p;
  int rank = 0;
  skip_ws(c);
  if (sscanf(c->p, "pk.View%dD[", &rank) == 1 && rank >= 1 && rank <= 8) {
    c->p = strchr(c->p, '[') + 1;
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
  c->p = save;
  pki_kind k;
  if (!dtype(c, false, &k))
    return false;
  *out = pki_scalar(k);
  return true;
}

bool pkf_spec_parse(pki_arena *a, const char *text, pkf_spec *out, char *err, size_t errlen) {
  cursor c = {text};
  char nm[256];
  memset(out, 0, sizeof *out);
  if (!ident(&c, nm, sizeof nm) || !eat(&c, "(")) {
    snprintf(err, errlen, "expected 'kernel(name: type, ...)'");
    return false;
  }
  out->kernel = pki_strdup(a, nm);
  int cap = 8;
  out->names = pki_alloc(a, sizeof *out->names * (size_t)cap);
  out->types = pki_alloc(a, sizeof *out->types * (size_t)cap);
  if (eat(&c, ")"))
    goto end;
  for (;;) {
    pki_type t;
    if (!ident(&c, nm, sizeof nm) || !eat(&c, ":")) {
      snprintf(err, errlen, "expected 'name: type' at '%.20s'", c.p);
      return false;
    }
    if (!type(&c, &t)) {
      snprintf(err, errlen, "unknown type for '%s' at '%.30s' (int, float, bool, pk.<dtype>, "
                            "pk.View<R>D[pk.<dtype>[, pk.LayoutLeft|pk.LayoutRight]])", nm, c.p);
      return false;
    }
    if (out->n == cap) {
      cap *= 2;
      const char **nn = pki_alloc(a, sizeof *nn * (size_t)cap);
      pki_type *nt = pki_alloc(a, sizeof *nt * (size_t)cap);
      memcpy(nn, out->names, sizeof *nn * (size_t)out->n);
      memcpy(nt, out->types, sizeof *nt * (size_t)out->n);
      out->names = nn, out->types = nt;
    }
    out->names[out->n] = pki_strdup(a, nm);
    out->types[out->n++] = t;
    if (eat(&c, ")"))
      break;
    if (!eat(&c, ",")) {
      snprintf(err, errlen, "expected ',' or ')' at '%.20s'", c.p);
      return false;
    }
  }
end:
  skip_ws(&c);
  if (*c.p) {
    snprintf(err, errlen, "unexpected text after the signature: '%.20s'", c.p);
    return false;
  }
  return true;
}

bool pkf_spec_type(const pkf_spec *s, const char *param, pki_type *out) {
  for (int i = 0; s && i < s->n; i++)
    if (!strcmp(s->names[i], param)) {
      *out = s->types[i];
      return true;
    }
  return false;
}
