/*
 * annotate.c - `pkc annotate` (annotate.h): the HTML page.
 *
 * One row per source line. The C++ of line N is every chunk of the generated
 * <name>.cpp the compiler maps to line N: after a `#line N "<the .py>"`
 * directive the lines count N, N+1, ... (collect_cpp), up to the next
 * directive; the directives back to the C++ file name "<name>.cpp"
 * (pkb_restore_line) end the Python lines. Kernels are the lines of each workunit
 * and @pk.main, decorators to the end of the body. The page is HTML and CSS
 * only, plus one onclick that opens or closes every row.
 */
#include "annotate.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


enum { PKC_KERNEL_NONE = -1, PKC_KERNEL_MAIN = 3 }; /* else a pki_pattern */

/* One source line: its text, its kernel, the C++ it became (as HTML). */
typedef struct pkc_row {
  const char *text;
  size_t len;
  int kernel;          /* pki_pattern, PKC_KERNEL_MAIN or PKC_KERNEL_NONE */
  const pki_func *def; /* the kernel whose def is on this line */
  FILE *cpp_out;       /* <pre> chunks: a memory stream, open while they are written ... */
  char *cpp;           /* ... then its text (NULL: no C++) */
  size_t cpp_len;
} pkc_row;

typedef struct pkc_page {
  const pkc_annotation *a;
  pkc_row *rows;
  int nrows;
  int kernels[4];  /* kernels per pattern, [PKC_KERNEL_MAIN]: @pk.main */
  int cpp_rows;    /* rows with C++ */
  int sev[3];      /* diagnostics per pki_severity */
} pkc_page;

static const char *const kernel_class[] = {"for", "reduce", "scan", "main"};
static const char *const kernel_label[] = {"for", "reduce", "scan", "@pk.main"};
static const char *const kernel_call[] = {"pk.parallel_for", "pk.parallel_reduce",
                                          "pk.parallel_scan", "pk.execute"};
static const char *const sev_name[] = {"error", "warning", "note"};

static const char css[] =
    "body{margin:0;font:14px/1.45 system-ui,sans-serif;color:#202124}"
    "header{padding:10px 16px;border-bottom:1px solid #dadce0;background:#f8f9fa}"
    "h1{margin:0;font-size:18px}header p{margin:4px 0}"
    ".legend span{padding:0 8px;margin-right:4px;border-left-width:4px;border-left-style:solid}"
    ".src{font:13px/1.4 ui-monospace,Menlo,Consolas,monospace;padding:6px 0}"
    ".r{display:flow-root;border-left:4px solid transparent}"
    "summary{display:block;cursor:pointer}summary::-webkit-details-marker{display:none}"
    ".n{display:inline-block;width:5em;padding-right:1em;text-align:right;color:#9aa0a6;"
    "user-select:none}"
    "summary .n{color:#202124}summary .n::before{content:'+ ';color:#1a73e8}"
    "details[open]>summary .n::before{content:'\\2212  '}"
    "code{font:inherit;white-space:pre}"
    "pre{margin:2px 8px 4px 6em;padding:4px 8px;background:#f1f3f4;"
    "border-left:3px solid #9aa0a6;overflow-x:auto}"
    "pre::before{content:attr(data-at);display:block;color:#80868b;font-size:11px}"
    ".k-for{background:#e8f0fe;border-color:#4285f4}"
    ".k-reduce{background:#e6f4ea;border-color:#34a853}"
    ".k-scan{background:#f3e8fd;border-color:#a142f4}"
    ".k-main{background:#fef7e0;border-color:#f9ab00}"
    ".d{margin:1px 8px 1px 6em;padding:2px 8px;border-left:3px solid;"
    "font-family:system-ui,sans-serif;white-space:pre-wrap}"
    ".d .s{font-weight:600}.d .c{color:#5f6368}"
    ".error{background:#fce8e6;border-color:#d93025}.error .s{color:#d93025}"
    ".warning{background:#fef7e0;border-color:#e37400}.warning .s{color:#e37400}"
    ".note{background:#e8f0fe;border-color:#1a73e8}.note .s{color:#1a73e8}";

