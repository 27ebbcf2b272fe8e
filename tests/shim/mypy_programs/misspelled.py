"""pk.paralel_for is misspelled: mypy must name it (tests/shim/test_typing.py)."""
import pykokkos as pk


@pk.workunit
def fill(i: int, v: pk.View1D[pk.doubel]) -> None:
    v[i] = 1.0


v = pk.View([8], pk.double)
pk.paralel_for("fill", 8, fill, v=v)
