"""PyKokkos' pykokkos.interface.views: View, the View annotations, array
creation from numpy/CuPy (see pykokkos._array for the rules)."""
from .._types import (View1D, View2D, View3D, View4D, View5D, View6D, View7D, View8D,
                      ScratchView1D, ScratchView2D, ScratchView3D, ViewTypeInfo)
from .._view import View, from_numpy
from .._view_api import subview, deep_copy, resize_view as resize
from .._array import array, asarray, from_cupy, astype

ViewType = View

__all__ = ["View", "ViewType", "View1D", "View2D", "View3D", "View4D", "View5D",
           "View6D", "View7D", "View8D", "ScratchView1D", "ScratchView2D",
           "ScratchView3D", "ViewTypeInfo", "from_numpy", "from_cupy", "array",
           "asarray", "astype", "subview", "deep_copy", "resize"]
