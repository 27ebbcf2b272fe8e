/* pkcrt_graph.c - CUDA graph capture and replay of a time step (pk.Graph).
 *
 * Kernels of CUDA modules built with `--default-stream per-thread` launch
 * on the calling thread's per-thread default stream, which (unlike Kokkos
 * 3.4's legacy default stream) can be captured. This file captures that
 * stream into a graph and replays it through the CUDA driver API, found at
 * run time with dlopen("libcuda.so.1"): libpkcrt needs no CUDA to build, and
 * where there is no driver every function reports that instead. */
#include "pkcrt.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The few driver API types and constants used (cuda.h, CUDA >= 11.4). */
typedef int pkr_cu_result;                 /* CUresult: 0 is CUDA_SUCCESS */
typedef void *pkr_cu_stream, *pkr_cu_graph, *pkr_cu_graph_exec;
#define PKR_CU_STREAM_PER_THREAD ((pkr_cu_stream)0x2)
#define PKR_CU_CAPTURE_THREAD_LOCAL 1      /* CU_STREAM_CAPTURE_MODE_THREAD_LOCAL */
#define PKR_CU_ERROR_INVALIDATED 901       /* CUDA_ERROR_STREAM_CAPTURE_INVALIDATED */
#define PKR_CU_NODE_MEMCPY 1               /* CU_GRAPH_NODE_TYPE_MEMCPY */
#define PKR_CU_SET_CAPTURE_DEPS 1          /* CU_STREAM_SET_CAPTURE_DEPENDENCIES */
#define PKR_CU_INSTANTIATE_NODE_PRIORITY 8 /* CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY */
#define PKR_CU_CAPTURE_ACTIVE 1            /* CU_STREAM_CAPTURE_STATUS_ACTIVE */
#define PKR_CU_NODE_KERNEL 0               /* CU_GRAPH_NODE_TYPE_KERNEL */
#define PKR_CU_ATTR_PRIORITY 8             /* CU_KERNEL_NODE_ATTRIBUTE_PRIORITY */
#define PKR_CU_PORT_LAUNCH_ORDER 2         /* CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER */
#define PKR_CU_DEPENDENCY_PROGRAMMATIC 1   /* CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC */

/* CUgraphEdgeData (CUDA >= 12.3): when an edge lets its downstream node go */
typedef struct pkr_cu_edge {
  unsigned char from_port, to_port, type, reserved[5];
} pkr_cu_edge;
typedef unsigned long long pkr_cu_u64;

typedef struct pkr_cuda {
  int tried, ok;
  char why[256];
  pkr_cu_result (*begin)(pkr_cu_stream, int);
  pkr_cu_result (*end)(pkr_cu_stream, pkr_cu_graph *);
  pkr_cu_result (*instantiate)(pkr_cu_graph_exec *, pkr_cu_graph, unsigned long long);
  pkr_cu_result (*launch)(pkr_cu_graph_exec, pkr_cu_stream);
  pkr_cu_result (*sync)(pkr_cu_stream);
  pkr_cu_result (*exec_destroy)(pkr_cu_graph_exec);
  pkr_cu_result (*graph_destroy)(pkr_cu_graph);
  pkr_cu_result (*nodes)(pkr_cu_graph, void **, size_t *);
  pkr_cu_result (*error_name)(pkr_cu_result, const char **);
  pkr_cu_result (*node_type)(void *, int *);
  /* optional (branches): cuStreamGetCaptureInfo_v3 / _v2 and
   * cuStreamUpdateCaptureDependencies_v2 / (v1); the v3/v2 forms take edge
   * data, passed as NULL (plain edges) */
  pkr_cu_result (*info3)(pkr_cu_stream, int *, pkr_cu_u64 *, pkr_cu_graph *, void *const **,
                         const void **, size_t *);
  pkr_cu_result (*info2)(pkr_cu_stream, int *, pkr_cu_u64 *, pkr_cu_graph *, void *const **,
                         size_t *);
  pkr_cu_result (*update2)(pkr_cu_stream, void *const *, const void *, size_t, unsigned);
  pkr_cu_result (*update1)(pkr_cu_stream, void *const *, size_t, unsigned);
  /* optional (urgent nodes): cuGraphKernelNodeSetAttribute, whose value is a
   * 64-byte union (CUlaunchAttributeValue) starting with the priority here,
   * and cuCtxGetStreamPriorityRange */
  pkr_cu_result (*set_attr)(void *, int, const void *);
  pkr_cu_result (*priorities)(int *, int *);
} pkr_cuda;

/* The driver's entry points, looked up once per process (guarded). */
static pkr_cuda pkr_cu;
static pthread_mutex_t pkr_cu_lock = PTHREAD_MUTEX_INITIALIZER;

struct pkr_graph {
  pkr_cu_graph_exec exec;
  size_t nodes; /* nodes captured */
};

