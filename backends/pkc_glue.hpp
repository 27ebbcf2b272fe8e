// pkc_glue.hpp - the functions of generated modules that are no templates
// ("glue": the descriptor's module functions, the wrappers' argument and
// launch-range checks), declared without Kokkos.
//
// Their definitions are in pkc_kokkos.hpp. pkc's fast build (openmp/serial)
// compiles them once per toolchain into pkc_glue.o, links that object into
// every module (a module stays self-contained) and defines PKC_PREBUILT_GLUE
// for the module's compile, which then only declares them. Without
// PKC_PREBUILT_GLUE (the CMake build, CUDA/HIP) they are inline functions of
// pkc_kokkos.hpp, compiled in each module. A module with no kernels of its
// own (every workunit typed at run time) includes only this header.
#ifndef PKC_GLUE_HPP
#define PKC_GLUE_HPP

#include <cstddef>
#include <cstdint>

#include "pkc_abi.h"

#define PKC_EXPORT __attribute__((visibility("default")))

#ifndef PKC_BACKEND_NAME
#define PKC_BACKEND_NAME "unknown"
#endif

#if defined(PKC_PREBUILT_GLUE)
#define PKC_GLUE  // defined once, in the toolchain's pkc_glue.o
#else
#define PKC_GLUE inline
#endif

namespace pkc {

// Where the backend's memory is (DLPack device type), and whether a GPU.
#if defined(PKC_BACKEND_SERIAL) || defined(PKC_BACKEND_OPENMP)
constexpr int32_t device_type = kDLCPU;
constexpr bool on_device = false;
#elif defined(PKC_BACKEND_CUDA)
constexpr int32_t device_type = kDLCUDA;
constexpr bool on_device = true;
#elif defined(PKC_BACKEND_HIP)
constexpr int32_t device_type = kDLROCM;
constexpr bool on_device = true;
#else
#error "pkc: define one of PKC_BACKEND_SERIAL, _OPENMP, _CUDA, _HIP"
#endif

// One field of a classtype: its name, byte offset in the struct and dtype.
struct field_desc {
  const char *name;
  size_t offset;
  uint8_t code, bits;
};

// ---- module functions (pkc_module_desc, pkc_abi.h)
PKC_GLUE int initialize(int num_threads, char *err, size_t errlen);
PKC_GLUE void finalize();
PKC_GLUE void fence();
PKC_GLUE void *allocate(size_t bytes, char *err, size_t errlen);
PKC_GLUE void deallocate(void *p);
PKC_GLUE int copy(void *dst, int dst_dev, const void *src, int src_dev, size_t n, char *err,
                  size_t errlen);
PKC_GLUE const char *kokkos_version();  // "3.4.1"

// ---- wrappers: errors, arguments, launch ranges (pkc_kokkos.hpp says more)
// "kernel: what" into err; returns 1.
PKC_GLUE int fail(char *err, size_t errlen, const char *kernel, const char *what);
// Kokkos is initialized (else fails).
PKC_GLUE bool ready(const char *kernel, char *err, size_t errlen);
// The DLTensor arg when it can be an unmanaged View of that rank, dtype
// (code, bits; its name type) and layout; else nullptr, the reason in err.
PKC_GLUE const DLTensor *checked_tensor(const void *arg, int rank, uint8_t code, uint8_t bits,
                                        const char *type, bool left, const char *kernel,
                                        const char *name, char *err, size_t errlen);
// The layout of a class-View argument (PKC_LAYOUT_AOS or _SOA; 0 if NULL).
PKC_GLUE int32_t class_layout(const void *arg);
// A class-View argument's header and fields against classtype cls.
PKC_GLUE bool class_view_ok(const pkc_class_view *c, int32_t layout, int rank,
                            const field_desc *f, int nf, const char *cls, const char *kernel,
                            const char *name, char *err, size_t errlen);
// The Python error a launch recorded, as the wrapper's result and message.
PKC_GLUE int kernel_failed(int e, const char *kernel, const char *where, char *err,
                           size_t errlen);
// Whether work index range [begin, end) keeps a View's index in range.
PKC_GLUE bool range_fits(int64_t begin, int64_t end, int64_t lo, int64_t hi, int64_t extent,
                         const char *kernel, const char *view, int dim, const char *work,
                         char *err, size_t errlen);
// range_fits inside @pk.main: throws pkc::range_error.
PKC_GLUE void main_range_fits(int64_t begin, int64_t end, int64_t lo, int64_t hi,
                              int64_t extent, const char *kernel, const char *view, int dim,
                              const char *work);
// Whether the host's MDRange tiles fit the backend (pkc_dialect.hpp).
PKC_GLUE bool tiles_fit(const pkc_policy &p, int rank, const char *kernel, char *err,
                        size_t errlen);

}  // namespace pkc

#if !defined(PKC_PREBUILT_GLUE)
#include "pkc_kokkos.hpp"  // the definitions, inline
#endif

#endif  // PKC_GLUE_HPP
