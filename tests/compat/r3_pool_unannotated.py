"""An unannotated random-pool parameter of a workunit typed per call (PyKokkos'
type inference takes it from the argument): both pool kinds, each its own
specialization. pkc refused ("cannot derive a kernel type from a
Random_XorShift64_Pool"). The draws are distinct: on GPUs Kokkos 3.4's pools
handed a state on before its update was seen (scripts/kokkos-from-debian.sh
patch_random), so threads drew the same numbers."""
import numpy as np
import pykokkos as pk


@pk.workunit
def draw(i, pool, out):
    st = pool.get_state()
    out[i] = st.drand()
    pool.free_state(st)


n = 200000
bad = []
for pool in (pk.Random_XorShift64_Pool(5), pk.Random_XorShift1024_Pool(7)):
    out = pk.View([n], pk.double)
    pk.parallel_for(n, draw, pool=pool, out=out)
    a = np.asarray(out)
    # uniform on [0, 1): mean 1/2 and variance 1/12, within 6 standard errors
    if not ((a >= 0).all() and (a < 1).all() and abs(a.mean() - 0.5) < 6 * (1 / 12 / n) ** 0.5
            and abs(a.var() - 1 / 12) < 0.002 and len(np.unique(a)) > n - 10):
        bad.append(f"{type(pool).__name__}: mean {a.mean()} var {a.var()}")
print("OK" if not bad else f"BAD {bad}")
