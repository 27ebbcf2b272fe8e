/*
 * fileutil.c - whole files read and written (only when the contents change,
 * through a rename, so readers never see half a file) and folders created.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pkb_priv.h"

char *pkb_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, n = 0;
  char *p = malloc(cap);
  for (size_t k; p && (k = fread(p + n, 1, cap - n - 1, f)) > 0;) {
    n += k;
    if (cap - n - 1 == 0) {
      char *q = realloc(p, cap *= 2);
      if (!q) {
        free(p);
        p = NULL;
      }
      p = q;
    }
  }
  fclose(f);
  if (!p)
    return NULL;
  p[n] = 0;
  if (len)
    *len = n;
  return p;
}

int pkb_write_if_changed(const char *path, const char *text, size_t len) {
  size_t old_len = 0;
  char *old = pkb_read_file(path, &old_len);
  bool same = old && old_len == len && memcmp(old, text, len) == 0;
  free(old);
  if (same)
    return 0;
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid()); /* one per writer */
  FILE *f = fopen(tmp, "wb");
  if (!f)
    return -1;
  bool ok = fwrite(text, 1, len, f) == len;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) {
    remove(tmp);
    return -1;
  }
  return 0;
}

int pkb_mkdirs(const char *path) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *s = tmp + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        return -1;
      *s = '/';
    }
  return mkdir(tmp, 0755) != 0 && errno != EEXIST ? -1 : 0;
}
