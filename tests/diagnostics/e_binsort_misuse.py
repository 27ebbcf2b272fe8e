# expect: 15:33: the nbins of pk.BinOp3D must be a list of three values [x, y, z] or a typing.List local of length 3
# expect: 17:9: pk.BinSort has the methods create_permute_vector(), sort(values[, begin, end]), get_bin_count(), get_bin_offsets() and get_permute_vector(); not 'shuffle'
# expect: 22:13: pk.BinSort is only available in the host code of a @pk.main method, not in kernels
import pykokkos as pk


@pk.workload
class Bins:
    def __init__(self, x, keys):
        self.x: pk.View2D[pk.double] = x
        self.keys: pk.View1D[pk.double] = keys

    @pk.main
    def run(self):
        b3 = pk.BinOp3D(self.x, 4, [0.0, 0.0, 0.0], [1.0, 1.0, 1.0])
        sorter = pk.BinSort(self.keys, pk.BinOp1D(self.keys, 8, 0.0, 1.0))
        sorter.shuffle()
        pk.parallel_for(10, self.work)

    @pk.workunit
    def work(self, i: int):
        s = pk.BinSort(self.keys, 0)
