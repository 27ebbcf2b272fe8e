"""Issue 7 s1: the accumulator of a reduce workunit is typed from the pattern
(PyKokkos' default accumulator type is double): `def reduce(i, acc, view)`."""
import sys

import pykokkos as pk


@pk.workunit
def reduce(i, acc, view):
    acc += view[i]


@pk.workunit
def count_even(i, acc, view):
    if view[i] % 2 == 0:
        acc += 1


@pk.workunit
def init(i, view):
    view[i] = i


def main():
    n = 101
    v = pk.View([n], pk.int32)
    pk.parallel_for(n, init, view=v)
    total = pk.parallel_reduce(n, reduce, view=v)
    evens = pk.parallel_reduce("count", n, count_even, view=v)

    d = pk.View([n], pk.double)
    for i in range(n):
        d[i] = 0.25 * i
    dtotal = pk.parallel_reduce(pk.RangePolicy(0, n), reduce, view=d)

    want = n * (n - 1) // 2
    if total != want or evens != 51 or dtotal != 0.25 * want:
        print(f"BAD total={total!r} (want {want}) evens={evens!r} (want 51) "
              f"dtotal={dtotal!r} (want {0.25 * want})")
        sys.exit(1)
    # the default accumulator is a double, also for an int32 View
    if not isinstance(total, float):
        print(f"BAD total is {type(total).__name__}, PyKokkos' default accumulator is double")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
