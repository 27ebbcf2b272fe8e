"""Launches with bad arguments found by fuzzing the shim (hardening): each
raises a Pkc* error naming what is wrong instead of segfaulting or raising a
bare TypeError. A team kernel whose scratch Views need more than the policy
gives (Kokkos hands out a null pointer, which the kernel wrote through), a
negative scratch size, an MDRangePolicy without ends, a functor's method
launched from the class rather than an instance."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "runtime-shim", "python"))
import pykokkos as pk  # noqa: E402
from pykokkos._errors import PkcArgumentError, PkcValueError  # noqa: E402


@pk.workunit
def in_scratch(m: pk.TeamMember, n: int, out: pk.View1D[pk.double]):
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(m.team_scratch(0), n)
    t: pk.ScratchView1D[pk.int32] = pk.ScratchView1D(m.team_scratch(0), n)

    def fill(j: int):
        s[j] = float(j)
        t[j] = j

    pk.parallel_for(pk.TeamThreadRange(m, n), fill)
    m.team_barrier()

    def put():
        out[m.league_rank()] = s[n - 1] + t[n - 1]

    pk.single(pk.PerTeam(m), put)


@pk.workunit
def grid(i: int, j: int, a: pk.View2D[pk.double]):
    a[i][j] = 1.0


@pk.functor
class Filler:
    def __init__(self, v: pk.View1D[pk.double]):
        self.v: pk.View1D[pk.double] = v

    @pk.workunit
    def fill(self, i: int):
        self.v[i] = 2.0


def scratch_policy(n_bytes):
    return pk.TeamPolicy(2, 1).set_scratch_size(0, pk.PerTeam(n_bytes))


class BadLaunches(unittest.TestCase):
    def test_scratch_too_small_raises_before_the_launch(self):
        out = pk.View([2], pk.double)
        n = 64
        need = pk.ScratchView1D.shmem_size(n) + pk.ScratchView1D[pk.int32].shmem_size(n)
        pk.parallel_for(scratch_policy(need), in_scratch, n=n, out=out)
        self.assertEqual(list(out), [2.0 * (n - 1)] * 2)
        with self.assertRaises(PkcValueError) as e:
            pk.parallel_for(scratch_policy(64), in_scratch, n=1 << 20, out=out)
        self.assertIn("in_scratch", str(e.exception))
        self.assertIn(f"take {12 * (1 << 20)} bytes", str(e.exception))

    def test_one_argument_scratch_size_is_level_0_per_team(self):
        out = pk.View([2], pk.double)
        n = 16
        need = pk.ScratchView1D.shmem_size(n) + pk.ScratchView1D[pk.int32].shmem_size(n)
        for size in (need, pk.PerTeam(need)):   # PyKokkos' short form
            p = pk.TeamPolicy(2, 1).set_scratch_size(size)
            self.assertEqual((p.scratch_team[0], p.scratch_thread[0]), (need, 0))
            pk.parallel_for(p, in_scratch, n=n, out=out)
            self.assertEqual(list(out), [2.0 * (n - 1)] * 2)
        with self.assertRaises(PkcValueError):
            pk.TeamPolicy(2, 1).set_scratch_size(-8)

    def test_negative_scratch_size(self):
        with self.assertRaises(PkcValueError) as e:
            pk.TeamPolicy(2, pk.AUTO).set_scratch_size(0, pk.PerTeam(-1))
        self.assertIn("must not be negative", str(e.exception))

    def test_mdrange_without_ends(self):
        with self.assertRaises(PkcArgumentError) as e:
            pk.parallel_for(pk.MDRangePolicy([0, 0], None), grid, a=pk.View([2, 3], pk.double))
        self.assertIn("ends must be a list", str(e.exception))

    def test_functor_method_from_the_class(self):
        v = pk.View([4], pk.double)
        with self.assertRaises(PkcArgumentError) as e:
            pk.parallel_for(4, Filler.fill)
        self.assertIn("Filler(...).fill", str(e.exception))
        pk.parallel_for(4, Filler(v).fill)
        self.assertEqual(list(v), [2.0] * 4)


if __name__ == "__main__":
    unittest.main()
