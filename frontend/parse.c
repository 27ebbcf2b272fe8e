/*
 * parse.c - tree-sitter helpers: node spans and text, children without
 * comments, syntax errors, reading files, the parameters of a def and the
 * module-level def of a name.
 */
#include "fe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int pkf_read_file(const char *path, char **out, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    errno = EISDIR; /* fopen opens a directory; reading it fails with EIO */
    return -1;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  bool big = false;
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n > PKF_MAX_SOURCE_BYTES) { /* /dev/zero, a runaway generated file */
      big = true;
      break;
    }
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
  if (!buf || bad || big) {
    free(buf);
    errno = big ? EFBIG : buf ? EIO : ENOMEM;
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

/* ------------------------------------------------------------ indentation */

/* Python's indentation rules, which tree-sitter's scanner does not enforce:
 * it recovers from a dedent that matches no outer level, an unexpected
 * indent or a header without a body with no ERROR node, and the statement
 * then lands in another block (or at the top level) where Python stops with
 * IndentationError. A line's indentation is the whitespace before its first
 * statement; a block's must extend its header's (the same bytes, then more:
 * mixing tabs and spaces otherwise is a TabError), every statement of a block
 * that starts a line has the block's, elif/else/except/finally clauses their
 * statement's, and the top level none. */
typedef struct indent {
  uint32_t from, len; /* the whitespace's bytes in the source */
} indent;

/* n's indentation, if n is the first thing on its line. */
static bool indent_of(const pkf_ctx *c, TSNode n, indent *out) {
  uint32_t b = ts_node_start_byte(n), s = b;
  while (s > 0 && c->src[s - 1] != '\n')
    s--;
  for (uint32_t i = s; i < b; i++)
    if (c->src[i] != ' ' && c->src[i] != '\t' && c->src[i] != '\f')
      return false;
  *out = (indent){s, b - s};
  return true;
}

static bool same_indent(const pkf_ctx *c, indent a, indent b) {
  return a.len == b.len && memcmp(c->src + a.from, c->src + b.from, a.len) == 0;
}

/* b is a's indentation and more. */
static bool extends(const pkf_ctx *c, indent a, indent b) {
  return b.len > a.len && memcmp(c->src + a.from, c->src + b.from, a.len) == 0;
}

static void indent_error(pkf_ctx *c, TSNode n, int *count, const char *msg) {
  if (*count >= MAX_SYNTAX_ERRORS)
    return;
  pki_span sp = pkf_span(n);
  sp.end_line = sp.line; /* the first line only */
  sp.end_col = sp.col + 1;
  pki_error(c->d, sp, "syntax-error", "indentation error: %s (Python stops here with "
            "IndentationError)", msg);
  (*count)++;
}

static void indent_walk(pkf_ctx *c, TSNode n, indent own, int *count);

/* The statements of block (or the module: top) under a header indented by head. */
static void indent_block(pkf_ctx *c, TSNode block, TSNode header, indent head, bool top,
                         int *count) {
  uint32_t k = ts_node_named_child_count(block);
  indent first = {0}, at;
  bool have = top, any = false;
  uint32_t header_row = ts_node_start_point(header).row;
  for (uint32_t i = 0; i < k && *count < MAX_SYNTAX_ERRORS; i++) {
    TSNode st = ts_node_named_child(block, i);
    if (ts_node_is_extra(st))
      continue; /* comments may sit anywhere */
    any = true;
    if (!indent_of(c, st, &at)) { /* `if x: y = 1` or `a = 1; b = 2` */
      indent_walk(c, st, head, count);
      continue;
    }
    if (!have) {
      if (!top && !extends(c, head, at) &&
          ts_node_start_point(st).row != header_row) {
        indent_error(c, st, count, pki_sprintf(c->m->arena, "the body of the statement at "
                     "line %u must be indented more than it",
                     (unsigned)ts_node_start_point(header).row + 1));
        continue;
      }
      first = at;
      have = true;
    } else if (!same_indent(c, first, at)) {
      indent_error(c, st, count, top ? "unexpected indent (top-level statements start at "
                                       "column 1)"
                                     : "this line's indentation matches neither the "
                                       "statements before it in its block nor an outer "
                                       "block (tabs and spaces must be used alike)");
      continue;
    }
    indent_walk(c, st, at, count);
  }
  if (!any && !top)
    indent_error(c, header, count, "expected an indented block after this line");
}

/* The blocks and clauses of statement n, which is indented by own. */
static void indent_walk(pkf_ctx *c, TSNode n, indent own, int *count) {
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k && *count < MAX_SYNTAX_ERRORS; i++) {
    TSNode ch = ts_node_named_child(n, i);
    pkf_ntype t = pkf_ntype_of(c, ch);
    indent at;
    if (t == PKF_N_BLOCK) {
      indent_block(c, ch, n, own, false, count);
    } else if (t == PKF_N_ELIF_CLAUSE || t == PKF_N_ELSE_CLAUSE ||
               !strcmp(ts_node_type(ch), "except_clause") ||
               !strcmp(ts_node_type(ch), "finally_clause")) {
      if (indent_of(c, ch, &at) && !same_indent(c, own, at))
        indent_error(c, ch, count, "this clause must line up with the statement it "
                                   "belongs to");
      indent_walk(c, ch, own, count);
    } else if (t == PKF_N_FUNCTION_DEFINITION || t == PKF_N_CLASS_DEFINITION ||
               t == PKF_N_DECORATED_DEFINITION) {
      indent_walk(c, ch, indent_of(c, ch, &at) ? at : own, count);
    }
  }
}

int pkf_syntax_errors(pkf_ctx *c, TSNode root) {
  int count = 0;
  syntax_walk(c, root, &count);
  if (count == 0)
    indent_block(c, root, root, (indent){0}, true, &count);
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
      q.name = pkf_field(c, p, PKF_F_NAME);
      q.ann = pkf_field(c, p, PKF_F_TYPE);
      q.dflt = pkf_field(c, p, PKF_F_VALUE);
      if (!pkf_type_is(c, q.name, PKF_N_IDENTIFIER))
        continue;
    } else if (t == PKF_N_LIST_SPLAT_PATTERN || t == PKF_N_DICTIONARY_SPLAT_PATTERN) {
      bad_param(c, p, report, splat);
      continue;
    } else {
      continue; /* '*' or '/' separators */
    }
    bool dup = false;
    for (int k = 0; k < n && !dup; k++)
      dup = !strcmp(pkf_text(c, ps[k].name), pkf_text(c, q.name));
    if (dup) {
      if (report)
        pki_error(c->d, pkf_span(q.name), "syntax-error",
                  "duplicate parameter '%s' (Python: SyntaxError: duplicate argument); "
                  "rename one", pkf_text(c, q.name));
      continue;
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
