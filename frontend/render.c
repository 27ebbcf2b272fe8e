/*
 * render.c - diagnostics as GCC-style text (source line + caret), as JSON,
 * or as a SARIF 2.1.0 log.
 */
#include "fe.h"

#include <stdlib.h>

static const char *sev_name(pki_severity s) {
  return s == PKI_SEV_ERROR ? "error" : s == PKI_SEV_WARNING ? "warning" : "note";
}

/* Start of the diagnostic's first line in the source, or NULL. */
static const char *line_start(const pki_diags *d, const pki_diag *g) {
  if (!d->source || g->span.line == 0)
    return NULL;
  const char *s = d->source;
  if (g->span.start_byte > 0 || g->span.line == 1) {
    if (g->span.start_byte > d->source_len)
      return NULL;
    const char *p = s + g->span.start_byte;
    while (p > s && p[-1] != '\n')
      p--;
    return p;
  }
  uint32_t line = 1;
  for (const char *p = s; p < s + d->source_len; p++)
    if (*p == '\n' && ++line == g->span.line)
      return p + 1;
  return NULL;
}

static void text_diag(FILE *out, const pki_diags *d, const pki_diag *g, bool color) {
  const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
  const char *sc = !color ? "" : g->severity == PKI_SEV_ERROR ? "\033[1;31m"
                           : g->severity == PKI_SEV_WARNING ? "\033[1;35m" : "\033[1;36m";
  fprintf(out, "%s%s:%u:%u:%s %s%s:%s %s\n", bold, d->path ? d->path : "<input>", g->span.line,
          g->span.col, reset, sc, sev_name(g->severity), reset, g->message);
  const char *ls = line_start(d, g);
  if (!ls)
    return;
  const char *end = d->source + d->source_len, *le = ls;
  while (le < end && *le != '\n' && *le != '\r')
    le++;
  fprintf(out, "%.*s\n", (int)(le - ls), ls);
  uint32_t col = g->span.col ? g->span.col - 1 : 0;
  for (uint32_t i = 0; i < col; i++)
    fputc(ls + i < le && ls[i] == '\t' ? '\t' : ' ', out);
  fprintf(out, "%s^", color ? "\033[1;32m" : "");
  uint32_t stop = g->span.end_line == g->span.line ? (g->span.end_col ? g->span.end_col - 1 : 0)
                  : g->span.end_line > g->span.line ? (uint32_t)(le - ls) : 0;
  for (uint32_t i = col + 1; i < stop; i++)
    fputc('~', out);
  fprintf(out, "%s\n", reset);
}

static void json_str(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    switch (*p) {
    case '"': fputs("\\\"", out); break;
    case '\\': fputs("\\\\", out); break;
    case '\n': fputs("\\n", out); break;
    case '\t': fputs("\\t", out); break;
    case '\r': fputs("\\r", out); break;
    default:
      if (*p < 0x20)
        fprintf(out, "\\u%04x", *p);
      else
        fputc(*p, out);
    }
  }
  fputc('"', out);
}

static void render_json(FILE *out, const pki_diags *const *files, int nfiles) {
  fputs("{\"version\":1,\"files\":[", out);
  for (int f = 0; f < nfiles; f++) {
    const pki_diags *d = files[f];
    fputs(f ? ",{\"file\":" : "{\"file\":", out);
    json_str(out, d->path);
    fputs(",\"diagnostics\":[", out);
    for (int i = 0; i < d->n; i++) {
      const pki_diag *g = &d->items[i];
      fprintf(out, "%s{\"severity\":\"%s\",\"line\":%u,\"column\":%u,\"end_line\":%u,"
                   "\"end_column\":%u,\"code\":",
              i ? "," : "", sev_name(g->severity), g->span.line, g->span.col,
              g->span.end_line, g->span.end_col);
      json_str(out, g->code ? g->code : "error");
      fputs(",\"message\":", out);
      json_str(out, g->message);
      fputc('}', out);
    }
    fputs("]}", out);
  }
  fputs("]}\n", out);
}

/* Index of code in rules (adding it if new). */
static int rule_index(const char **rules, int *n, const char *code) {
  for (int i = 0; i < *n; i++)
    if (!strcmp(rules[i], code))
      return i;
  rules[*n] = code;
  return (*n)++;
}

static void render_sarif(FILE *out, const pki_diags *const *files, int nfiles,
                         const char *version) {
  int total = 0;
  for (int f = 0; f < nfiles; f++)
    total += files[f]->n;
  const char **rules = malloc(sizeof *rules * (size_t)(total + 1));
  int nrules = 0;
  for (int f = 0; rules && f < nfiles; f++)
    for (int i = 0; i < files[f]->n; i++)
      rule_index(rules, &nrules, files[f]->items[i].code ? files[f]->items[i].code : "error");
  fputs("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
        "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"pkc\",\"version\":", out);
  json_str(out, version ? version : "0");
  fputs(",\"rules\":[", out);
  for (int i = 0; i < nrules; i++) {
    fputs(i ? ",{\"id\":" : "{\"id\":", out);
    json_str(out, rules[i]);
    fputc('}', out);
  }
  fputs("]}},\"results\":[", out);
  bool first = true;
  for (int f = 0; f < nfiles; f++) {
    for (int i = 0; i < files[f]->n; i++) {
      const pki_diag *g = &files[f]->items[i];
      const char *code = g->code ? g->code : "error";
      fputs(first ? "{\"ruleId\":" : ",{\"ruleId\":", out);
      first = false;
      json_str(out, code);
      fprintf(out, ",\"ruleIndex\":%d,\"level\":\"%s\",\"message\":{\"text\":",
              rules ? rule_index(rules, &nrules, code) : 0, sev_name(g->severity));
      json_str(out, g->message);
      fputs("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
      json_str(out, files[f]->path);
      fprintf(out, "},\"region\":{\"startLine\":%u,\"startColumn\":%u,\"endLine\":%u,"
                   "\"endColumn\":%u}}}]}",
              g->span.line, g->span.col, g->span.end_line, g->span.end_col);
    }
  }
  fputs("]}]}\n", out);
  free(rules);
}

void pkf_render_diags(FILE *out, const pki_diags *const *files, int nfiles,
                      pkf_diag_format fmt, bool color, const char *tool_version) {
  if (fmt == PKF_DIAG_JSON) {
    render_json(out, files, nfiles);
  } else if (fmt == PKF_DIAG_SARIF) {
    render_sarif(out, files, nfiles, tool_version);
  } else {
    for (int f = 0; f < nfiles; f++)
      for (int i = 0; i < files[f]->n; i++)
        text_diag(out, files[f], &files[f]->items[i], color);
  }
}
