/*
 * parse.c - tree-sitter helpers: node spans and text, children without
 * comments, syntax errors, reading files, the parameters of a def and the
 * module-level def of a name.
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
  if (s == e || c->src[s] != text[0]) /* most calls differ at the first byte */
    return s == e && !text[0];
  size_t len = strlen(text);
  return e - s == len && memcmp(c->src + s, text, len) == 0;
}

static const char *const type_names[PKF_N_COUNT] = {
#define PKF_X(id, name) [PKF_N_##id] = name,
    PKF_NODE_TYPES(PKF_X)
#undef PKF_X
};

static const char *const field_names[PKF_F_COUNT] = {
#define PKF_X(id, name) [PKF_F_##id] = name,
    PKF_FIELDS(PKF_X)
#undef PKF_X
};

_Static_assert(PKF_N_COUNT <= UINT8_MAX, "pkf_grammar.type holds a pkf_ntype in a byte");

/* The entry named name, or PKF_N_OTHER (a linear scan: run once per symbol). */
static pkf_ntype type_named(const char *name) {
  for (int t = PKF_N_ERROR + 1; t < PKF_N_COUNT; t++)
    if (type_names[t][0] == name[0] && !strcmp(type_names[t], name))
      return (pkf_ntype)t;
  return PKF_N_OTHER;
}

void pkf_grammar_init(pkf_ctx *c, const TSLanguage *l) {
  uint32_t n = ts_language_symbol_count(l);
  c->g.nsym = n;
  c->g.type = pki_alloc(c->m->arena, n ? n : 1);
  c->g.statement = pki_alloc(c->m->arena, sizeof *c->g.statement * (n ? n : 1));
  for (uint32_t s = 0; s < n; s++) {
    const char *name = ts_language_symbol_name(l, (TSSymbol)s);
    c->g.type[s] = (uint8_t)(name ? type_named(name) : PKF_N_OTHER);
    c->g.statement[s] = name && (strstr(name, "statement") || strstr(name, "clause"));
  }
  for (int f = 0; f < PKF_F_COUNT; f++)
    c->g.field[f] =
        ts_language_field_id_for_name(l, field_names[f], (uint32_t)strlen(field_names[f]));
}

bool pkf_statement_like(const pkf_ctx *c, TSNode n) {
  if (ts_node_is_null(n))
    return false;
  TSSymbol s = ts_node_symbol(n);
  return s < c->g.nsym && c->g.statement[s];
}

TSNode pkf_enclosing_def(pkf_ctx *c, TSNode n) {
  for (TSNode p = pkf_parent(c, n); !ts_node_is_null(p); p = pkf_parent(c, p))
    if (pkf_type_is(c, p, PKF_N_FUNCTION_DEFINITION))
      return p;
  return (TSNode){0};
}

enum { MAX_SYNTAX_ERRORS = 20 };

enum { MAX_DEPTH = 64 };

/* Tracks brackets over the leaves under n. */
static void brackets(const pkf_ctx *c, TSNode n, TSNode *stack, int *depth) {
  uint32_t k = ts_node_child_count(n);
  if (k == 0) {
    pkf_ntype t = pkf_ntype_of(c, n);
    if ((t == PKF_N_LPAREN || t == PKF_N_LBRACKET || t == PKF_N_LBRACE) && *depth < MAX_DEPTH)
      stack[(*depth)++] = n;
    else if ((t == PKF_N_RPAREN || t == PKF_N_RBRACKET || t == PKF_N_RBRACE) && *depth > 0)
      (*depth)--;
    return;
  }
  TSTreeCursor cur = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&cur)) {
    do
      brackets(c, ts_tree_cursor_current_node(&cur), stack, depth);
    while (ts_tree_cursor_goto_next_sibling(&cur));
  }
  ts_tree_cursor_delete(&cur);
}

/* An ERROR node that contains an opening bracket never closed: *open. */
static bool unclosed_bracket(const pkf_ctx *c, TSNode err, TSNode *open) {
  TSNode stack[MAX_DEPTH];
  int depth = 0;
  brackets(c, err, stack, &depth);
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
  if (pkf_type_is(c, n, PKF_N_ERROR)) {
    TSNode open;
    if (unclosed_bracket(c, n, &open)) {
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

/* ------------------------------------------------------------ definitions */

static void bad_param(pkf_ctx *c, TSNode p, bool report, const char *msg) {
  if (report)
    pki_error(c->d, pkf_span(p), "unsupported-parameter", "%s", msg);
}

int pkf_params(pkf_ctx *c, TSNode def, bool report, pkf_param **out) {
  static const char *const splat = "*args and **kwargs are not supported in kernels; list the "
                                   "parameters";
  pkf_nodes ns = pkf_children(c, pkf_field(c, def, PKF_F_PARAMETERS));
  pkf_param *ps = pki_alloc(c->m->arena, sizeof *ps * (ns.n + 1));
  int n = 0;
  for (uint32_t i = 0; i < ns.n; i++) {
    TSNode p = ns.v[i];
    pkf_ntype t = pkf_ntype_of(c, p);
    pkf_param q = {.node = p};
    if (t == PKF_N_IDENTIFIER) {
      q.name = p;
    } else if (t == PKF_N_TYPED_PARAMETER) {
      q.name = pkf_named_child(c, p, 0);
      q.ann = pkf_field(c, p, PKF_F_TYPE);
      if (!pkf_type_is(c, q.name, PKF_N_IDENTIFIER)) {
        bad_param(c, p, report, splat);
        continue;
      }
    } else if (t == PKF_N_DEFAULT_PARAMETER || t == PKF_N_TYPED_DEFAULT_PARAMETER) {
      bad_param(c, p, report,
                "default values are not supported for kernel parameters; remove '= ...'");
      q.name = pkf_field(c, p, PKF_F_NAME);
      q.ann = pkf_field(c, p, PKF_F_TYPE);
      if (!pkf_type_is(c, q.name, PKF_N_IDENTIFIER))
        continue;
    } else if (t == PKF_N_LIST_SPLAT_PATTERN || t == PKF_N_DICTIONARY_SPLAT_PATTERN) {
      bad_param(c, p, report, splat);
      continue;
    } else {
      continue; /* '*' or '/' separators */
    }
    ps[n++] = q;
  }
  *out = ps;
  return n;
}

TSNode pkf_plain_top_def(pkf_ctx *c, TSNode name) {
  pkf_nodes top = pkf_children(c, c->root);
  for (uint32_t i = 0; i < top.n; i++)
    if (pkf_type_is(c, top.v[i], PKF_N_FUNCTION_DEFINITION) &&
        pkf_is(c, pkf_field(c, top.v[i], PKF_F_NAME), pkf_text(c, name)))
      return top.v[i];
  return (TSNode){0};
}
