"""pk.BinSort, pk.BinOp1D, pk.BinOp3D from host code (Kokkos::BinSort and its
bin operators, as PyKokkos' mini-apps use them for cell lists), computed on the
host with numpy: bins, counts, offsets and the permutation follow Kokkos'
definitions; within a bin the original order is kept (Kokkos leaves it
unspecified unless sort_within_bins, which sorts by key here too).
Inside @pk.main pkc translates the same calls to Kokkos::BinSort itself."""
from ._errors import PkcArgumentError, PkcValueError
from ._view import View, numpy


def _host(a):
    np = numpy()
    if isinstance(a, View):
        return a._host(False)
    return np.asarray(a)


def _view_of(a, dtype):
    np = numpy()
    from . import _types as T
    return View(list(a.shape), T.as_dtype(dtype), array=np.ascontiguousarray(a))


class BinOp1D:
    """Kokkos::BinOp1D: bin(i) = int((key(i) - min) * nbins / (max - min)), with
    nbins + 1 bins (a key equal to max lands in the last). keys: a rank-1 View
    or array (PyKokkos passes it first; it may be left out)."""

    def __init__(self, *args):
        if len(args) == 4:
            args = args[1:]
        if len(args) != 3:
            raise PkcArgumentError("pk.BinOp1D([keys,] nbins, min, max)")
        nbins, lo, hi = args
        if hi <= lo or int(nbins) < 1:
            raise PkcValueError("pk.BinOp1D: needs nbins >= 1 and max > min")
        self.nbins, self.min, self.max = int(nbins), lo, hi
        self.mul = 1.0 * self.nbins / (hi - lo)

    def max_bins(self):
        return self.nbins + 1

    def bins(self, keys):
        np = numpy()
        k = _host(keys)
        if k.ndim != 1:
            raise PkcValueError("pk.BinOp1D: the keys must be a rank-1 View")
        return (self.mul * (k - self.min)).astype(np.int64)


class BinOp3D:
    """Kokkos::BinOp3D over (n, 3) keys: per dimension int((key - min) * nbins /
    (max - min)), combined as (b0 * nbins1 + b1) * nbins2 + b2;
    nbins0 * nbins1 * nbins2 bins."""

    def __init__(self, *args):
        if len(args) == 4:
            args = args[1:]
        if len(args) != 3:
            raise PkcArgumentError("pk.BinOp3D([keys,] nbins[3], min[3], max[3])")
        nbins, lo, hi = (list(x) for x in args)
        if len(nbins) != 3 or len(lo) != 3 or len(hi) != 3:
            raise PkcValueError("pk.BinOp3D: nbins, min and max have 3 entries each")
        if any(h <= l for l, h in zip(lo, hi)) or any(int(b) < 1 for b in nbins):
            raise PkcValueError("pk.BinOp3D: needs nbins >= 1 and max > min per dimension")
        self.nbins = [int(b) for b in nbins]
        self.min, self.max = lo, hi
        self.mul = [1.0 * b / (h - l) for b, l, h in zip(self.nbins, lo, hi)]

    def max_bins(self):
        return self.nbins[0] * self.nbins[1] * self.nbins[2]

    def bins(self, keys):
        np = numpy()
        k = _host(keys)
        if k.ndim != 2 or k.shape[1] != 3:
            raise PkcValueError("pk.BinOp3D: the keys must be a rank-2 View of shape (n, 3)")
        b = [(self.mul[d] * (k[:, d] - self.min[d])).astype(np.int64) for d in range(3)]
        return (b[0] * self.nbins[1] + b[1]) * self.nbins[2] + b[2]


class BinSort:
    """Kokkos::BinSort(keys, bin_op[, sort_within_bins]) or (keys, begin, end,
    bin_op[, sort_within_bins]): create_permute_vector(), sort(values[, begin,
    end]), get_bin_count(), get_bin_offsets(), get_permute_vector() (int32
    Views, as Kokkos' offset and count types)."""

    def __init__(self, keys, *args):
        sort_within = False
        if len(args) >= 3 and isinstance(args[0], int) and isinstance(args[1], int):
            self.begin, self.end, op = args[0], args[1], args[2]
            sort_within = bool(args[3]) if len(args) > 3 else False
        elif 1 <= len(args) <= 2:
            op = args[0]
            sort_within = bool(args[1]) if len(args) > 1 else False
            self.begin, self.end = 0, len(_host(keys))
        else:
            raise PkcArgumentError("pk.BinSort(keys, bin_op[, sort_within_bins]) or "
                                   "(keys, begin, end, bin_op[, sort_within_bins])")
        self.keys, self.op, self.sort_within = keys, op, sort_within
        self.count = self.offsets = self.permute = None

    def create_permute_vector(self, *_space):
        """Bins the keys of [begin, end): counts, offsets (exclusive scan of the
        counts) and the permutation (position j takes element permute[j])."""
        np = numpy()
        k = _host(self.keys)[self.begin:self.end]
        b = self.op.bins(k)
        nb = self.op.max_bins()
        if b.size and (b.min() < 0 or b.max() >= nb):
            raise PkcValueError("pk.BinSort: a key lies outside the bin operator's [min, max]")
        counts = np.bincount(b, minlength=nb).astype(np.int32)
        offsets = np.zeros(nb, np.int32)
        np.cumsum(counts[:-1], out=offsets[1:])
        if self.sort_within and k.ndim == 1:
            order = np.lexsort((k, b))
        elif self.sort_within:
            order = np.lexsort((k[:, 2], k[:, 1], k[:, 0], b))
        else:
            order = np.argsort(b, kind="stable")
        self.count = _view_of(counts, "int32")
        self.offsets = _view_of(offsets, "int32")
        self.permute = _view_of((order + self.begin).astype(np.int32), "int32")

    def sort(self, values, *args):
        """Permutes values[begin:end] (a View, in place) into bin order."""
        if self.permute is None:
            self.create_permute_vector()
        lo, hi = (args[0], args[1]) if len(args) >= 2 else (self.begin, self.end)
        v = values._host(True) if isinstance(values, View) else numpy().asarray(values)
        p = self.permute._host(False).astype(numpy().int64)
        v[lo:hi] = v[p - self.begin + lo].copy()

    def get_bin_count(self):
        return self.count

    def get_bin_offsets(self):
        return self.offsets

    def get_permute_vector(self):
        return self.permute
