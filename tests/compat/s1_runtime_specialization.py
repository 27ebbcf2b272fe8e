"""Issue 7 s1: run-time specialization where static inference cannot decide:
the arguments come out of a dict, a list and pk.from_numpy of a computed
array, so the shim types the unannotated workunit from the actual arguments."""
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def affine(i, out, inp, a, b):
    out[i] = a * inp[i] + b


def make_inputs(n):
    return {
        "f64": pk.from_numpy(np.linspace(0.0, 1.0, n)),
        "i64": pk.from_numpy(np.arange(n) * 3),
        "f32": pk.from_numpy(np.linspace(0.0, 2.0, n).astype(np.float32)),
    }


def main():
    n = 11
    inputs = make_inputs(n)
    coeffs = [(2.0, 1.0), (0.5, -1.0), (4.0, 0.0)]
    outs = []
    for (key, inp), (a, b) in zip(inputs.items(), coeffs):
        out = pk.View([n], pk.double)
        pk.parallel_for(n, affine, out=out, inp=inp, a=a, b=b)
        outs.append(np.asarray(out).copy())

    wants = [2.0 * np.linspace(0.0, 1.0, n) + 1.0,
             0.5 * (np.arange(n) * 3) - 1.0,
             4.0 * np.linspace(0.0, 2.0, n).astype(np.float32).astype(np.float64)]
    bad = [f"{k}: {o.tolist()}" for k, o, w in zip(inputs, outs, wants)
           if not np.allclose(o, w, rtol=1e-12, atol=1e-12)]
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
