"""Rank-8 and rank-4 Views (one marked Unmanaged) written at fixed indices and
checked element by element."""
import numpy as np
import pykokkos as pk

@pk.workunit(A=pk.ViewTypeInfo(trait=pk.Unmanaged))
def fill8(i: int, A: pk.View8D[pk.double], B: pk.View4D[pk.int32]):
    for j in range(A.extent(1)):
        A[i, j, 1, 0, 1, 0, 1, 0] = i * 10.0 + j
    B[i][1][0][1] = i

def main():
    A = pk.View([3, 2, 2, 1, 2, 1, 2, 1], pk.double)
    B = pk.View([3, 2, 2, 2], pk.int32)
    pk.parallel_for(3, fill8, A=A, B=B)
    a = np.asarray(A); b = np.asarray(B)
    ok = all(a[i, j, 1, 0, 1, 0, 1, 0] == i * 10 + j for i in range(3) for j in range(2)) and list(b[:, 1, 0, 1]) == [0, 1, 2]
    print("OK" if ok else f"BAD {a} {b}")

main()
