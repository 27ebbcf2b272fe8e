/*
 * translate.c - the frontend's entry points: pkf_lower (parse, collect
 * entities, lower bodies) and pkf_translate (read + lower + pki_check).
 */
#include "fe.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

/* Nesting limits: syntax-tree depth (the lowering, checker and emitter
 * recurse over it) and bracket depth (clang's default limit is 256, and the
 * emitter adds casts and parentheses of its own). */
enum { MAX_TREE_DEPTH = 1000, MAX_BRACKET_DEPTH = 100 };

/* Walks the tree without recursion; reports the first node (in document
 * order) nested deeper than the limits, before anything recursive sees the
 * tree. True if none is. pkf_tree_build measures the nesting first: this
 * runs only when it found a node too deep. */
static bool nesting_ok(pkf_ctx *c, TSNode root) {
  TSTreeCursor cur = ts_tree_cursor_new(root);
  int depth = 0, br = 0;
  bool ok = true;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (depth > MAX_TREE_DEPTH || br > MAX_BRACKET_DEPTH) {
      pki_error(c->d, pkf_span(n), "too-deep",
                "this expression is nested too deeply (more than %d %s); split it into "
                "several statements", br > MAX_BRACKET_DEPTH ? MAX_BRACKET_DEPTH : MAX_TREE_DEPTH,
                br > MAX_BRACKET_DEPTH ? "nested brackets" : "levels");
      ok = false;
      break;
    }
    if (ts_tree_cursor_goto_first_child(&cur)) {
      depth++;
      br += pkf_opens_bracket(pkf_ntype_of(c, ts_tree_cursor_current_node(&cur)));
      continue;
    }
    for (;;) {
      br -= pkf_opens_bracket(pkf_ntype_of(c, ts_tree_cursor_current_node(&cur)));
      if (ts_tree_cursor_goto_next_sibling(&cur)) {
        br += pkf_opens_bracket(pkf_ntype_of(c, ts_tree_cursor_current_node(&cur)));
        break;
      }
      if (!ts_tree_cursor_goto_parent(&cur))
        goto done;
      depth--;
    }
  }
done:
  ts_tree_cursor_delete(&cur);
  return ok;
}

/* A file between the passes of the frontend: its module, the tree-sitter
 * parse and the lowering context (pkf_parse .. pkf_parsed_finish). */
struct pkf_parsed {
  pkf_ctx c;
  TSParser *parser;
  TSTree *tree;
  TSNode root;
  bool ok; /* parsed without syntax errors, not nested too deeply */
};

pkf_parsed *pkf_parse(const char *path, const char *source, size_t len, const pkf_options *o,
                      pki_diags *d) {
  pki_module *m = pki_module_new(path, NULL, source, len);
  if (!d->arena)
    pki_diags_init(d, m->arena, m->path, m->source, len);
  else if (!d->source)
    d->source = m->source, d->source_len = len;
  pkf_parsed *ps = calloc(1, sizeof *ps);
  ps->c = (pkf_ctx){.m = m, .d = d, .src = m->source, .real = o ? o->real : PKI_VOID,
                    .strict_types = o && o->strict_types, .spec = o ? o->spec : NULL};
  if (len > UINT32_MAX / 2) {
    pki_error(d, (pki_span){1, 1, 1, 1, 0, 0}, "too-large", "file is too large");
    return ps;
  }
  ps->parser = ts_parser_new();
  ts_parser_set_language(ps->parser, tree_sitter_python());
  pkf_grammar_init(&ps->c, tree_sitter_python());
  ps->tree = ts_parser_parse_string(ps->parser, NULL, m->source, (uint32_t)len);
  ps->root = ts_tree_root_node(ps->tree);
  /* the index measures the nesting; the walk below finds the first node
   * (in document order) too deep, to report it */
  bool shallow = pkf_tree_build(&ps->c, ps->root, MAX_TREE_DEPTH, MAX_BRACKET_DEPTH) ||
                 nesting_ok(&ps->c, ps->root);
  ps->ok = shallow && pkf_syntax_errors(&ps->c, ps->root) == 0;
  return ps;
}