static void pkr_gmsg(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || errlen == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

static int pkr_cu_sym(void *dl, void **fn, const char *name) {
  *fn = dlsym(dl, name);
  if (*fn) return 0;
  snprintf(pkr_cu.why, sizeof pkr_cu.why, "the CUDA driver has no %s (CUDA >= 11.4 needed)", name);
  return -1;
}

static void pkr_cu_load(void) {
  void *dl = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!dl) {
    snprintf(pkr_cu.why, sizeof pkr_cu.why, "no CUDA driver (libcuda.so.1: %s)", dlerror());
    return;
  }
  pkr_cu.ok = !(pkr_cu_sym(dl, (void **)&pkr_cu.begin, "cuStreamBeginCapture_v2") ||
                pkr_cu_sym(dl, (void **)&pkr_cu.end, "cuStreamEndCapture") ||
                pkr_cu_sym(dl, (void **)&pkr_cu.instantiate, "cuGraphInstantiateWithFlags") ||
                pkr_cu_sym(dl, (void **)&pkr_cu.launch, "cuGraphLaunch") ||
                pkr_cu_sym(dl, (void **)&pkr_cu.sync, "cuStreamSynchronize") ||
                pkr_cu_sym(dl, (void **)&pkr_cu.exec_destroy, "cuGraphExecDestroy") ||
                pkr_cu_sym(dl, (void **)&pkr_cu.graph_destroy, "cuGraphDestroy") ||
                pkr_cu_sym(dl, (void **)&pkr_cu.nodes, "cuGraphGetNodes") ||
                pkr_cu_sym(dl, (void **)&pkr_cu.error_name, "cuGetErrorName") ||
                pkr_cu_sym(dl, (void **)&pkr_cu.node_type, "cuGraphNodeGetType"));
  *(void **)&pkr_cu.info3 = dlsym(dl, "cuStreamGetCaptureInfo_v3");
  *(void **)&pkr_cu.info2 = dlsym(dl, "cuStreamGetCaptureInfo_v2");
  *(void **)&pkr_cu.update2 = dlsym(dl, "cuStreamUpdateCaptureDependencies_v2");
  *(void **)&pkr_cu.update1 = dlsym(dl, "cuStreamUpdateCaptureDependencies");
  *(void **)&pkr_cu.set_attr = dlsym(dl, "cuGraphKernelNodeSetAttribute");
  *(void **)&pkr_cu.priorities = dlsym(dl, "cuCtxGetStreamPriorityRange");
}

static const pkr_cuda *pkr_cuda_get(void) {
  pthread_mutex_lock(&pkr_cu_lock);
  if (!pkr_cu.tried) {
    pkr_cu.tried = 1;
    pkr_cu_load();
  }
  pthread_mutex_unlock(&pkr_cu_lock);
  return &pkr_cu;
}

/* "CUDA_ERROR_..." for r (the number where the driver cannot name it). */
static void pkr_cu_fail(const pkr_cuda *cu, pkr_cu_result r, const char *call, char *err,
                        size_t errlen) {
  const char *name = NULL;
  if (cu->error_name) cu->error_name(r, &name);
  if (name)
    pkr_gmsg(err, errlen, "%s failed: %s", call, name);
  else
    pkr_gmsg(err, errlen, "%s failed: CUDA driver error %d", call, r);
}

int pkr_graph_available(char *err, size_t errlen) {
  const pkr_cuda *cu = pkr_cuda_get();
  if (!cu->ok) pkr_gmsg(err, errlen, "%s", cu->why);
  return cu->ok;
}

int pkr_graph_begin(char *err, size_t errlen) {
  const pkr_cuda *cu = pkr_cuda_get();
  if (!cu->ok) {
    pkr_gmsg(err, errlen, "%s", cu->why);
    return -1;
  }
  pkr_cu_result r = cu->begin(PKR_CU_STREAM_PER_THREAD, PKR_CU_CAPTURE_THREAD_LOCAL);
  if (r) pkr_cu_fail(cu, r, "cuStreamBeginCapture (per-thread default stream)", err, errlen);
  return r ? -1 : 0;
}

/* Whether graph (n nodes) holds a memory copy node: Kokkos 3.4 launches a
 * functor of 512 bytes or more by copying it from a pinned host buffer that
 * the next such launch overwrites, so a replay would read another kernel's
 * arguments. 1 also where the nodes cannot be listed. */
static int pkr_graph_has_copy(const pkr_cuda *cu, pkr_cu_graph graph, size_t n) {
  void **nodes = (void **)calloc(n, sizeof *nodes);
  size_t got = n;
  int copy = !nodes || cu->nodes(graph, nodes, &got) != 0;
  for (size_t i = 0; !copy && i < got; i++) {
    int type = -1;
    copy = cu->node_type(nodes[i], &type) != 0 || type == PKR_CU_NODE_MEMCPY;
  }
  free(nodes);
  return copy;
}

