# expect: 5:1: async kernels are not supported
import pykokkos as pk

@pk.workunit
async def k(i: int, v: pk.View1D[float]):
    v[i] = 1.0
