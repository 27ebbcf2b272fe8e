"""Kernels that read module-level names, imported by test_module_constants.py:
SCALE, GAIN and ROWS are compile-time constants (assigned once, to literals);
OFFSET is rebound by configure() (`global`), so kernels read it at each call."""
import pykokkos as pk

SCALE = 1.0
GAIN = 0.5
ROWS = 3
OFFSET = 0.0


def configure(offset):
    global OFFSET
    OFFSET = float(offset)


@pk.workunit
def scaled(i: int, a: pk.View1D[pk.double]):
    a[i] = SCALE * i + OFFSET


@pk.workunit
def gained(i: int, a: pk.View1D[pk.double]):
    a[i] = GAIN * i


@pk.workload
class RowSums:
    def __init__(self, m: pk.View2D[pk.double]):
        self.m: pk.View2D[pk.double] = m
        self.total: float = 0.0

    @pk.main
    def run(self):
        self.total = pk.parallel_reduce(ROWS, self.row)

    @pk.workunit
    def row(self, i: int, acc: pk.Acc[pk.double]):
        for j in range(self.m.extent(1)):
            acc += self.m[i][j]
