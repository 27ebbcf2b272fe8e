/*
 * emit.c - pkb_emit: generates every text of a module project and writes
 * the files whose contents changed (unchanged files keep their mtimes).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pkb_priv.h"

typedef struct { const char *name; const char *text; } pkc_embedded_file;
extern const pkc_embedded_file pkc_embedded_files[];

const char *pkb_embedded(const char *name) {
  for (const pkc_embedded_file *f = pkc_embedded_files; f->name; f++)
    if (!strcmp(f->name, name))
      return f->text;
  return NULL;
}

void pkb_texts_make(const pki_module *m, const pkb_options *o, pkb_texts *t) {
  pkb_buf_init(&t->cpp);
  pkb_buf_init(&t->h);
  pkb_buf_init(&t->cmake);
  t->bare = pkb_gen_cpp(m, o, &t->cpp);
  pkb_gen_header(m, o, &t->h);
  pkb_gen_cmake(m, o, &t->cmake);
}

void pkb_texts_free(pkb_texts *t) {
  pkb_buf_free(&t->cpp);
  pkb_buf_free(&t->h);
  pkb_buf_free(&t->cmake);
}

/* Writes dir/name (name may hold subfolders, e.g. dlpack/dlpack.h: they are
 * created) when its contents changed; message in err on failure. */
static int write_one(const char *dir, const char *name, const char *text, char *err,
                     size_t errlen) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  size_t skip = strlen(dir) + 1 < strlen(path) ? strlen(dir) + 1 : strlen(path);
  for (char *s = path + skip; (s = strchr(s, '/')) != NULL; s++) {
    *s = 0;
    int bad = mkdir(path, 0755) != 0 && errno != EEXIST;
    *s = '/';
    if (bad) {
      snprintf(err, errlen, "cannot create the folder of %s: %s", path, strerror(errno));
      return -1;
    }
  }
  if (pkb_write_if_changed(path, text ? text : "", text ? strlen(text) : 0) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

int pkb_texts_write(const pki_module *m, const pkb_options *o, const pkb_texts *t,
                    char *err, size_t errlen) {
  if (pkb_mkdirs(o->outdir) != 0) {
    snprintf(err, errlen, "cannot create %s: %s", o->outdir, strerror(errno));
    return -1;
  }
  char name[1024];
  snprintf(name, sizeof name, "%s.cpp", m->name);
  if (write_one(o->outdir, name, t->cpp.data, err, errlen))
    return -1;
  snprintf(name, sizeof name, "%s.h", m->name);
  if (write_one(o->outdir, name, t->h.data, err, errlen) ||
      write_one(o->outdir, "CMakeLists.txt", t->cmake.data, err, errlen))
    return -1;
  for (const pkc_embedded_file *f = pkc_embedded_files; f->name; f++)
    if (write_one(o->outdir, f->name, f->text, err, errlen))
      return -1;
  return 0;
}

int pkb_emit(const pki_module *m, const pkb_options *o, char *err, size_t errlen) {
  pkb_texts t;
  pkb_texts_make(m, o, &t);
  int rc = pkb_texts_write(m, o, &t, err, errlen);
  pkb_texts_free(&t);
  return rc;
}

char *pkb_cpp_text(const pki_module *m, const pkb_options *o) {
  pkb_buf b;
  pkb_buf_init(&b);
  pkb_gen_cpp(m, o, &b);
  if (!b.data)
    pkb_put(&b, "");
  return b.data;
}

const char *pkb_module_path(pki_arena *a, const pki_module *m, const pkb_options *o) {
  return pki_sprintf(a, "%s/%s.%s.so", o->outdir, m->name, o->backend ? o->backend : "openmp");
}
