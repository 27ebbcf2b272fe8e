# expect: 18:18: the result of sorter.get_bin_count() can only be copied into a View data member: self.x = sorter.get_bin_count()
# expect: 19:9: sorter.get_bin_count() is copied into a data member (self.x) that is a View1D of integers sized like the result; 'fcount' is View1D[float64]
# expect: 20:34: pk.BinSort's keys (View2D[float64]) and its bin operator's keys (View1D[float64]) must be the same kind of View
import pykokkos as pk


@pk.workload
class Bins:
    def __init__(self, x, keys):
        self.x: pk.View2D[pk.double] = x
        self.keys: pk.View1D[pk.double] = keys
        self.fcount: pk.View1D[pk.double] = pk.View([10], pk.double)

    @pk.main
    def run(self):
        op = pk.BinOp1D(self.keys, 8, 0.0, 1.0)
        sorter = pk.BinSort(self.keys, op)
        counts = sorter.get_bin_count()
        self.fcount = sorter.get_bin_count()
        bad = pk.BinSort(self.x, op)
