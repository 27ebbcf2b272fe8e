"""PyKokkos' pykokkos.interface.decorators: the entity decorators."""
from .._types import (workunit, functor, function, workload, main, callback,
                      classtype, Trait, ViewTypeInfo)

__all__ = ["workunit", "functor", "function", "workload", "main", "callback",
           "classtype", "Trait", "ViewTypeInfo"]
