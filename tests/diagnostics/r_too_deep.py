# expect: 6:112: this expression is nested too deeply (more than 100 nested brackets)
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[pk.double]):
    v[i] = (((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1.0)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