void pkf_lower_parsed(pkf_parsed *ps) {
  if (ps->ok)
    pkf_collect(&ps->c, ps->root);
}

pki_module *pkf_parsed_finish(pkf_parsed *ps) {
  pki_module *m = ps->c.m;
  if (ps->tree) {
    pkf_tree_free(&ps->c);
    ts_tree_delete(ps->tree);
    ts_parser_delete(ps->parser);
  }
  free(ps);
  return m;
}

/* If d has no arena yet (zeroed), it is initialised with the new module's
 * arena, path and source; otherwise it is used as given. */
pki_module *pkf_lower(const char *path, const char *source, size_t len, pki_diags *d) {
  return pkf_lower_with(path, source, len, NULL, d);
}

pki_module *pkf_lower_with(const char *path, const char *source, size_t len,
                           const pkf_options *o, pki_diags *d) {
  pkf_parsed *ps = pkf_parse(path, source, len, o, d);
  pkf_lower_parsed(ps);
  return pkf_parsed_finish(ps);
}

/* --specialize: keeps the workunit and what it uses; diagnostics of the rest
 * of the file are dropped (they do not concern this build). */
static void specialization(pki_module *m, const pkf_spec *spec, pki_diags *d) {
  if (!pki_keep_only(m, spec->kernel)) {
    d->n = d->errors = 0;
    pki_error(d, (pki_span){1, 1, 1, 1, 0, 0}, "bad-specialization",
              "'%s' is not a @pk.workunit function of this file", spec->kernel);
    return;
  }
  int k = 0, errors = 0;
  for (int i = 0; i < d->n; i++) {
    bool mine = false;
    for (int j = 0; j < m->nentities && !mine; j++)
      mine = pki_span_in_entity(m->entities[j], d->items[i].span);
    if (mine) {
      errors += d->items[i].severity == PKI_SEV_ERROR;
      d->items[k++] = d->items[i];
    }
  }
  d->n = k;
  d->errors = errors;
  if (!errors)
    pki_check(m, d);
}

int pkf_translate(const char *path, pki_module **out_module, pki_diags *d, FILE *err) {
  return pkf_translate_with(path, NULL, out_module, d, err);
}

void pkf_select_check(pki_module *m, const pkf_options *o, pki_diags *d) {
  if (o && o->spec) {
    specialization(m, o->spec, d);
  } else if (o && o->keep_going) {
    /* partial build: entities with errors (and runtime-typed workunits) are
     * left out, the rest is checked, and entities with check errors go too */
    int seen = d->n; /* the second pass looks at the checker's errors only */
    if (!pki_select(m, d, 0))
      m->nentities = 0; /* an error outside every entity: nothing is built */
    else if (m->nentities && pki_check(m, d) > 0 && !pki_select(m, d, seen))
      m->nentities = 0;
  } else if (d->errors == 0) {
    pki_check(m, d);
  }
}

void pkf_set_abspath(pki_module *m, const char *path) {
  char *abs = realpath(path, NULL);
  if (abs) {
    m->abspath = pki_strdup(m->arena, abs);
    free(abs);
  }
}

int pkf_translate_with(const char *path, const pkf_options *o, pki_module **out_module,
                       pki_diags *d, FILE *err) {
  char *buf;
  size_t len;
  *out_module = NULL;
  memset(d, 0, sizeof *d);
  if (pkf_read_file(path, &buf, &len) != 0) {
    if (err)
      fprintf(err, "pkc: error: cannot read '%s': %s\n", path, strerror(errno));
    return -1;
  }
  pki_module *m = pkf_lower_with(path, buf, len, o, d);
  free(buf);
  pkf_set_abspath(m, path);
  pkf_select_check(m, o, d);
  *out_module = m;
  return d->errors;
}
