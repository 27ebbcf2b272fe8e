/*
 * strings.c - string literals in kernels (pk.printf formats, assert
 * messages): Python's escapes decoded to UTF-8, and a NUL character in a
 * printf format passed as a '%c' argument (C's printf would end the format
 * there).
 */
#include "fe.h"

#include <stdlib.h>

static int hexval(char ch) {
  return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
         : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

static void put_utf8(char *buf, size_t *len, unsigned cp) {
  unsigned char *o = (unsigned char *)buf + *len;
  int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  if (n == 1)
    o[0] = (unsigned char)cp;
  else {
    for (int i = n - 1; i > 0; i--, cp >>= 6)
      o[i] = (unsigned char)(0x80 | (cp & 0x3F));
    o[0] = (unsigned char)((0xF00 >> n) | cp); /* 0xC0, 0xE0, 0xF0 lead bytes */
  }
  *len += (size_t)n;
}

/* The span of the source bytes [p, q) inside literal str. */
static pki_span span_at(pkf_ctx *c, TSNode str, const char *p, const char *q) {
  pki_span s = pkf_span(str);
  for (const char *x = c->src + s.start_byte; x < p; x++) {
    if (*x == '\n')
      s.line++, s.col = 1;
    else
      s.col++;
  }
  s.start_byte = (uint32_t)(p - c->src);
  s.end_byte = (uint32_t)(q - c->src);
  s.end_line = s.line;
  s.end_col = s.col + (uint32_t)(q - p);
  return s;
}

/* n hex digits at p (exactly; *ok false if fewer). */
static unsigned hex_n(const char *p, const char *e, int n, bool *ok) {
  unsigned v = 0;
  for (int k = 0; k < n; k++) {
    if (p + k >= e || hexval(p[k]) < 0) {
      *ok = false;
      return 0;
    }
    v = v * 16 + (unsigned)hexval(p[k]);
  }
  *ok = true;
  return v;
}

/* One escape at p (just after the backslash, p < e): decoded into buf;
 * returns the position after it, NULL after reporting an escape that cannot
 * be translated. */
static const char *escape(pkf_ctx *c, TSNode str, const char *p, const char *e, char *buf,
                          size_t *len) {
  static const char simple[] = "n\nt\tr\ra\ab\bf\fv\v\\\\''\"\"";
  char x = *p++;
  for (const char *s = simple; *s; s += 2)
    if (x == s[0]) {
      buf[(*len)++] = s[1];
      return p;
    }
  if (x == '\n')
    return p; /* line continuation */
  if (x == '\r')
    return p < e && *p == '\n' ? p + 1 : p;
  int n = x == 'x' ? 2 : x == 'u' ? 4 : x == 'U' ? 8 : 0;
  unsigned cp = 0;
  if (n) {
    bool ok;
    cp = hex_n(p, e, n, &ok);
    if (!ok) {
      pki_error(c->d, span_at(c, str, p - 2, p), "bad-escape",
                "truncated \\%c escape: Python needs exactly %d hex digits after it", x, n);
      return NULL;
    }
    if (cp > 0x10FFFF) {
      pki_error(c->d, span_at(c, str, p - 2, p + n), "bad-escape",
                "\\%c%.*s is not a Unicode code point (the largest is \\U0010FFFF)", x, n,
                p);
      return NULL;
    }
    p += n;
  } else if (x >= '0' && x <= '7') {
    cp = (unsigned)(x - '0');
    for (int k = 0; k < 2 && p < e && *p >= '0' && *p <= '7'; k++)
      cp = cp * 8 + (unsigned)(*p++ - '0');
  } else if (x == 'N') {
    const char *q = p;
    while (q < e && *q != '}')
      q++;
    pki_error(c->d, span_at(c, str, p - 2, q < e ? q + 1 : e), "bad-escape",
              "\\N{...} (a character by name) is not supported in kernel strings; write the "
              "character itself or its \\uXXXX escape");
    return NULL;
  } else {
    buf[(*len)++] = '\\'; /* not an escape: Python keeps the backslash */
    buf[(*len)++] = x;
    return p;
  }
  if (cp >= 0xD800 && cp <= 0xDFFF) {
    pki_error(c->d, span_at(c, str, p - n - 2, p), "bad-escape",
              "a lone surrogate (U+%04X) cannot be printed (Python raises "
              "UnicodeEncodeError); write the character itself", cp);
    return NULL;
  }
  put_utf8(buf, len, cp);
  return p;
}

/* Appends the text of one string literal to buf; false (reported) on an
 * f-string, bytes or an escape that cannot be translated. */
static bool piece(pkf_ctx *c, TSNode str, const char *what, char *buf, size_t *len) {
  pkf_nodes all = pkf_all_children(c, str);
  if (all.n < 2) {
    pki_error(c->d, pkf_span(str), "bad-string", "malformed string literal");
    return false;
  }
  TSNode start = all.v[0], end = all.v[all.n - 1];
  bool raw = false;
  for (const char *p = pkf_text(c, start); *p && *p != '\'' && *p != '"'; p++) {
    if (*p == 'f' || *p == 'F' || *p == 'b' || *p == 'B') {
      pki_error(c->d, pkf_span(str), "bad-string",
                "f-strings and bytes are not supported as %s; use a plain string "
                "with %%d/%%f conversions", what);
      return false;
    }
    raw |= *p == 'r' || *p == 'R';
  }
  const char *p = c->src + ts_node_end_byte(start), *e = c->src + ts_node_start_byte(end);
  while (p < e) {
    if (*p != '\\' || raw || p + 1 >= e) {
      if (raw && *p == '\\' && p + 1 < e) /* r'\'' keeps both characters */
        buf[(*len)++] = *p++;
      buf[(*len)++] = *p++;
      continue;
    }
    if (!(p = escape(c, str, p + 1, e, buf, len)))
      return false;
  }
  return true;
}

char *pkf_string_text(pkf_ctx *c, TSNode n, const char *what, size_t *len) {
  *len = 0;
  char *buf = pki_alloc(c->m->arena, ts_node_end_byte(n) - ts_node_start_byte(n) + 1);
  bool ok = true;
  if (pkf_type_is(c, n, PKF_N_STRING)) {
    ok = piece(c, n, what, buf, len);
  } else if (pkf_type_is(c, n, PKF_N_CONCATENATED_STRING)) {
    pkf_nodes parts = pkf_children(c, n);
    for (uint32_t i = 0; ok && i < parts.n; i++)
      ok = piece(c, parts.v[i], what, buf, len);
  } else {
    return NULL;
  }
  buf[*len] = 0;
  return ok ? buf : NULL;
}

/* Argument slots the printf conversions of fmt[0, n) take ('*' counts). */
static int slots_before(const char *fmt, size_t n) {
  int k = 0;
  for (size_t i = 0; i < n; i++) {
    if (fmt[i] != '%')
      continue;
    if (++i < n && fmt[i] == '%')
      continue;
    while (i < n && !strchr("diouxXeEfFgGaAcspn", fmt[i]) && fmt[i]) {
      k += fmt[i] == '*';
      i++;
    }
    k++;
  }
  return k;
}

bool pkf_printf_nuls(pkf_ctx *c, pki_stmt *s, size_t len) {
  const char *fmt = s->args[0]->str;
  int nuls = 0;
  for (size_t i = 0; i < len; i++)
    nuls += !fmt[i];
  if (!nuls)
    return true;
  char *out = pki_alloc(c->m->arena, len + (size_t)nuls + 1);
  pki_expr **args = pki_alloc(c->m->arena, sizeof *args * (size_t)(s->nargs + nuls));
  args[0] = s->args[0];
  int na = 1, from = 1; /* next argument of s to copy */
  size_t o = 0;
  for (size_t i = 0; i < len; i++) {
    if (fmt[i]) {
      out[o++] = fmt[i];
      continue;
    }
    int want = 1 + slots_before(out, o);
    /* copy the user's arguments the conversions before this NUL take */
    while (na < want && from < s->nargs)
      args[na++] = s->args[from++];
    pki_expr *zero = pki_new_expr(c->m, PKI_E_INT, s->args[0]->span);
    zero->ival = 0;
    args[na++] = zero;
    out[o++] = '%';
    out[o++] = 'c';
  }
  while (from < s->nargs)
    args[na++] = s->args[from++];
  out[o] = 0;
  s->args[0]->str = out;
  s->args = args;
  s->nargs = na;
  return true;
}
