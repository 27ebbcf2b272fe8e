/* pkcrt.c - libpkcrt: load pkc-built modules, look kernels up, call them. */
#include "pkcrt.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pkr_module {
  void *dl;                   /* dlopen handle (never closed) */
  const pkc_module_desc *desc;
};

/* Process-wide Kokkos state (Kokkos itself is process-wide): which module's
 * finalize to run at exit. Guarded by pkr_lock. */
static pthread_mutex_t pkr_lock = PTHREAD_MUTEX_INITIALIZER;
static void (*pkr_finalizer)(void);
static int pkr_atexit_registered;

/* Cleanup callbacks run (last registered first) before Kokkos finalizes. */
#define PKR_MAX_CLEANUPS 64
static struct {
  void (*fn)(void *);
  void *ctx;
} pkr_cleanups[PKR_MAX_CLEANUPS];
static int pkr_ncleanups;

static void pkr_msg(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || errlen == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

int pkr_register_cleanup(void (*fn)(void *), void *ctx) {
  if (!fn) return -1;
  pthread_mutex_lock(&pkr_lock);
  int rc = -1;
  if (pkr_ncleanups < PKR_MAX_CLEANUPS) {
    pkr_cleanups[pkr_ncleanups].fn = fn;
    pkr_cleanups[pkr_ncleanups].ctx = ctx;
    pkr_ncleanups++;
    rc = 0;
  }
  pthread_mutex_unlock(&pkr_lock);
  return rc;
}

/* Pops and runs the cleanups, newest first, outside the lock. */
static void pkr_run_cleanups(void) {
  for (;;) {
    pthread_mutex_lock(&pkr_lock);
    if (pkr_ncleanups == 0) {
      pthread_mutex_unlock(&pkr_lock);
      return;
    }
    pkr_ncleanups--;
    void (*fn)(void *) = pkr_cleanups[pkr_ncleanups].fn;
    void *ctx = pkr_cleanups[pkr_ncleanups].ctx;
    pthread_mutex_unlock(&pkr_lock);
    fn(ctx);
  }
}

void pkr_finalize(void) {
  pkr_run_cleanups();
  pthread_mutex_lock(&pkr_lock);
  void (*fin)(void) = pkr_finalizer;
  pkr_finalizer = NULL;
  pthread_mutex_unlock(&pkr_lock);
  if (fin) fin();
}

static void pkr_atexit(void) { pkr_finalize(); }

static const pkc_module_desc *pkr_load_desc(void *dl, const char *path,
                                            char *err, size_t errlen) {
  dlerror();
  void *sym = dlsym(dl, PKC_MODULE_SYMBOL);
  if (!sym) {
    pkr_msg(err, errlen, "%s: not a pkc module (no symbol %s)", path,
            PKC_MODULE_SYMBOL);
    return NULL;
  }
  pkc_module_fn fn;
  memcpy(&fn, &sym, sizeof fn);
  const pkc_module_desc *d = fn();
  if (!d) {
    pkr_msg(err, errlen, "%s: %s returned no descriptor", path,
            PKC_MODULE_SYMBOL);
    return NULL;
  }
  if (d->abi_version != PKC_ABI_VERSION) {
    pkr_msg(err, errlen,
            "%s: module built for pkc ABI version %u but this runtime "
            "implements ABI version %d; rebuild it with `pkc build`",
            path, (unsigned)d->abi_version, PKC_ABI_VERSION);
    return NULL;
  }
  return d;
}

/* Initializes Kokkos through d if nobody has; records the finalizer. */
static int pkr_init_kokkos(const pkc_module_desc *d, const char *path,
                           int num_threads, char *err, size_t errlen) {
  int rc = 0;
  pthread_mutex_lock(&pkr_lock);
  if (d->initialize) {
    char msg[512] = "";
    rc = d->initialize(num_threads, msg, sizeof msg);
    if (rc != 0)
      pkr_msg(err, errlen, "%s: initializing Kokkos failed: %s", path, msg);
  }
  if (rc == 0 && !pkr_finalizer && !pkr_atexit_registered && d->finalize) {
    pkr_finalizer = d->finalize;
    pkr_atexit_registered = 1;
    atexit(pkr_atexit);
  }
  pthread_mutex_unlock(&pkr_lock);
  return rc;
}

pkr_module *pkr_open(const char *so_path, int num_threads, char *err,
                     size_t errlen) {
  if (!so_path) {
    pkr_msg(err, errlen, "pkr_open: so_path is NULL");
    return NULL;
  }
  void *dl = dlopen(so_path, RTLD_NOW | RTLD_GLOBAL);
  if (!dl) {
    const char *e = dlerror();
    pkr_msg(err, errlen, "cannot load module %s: %s", so_path,
            e ? e : "unknown error");
    return NULL;
  }
  const pkc_module_desc *d = pkr_load_desc(dl, so_path, err, errlen);
  if (!d) return NULL; /* not dlclose'd: see pkr_close */
  if (pkr_init_kokkos(d, so_path, num_threads, err, errlen) != 0) return NULL;
  pkr_module *m = calloc(1, sizeof *m);
  if (!m) {
    pkr_msg(err, errlen, "pkr_open: out of memory");
    return NULL;
  }
  m->dl = dl;
  m->desc = d;
  return m;
}

const pkc_module_desc *pkr_descriptor(const pkr_module *m) {
  return m ? m->desc : NULL;
}

const pkc_kernel_desc *pkr_find_kernel(const pkr_module *m, const char *entity,
                                       const char *name) {
  if (!m || !entity || !name || !m->desc) return NULL;
  const pkc_module_desc *d = m->desc;
  for (int32_t i = 0; i < d->nkernels; i++) {
    const pkc_kernel_desc *k = &d->kernels[i];
    if (k->name && k->entity && strcmp(k->name, name) == 0 &&
        strcmp(k->entity, entity) == 0)
      return k;
  }
  return NULL;
}

int pkr_call(const pkr_module *m, const pkc_kernel_desc *k, void *const *args,
             const pkc_policy *policy, pkc_value *result, char *err,
             size_t errlen) {
  if (!m || !k || (!policy && k->pattern != PKC_PATTERN_MAIN)) {
    pkr_msg(err, errlen, "pkr_call: %s is NULL",
            !m ? "module" : !k ? "kernel" : "policy");
    return -1;
  }
  if (policy && k->pattern == PKC_PATTERN_MAIN) policy = NULL;
  const char *kn = k->name ? k->name : "?";
  if (!k->fn) {
    pkr_msg(err, errlen, "%s: kernel has no entry point", kn);
    return -1;
  }
  if (k->nparams > 0 && !args) {
    pkr_msg(err, errlen, "%s: args is NULL but the kernel takes %d arguments",
            kn, (int)k->nparams);
    return -1;
  }
  for (int32_t i = 0; i < k->nparams; i++) {
    if (!args[i]) {
      pkr_msg(err, errlen, "%s: argument '%s' is NULL", kn,
              k->params[i].name ? k->params[i].name : "?");
      return -1;
    }
  }
  pkc_value scratch;
  if (!result && k->pattern != PKC_PATTERN_FOR && k->pattern != PKC_PATTERN_MAIN)
    result = &scratch;
  if (err && errlen) err[0] = '\0';
  return k->fn(args, policy, result, err, errlen);
}

int pkr_fence(const pkr_module *m) {
  if (!m || !m->desc) return -1;
  if (m->desc->fence) m->desc->fence();
  return 0;
}

void pkr_close(pkr_module *m) { free(m); }
