"""Operation numbers shared by the array library's kernels and its host
functions (pure data, no imports: scripts/gen_array_kernels.py reads it to
write the kernel modules, pykokkos.lib.ufuncs to call them).

Each kernel family takes an `op` argument selecting one operation; the
branch is the same for every element, so it costs a predictable jump."""

# Element types the kernels are built for: (pk name, short suffix, kind),
# kind: "s" signed, "u" unsigned integer, "f" floating point, "b" bool.
DTYPES = (("int8", "i8", "s"), ("int16", "i16", "s"), ("int32", "i32", "s"),
          ("int64", "i64", "s"), ("uint8", "u8", "u"), ("uint16", "u16", "u"),
          ("uint32", "u32", "u"), ("uint64", "u64", "u"),
          ("float32", "f32", "f"), ("float64", "f64", "f"), ("bool", "b", "b"))

# Accumulator type of sum/prod (numpy's: small signed ints sum in int64,
# unsigned in uint64, bool in int64, floats in their own type).
ACCUMULATOR = {"s": "int64", "u": "uint64", "b": "int64"}

# binary_<dt>(a, b) -> same dtype; numpy ufunc name -> (op, kinds it runs on)
BINARY = {
    "add": (0, "suf"), "subtract": (1, "suf"), "multiply": (2, "suf"),
    "true_divide": (3, "f"), "floor_divide": (4, "suf"), "remainder": (5, "suf"),
    "fmod": (6, "suf"), "power": (7, "suf"), "maximum": (8, "suf"),
    "minimum": (9, "suf"), "fmax": (10, "suf"), "fmin": (11, "suf"),
    "copysign": (12, "f"), "hypot": (13, "f"), "arctan2": (14, "f"),
    "logaddexp": (15, "f"), "logaddexp2": (16, "f"),
    "bitwise_and": (17, "su"), "bitwise_or": (18, "su"), "bitwise_xor": (19, "su"),
    "left_shift": (20, "su"), "right_shift": (21, "su"),
}

# compare_<dt>(a, b) -> bool
COMPARE = {
    "equal": 0, "not_equal": 1, "less": 2, "less_equal": 3, "greater": 4,
    "greater_equal": 5, "logical_and": 6, "logical_or": 7, "logical_xor": 8,
}

# unary_<dt>(a) -> same dtype; name -> (op, kinds)
UNARY = {
    "negative": (0, "suf"), "positive": (1, "sufb"), "absolute": (2, "suf"),
    "sign": (3, "suf"), "square": (4, "suf"), "reciprocal": (5, "suf"),
    "invert": (6, "sub"), "floor": (7, "f"), "ceil": (8, "f"), "trunc": (9, "f"),
    "rint": (10, "f"), "sqrt": (11, "f"), "cbrt": (12, "f"), "exp": (13, "f"),
    "exp2": (14, "f"), "expm1": (15, "f"), "log": (16, "f"), "log2": (17, "f"),
    "log10": (18, "f"), "log1p": (19, "f"), "sin": (20, "f"), "cos": (21, "f"),
    "tan": (22, "f"), "arcsin": (23, "f"), "arccos": (24, "f"),
    "arctan": (25, "f"), "sinh": (26, "f"), "cosh": (27, "f"), "tanh": (28, "f"),
    "arcsinh": (29, "f"), "arccosh": (30, "f"), "arctanh": (31, "f"),
    "deg2rad": (32, "f"), "rad2deg": (33, "f"),
}

# predicate_<dt>(a) -> bool
PREDICATE = {"logical_not": 0, "isnan": 1, "isinf": 2, "isfinite": 3, "signbit": 4}

# reduce_<dt>: out[o] = op over k elements (accumulator dtype, see ACCUMULATOR)
REDUCE = {"sum": 0, "prod": 1, "max": 2, "min": 3, "count_nonzero": 4}

# Element types matmul/dgemm kernels are built for (others are converted).
GEMM = ("int32", "int64", "float32", "float64")
