/*
 * outbuf.c - an indenting string builder for the generated sources, and
 * text made safe inside C++ comments and string literals.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pkb_priv.h"

void pkb_buf_init(pkb_buf *b) { memset(b, 0, sizeof *b); }

void pkb_buf_free(pkb_buf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

static void reserve(pkb_buf *b, size_t more) {
  if (b->len + more + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap < b->len + more + 1)
    cap *= 2;
  char *p = realloc(b->data, cap);
  if (!p) {
    fputs("pkc: out of memory\n", stderr);
    exit(3);
  }
  b->data = p;
  b->cap = cap;
}

static void put_n(pkb_buf *b, const char *s, size_t n) {
  reserve(b, n);
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

void pkb_put(pkb_buf *b, const char *s) { put_n(b, s, strlen(s)); }

/* One vsnprintf pass into the spare room (a second only if it did not fit);
 * formats without conversions, and "%s", are copied directly. */
static void vputf(pkb_buf *b, const char *fmt, va_list ap) {
  const char *pct = strchr(fmt, '%');
  if (!pct || (pct == fmt && fmt[1] == 's' && !fmt[2])) {
    const char *s = pct ? va_arg(ap, const char *) : fmt;
    if (!s)
      s = "(null)"; /* as glibc's printf */
    size_t n = strlen(s);
    if (n)
      put_n(b, s, n);
    return;
  }
  reserve(b, 255);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap2);
  va_end(ap2);
  if (n <= 0) {
    b->data[b->len] = 0;
    return;
  }
  if ((size_t)n >= b->cap - b->len) {
    reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  }
  b->len += (size_t)n;
}

void pkb_putf(pkb_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vputf(b, fmt, ap);
  va_end(ap);
}

static void put_indent(pkb_buf *b) {
  for (int i = 0; i < b->indent; i++)
    put_n(b, "  ", 2);
}

bool pkb_line_past(const pkb_buf *b, size_t column) {
  size_t i = b->len;
  while (i > 0 && b->data[i - 1] != '\n')
    i--;
  return b->len - i > column;
}

void pkb_wrap(pkb_buf *b) {
  pkb_put(b, "\n");
  b->indent += 2;
  put_indent(b);
  b->indent -= 2;
}

void pkb_begin(pkb_buf *b, const char *fmt, ...) {
  put_indent(b);
  va_list ap;
  va_start(ap, fmt);
  vputf(b, fmt, ap);
  va_end(ap);
}

void pkb_line(pkb_buf *b, const char *fmt, ...) {
  if (fmt[0])
    put_indent(b);
  va_list ap;
  va_start(ap, fmt);
  vputf(b, fmt, ap);
  va_end(ap);
  put_n(b, "\n", 1);
}

void pkb_nl(pkb_buf *b) { put_n(b, "\n", 1); }

void pkb_put_cstr(pkb_buf *b, const char *s) {
  put_n(b, "\"", 1);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"': pkb_put(b, "\\\""); break;
    case '\\': pkb_put(b, "\\\\"); break;
    case '\n': pkb_put(b, "\\n"); break;
    case '\t': pkb_put(b, "\\t"); break;
    case '\r': pkb_put(b, "\\r"); break;
    case '?': pkb_put(b, "\\?"); break; /* no trigraphs */
    default:
      if (*p < 0x20 || *p == 0x7f)
        pkb_putf(b, "\\%03o", *p);
      else
        put_n(b, (const char *)p, 1);
    }
  }
  put_n(b, "\"", 1);
}

const char *pkb_comment_text(pki_arena *a, const char *s) {
  if (!strpbrk(s, "\n\r*\\"))
    return s;
  size_t n = strlen(s);
  char *o = pki_alloc(a, n + 1);
  for (size_t i = 0; i <= n; i++) {
    bool ends = s[i] == '*' && s[i + 1] == '/'; /* no "*\/" in a block comment */
    o[i] = s[i] == '\n' || s[i] == '\r' || s[i] == '\\' || ends ? '?' : s[i];
  }
  return o;
}
