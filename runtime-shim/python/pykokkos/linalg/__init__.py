"""Linear algebra of the array library (PyKokkos' pykokkos.linalg):
matmul and the BLAS level-3 dgemm."""
from .l3_blas import dgemm, matmul  # noqa: F401

__all__ = ["dgemm", "matmul"]
