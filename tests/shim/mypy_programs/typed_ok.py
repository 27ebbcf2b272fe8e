"""A small fully typed pykokkos program: `mypy --strict` must accept it
(tests/shim/test_typing.py); it also runs (prints OK)."""
import pykokkos as pk


@pk.workunit
def axpy(i: int, y: pk.View1D[pk.double], x: pk.View1D[pk.double], a: float) -> None:
    y[i] += a * x[i]


@pk.workunit
def dot(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double],
        y: pk.View1D[pk.double]) -> None:
    acc += x[i] * y[i]


@pk.workunit
def biggest(i: int, acc: pk.Max[pk.int64], x: pk.View1D[pk.int64]) -> None:
    acc = max(acc, x[i])


@pk.workunit
def rows(m: pk.TeamMember, s: pk.View1D[pk.double], x: pk.View2D[pk.double]) -> None:
    r: int = m.league_rank()
    s[r] = x[r][0] + x[r][1]


def run(n: int) -> bool:
    x: pk.View1D[pk.double] = pk.View([n], pk.double)
    y = pk.View([n], pk.double)
    k = pk.View([n], pk.int64)
    x.fill(1.0)
    y.fill(2.0)
    for i in range(n):
        k[i] = i
    pk.parallel_for("axpy", pk.RangePolicy(0, n), axpy, y=y, x=x, a=3.0)
    total: float = pk.parallel_reduce(pk.RangePolicy(0, n), dot, x=x, y=y)
    top: int = pk.parallel_reduce(n, biggest, x=k)
    m2 = pk.View([n, 2], pk.double)
    m2.fill(0.5)
    s = pk.View([n])
    pk.parallel_for(pk.TeamPolicy(n, pk.AUTO), rows, s=s, x=m2)
    t = pk.Timer()
    pk.fence()
    return (total == 5.0 * n and top == n - 1 and float(s[n - 1]) == 1.0
            and t.seconds() >= 0.0 and y.shape == (n,) and x.rank() == 1)


if __name__ == "__main__":
    print("OK" if run(16) else "FAILED")