/* Opens every row, or closes them all when one is open. */
static const char toggle_js[] =
    "var d=document.querySelectorAll('details'),o=!document.querySelector('details[open]');"
    "for(var i=0;i<d.length;i++)d[i].open=o";

/* ------------------------------------------------------------ text */

static void out_of_memory(void) {
  fputs("pkc: out of memory\n", stderr);
  exit(3);
}

/* Appends n bytes of s as HTML text, safe in a quoted attribute too; control
 * characters other than tab become U+FFFD. */
static void put_escaped(FILE *b, const char *s, size_t n) {
  size_t from = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    const char *ent = ch == '&' ? "&amp;" : ch == '<' ? "&lt;" : ch == '>' ? "&gt;"
                      : ch == '"' ? "&quot;" : ch == '\'' ? "&#39;"
                      : (ch < 0x20 && ch != '\t') || ch == 0x7f ? "&#xFFFD;" : NULL;
    if (!ent)
      continue;
    fprintf(b, "%.*s%s", (int)(i - from), s + from, ent);
    from = i + 1;
  }
  fprintf(b, "%.*s", (int)(n - from), s + from);
}

static void put_escaped_str(FILE *b, const char *s) { put_escaped(b, s, strlen(s)); }

/* End of the line starting at s (its '\n' or end). */
static const char *line_end(const char *s, const char *end) {
  const char *nl = memchr(s, '\n', (size_t)(end - s));
  return nl ? nl : end;
}

static bool blank(const char *s, const char *e) {
  while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
    s++;
  return s == e;
}

/* ------------------------------------------------------------ rows */

/* One row per line of the source (a final line without '\n' included). */
static void split_lines(pkc_page *p, const char *src, size_t len) {
  const char *end = src + len;
  int n = 0;
  for (const char *s = src; s < end; s = line_end(s, end) + 1)
    n++;
  p->rows = calloc((size_t)n + 1, sizeof *p->rows);
  if (!p->rows)
    out_of_memory();
  for (const char *s = src; s < end; s = line_end(s, end) + 1) {
    pkc_row *r = &p->rows[p->nrows++];
    const char *e = line_end(s, end);
    r->text = s;
    r->len = (size_t)(e - s) - (e > s && e[-1] == '\r');
    r->kernel = PKC_KERNEL_NONE;
  }
}

static uint32_t max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }

/* Last source line of a block's statements, nested blocks and closures
 * written inside them (lambdas, nested defs) included; a method a statement
 * only names (@pk.main's `self.work`) is not: it stands elsewhere in the
 * class. 0 when the block is empty. */
static uint32_t block_end(const pki_block *b) {
  uint32_t end = 0;
  for (int i = 0; i < b->n; i++) {
    const pki_stmt *s = b->stmts[i];
    uint32_t last = max_u32(s->span.end_line, s->span.line);
    end = max_u32(end, last);
    end = max_u32(end, max_u32(block_end(&s->body), block_end(&s->orelse)));
    if (s->closure && s->closure->span.line >= s->span.line && s->closure->span.line <= last)
      end = max_u32(end, block_end(&s->closure->body));
  }
  return end;
}

/* Does row (1-based) hold a decorator? */
static bool decorator_row(const pkc_page *p, uint32_t line) {
  const pkc_row *r = &p->rows[line - 1];
  size_t i = 0;
  while (i < r->len && (r->text[i] == ' ' || r->text[i] == '\t'))
    i++;
  return i < r->len && r->text[i] == '@';
}

/* Colours the rows of kernel f of entity e: decorators, def and body (a
 * FunctionSty workunit: its whole definition, also when its body was not
 * lowered because it is typed at run time). */
