/*
 * pkcrt.h - libpkcrt: load pkc-built modules and call their kernels from C,
 * C++, Fortran (via ISO_C_BINDING) or Python (ctypes).
 *
 * A module is a shared library built by `pkc build` exporting
 * PKC_MODULE_SYMBOL (see pkc_abi.h). The library never aborts on bad
 * arguments: every function reports failure by its return value and, where it
 * takes an (err, errlen) pair, writes a NUL-terminated message there.
 *
 * Thread-safety: Kokkos is process-wide, so is the one piece of global state
 * kept here (which module initialized Kokkos, and whether the atexit
 * finalizer is registered); it is guarded by a mutex, so pkr_open/pkr_close
 * may be called from any thread. pkr_call may run concurrently on different
 * kernels as far as Kokkos allows it (one host thread per execution space
 * instance is the safe rule).
 */
#ifndef PKCRT_H
#define PKCRT_H

#include <stddef.h>

#include "pkc_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define PKR_API __attribute__((visibility("default")))
#else
#define PKR_API
#endif

/* An opened module (opaque). Owned by the caller; release with pkr_close. */
typedef struct pkr_module pkr_module;

/* Loads the module at so_path (dlopen RTLD_NOW|RTLD_GLOBAL), checks its ABI
 * version and initializes Kokkos if no module of this process has yet
 * (num_threads <= 0: Kokkos' default). The first call that initializes Kokkos
 * registers an atexit handler that finalizes it through that module.
 * Returns a new handle, or NULL with a message in err (errlen bytes). */
PKR_API pkr_module *pkr_open(const char *so_path, int num_threads, char *err,
                             size_t errlen);

/* The module's descriptor table (owned by the module; valid until process
 * exit since modules are never unloaded). NULL if m is NULL. */
PKR_API const pkc_module_desc *pkr_descriptor(const pkr_module *m);

/* The kernel named (entity, name), or NULL if m has none (or an argument is
 * NULL). entity: functor class name (ClassSty) or function name (FunctionSty). */
PKR_API const pkc_kernel_desc *pkr_find_kernel(const pkr_module *m,
                                              const char *entity,
                                              const char *name);

/* Runs kernel k of module m: args[i] points at a pkc_value (scalar or pool
 * param i) or a DLTensor (View param i), in descriptor order; policy may be
 * NULL (and is passed as NULL) for a PKC_PATTERN_MAIN kernel; result receives a
 * reduction's value or a scan's total (may be NULL for parallel_for).
 * Returns 0 on success, non-zero with a message in err on failure (NULL
 * arguments, a kernel the wrapper rejects: wrong dtype, rank, device...). */
PKR_API int pkr_call(const pkr_module *m, const pkc_kernel_desc *k,
                     void *const *args, const pkc_policy *policy,
                     pkc_value *result, char *err, size_t errlen);

/* Waits for all outstanding work of m's execution space (Kokkos::fence).
 * Returns 0, or -1 if m is NULL. */
PKR_API int pkr_fence(const pkr_module *m);

/* Frees the handle. The shared library itself is NOT dlclose'd: Kokkos may
 * still need its code (kernels registered with Kokkos, the atexit finalizer),
 * so the code stays mapped until process exit. NULL is ignored. */
PKR_API void pkr_close(pkr_module *m);

/* Finalizes Kokkos now through the module that initialized it (what the
 * atexit handler does): first runs the registered cleanups (newest first),
 * then Kokkos::finalize; later calls and the atexit handler do nothing. Call
 * it only when no kernel runs and no Kokkos allocation is left. */
PKR_API void pkr_finalize(void);

/* Registers fn(ctx) to run before Kokkos is finalized (at exit or in
 * pkr_finalize), e.g. to pool_destroy random pools a C host created. Returns
 * 0, or -1 if fn is NULL or the table (64 entries) is full. */
PKR_API int pkr_register_cleanup(void (*fn)(void *), void *ctx);

/* CUDA graphs of a time step (pykokkos' pk.Graph; pkcrt_graph.c). Kernels
 * of CUDA modules built with CXXFLAGS='--default-stream per-thread' launch
 * on the per-thread default stream, which these functions capture and
 * replay through the CUDA driver (dlopen'ed: no CUDA is needed to build
 * libpkcrt). Every function returns failure with a message in err where
 * there is no driver. */
typedef struct pkr_graph pkr_graph;

/* 1 if the CUDA driver offers stream capture, else 0 (why in err). */
PKR_API int pkr_graph_available(char *err, size_t errlen);

/* Starts capturing the calling thread's per-thread default stream
 * (thread-local mode). Returns 0, or -1 with a message. */
PKR_API int pkr_graph_begin(char *err, size_t errlen);

/* Ends the capture begun by pkr_graph_begin and instantiates it. Returns
 * the graph, or NULL with a message (capture invalidated by a host
 * synchronisation or a legacy-stream launch, or no kernel captured). */
PKR_API pkr_graph *pkr_graph_end(char *err, size_t errlen);

/* Number of nodes (kernels, copies, NCCL calls) g holds; 0 for NULL. */
PKR_API size_t pkr_graph_nodes(const pkr_graph *g);

/* Launches g count times on the per-thread default stream (asynchronous).
 * Returns 0, or -1 with a message. */
PKR_API int pkr_graph_launch(pkr_graph *g, long count, char *err, size_t errlen);

/* Waits for the per-thread default stream. Returns 0, or -1 with a message. */
PKR_API int pkr_graph_sync(char *err, size_t errlen);

/* Frees g (NULL is ignored). */
PKR_API void pkr_graph_destroy(pkr_graph *g);

/* Branches of a capture (pk.Graph orders launches by what they touch): 1 if
 * the driver can read and set the capture's dependencies (CUDA >= 11.3),
 * else 0. */
PKR_API int pkr_graph_branches_available(void);

/* The nodes the next operation captured on the per-thread default stream
 * will depend on: the first cap of them into nodes (opaque CUgraphNode
 * handles, owned by the capture). Returns how many there are, or -1 with a
 * message (not capturing, no driver support). */
PKR_API long pkr_graph_deps(void **nodes, size_t cap, char *err, size_t errlen);

/* Makes the next operation captured on the per-thread default stream depend
 * on nodes[0..n-1] only (handles from pkr_graph_deps; n 0: a new root).
 * Returns 0, or -1 with a message. */
PKR_API int pkr_graph_set_deps(void *const *nodes, size_t n, char *err, size_t errlen);

/* pkr_graph_set_deps, plus started[0..m-1]: kernel nodes the next captured
 * kernel waits for only until all their blocks have begun (CUDA's launch-
 * order port, a programmatic edge: no memory visibility), so that their
 * blocks hold SMs before its own. Returns 0, or -1 with a message (driver
 * before CUDA 12.3, a node that is not a kernel). */
PKR_API int pkr_graph_set_deps_started(void *const *nodes, size_t n, void *const *started,
                                       size_t m, char *err, size_t errlen);

/* Gives the kernel nodes among nodes[0..n-1] (handles from pkr_graph_deps,
 * nodes of the graph being captured; other nodes are skipped) the device's
 * greatest priority: once the graph is instantiated with node priorities
 * (pkr_graph_end), their blocks are scheduled ahead of waiting blocks of
 * other kernels (CUDA's kernel node priority). Returns how many were set,
 * or -1 with a message (driver older than CUDA 11.7, no driver). */
PKR_API int pkr_graph_set_urgent(void *const *nodes, size_t n, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* PKCRT_H */