/* Ends the capture; a graph with no node means the kernels went elsewhere. */
pkr_graph *pkr_graph_end(char *err, size_t errlen) {
  const pkr_cuda *cu = pkr_cuda_get();
  if (!cu->ok) {
    pkr_gmsg(err, errlen, "%s", cu->why);
    return NULL;
  }
  pkr_cu_graph graph = NULL;
  pkr_cu_result r = cu->end(PKR_CU_STREAM_PER_THREAD, &graph);
  if (r) {
    if (r == PKR_CU_ERROR_INVALIDATED)
      pkr_gmsg(err, errlen, "the capture was invalidated: a call in the step synchronised "
                            "with the host or used the legacy default stream");
    else
      pkr_cu_fail(cu, r, "cuStreamEndCapture", err, errlen);
    if (graph) cu->graph_destroy(graph);
    return NULL;
  }
  size_t n = 0;
  cu->nodes(graph, NULL, &n);
  if (!n || pkr_graph_has_copy(cu, graph, n)) {
    cu->graph_destroy(graph);
    pkr_gmsg(err, errlen, !n ? "the capture holds no kernel: the step's kernels did not "
                               "launch on the per-thread default stream"
                             : "the capture holds a memory copy: a kernel whose arguments "
                               "Kokkos copies from host memory at each launch (a functor of "
                               "512 bytes or more, launched through constant memory) or a "
                               "copy in the step would replay stale data");
    return NULL;
  }
  /* node priorities: the halo's kernels (launched at the greatest stream
   * priority) run ahead of an update on another branch; drivers before
   * CUDA 11.7 do not know the flag */
  pkr_cu_graph_exec exec = NULL;
  r = cu->instantiate(&exec, graph, PKR_CU_INSTANTIATE_NODE_PRIORITY);
  if (r) r = cu->instantiate(&exec, graph, 0);
  cu->graph_destroy(graph);
  if (r) {
    pkr_cu_fail(cu, r, "cuGraphInstantiate", err, errlen);
    return NULL;
  }
  pkr_graph *g = (pkr_graph *)calloc(1, sizeof *g);
  if (!g) {
    cu->exec_destroy(exec);
    pkr_gmsg(err, errlen, "out of memory");
    return NULL;
  }
  g->exec = exec;
  g->nodes = n;
  return g;
}

size_t pkr_graph_nodes(const pkr_graph *g) { return g ? g->nodes : 0; }

int pkr_graph_launch(pkr_graph *g, long count, char *err, size_t errlen) {
  const pkr_cuda *cu = pkr_cuda_get();
  if (!g || !cu->ok || count < 0) {
    pkr_gmsg(err, errlen, "pkr_graph_launch: %s", !g ? "no graph" : count < 0 ? "count < 0" : cu->why);
    return -1;
  }
  for (long i = 0; i < count; i++) {
    pkr_cu_result r = cu->launch(g->exec, PKR_CU_STREAM_PER_THREAD);
    if (r) {
      pkr_cu_fail(cu, r, "cuGraphLaunch", err, errlen);
      return -1;
    }
  }
  return 0;
}

int pkr_graph_sync(char *err, size_t errlen) {
  const pkr_cuda *cu = pkr_cuda_get();
  if (!cu->ok) {
    pkr_gmsg(err, errlen, "%s", cu->why);
    return -1;
  }
  pkr_cu_result r = cu->sync(PKR_CU_STREAM_PER_THREAD);
  if (r) pkr_cu_fail(cu, r, "cuStreamSynchronize", err, errlen);
  return r ? -1 : 0;
}

void pkr_graph_destroy(pkr_graph *g) {
  if (!g) return;
  const pkr_cuda *cu = pkr_cuda_get();
  if (cu->ok && g->exec) cu->exec_destroy(g->exec);
  free(g);
}

int pkr_graph_branches_available(void) {
  const pkr_cuda *cu = pkr_cuda_get();
  return cu->ok && (cu->info3 || cu->info2) && (cu->update2 || cu->update1);
}