static void mark_kernel(pkc_page *p, const pki_entity *e, const pki_func *f) {
  int kind = f->is_main ? PKC_KERNEL_MAIN : (int)f->pattern;
  uint32_t def = f->span.line, first = def, last = block_end(&f->body);
  if (e->kind == PKI_ENT_WORKUNIT && e->extent.line && e->extent.line <= first) {
    first = e->extent.line;
    last = max_u32(last, e->extent.end_line);
  }
  if (def < 1 || def > (uint32_t)p->nrows)
    return;
  while (first > 1 && decorator_row(p, first - 1))
    first--;
  last = max_u32(last, def);
  if (last > (uint32_t)p->nrows)
    last = (uint32_t)p->nrows;
  for (uint32_t l = first; l <= last; l++)
    p->rows[l - 1].kernel = kind;
  p->rows[def - 1].def = f;
  p->kernels[kind]++;
}

static void mark_kernels(pkc_page *p, const pki_module *m) {
  for (int i = 0; m && i < m->nentities; i++)
    for (int k = 0; k < m->entities[i]->nfuncs; k++) {
      const pki_func *f = m->entities[i]->funcs[k];
      if ((f->is_workunit && (unsigned)f->pattern <= PKI_PATTERN_SCAN) || f->is_main)
        mark_kernel(p, m->entities[i], f);
    }
}

/* ------------------------------------------------------------ C++ */

/* A line that only closes what an earlier one opened ("}", "});", blank):
 * it stays with the C++ before it. */
static bool closing_only(const char *s, const char *e) {
  for (; s < e; s++)
    if (!strchr(" \t\r});", *s))
      return false;
  return true;
}

/* The stream that collects the C++ of row r (opened on its first chunk). */
static FILE *row_cpp(pkc_page *p, pkc_row *r) {
  if (!r->cpp_out) {
    r->cpp_out = open_memstream(&r->cpp, &r->cpp_len);
    if (!r->cpp_out)
      out_of_memory();
    p->cpp_rows++;
  }
  return r->cpp_out;
}

/* Ends the rows' streams: their texts are final. */
static void close_rows(pkc_page *p) {
  for (int i = 0; i < p->nrows; i++)
    if (p->rows[i].cpp_out && fclose(p->rows[i].cpp_out) != 0)
      out_of_memory();
}

/* Appends the C++ lines [s, end) to the row of Python line `line` as one
 * <pre>: trailing blank lines dropped, the common indentation of the lines
 * that do more than close blocks removed (from each line, as far as it is
 * spaces); at: its first line in the generated file. */
static void add_chunk(pkc_page *p, uint32_t line, const char *s, const char *end,
                      const char *cpp_name, int at) {
  if (line < 1 || line > (uint32_t)p->nrows)
    return;
  const char *last = s; /* end of the last non-blank line */
  size_t indent = SIZE_MAX;
  for (const char *l = s; l < end; l = line_end(l, end) + 1) {
    const char *e = line_end(l, end);
    if (blank(l, e))
      continue;
    last = e;
    size_t k = 0;
    while (l + k < e && l[k] == ' ')
      k++;
    if (k < indent && !closing_only(l, e))
      indent = k;
  }
  if (last == s)
    return; /* nothing but blank lines */
  FILE *b = row_cpp(p, &p->rows[line - 1]);
  fputs("<pre data-at=\"", b);
  put_escaped_str(b, cpp_name);
  fprintf(b, ".cpp:%d\">", at);
  for (const char *l = s; l < last; l = line_end(l, last) + 1) {
    const char *e = line_end(l, last);
    size_t skip = 0;
    while (skip < indent && l + skip < e && l[skip] == ' ')
      skip++;
    put_escaped(b, l + skip, (size_t)(e - l - skip));
    if (e < last)
      fputs("\n", b);
  }
  fputs("</pre>", b);
}

/* Whether C++ line [s, e) ends a statement or opens or closes a block (the
 * next line may start the C++ of another Python line). */
static bool ends_statement(const char *s, const char *e) {
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
    e--;
  return e == s || e[-1] == ';' || e[-1] == '{' || e[-1] == '}' || e[-1] == ':';
}

