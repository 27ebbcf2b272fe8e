/*
 * translate.c - the frontend's entry points: pkf_lower (parse, collect
 * entities, lower bodies) and pkf_translate (read + lower + pki_check).
 */
#include "fe.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

/* If d has no arena yet (zeroed), it is initialised with the new module's
 * arena, path and source; otherwise it is used as given. */
pki_module *pkf_lower(const char *path, const char *source, size_t len, pki_diags *d) {
  return pkf_lower_with(path, source, len, NULL, d);
}

pki_module *pkf_lower_with(const char *path, const char *source, size_t len,
                           const pkf_options *o, pki_diags *d) {
  pki_module *m = pki_module_new(path, NULL, source, len);
  if (!d->arena)
    pki_diags_init(d, m->arena, m->path, m->source, len);
  else if (!d->source)
    d->source = m->source, d->source_len = len;
  pkf_ctx c = {.m = m, .d = d, .src = m->source, .real = o ? o->real : PKI_VOID};
  if (len > UINT32_MAX / 2) {
    pki_error(d, (pki_span){1, 1, 1, 1, 0, 0}, "too-large", "file is too large");
    return m;
  }
  TSParser *p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_python());
  TSTree *tree = ts_parser_parse_string(p, NULL, m->source, (uint32_t)len);
  TSNode root = ts_tree_root_node(tree);
  if (pkf_syntax_errors(&c, root) == 0)
    pkf_collect(&c, root);
  if (c.has_cursor)
    ts_tree_cursor_delete(&c.cursor);
  ts_tree_delete(tree);
  ts_parser_delete(p);
  return m;
}

int pkf_translate(const char *path, pki_module **out_module, pki_diags *d, FILE *err) {
  return pkf_translate_with(path, NULL, out_module, d, err);
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
  char *abs = realpath(path, NULL);
  if (abs) {
    m->abspath = pki_strdup(m->arena, abs);
    free(abs);
  }
  if (d->errors == 0)
    pki_check(m, d);
  *out_module = m;
  return d->errors;
}
