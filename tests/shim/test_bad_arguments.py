"""The bad-argument matrix (issue 11): every way a call can hand a kernel the
wrong thing raises before anything runs, with the exception type Python
users expect and a message naming the kernel and the argument; nothing is
written through, nothing segfaults. One pkc-built module (built on first use
into a temporary directory) serves every case.

Run: /usr/bin/python3 tests/shim/test_bad_arguments.py
"""
import os
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime-shim", "python"))
sys.path.insert(0, HERE)
os.environ["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + os.environ.get("PATH", "")
import pykokkos as pk  # noqa: E402
from kernel_program import ProgramCase  # noqa: E402

PROGRAM = '''import pykokkos as pk

@pk.workunit
def axpy(i: int, y: pk.View1D[pk.double], x: pk.View1D[pk.double], a: float):
    y[i] = y[i] + a * x[i]

@pk.workunit
def shift(i: int, d: pk.View1D[pk.double], u: pk.View1D[pk.double]):
    d[i] = u[i + 1] - u[i]

@pk.workunit
def fill(i: int, j: int, g: pk.View2D[pk.double], v: pk.int32, n: pk.uint8):
    g[i, j] = v + n

def fill_grid(g, v, n):
    """A call site: it tells pkc that fill is an MDRange kernel (i, j)."""
    pk.parallel_for(pk.MDRangePolicy([0, 0], [g.shape[0], g.shape[1]]), fill, g=g, v=v, n=n)

@pk.workunit
def window(i: int, d: pk.View1D[pk.double], u: pk.View1D[pk.double], off: int):
    d[i] = u[i + off] + u[i + off + 1]

@pk.workload
class Differences:
    def __init__(self, n: int, u: pk.View1D[pk.double]):
        self.n: int = n
        self.u: pk.View1D[pk.double] = u
        self.d: pk.View1D[pk.double] = pk.View([u.shape[0]], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for("differences", self.n, self.diff)

    @pk.workunit
    def diff(self, i: int):
        self.d[i] = self.u[i + 1] - self.u[i]

@pk.workload
class Teams:
    def __init__(self, league: int, team: int):
        self.league: int = league
        self.team: int = team
        self.out: pk.View1D[pk.double] = pk.View([league], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for("teams", pk.TeamPolicy(self.league, self.team), self.mark)

    @pk.workunit
    def mark(self, m: pk.TeamMember):
        if m.team_rank() == 0:
            self.out[m.league_rank()] = 1.0

@pk.workunit
def row_sums(team: pk.TeamMember, s: pk.View1D[pk.double], a: pk.View2D[pk.double]):
    row: int = team.league_rank()

    def inner(j: int, acc: pk.Acc[pk.double]):
        acc += a[row][j]

    total: float = pk.parallel_reduce(pk.TeamThreadRange(team, a.extent(1)), inner)

    def store():
        s[row] = total

    pk.single(pk.PerTeam(team), store)

@pk.workload
class RowTeams:
    def __init__(self, league: int, a: pk.View2D[pk.double]):
        self.league: int = league
        self.a: pk.View2D[pk.double] = a
        self.s: pk.View1D[pk.double] = pk.View([a.shape[0]], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for("rows", pk.TeamPolicy(self.league, pk.AUTO), self.twice)

    @pk.workunit
    def twice(self, team: pk.TeamMember):
        r: int = team.league_rank()

        def one():
            self.s[r] = 2.0 * self.a[r][0]

        pk.single(pk.PerTeam(team), one)

@pk.workunit
def guarded(i: int, d: pk.View1D[pk.double], u: pk.View1D[pk.double]):
    if i > 0 and i < u.extent(0) - 1:
        d[i] = u[i + 1] - u[i - 1]
'''


class BadArguments(ProgramCase):
    PROGRAM = PROGRAM
    NAME = "kernels"

    def raises(self, exc, kernel, argument, fn):
        with self.assertRaises(exc) as cm:
            fn()
        msg = str(cm.exception)
        self.assertIsInstance(cm.exception, pk.PkcError)   # and exc: issue 27's family
        self.assertIn(kernel, msg)
        self.assertIn(f"'{argument}'", msg)
        return msg

    def ys(self, n=10):
        return np.ones(n), np.arange(n, dtype=np.float64)

    # --- dtype, rank, layout ---------------------------------------------
    def test_wrong_dtype(self):
        y, _ = self.ys()
        self.raises(TypeError, "axpy", "x", lambda: pk.parallel_for(
            10, self.k.axpy, y=y, x=np.arange(10, dtype=np.float32), a=1.0))

    def test_wrong_rank(self):
        y, _ = self.ys()
        self.raises(TypeError, "axpy", "x", lambda: pk.parallel_for(
            10, self.k.axpy, y=y, x=np.zeros((10, 1)), a=1.0))

    def test_scalar_for_view_and_view_for_scalar(self):
        y, x = self.ys()
        self.raises(TypeError, "axpy", "x", lambda: pk.parallel_for(
            10, self.k.axpy, y=y, x=3.0, a=1.0))
        self.raises(TypeError, "axpy", "a", lambda: pk.parallel_for(
            10, self.k.axpy, y=y, x=x, a=np.ones(3)))

    # --- extents ----------------------------------------------------------
    def test_range_past_a_view(self):
        y, _ = self.ys()
        x = np.arange(8, dtype=np.float64)
        before = y.copy()
        msg = self.raises(ValueError, "axpy", "x", lambda: pk.parallel_for(
            10, self.k.axpy, y=y, x=x, a=1.0))
        self.assertIn("extent 8", msg)
        np.testing.assert_array_equal(y, before)   # nothing ran

    def test_offset_access_past_the_end(self):
        d, u = self.ys()
        msg = self.raises(ValueError, "shift", "u", lambda: pk.parallel_for(
            10, self.k.shift, d=d, u=u))
        self.assertIn("i + 1", msg)
        pk.parallel_for(9, self.k.shift, d=d, u=u)   # the range that fits runs
        np.testing.assert_array_equal(d[:9], np.ones(9))

    def test_run_time_offset_past_the_end(self):
        """x[i + off] with a scalar argument off (issue 22 item 7): checked with its value."""
        d, u = np.zeros(10), np.arange(10, dtype=np.float64)
        msg = self.raises(ValueError, "window", "u", lambda: pk.parallel_for(
            8, self.k.window, d=d, u=u, off=2))
        self.assertIn("index 10", msg)
        np.testing.assert_array_equal(d, np.zeros(10))     # nothing ran
        msg = self.raises(ValueError, "window", "u", lambda: pk.parallel_for(
            8, self.k.window, d=d, u=u, off=-1))
        self.assertIn("index -1", msg)
        pk.parallel_for(7, self.k.window, d=d, u=u, off=2)  # fits: 7 + 2 + 1 = 10
        np.testing.assert_array_equal(d[:7], u[2:9] + u[3:10])

    def test_league_past_a_view(self):
        """A team kernel indexing Views by team.league_rank() (issue 22 item 7): the
        league size is checked against those extents before the launch."""
        a = np.arange(12, dtype=np.float64).reshape(4, 3)
        s = np.full(6, -1.0)
        msg = self.raises(ValueError, "row_sums", "a", lambda: pk.parallel_for(
            pk.TeamPolicy(6, pk.AUTO), self.k.row_sums, s=s, a=a))
        self.assertIn("team.league_rank()", msg)
        self.assertIn("index 5", msg)
        np.testing.assert_array_equal(s, np.full(6, -1.0))   # nothing ran
        s4 = np.zeros(3)
        msg = self.raises(ValueError, "row_sums", "s", lambda: pk.parallel_for(
            pk.TeamPolicy(4, pk.AUTO), self.k.row_sums, s=s4, a=a))
        self.assertIn("extent 3", msg)
        pk.parallel_for(pk.TeamPolicy(4, pk.AUTO), self.k.row_sums, s=s[:4], a=a)
        np.testing.assert_array_equal(s[:4], a.sum(axis=1))   # the league that fits runs

    def test_league_past_a_member_view_in_main(self):
        """The same check for a TeamPolicy dispatch inside @pk.main."""
        a = np.arange(8, dtype=np.float64).reshape(4, 2)
        w = self.k.RowTeams(5, a)
        msg = self.raises(ValueError, "twice", "s", lambda: w.run())
        self.assertIn("team.league_rank()", msg)
        np.testing.assert_array_equal(np.asarray(w.s), np.zeros(4))
        w = self.k.RowTeams(4, a)
        w.run()
        np.testing.assert_array_equal(np.asarray(w.s), 2.0 * a[:, 0])

    def test_negative_begin(self):
        y, x = self.ys()
        msg = self.raises(ValueError, "axpy", "y", lambda: pk.parallel_for(
            pk.RangePolicy(-1, 5), self.k.axpy, y=y, x=x, a=1.0))
        self.assertIn("index -1", msg)

    def test_mdrange_past_a_view(self):
        g = np.zeros((4, 5))
        msg = self.raises(ValueError, "fill", "g", lambda: pk.parallel_for(
            pk.MDRangePolicy([0, 0], [4, 6]), self.k.fill, g=g, v=1, n=2))
        self.assertIn("dimension 1", msg)

    def test_main_dispatch_past_a_view(self):
        """A dispatch inside @pk.main is checked like a launch from Python
        (issue 22 item 7): ValueError naming the workunit and the View."""
        u = np.arange(10, dtype=np.float64)
        w = self.k.Differences(10, u)
        msg = self.raises(ValueError, "diff", "u", lambda: pk.execute(pk.ExecutionSpace.Default, w))
        self.assertIn("i + 1", msg)
        np.testing.assert_array_equal(np.asarray(w.d), np.zeros(10))   # nothing ran
        ok = self.k.Differences(9, u)
        pk.execute(pk.ExecutionSpace.Default, ok)
        np.testing.assert_array_equal(np.asarray(ok.d)[:9], np.ones(9))

    def test_main_team_too_large(self):
        """A TeamPolicy in @pk.main with a team larger than the backend runs raises
        (Kokkos aborted the process before)."""
        w = self.k.Teams(3, 4096)
        with self.assertRaises(ValueError) as cm:
            pk.execute(pk.ExecutionSpace.Default, w)
        self.assertIn("mark", str(cm.exception))
        self.assertIn("team size 4096", str(cm.exception))
        ok = self.k.Teams(3, 1)
        pk.execute(pk.ExecutionSpace.Default, ok)
        np.testing.assert_array_equal(np.asarray(ok.out), np.ones(3))

    def test_guarded_accesses_run_over_any_range(self):
        d, u = np.zeros(10), np.arange(10, dtype=np.float64) ** 2
        pk.parallel_for(10, self.k.guarded, d=d, u=u)
        want = np.zeros(10)
        want[1:-1] = u[2:] - u[:-2]
        np.testing.assert_array_equal(d, want)

    # --- memory the kernel may not write --------------------------------
    def test_read_only_array(self):
        y, x = self.ys()
        y.setflags(write=False)
        self.raises(TypeError, "axpy", "y", lambda: pk.parallel_for(
            10, self.k.axpy, y=y, x=x, a=1.0))
        buf = np.frombuffer(bytes(80), dtype=np.float64)   # over immutable bytes
        self.raises(TypeError, "axpy", "y", lambda: pk.parallel_for(
            10, self.k.axpy, y=buf, x=x, a=1.0))

    def test_other_byte_order(self):
        y, _ = self.ys()
        x = np.arange(10, dtype=">f8")
        self.raises(TypeError, "axpy", "x", lambda: pk.parallel_for(
            10, self.k.axpy, y=y, x=x, a=1.0))

    def test_dtype_changed_in_place(self):
        y, x = self.ys()
        pk.parallel_for(10, self.k.axpy, y=y, x=x, a=1.0)
        x.dtype = np.int64    # same buffer, now read as int64
        self.raises(TypeError, "axpy", "x", lambda: pk.parallel_for(
            10, self.k.axpy, y=y, x=x, a=1.0))

    # --- integers that do not fit the parameter -------------------------
    def test_integer_overflow(self):
        g = np.zeros((2, 2))
        self.raises(OverflowError, "fill", "v", lambda: pk.parallel_for(
            pk.MDRangePolicy([0, 0], [2, 2]), self.k.fill, g=g, v=2**31, n=0))
        self.raises(OverflowError, "fill", "n", lambda: pk.parallel_for(
            pk.MDRangePolicy([0, 0], [2, 2]), self.k.fill, g=g, v=0, n=256))
        self.raises(OverflowError, "fill", "n", lambda: pk.parallel_for(
            pk.MDRangePolicy([0, 0], [2, 2]), self.k.fill, g=g, v=0, n=-1))
        np.testing.assert_array_equal(g, np.zeros((2, 2)))

    def test_range_overflow(self):
        y, x = self.ys()
        with self.assertRaisesRegex(OverflowError, "axpy: the range"):
            pk.parallel_for(2**64 + 5, self.k.axpy, y=y, x=x, a=1.0)
        with self.assertRaisesRegex(OverflowError, "pk.RangePolicy: end"):
            pk.RangePolicy(0, 2**64)

    def test_policy_bounds_that_are_not_ints(self):
        # a float bound was truncated (RangePolicy(0, 3.9) ran 3 points), a
        # string parsed, a bool taken as 1; a team size of 0 ran teams of 1
        for bad in (3.9, np.float32(2.7), "3", True, None):
            with self.assertRaisesRegex(TypeError, "pk.RangePolicy: end must be an int"):
                pk.RangePolicy(0, bad)
        with self.assertRaisesRegex(TypeError, "pk.RangePolicy: begin must be an int"):
            pk.RangePolicy(float("nan"), 4)
        self.assertEqual((pk.RangePolicy(np.int32(2), np.int64(5)).end), 5)
        with self.assertRaisesRegex(ValueError, "team_size must be at least 1, or pk.AUTO"):
            pk.TeamPolicy(4, 0)
        self.assertEqual(pk.TeamPolicy(4, pk.AUTO).team_size, 0)

    # --- missing, extra, None --------------------------------------------
    def test_missing_extra_and_none_arguments(self):
        y, x = self.ys()
        self.raises(TypeError, "axpy", "a", lambda: pk.parallel_for(
            10, self.k.axpy, y=y, x=x))
        self.raises(TypeError, "axpy", "b", lambda: pk.parallel_for(
            10, self.k.axpy, y=y, x=x, a=1.0, b=2.0))
        self.raises(TypeError, "axpy", "x", lambda: pk.parallel_for(
            10, self.k.axpy, y=y, x=None, a=1.0))


BOUNDS_PROGRAM = '''import numpy as np
import pykokkos as pk

@pk.workunit
def gather(i: int, out: pk.View1D[pk.double], src: pk.View1D[pk.double],
           idx: pk.View1D[pk.int64]):
    out[i] = src[idx[i]]

@pk.workunit
def corner(i: int, g: pk.View2D[pk.double], k: int):
    g[i, k] = 1.0

src, out = np.arange(5.0), np.zeros(4)
idx = np.array([0, 4, 5, 1])
try:
    pk.parallel_for(4, gather, out=out, src=src, idx=idx)
    print("no error")
except IndexError as e:
    print(e)
idx[2] = 2
pk.parallel_for(4, gather, out=out, src=src, idx=idx)
assert np.array_equal(out, src[idx]), out
g = np.zeros((3, 3))
try:
    pk.parallel_for(3, corner, g=g, k=-1)
    print("no error")
except IndexError as e:
    print(e)
'''


class BoundsCheck(unittest.TestCase):
    """pkc build --bounds-check (here through PKC_BOUNDS_CHECK=1, as the shim
    builds): accesses no launch-range check can see (indirect, a scalar
    index) raise IndexError naming kernel, View, index and line."""

    def test_indirect_and_scalar_indices(self):
        import subprocess
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bounds.py")
            with open(path, "w") as f:
                f.write(BOUNDS_PROGRAM)
            # built unchecked first (a plain run or `pkc build`): PKC_BOUNDS_CHECK=1
            # must still get a checked module, as NUMBA_BOUNDSCHECK does
            b = subprocess.run(["pkc", "build", path], capture_output=True, text=True,
                               timeout=300)
            self.assertEqual(b.returncode, 0, b.stderr)
            env = dict(os.environ, PKC_BOUNDS_CHECK="1",
                       PYTHONPATH=os.path.join(ROOT, "runtime-shim", "python"))
            r = subprocess.run([sys.executable, path], capture_output=True, text=True,
                               env=env, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            lines = r.stdout.splitlines()
            self.assertEqual(lines, [
                "gather: index 5 is out of bounds for View 'src' with extent 5 in "
                "dimension 0 (line 7)",
                "corner: index -1 is out of bounds for View 'g' with extent 3 in "
                "dimension 1 (line 11)"], r.stderr)


    def test_views_of_classtypes(self):
        """p[idx[i]] of a View of classtype values, AoS and SoA: IndexError,
        and the element past the extent is neither read nor written."""
        import subprocess
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "cbounds.py")
            with open(path, "w") as f:
                f.write(CLASS_BOUNDS_PROGRAM)
            env = dict(os.environ, PKC_BOUNDS_CHECK="1",
                       PYTHONPATH=os.path.join(ROOT, "runtime-shim", "python"))
            r = subprocess.run([sys.executable, path], capture_output=True, text=True,
                               env=env, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            want = ("pick: index 6 is out of bounds for View 'p' with extent 6 in "
                    "dimension 0 (line 12)")
            self.assertEqual(r.stdout.splitlines(), [want, "[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]"] * 2,
                             r.stderr)


CLASS_BOUNDS_PROGRAM = '''import numpy as np
import pykokkos as pk

@pk.classtype
class P:
    def __init__(self, x: float, y: float):
        self.x: float = x
        self.y: float = y

@pk.workunit
def pick(i: int, p: pk.View1D[P], idx: pk.View1D[pk.int64]):
    p[idx[i]].y += p[idx[i]].x

for lay in (pk.AoS, pk.SoA):
    p = pk.View([6], P, layout=lay)
    p.x = np.arange(6.0)
    try:
        pk.parallel_for(3, pick, p=p, idx=np.array([0, 6, 1]))
        print("no error")
    except IndexError as e:
        print(e)
    p.y = 0.0
    pk.parallel_for(6, pick, p=p, idx=np.arange(6))
    print(np.asarray(p.y).tolist())
'''


if __name__ == "__main__":
    unittest.main()