/* Splits the generated C++ by the Python line each C++ line stands for, as
 * the compiler reads the #line directives (see the top of the file): after
 * `#line N`, the next lines are N, N+1, ... (the emitter writes a directive
 * only where that count would be wrong). A chunk ends where a line of
 * another Python line starts a statement; lines that only close blocks and
 * the continuation lines of a statement stay in their chunk. */
static void collect_cpp(pkc_page *p, const char *cpp, const char *name) {
  const char *end = cpp + strlen(cpp), *chunk = cpp;
  size_t nlen = strlen(name);
  uint32_t target = 0, py = 0; /* 0: the C++ file's own lines */
  int lineno = 1, at = 1;
  bool open = false; /* the previous line left a statement unfinished */
  for (const char *s = cpp; s < end; s = line_end(s, end) + 1, lineno++) {
    const char *e = line_end(s, end);
    if (e - s >= 7 && memcmp(s, "#line ", 6) == 0) {
      add_chunk(p, target, chunk, s, name, at);
      char *q;
      unsigned long n = strtoul(s + 6, &q, 10);
      while (q < e && *q == ' ')
        q++;
      bool back = (size_t)(e - q) == nlen + 6 && q[0] == '"' && !memcmp(q + 1, name, nlen) &&
                  !memcmp(q + 1 + nlen, ".cpp\"", 5);
      target = py = back || n > UINT32_MAX ? 0 : (uint32_t)n;
      chunk = e < end ? e + 1 : e;
      at = lineno + 1;
      open = false;
      continue;
    }
    uint32_t here = py ? py++ : 0;
    if (here && here != target && !open && !closing_only(s, e)) {
      add_chunk(p, target, chunk, s, name, at);
      target = here;
      chunk = s;
      at = lineno;
    }
    if (!closing_only(s, e))
      open = !ends_statement(s, e) && s[0] != '#';
  }
  add_chunk(p, target, chunk, end, name, at);
}

/* ------------------------------------------------------------ page */

static void count_diags(pkc_page *p) {
  const pki_diags *d = p->a->diags;
  for (int i = 0; d && i < d->n; i++)
    if ((unsigned)d->items[i].severity < 3)
      p->sev[d->items[i].severity]++;
}

/* The diagnostics of source line `line` (0: those outside every line), in order. */
static void put_diags(FILE *b, const pkc_page *p, uint32_t line) {
  const pki_diags *d = p->a->diags;
  for (int i = 0; d && i < d->n; i++) {
    const pki_diag *g = &d->items[i];
    uint32_t l = g->span.line <= (uint32_t)p->nrows ? g->span.line : 0;
    if (l != line || (unsigned)g->severity >= 3)
      continue;
    const char *sev = sev_name[g->severity];
    fprintf(b, "<div class=\"d %s\"><span class=\"s\">%s</span> %u:%u: ", sev, sev,
             (unsigned)g->span.line, (unsigned)g->span.col);
    put_escaped_str(b, g->message ? g->message : "");
    if (g->code && *g->code) {
      fputs(" <span class=\"c\">[", b);
      put_escaped_str(b, g->code);
      fputs("]</span>", b);
    }
    fputs("</div>\n", b);
  }
}

/* One source line: a <details> whose <summary> is the line when it has C++,
 * else a <div>; then its diagnostics. */
static void put_row(FILE *b, const pkc_page *p, int i) {
  const pkc_row *r = &p->rows[i];
  const char *tag = r->cpp ? "details" : "div";
  fprintf(b, "<%s class=\"r", tag);
  if (r->kernel != PKC_KERNEL_NONE)
    fprintf(b, " k-%s", kernel_class[r->kernel]);
  fprintf(b, "\" id=\"L%d\"", i + 1);
  if (r->def) {
    fputs(" title=\"", b);
    put_escaped_str(b, r->def->name);
    fprintf(b, ": %s\"", kernel_call[r->kernel]);
  }
  fprintf(b, ">%s<span class=\"n\">%d</span><code>", r->cpp ? "<summary>" : "", i + 1);
  put_escaped(b, r->text, r->len);
  fputs("</code>", b);
  if (r->cpp)
    fprintf(b, "</summary>%s", r->cpp);
  fprintf(b, "</%s>\n", tag);
  put_diags(b, p, (uint32_t)i + 1);
}

