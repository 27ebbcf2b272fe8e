/* fake_cuda.c - a stand-in for the CUDA driver (libcuda.so.1) with the
 * entry points libpkcrt's graph code (runtime-shim/pkcrt_graph.c) opens, so
 * that tests/shim/test_graph_driver.py can check that code without a GPU.
 * Every call is logged to stdout; FAKE_CUDA_NODES (node types of the
 * captured graph, comma-separated, e.g. "0,0,1"), FAKE_CUDA_END (the
 * result of cuStreamEndCapture) and FAKE_CUDA_NO_PRIORITY (instantiation
 * with node priorities fails, as before CUDA 11.7) steer it. The capture's
 * dependencies are whatever cuStreamUpdateCaptureDependencies_v2 last set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
static int fake_graph, fake_exec, fake_nodes[16];
static void *fake_deps[16];
static size_t fake_ndeps;

static int node_types(int *out) {
  const char *s = getenv("FAKE_CUDA_NODES");
  int n = 0;
  while (s && *s && n < 16) {
    out[n++] = atoi(s);
    s = strchr(s, ',');
    s = s ? s + 1 : NULL;
  }
  return n;
}

CUresult cuStreamBeginCapture_v2(void *stream, int mode) {
  printf("begin stream=%p mode=%d\n", stream, mode);
  fflush(stdout);
  return 0;
}

CUresult cuStreamEndCapture(void *stream, void **graph) {
  printf("end stream=%p\n", stream);
  fflush(stdout);
  *graph = &fake_graph;
  return getenv("FAKE_CUDA_END") ? atoi(getenv("FAKE_CUDA_END")) : 0;
}

CUresult cuGraphGetNodes(void *graph, void **nodes, size_t *n) {
  int types[16];
  size_t k = (size_t)node_types(types);
  if (nodes)
    for (size_t i = 0; i < k && i < *n; i++) {
      fake_nodes[i] = types[i];
      nodes[i] = &fake_nodes[i];
    }
  *n = k;
  return graph == &fake_graph ? 0 : 1;
}

CUresult cuGraphNodeGetType(void *node, int *type) {
  *type = *(int *)node;
  return 0;
}

CUresult cuGraphInstantiateWithFlags(void **exec, void *graph, unsigned long long flags) {
  printf("instantiate flags=%llu\n", flags);
  fflush(stdout);
  if (flags && getenv("FAKE_CUDA_NO_PRIORITY"))
    return 1;
  *exec = &fake_exec;
  return graph == &fake_graph ? 0 : 1;
}

CUresult cuGraphLaunch(void *exec, void *stream) {
  printf("launch exec=%d stream=%p\n", exec == &fake_exec, stream);
  fflush(stdout);
  return 0;
}

CUresult cuStreamSynchronize(void *stream) {
  printf("sync stream=%p\n", stream);
  fflush(stdout);
  return 0;
}

CUresult cuGraphExecDestroy(void *exec) {
  printf("exec destroy %d\n", exec == &fake_exec);
  fflush(stdout);
  return 0;
}

CUresult cuGraphDestroy(void *graph) {
  printf("graph destroy %d\n", graph == &fake_graph);
  fflush(stdout);
  return 0;
}

CUresult cuGetErrorName(CUresult r, const char **name) {
  *name = r == 901 ? "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED" : "CUDA_ERROR_FAKE";
  return 0;
}

CUresult cuStreamGetCaptureInfo_v3(void *stream, int *status, unsigned long long *id, void **graph,
                                   void *const **deps, const void **edges, size_t *n) {
  printf("capture info stream=%p\n", stream);
  fflush(stdout);
  *status = 1; /* active */
  *id = 7;
  *graph = &fake_graph;
  *deps = fake_deps;
  if (edges)
    *edges = NULL;
  *n = fake_ndeps;
  return 0;
}

CUresult cuStreamUpdateCaptureDependencies_v2(void *stream, void *const *deps, const void *edges,
                                              size_t n, unsigned flags) {
  printf("set deps stream=%p n=%zu flags=%u edges=%p\n", stream, n, flags, edges);
  for (size_t i = 0; edges && i < n; i++) { /* CUgraphEdgeData: from_port, to_port, type */
    const unsigned char *e = (const unsigned char *)edges + 8 * i;
    printf("edge %zu from_port=%d to_port=%d type=%d\n", i, e[0], e[1], e[2]);
  }
  fflush(stdout);
  if (n > 16)
    return 1;
  for (size_t i = 0; i < n; i++)
    fake_deps[i] = deps[i];
  fake_ndeps = n;
  return 0;
}

/* Kernel node priorities (pkr_graph_set_urgent): the range of a device
 * whose greatest priority is -5; each attribute set is logged with the
 * node's type (the node is an int holding it, as cuGraphGetNodes makes). */
CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest) {
  *least = 0;
  *greatest = -5;
  return 0;
}

CUresult cuGraphKernelNodeSetAttribute(void *node, int attr, const void *value) {
  printf("node attribute type=%d attr=%d priority=%d\n", *(int *)node, attr, *(const int *)value);
  fflush(stdout);
  return 0;
}
