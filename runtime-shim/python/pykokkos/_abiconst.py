"""The values of runtime-shim/pkc_abi.h's enums and of the DLPack device
types the shim compares with, without ctypes (cheap to import). The names
are the header's without the PKC_ prefix; tests/shim/test_errors.py reads
the header and checks every value here against it."""

ABI_VERSION = 3
PATTERN_FOR, PATTERN_REDUCE, PATTERN_SCAN, PATTERN_MAIN = 0, 1, 2, 3
POLICY_RANGE, POLICY_MDRANGE, POLICY_TEAM = 0, 1, 2
REDUCER_SUM, REDUCER_PROD, REDUCER_MIN, REDUCER_MAX = 0, 1, 2, 3
REDUCER_MAXLOC, REDUCER_MINLOC = 4, 5
REDUCER_BAND, REDUCER_BOR, REDUCER_LAND, REDUCER_LOR = 6, 7, 8, 9
REDUCER_MINMAX, REDUCER_MINMAXLOC = 10, 11
PARAM_SCALAR, PARAM_VIEW, PARAM_POOL, PARAM_CLASS_VIEW = 0, 1, 2, 3
LAYOUT_DEFAULT, LAYOUT_RIGHT, LAYOUT_LEFT, LAYOUT_AOS, LAYOUT_SOA = 0, 1, 2, 3, 4
ACCESS_READ, ACCESS_WRITE = 1, 2
PARAM_FROM_GLOBAL = 1
ERROR_RUNTIME, ERROR_VALUE, ERROR_ZERO_DIVISION, ERROR_INDEX = 1, 2, 3, 4
KERNEL_INFERRED = 1

# DLPack (dlpack.h) device types
kDLCPU, kDLCUDA, kDLCUDAManaged, kDLROCM = 1, 2, 13, 10
