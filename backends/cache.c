/*
 * cache.c - SHA-256 (OpenSSL EVP) and the build cache key
 * (docs/ARCHITECTURE.md, "The cache key"):
 * source bytes, pkc version, backend, the Kokkos install (root and its
 * KokkosConfig*.cmake files), compiler (CXX), CXXFLAGS, the CPU (model and
 * flags: host modules are built with -march=native), #line flag, and the
 * generated texts themselves.
 */
#include <dirent.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pkb_priv.h"

static void to_hex(const unsigned char *d, unsigned n, char out[65]) {
  static const char hex[] = "0123456789abcdef";
  for (unsigned i = 0; i < n && i < 32; i++) {
    out[2 * i] = hex[d[i] >> 4];
    out[2 * i + 1] = hex[d[i] & 15];
  }
  out[64] = 0;
}

int pkb_sha256_hex(const void *data, size_t n, char out[65]) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  if (!EVP_Digest(data, n, md, &len, EVP_sha256(), NULL))
    return -1;
  to_hex(md, len, out);
  return 0;
}

/* Feeds "name=value\n" (value may contain anything; its length goes first). */
static void feed(EVP_MD_CTX *ctx, const char *name, const void *v, size_t n) {
  char head[128];
  int k = snprintf(head, sizeof head, "%s[%zu]=", name, n);
  EVP_DigestUpdate(ctx, head, (size_t)k);
  if (n)
    EVP_DigestUpdate(ctx, v, n);
  EVP_DigestUpdate(ctx, "\n", 1);
}

static void feed_str(EVP_MD_CTX *ctx, const char *name, const char *s) {
  feed(ctx, name, s ? s : "", s ? strlen(s) : 0);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Hashes <root>/<libdir>/cmake/Kokkos/KokkosConfig*.cmake, sorted by name. */
static void feed_kokkos_config(EVP_MD_CTX *ctx, const char *root) {
  static const char *const libdirs[] = {"lib", "lib64", "lib/x86_64-linux-gnu", NULL};
  for (int l = 0; root && libdirs[l]; l++) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s/cmake/Kokkos", root, libdirs[l]);
    DIR *d = opendir(dir);
    if (!d)
      continue;
    char *names[64];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 64;)
      if (!strncmp(e->d_name, "KokkosConfig", 12))
        names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    for (int i = 0; i < n; i++) {
      char path[4200];
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      size_t len = 0;
      char *text = pkb_read_file(path, &len);
      feed(ctx, names[i], text, text ? len : 0);
      free(text);
      free(names[i]);
    }
  }
}

void pkb_cpu_id(char out[65]) {
  /* the model and feature flags of the first CPU in /proc/cpuinfo */
  char *text = pkb_read_file("/proc/cpuinfo", NULL);
  pkb_buf b;
  pkb_buf_init(&b);
  const char *keys[] = {"model name", "flags"};
  for (int k = 0; text && k < 2; k++) {
    const char *at = strstr(text, keys[k]);
    const char *end = at ? strchr(at, '\n') : NULL;
    if (at && end)
      pkb_putf(&b, "%.*s\n", (int)(end - at), at);
  }
  free(text);
  if (pkb_sha256_hex(b.data ? b.data : "", b.len, out) != 0)
    strcpy(out, "unknown");
  pkb_buf_free(&b);
}

int pkb_cache_key(const pki_module *m, const pkb_options *o, const char *generated,
                  char out[65]) {
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
    EVP_MD_CTX_free(ctx);
    return -1;
  }
  feed_str(ctx, "pkc-cache-key", "1");
  feed(ctx, "source", m->source, m->source_len);
  feed_str(ctx, "source_path", m->abspath);
  feed_str(ctx, "pkc_version", o->pkc_version);
  feed_str(ctx, "backend", o->backend);
  feed_str(ctx, "kokkos_root", o->kokkos_root);
  feed_kokkos_config(ctx, o->kokkos_root);
  feed_str(ctx, "CXX", getenv("CXX"));
  feed_str(ctx, "CXXFLAGS", getenv("CXXFLAGS"));
  char cpu[65];
  pkb_cpu_id(cpu); /* host modules are built for this CPU (-march=native) */
  feed_str(ctx, "cpu", cpu);
  feed_str(ctx, "line_directives", o->line_directives ? "1" : "0");
  feed_str(ctx, "generated", generated);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  int ok = EVP_DigestFinal_ex(ctx, md, &len);
  EVP_MD_CTX_free(ctx);
  if (!ok)
    return -1;
  to_hex(md, len, out);
  return 0;
}

const char *pkb_spec_outdir(pki_arena *a, const char *outdir, const char *kernel,
                            const char *signature) {
  char hex[65] = "";
  pkb_sha256_hex(signature, strlen(signature), hex);
  hex[16] = 0;
  return pki_sprintf(a, "%s/spec/%s-%s", outdir, kernel, hex);
}