long pkr_graph_deps(void **nodes, size_t cap, char *err, size_t errlen) {
  const pkr_cuda *cu = pkr_cuda_get();
  if (!pkr_graph_branches_available()) {
    pkr_gmsg(err, errlen, "%s", cu->ok ? "the CUDA driver cannot read a capture's "
                                         "dependencies (CUDA >= 11.3 needed)" : cu->why);
    return -1;
  }
  int status = 0;
  pkr_cu_u64 id = 0;
  pkr_cu_graph graph = NULL;
  void *const *deps = NULL;
  size_t n = 0;
  pkr_cu_result r = cu->info3 ? cu->info3(PKR_CU_STREAM_PER_THREAD, &status, &id, &graph, &deps,
                                          NULL, &n)
                              : cu->info2(PKR_CU_STREAM_PER_THREAD, &status, &id, &graph, &deps, &n);
  if (r) {
    pkr_cu_fail(cu, r, "cuStreamGetCaptureInfo", err, errlen);
    return -1;
  }
  if (status != PKR_CU_CAPTURE_ACTIVE) {
    pkr_gmsg(err, errlen, "the per-thread default stream is not being captured");
    return -1;
  }
  for (size_t i = 0; i < n && i < cap; i++)
    nodes[i] = deps[i];
  return (long)n;
}

int pkr_graph_set_deps(void *const *nodes, size_t n, char *err, size_t errlen) {
  const pkr_cuda *cu = pkr_cuda_get();
  if (!pkr_graph_branches_available()) {
    pkr_gmsg(err, errlen, "%s", cu->ok ? "the CUDA driver cannot set a capture's "
                                         "dependencies (CUDA >= 11.3 needed)" : cu->why);
    return -1;
  }
  pkr_cu_result r = cu->update2 ? cu->update2(PKR_CU_STREAM_PER_THREAD, nodes, NULL, n,
                                              PKR_CU_SET_CAPTURE_DEPS)
                                : cu->update1(PKR_CU_STREAM_PER_THREAD, nodes, n,
                                              PKR_CU_SET_CAPTURE_DEPS);
  if (r) pkr_cu_fail(cu, r, "cuStreamUpdateCaptureDependencies", err, errlen);
  return r ? -1 : 0;
}

int pkr_graph_set_deps_started(void *const *nodes, size_t n, void *const *started, size_t m,
                               char *err, size_t errlen) {
  const pkr_cuda *cu = pkr_cuda_get();
  if (!m) return pkr_graph_set_deps(nodes, n, err, errlen);
  if (!pkr_graph_branches_available() || !cu->update2) {
    pkr_gmsg(err, errlen, "%s", cu->ok ? "the CUDA driver cannot annotate a capture's edges "
                                         "(CUDA >= 12.3 needed)" : cu->why);
    return -1;
  }
  for (size_t i = 0; i < m; i++) {
    int type = -1;
    if (!started[i] || cu->node_type(started[i], &type) || type != PKR_CU_NODE_KERNEL) {
      pkr_gmsg(err, errlen, "a node to wait for the start of is not a kernel");
      return -1;
    }
  }
  void **all = (void **)calloc(n + m, sizeof *all);
  pkr_cu_edge *edges = (pkr_cu_edge *)calloc(n + m, sizeof *edges);
  if (!all || !edges) {
    free(all);
    free(edges);
    pkr_gmsg(err, errlen, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < n; i++) all[i] = nodes[i];
  for (size_t i = 0; i < m; i++) {
    all[n + i] = started[i];
    edges[n + i].from_port = PKR_CU_PORT_LAUNCH_ORDER;
    edges[n + i].type = PKR_CU_DEPENDENCY_PROGRAMMATIC;
  }
  pkr_cu_result r = cu->update2(PKR_CU_STREAM_PER_THREAD, all, edges, n + m,
                                PKR_CU_SET_CAPTURE_DEPS);
  free(all);
  free(edges);
  if (r) pkr_cu_fail(cu, r, "cuStreamUpdateCaptureDependencies_v2 (launch order)", err, errlen);
  return r ? -1 : 0;
}

int pkr_graph_set_urgent(void *const *nodes, size_t n, char *err, size_t errlen) {
  const pkr_cuda *cu = pkr_cuda_get();
  if (!cu->ok || !cu->set_attr || !cu->priorities) {
    pkr_gmsg(err, errlen, "%s", cu->ok ? "the CUDA driver cannot set a graph node's priority "
                                         "(CUDA >= 11.7 needed)" : cu->why);
    return -1;
  }
  int least = 0, greatest = 0;
  pkr_cu_result r = cu->priorities(&least, &greatest);
  if (r) {
    pkr_cu_fail(cu, r, "cuCtxGetStreamPriorityRange", err, errlen);
    return -1;
  }
  int set = 0;
  for (size_t i = 0; i < n; i++) {
    int type = -1;
    if (!nodes[i] || cu->node_type(nodes[i], &type) || type != PKR_CU_NODE_KERNEL) continue;
    union { int priority; unsigned char bytes[64]; } value; /* CUlaunchAttributeValue */
    memset(&value, 0, sizeof value);
    value.priority = greatest;
    r = cu->set_attr(nodes[i], PKR_CU_ATTR_PRIORITY, &value);
    if (r) {
      pkr_cu_fail(cu, r, "cuGraphKernelNodeSetAttribute", err, errlen);
      return -1;
    }
    set++;
  }
  return set;
}
