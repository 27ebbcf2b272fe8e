# expect-warning: 14:36: unexpected keyword argument 'alpah' for kernel 'scale' (did you mean 'alpha'?); it takes v, alpha
# expect-warning: 15:31: unexpected keyword argument 'out' for kernel 'scale'; it takes v, alpha
# A launch with a keyword the kernel does not take names that keyword (issue
# 27; the run would report only the missing one).
import pykokkos as pk

@pk.workunit
def scale(i: int, v: pk.View1D[pk.double], alpha: float):
    v[i] = alpha * v[i]


def main():
    v = pk.View([8], pk.double)
    pk.parallel_for(8, scale, v=v, alpah=2.0)
    pk.parallel_for(8, scale, out=v, alpha=2.0)
    pk.parallel_for(8, scale, **{"v": v, "alpha": 2.0})
