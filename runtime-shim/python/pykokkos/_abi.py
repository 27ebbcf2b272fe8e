"""ctypes mirrors of runtime-shim/pkc_abi.h and <dlpack/dlpack.h> (ABI 2).

Imported lazily (on the first View handed to a kernel or the first module
load) because ctypes costs a few milliseconds to import.
"""
from ctypes import (CFUNCTYPE, POINTER, Structure, Union, c_char_p, c_int,
                    c_int16, c_int32, c_int64, c_size_t, c_uint8, c_uint16,
                    c_uint32, c_uint64, c_void_p, c_double)

from ._abiconst import (  # noqa: F401  (the enum values: one source, _abiconst)
    ABI_VERSION as PKC_ABI_VERSION, KERNEL_INFERRED, PATTERN_FOR, PATTERN_REDUCE,
    PATTERN_SCAN, PATTERN_MAIN, POLICY_RANGE, POLICY_MDRANGE, POLICY_TEAM,
    PARAM_SCALAR, PARAM_VIEW, PARAM_POOL, PARAM_CLASS_VIEW, REDUCER_SUM, REDUCER_PROD, REDUCER_MIN,
    REDUCER_MAX, REDUCER_MAXLOC, REDUCER_MINLOC, REDUCER_MINMAX, REDUCER_MINMAXLOC,
    ACCESS_READ, ACCESS_WRITE,
    ERROR_RUNTIME, ERROR_VALUE, ERROR_ZERO_DIVISION, ERROR_INDEX, PARAM_FROM_GLOBAL,
    LAYOUT_DEFAULT, LAYOUT_RIGHT, LAYOUT_LEFT, LAYOUT_AOS, LAYOUT_SOA, kDLCPU, kDLCUDA, kDLCUDAManaged, kDLROCM)
ITERATE_DEFAULT, ITERATE_RIGHT, ITERATE_LEFT = 0, 1, 2


class DLDevice(Structure):
    _fields_ = [("device_type", c_int), ("device_id", c_int)]


class DLDataType(Structure):
    _fields_ = [("code", c_uint8), ("bits", c_uint8), ("lanes", c_uint16)]


class DLTensor(Structure):
    _fields_ = [("data", c_void_p), ("device", DLDevice), ("ndim", c_int),
                ("dtype", DLDataType), ("shape", POINTER(c_int64)),
                ("strides", POINTER(c_int64)), ("byte_offset", c_uint64)]


class pkc_class_view(Structure):
    """A View of classtype values (pkc_abi.h): one DLTensor per field."""
    _fields_ = [("layout", c_int32), ("nfields", c_int32), ("fields", POINTER(DLTensor))]


class pkc_value(Union):
    _fields_ = [("i", c_int64), ("u", c_uint64), ("f", c_double)]


class pkc_param_desc(Structure):
    _fields_ = [("name", c_char_p), ("kind", c_int32), ("dtype_code", c_uint8),
                ("dtype_bits", c_uint8), ("rank", c_int16), ("layout", c_int32),
                ("access", c_int32), ("flags", c_int32)]


class pkc_gate(Structure):
    _fields_ = [("counter", c_void_p), ("target", c_uint32), ("scope", c_int32),
                ("head", c_int64 * 8), ("tail", c_int64 * 8)]


class pkc_policy(Structure):
    _fields_ = [("kind", c_int32), ("rank", c_int32), ("begin", c_int64 * 8),
                ("end", c_int64 * 8), ("tile", c_int64 * 8),
                ("league_size", c_int64), ("team_size", c_int64),
                ("vector_length", c_int64), ("scratch_team", c_int64 * 2),
                ("scratch_thread", c_int64 * 2),
                ("iterate", c_int32), ("reserved", c_int32), ("gate", c_void_p)]


# The kernel entry point, with every pointer passed as a plain address: the
# cheapest conversion ctypes has (see _dispatch: all addresses are fixed).
KERNEL_FN = CFUNCTYPE(c_int, c_void_p, c_void_p, c_void_p, c_void_p, c_size_t)


class pkc_kernel_desc(Structure):
    _fields_ = [("name", c_char_p), ("entity", c_char_p), ("pattern", c_int32),
                ("policy", c_int32), ("reducer", c_int32), ("nparams", c_int32),
                ("params", POINTER(pkc_param_desc)), ("result_code", c_uint8),
                ("result_bits", c_uint8), ("line", c_int32), ("fn", c_void_p),
                ("flags", c_int32)]


class pkc_module_desc(Structure):
    _fields_ = [("abi_version", c_uint32), ("pkc_version", c_char_p),
                ("source_path", c_char_p), ("source_sha256", c_char_p),
                ("cache_key", c_char_p), ("backend", c_char_p),
                ("kokkos_version", c_char_p), ("device_type", c_int32),
                ("nkernels", c_int32), ("kernels", POINTER(pkc_kernel_desc)),
                ("initialize", c_void_p), ("finalize", c_void_p),
                ("fence", c_void_p), ("allocate", c_void_p),
                ("deallocate", c_void_p), ("copy", c_void_p),
                ("pool_create", c_void_p), ("pool_destroy", c_void_p),
                ("omitted", c_char_p)]


# pool_create(bits, seed, err, errlen) -> handle; pool_destroy(bits, handle)
POOL_CREATE_FN = CFUNCTYPE(c_void_p, c_int32, c_uint64, c_char_p, c_size_t)
POOL_DESTROY_FN = CFUNCTYPE(None, c_int32, c_void_p)


def bind_runtime(lib):
    """Sets argtypes/restype of libpkcrt's functions (lib: a ctypes.CDLL)."""
    lib.pkr_open.argtypes = [c_char_p, c_int, c_char_p, c_size_t]
    lib.pkr_open.restype = c_void_p
    lib.pkr_descriptor.argtypes = [c_void_p]
    lib.pkr_descriptor.restype = POINTER(pkc_module_desc)
    lib.pkr_find_kernel.argtypes = [c_void_p, c_char_p, c_char_p]
    lib.pkr_find_kernel.restype = POINTER(pkc_kernel_desc)
    lib.pkr_call.argtypes = [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                             c_char_p, c_size_t]
    lib.pkr_call.restype = c_int
    lib.pkr_fence.argtypes = [c_void_p]
    lib.pkr_fence.restype = c_int
    lib.pkr_close.argtypes = [c_void_p]
    lib.pkr_close.restype = None
    lib.pkr_finalize.argtypes = []
    lib.pkr_finalize.restype = None
    lib.pkr_register_cleanup.argtypes = [c_void_p, c_void_p]
    lib.pkr_register_cleanup.restype = c_int
    return lib