static const char *plural(int n) { return n == 1 ? "" : "s"; }

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* <head>, and the header: file, pkc version, counts, legend. */
static void put_header(FILE *b, const pkc_page *p) {
  const pkc_annotation *a = p->a;
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", b);
  put_escaped_str(b, base_name(a->path));
  fprintf(b, " - pkc annotate</title>\n<style>%s</style></head>\n<body>\n<header><h1>", css);
  put_escaped_str(b, base_name(a->path));
  fputs("</h1>\n<p class=\"meta\">", b);
  put_escaped_str(b, a->checked && a->checked->abspath ? a->checked->abspath : a->path);
  fprintf(b, " &middot; pkc ");
  put_escaped_str(b, a->version);
  fprintf(b, " &middot; %d line%s, %d with C++ &middot; kernels: %d for, %d reduce, %d scan, "
           "%d @pk.main", p->nrows, plural(p->nrows), p->cpp_rows, p->kernels[0],
           p->kernels[1], p->kernels[2], p->kernels[PKC_KERNEL_MAIN]);
  for (int s = 0; s < 3; s++)
    fprintf(b, "%s%d %s%s", s ? ", " : " &middot; ", p->sev[s], sev_name[s], plural(p->sev[s]));
  fputs("</p>\n", b);
  fputs("<p class=\"legend\">", b);
  for (int k = 0; k < 4; k++)
    fprintf(b, "<span class=\"k-%s\">%s</span>", kernel_class[k], kernel_label[k]);
  fprintf(b, " Click a line marked + for its C++. <button type=\"button\" onclick=\"%s\">"
           "open / close all</button></p>\n</header>\n", toggle_js);
}

static void put_page(FILE *b, const pkc_page *p) {
  put_header(b, p);
  fputs("<div class=\"src\">\n", b);
  put_diags(b, p, 0);
  for (int i = 0; i < p->nrows; i++)
    put_row(b, p, i);
  fputs("</div>\n</body></html>\n", b);
}

static void free_page(pkc_page *p) {
  for (int i = 0; i < p->nrows; i++)
    free(p->rows[i].cpp);
  free(p->rows);
}

int pkc_annotate(const pkc_annotation *a, const char *out, char *err, size_t errlen) {
  pkc_page p = {.a = a};
  const char *src = a->checked ? a->checked->source : a->diags->source;
  size_t len = a->checked ? a->checked->source_len : a->diags->source_len;
  split_lines(&p, src ? src : "", src ? len : 0);
  mark_kernels(&p, a->checked);
  if (a->emitted) {
    char *cpp = pkb_cpp_text(a->emitted, a->bo);
    collect_cpp(&p, cpp, a->emitted->name);
    free(cpp);
  }
  close_rows(&p);
  count_diags(&p);
  FILE *f = fopen(out, "w");
  int rc = f ? 0 : -1;
  if (f) {
    put_page(f, &p);
    bool bad = ferror(f);
    rc = fclose(f) != 0 || bad ? -1 : 0;
  }
  if (rc)
    snprintf(err, errlen, "cannot write %s: %s", out, strerror(errno));
  free_page(&p);
  return rc ? -1 : 0;
}

char *pkc_annotate_default_path(const char *path) {
  size_t n = strlen(path);
  if (n > 3 && strcmp(path + n - 3, ".py") == 0)
    n -= 3;
  char *d = malloc(n + 6);
  if (!d)
    return NULL;
  memcpy(d, path, n);
  memcpy(d + n, ".html", 6);
  return d;
}
