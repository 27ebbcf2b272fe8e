"""PyKokkos' pykokkos.interface.data_types: DataType (the dtypes by name),
DataTypeClass (base class of every dtype) and the dtypes themselves."""
from .._types import (_DataTypeNamespace as DataType, DataTypeClass, int8, int16,
                      int32, int64, uint8, uint16, uint32, uint64, float32, float64,
                      double, real, bool_)

int = int32  # noqa: A001
float = float32  # noqa: A001
bool = bool_  # noqa: A001

# pk.int / pk.float / pk.bool are left out of __all__ so that a star import
# keeps Python's builtins int, float and bool (import them by name).
__all__ = ["DataType", "DataTypeClass", "int8", "int16", "int32", "int64", "uint8",
           "uint16", "uint32", "uint64", "float32", "float64", "double", "real"]
