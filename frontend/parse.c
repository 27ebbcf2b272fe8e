/*
 * parse.c - tree-sitter helpers: node spans and text, children without
 * comments, syntax errors, and reading files.
 */
#include "fe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int pkf_read_file(const char *path, char **out, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap) {
      char *nb = realloc(buf, cap * 2 + 1);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf || bad) {
    free(buf);
    errno = buf ? EIO : ENOMEM;
    return -1;
  }
  buf[n] = 0;
  *out = buf;
  *len = n;
  return 0;
}

pki_span pkf_span(TSNode n) { return pkf_span2(n, n); }

pki_span pkf_span2(TSNode a, TSNode b) {
  TSPoint s = ts_node_start_point(a), e = ts_node_end_point(b);
  return (pki_span){.line = s.row + 1, .col = s.column + 1,
                    .end_line = e.row + 1, .end_col = e.column + 1,
                    .start_byte = ts_node_start_byte(a),
                    .end_byte = ts_node_end_byte(b)};
}

const char *pkf_text(pkf_ctx *c, TSNode n) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return pki_strndup(c->m->arena, c->src + s, e - s);
}

bool pkf_is(pkf_ctx *c, TSNode n, const char *text) {
  if (ts_node_is_null(n))
    return false;
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  size_t len = strlen(text);
  return e - s == len && memcmp(c->src + s, text, len) == 0;
}

bool pkf_type_is(TSNode n, const char *type) {
  return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

/* Field id of name: binary search (tree-sitter emits field names sorted),
 * falling back to tree-sitter's linear lookup; 0 if none. */
static TSFieldId field_id(const TSLanguage *l, const char *name) {
  uint32_t lo = 1, hi = ts_language_field_count(l) + 1;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    const char *f = ts_language_field_name_for_id(l, (TSFieldId)mid);
    int d = f ? strcmp(name, f) : -1;
    if (d == 0)
      return (TSFieldId)mid;
    if (d < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return ts_language_field_id_for_name(l, name, (uint32_t)strlen(name));
}

TSNode pkf_field(TSNode n, const char *field) {
  if (ts_node_is_null(n))
    return n;
  return ts_node_child_by_field_id(n, field_id(ts_tree_language(n.tree), field));
}

static pkf_nodes children(pkf_ctx *c, TSNode n, bool named_only) {
  pkf_nodes r = {0};
  uint32_t max = named_only ? ts_node_named_child_count(n) : ts_node_child_count(n);
  if (max == 0)
    return r;
  r.v = pki_alloc(c->m->arena, sizeof(TSNode) * max);
  if (!c->has_cursor) {
    c->cursor = ts_tree_cursor_new(n);
    c->has_cursor = true;
  } else {
    ts_tree_cursor_reset(&c->cursor, n);
  }
  TSTreeCursor *cur = &c->cursor;
  if (ts_tree_cursor_goto_first_child(cur)) {
    do {
      TSNode ch = ts_tree_cursor_current_node(cur);
      if (ts_node_is_extra(ch) || (named_only && !ts_node_is_named(ch)))
        continue;
      if (r.n < max)
        r.v[r.n++] = ch;
    } while (ts_tree_cursor_goto_next_sibling(cur));
  }
  return r;
}

pkf_nodes pkf_children(pkf_ctx *c, TSNode n) { return children(c, n, true); }
pkf_nodes pkf_all_children(pkf_ctx *c, TSNode n) { return children(c, n, false); }

enum { MAX_SYNTAX_ERRORS = 20 };

enum { MAX_DEPTH = 64 };

/* Tracks brackets over the leaves under n. */
static void brackets(TSNode n, TSNode *stack, int *depth) {
  uint32_t k = ts_node_child_count(n);
  if (k == 0) {
    const char *t = ts_node_type(n);
    if ((!strcmp(t, "(") || !strcmp(t, "[") || !strcmp(t, "{")) && *depth < MAX_DEPTH)
      stack[(*depth)++] = n;
    else if ((!strcmp(t, ")") || !strcmp(t, "]") || !strcmp(t, "}")) && *depth > 0)
      (*depth)--;
    return;
  }
  TSTreeCursor cur = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&cur)) {
    do
      brackets(ts_tree_cursor_current_node(&cur), stack, depth);
    while (ts_tree_cursor_goto_next_sibling(&cur));
  }
  ts_tree_cursor_delete(&cur);
}

/* An ERROR node that contains an opening bracket never closed: *open. */
static bool unclosed_bracket(TSNode err, TSNode *open) {
  TSNode stack[MAX_DEPTH];
  int depth = 0;
  brackets(err, stack, &depth);
  if (depth == 0)
    return false;
  *open = stack[0];
  return true;
}

static void syntax_walk(pkf_ctx *c, TSNode n, int *count) {
  if (*count >= MAX_SYNTAX_ERRORS || !ts_node_has_error(n))
    return;
  if (ts_node_is_missing(n)) {
    pki_error(c->d, pkf_span(n), "syntax-error", "syntax error: missing '%s'",
              ts_node_type(n));
    (*count)++;
    return;
  }
  if (strcmp(ts_node_type(n), "ERROR") == 0) {
    TSNode open;
    if (unclosed_bracket(n, &open)) {
      pki_error(c->d, pkf_span(open), "syntax-error", "syntax error: '%s' was never closed",
                ts_node_type(open));
      (*count)++;
      return;
    }
    pki_span sp = pkf_span(n);
    if (sp.end_line > sp.line) { /* point at the first line only */
      sp.end_line = sp.line;
      sp.end_col = sp.col + 1;
    }
    pki_error(c->d, sp, "syntax-error", "syntax error");
    (*count)++;
    return;
  }
  TSTreeCursor cur = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&cur)) {
    do
      syntax_walk(c, ts_tree_cursor_current_node(&cur), count);
    while (ts_tree_cursor_goto_next_sibling(&cur));
  }
  ts_tree_cursor_delete(&cur);
}

int pkf_syntax_errors(pkf_ctx *c, TSNode root) {
  int count = 0;
  syntax_walk(c, root, &count);
  return count;
}
