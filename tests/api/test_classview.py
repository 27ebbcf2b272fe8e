"""Views of a @pk.classtype on the host (issue 26): allocation in AoS (one
structured array) and SoA (one array per field), field Views sharing the
memory with the right strides, np.asarray, pk.to_layout, printing, DLPack
of a field, and the errors a kernel raises for the wrong argument."""
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "runtime-shim", "python"))
sys.path.insert(0, HERE)
import pykokkos as pk  # noqa: E402
import kern_classview as K  # noqa: E402

FIELDS = [("x", np.float64), ("v", np.float32), ("id", np.int32), ("n", np.int64)]


def filled(layout, n=6):
    p = pk.View([n], K.Particle, layout=layout)
    p.x = np.arange(n) * 1.5
    p.v = 2.0
    p.id = np.arange(n) + 10
    p.n = 3
    return p


class Allocation(unittest.TestCase):
    def test_aos_is_one_c_struct_array(self):
        p = pk.View([5], K.Particle, layout=pk.AoS)
        a = np.asarray(p)
        self.assertEqual(a.dtype.names, ("x", "v", "id", "n"))
        # the C struct: double, float, int32, then int64 aligned to 8
        self.assertEqual([a.dtype.fields[f][1] for f in a.dtype.names], [0, 8, 12, 16])
        self.assertEqual(a.dtype.itemsize, 24)
        self.assertIs(np.asarray(p), a)   # the memory itself, no copy
        self.assertEqual((len(p), p.shape, p.extent(0), p.fields, p.dtype),
                         (5, (5,), 5, ("x", "v", "id", "n"), K.Particle))
        self.assertTrue(np.all(a["x"] == 0) and np.all(a["n"] == 0))

    def test_field_dtypes(self):
        for lay in (pk.AoS, pk.SoA):
            p = pk.View([4], K.Particle, layout=lay)
            for name, dt in FIELDS:
                self.assertEqual(np.asarray(getattr(p, name)).dtype, dt)

    def test_bad_layout_and_rank(self):
        with self.assertRaisesRegex(ValueError, "pk.AoS or pk.SoA"):
            pk.View([3], K.Particle, layout=pk.LayoutLeft)
        with self.assertRaisesRegex(ValueError, "rank 1 to 3"):
            pk.View([3, 2, 2, 2], K.Particle, layout=pk.SoA)

    def test_default_layout_runs(self):
        p = pk.View([4], K.Particle)
        self.assertIn(p.layout, (pk.AoS, pk.SoA))
        p.x = 1.0
        p.v = 2.0
        pk.parallel_for(4, K.advance, p=p, dt=0.5)
        np.testing.assert_array_equal(np.asarray(p.x), np.full(4, 2.0))


class Fields(unittest.TestCase):
    def test_aos_field_is_strided_view_of_the_structs(self):
        p = filled(pk.AoS)
        x = np.asarray(p.x)
        self.assertEqual(x.strides, (24,))
        self.assertTrue(np.shares_memory(x, np.asarray(p)))
        p.x[2] = 99.0
        self.assertEqual(np.asarray(p)["x"][2], 99.0)
        self.assertEqual(p.x.layout, pk.Layout.LayoutStride)

    def test_soa_field_is_contiguous(self):
        p = filled(pk.SoA)
        for name, dt in FIELDS:
            a = np.asarray(getattr(p, name))
            self.assertEqual(a.strides, (np.dtype(dt).itemsize,))
            self.assertTrue(a.flags.c_contiguous)
        x = np.asarray(p.x)
        x[1] = -4.0
        self.assertEqual(np.asarray(p.x)[1], -4.0)   # the same memory
        s = np.asarray(p)                            # a structured copy
        self.assertEqual(s["x"][1], -4.0)
        s["x"][1] = 7.0
        self.assertEqual(np.asarray(p.x)[1], -4.0)

    def test_assign_whole_field_and_unknown_names(self):
        for lay in (pk.AoS, pk.SoA):
            p = filled(lay)
            p.v = np.arange(6)
            np.testing.assert_array_equal(np.asarray(p.v), np.arange(6, dtype=np.float32))
            with self.assertRaisesRegex(AttributeError, "no field or attribute 'y'"):
                p.y
            with self.assertRaisesRegex(AttributeError, "cannot set 'y'"):
                p.y = 1.0

    def test_dlpack_of_a_field(self):
        for lay in (pk.AoS, pk.SoA):
            p = filled(lay)
            d = np.from_dlpack(p.x)
            np.testing.assert_array_equal(d, np.arange(6) * 1.5)
            self.assertTrue(np.shares_memory(d, np.asarray(p.x)))

    def test_field_view_in_a_scalar_kernel(self):
        p = filled(pk.SoA)
        pk.parallel_for(6, K.scale, x=p.x, s=2.0)   # SoA fields are contiguous Views
        # (on GPUs: a tensor into p's device buffer, p's copy there made current)
        np.testing.assert_array_equal(np.asarray(p.x), np.arange(6) * 3.0)
        q = filled(pk.AoS)
        pk.parallel_for(6, K.scale, x=q.x, s=2.0)   # strided: a contiguous copy, written back
        np.testing.assert_array_equal(np.asarray(q.x), np.arange(6) * 3.0)
        np.testing.assert_array_equal(np.asarray(q.v), np.full(6, 2.0))   # its neighbours kept


class Conversion(unittest.TestCase):
    def test_to_layout_both_ways(self):
        for lay, other in ((pk.AoS, pk.SoA), (pk.SoA, pk.AoS)):
            p = filled(lay)
            q = pk.to_layout(p, other)
            self.assertIs(q.layout, other)
            for name, _ in FIELDS:
                np.testing.assert_array_equal(np.asarray(getattr(q, name)),
                                              np.asarray(getattr(p, name)))
            q.x = 0.0   # a copy: p keeps its values
            self.assertEqual(np.asarray(p.x)[1], 1.5)
            self.assertIs(pk.to_layout(p, lay), p)

    def test_to_layout_needs_a_class_view(self):
        with self.assertRaisesRegex(TypeError, "pk.to_layout"):
            pk.to_layout(pk.View([3], pk.double), pk.SoA)

    def test_printing(self):
        for lay, word in ((pk.AoS, "AoS"), (pk.SoA, "SoA")):
            p = filled(lay, 2)
            self.assertEqual(str(p), str(np.asarray(p)))
            self.assertIn("(1.5, 2., 11, 3)", str(p))
            r = repr(p)
            self.assertIn("dtype=Particle", r)
            self.assertIn(f"layout={word}", r)


class KernelArguments(unittest.TestCase):
    def test_runs_on_both_layouts(self):
        for lay in (pk.AoS, pk.SoA):
            p = filled(lay)
            pk.parallel_for(6, K.advance, p=p, dt=0.25)
            np.testing.assert_allclose(np.asarray(p.x), np.arange(6) * 1.5 + 0.5)
            np.testing.assert_array_equal(np.asarray(p.n), np.full(6, 4))

    def test_plain_view_for_a_class_view_raises(self):
        with self.assertRaisesRegex(TypeError, "advance: argument 'p': expected a View of a "
                                    "@pk.classtype"):
            pk.parallel_for(6, K.advance, p=pk.View([6], pk.double), dt=0.1)

    def test_view_of_another_classtype_raises(self):
        for lay in (pk.AoS, pk.SoA):
            o = pk.View([6], K.Other, layout=lay)
            with self.assertRaisesRegex(RuntimeError, "advance.*argument 'p'.*Particle"):
                pk.parallel_for(6, K.advance, p=o, dt=0.1)

    def test_range_past_the_extent_raises(self):
        p = filled(pk.SoA)
        with self.assertRaisesRegex(ValueError, "advance"):
            pk.parallel_for(7, K.advance, p=p, dt=0.1)


def bodies(layout, n=4):
    b = pk.View([n], K.Body, layout=layout)
    b.id = np.arange(n) + 10
    b.pos.x = np.arange(n) * 1.5
    b.pos.y = -1.0
    b.m = 2.0
    return b


class NestedClasstype(unittest.TestCase):
    """Body.pos is a Vec3: p.pos a FieldGroup of field Views, the AoS struct
    nesting the Vec3 struct as C does."""

    def test_aos_dtype_nests_the_c_struct(self):
        a = np.asarray(pk.View([3], K.Body, layout=pk.AoS))
        self.assertEqual(a.dtype.names, ("id", "pos", "m"))
        # int32 id, then the Vec3 (3 doubles) aligned to 8, then a float32
        self.assertEqual([a.dtype.fields[f][1] for f in a.dtype.names], [0, 8, 32])
        self.assertEqual(a.dtype.itemsize, 40)
        self.assertEqual(a.dtype["pos"].names, ("x", "y", "z"))

    def test_names_and_groups(self):
        for lay in (pk.AoS, pk.SoA):
            b = bodies(lay)
            self.assertEqual(b.fields, ("id", "pos", "m"))
            self.assertEqual(b.pos.fields, ("x", "y", "z"))
            with self.assertRaisesRegex(AttributeError, "no field 'pos.w'"):
                b.pos.w

    def test_nested_field_views_share_memory(self):
        b = bodies(pk.AoS)
        x = np.asarray(b.pos.x)
        self.assertEqual(x.strides, (40,))
        self.assertTrue(np.shares_memory(x, np.asarray(b)))
        b.pos.x[1] = 99.0
        self.assertEqual(np.asarray(b)["pos"]["x"][1], 99.0)
        s = bodies(pk.SoA)
        y = np.asarray(s.pos.y)
        self.assertTrue(y.flags.c_contiguous)
        y[2] = 5.0
        self.assertEqual(np.asarray(s.pos.y)[2], 5.0)
        np.testing.assert_array_equal(np.from_dlpack(s.pos.x), np.arange(4) * 1.5)

    def test_group_values_and_assignment(self):
        for lay in (pk.AoS, pk.SoA):
            b = bodies(lay)
            g = np.asarray(b.pos)
            np.testing.assert_array_equal(g["x"], np.arange(4) * 1.5)
            np.testing.assert_array_equal(g["y"], np.full(4, -1.0))
            c = bodies(pk.SoA if lay is pk.AoS else pk.AoS)
            c.pos.z = 7.0
            b.pos = c.pos      # every field of the nested classtype
            np.testing.assert_array_equal(np.asarray(b.pos.z), np.full(4, 7.0))
            with self.assertRaisesRegex(ValueError, "field 'pos' is a classtype"):
                b.pos = 1.0

    def test_to_layout_and_printing(self):
        for lay, other in ((pk.AoS, pk.SoA), (pk.SoA, pk.AoS)):
            b = bodies(lay, 2)
            q = pk.to_layout(b, other)
            for f in ("x", "y", "z"):
                np.testing.assert_array_equal(np.asarray(getattr(q.pos, f)),
                                              np.asarray(getattr(b.pos, f)))
            self.assertIn("(11, (1.5, -1., 0.), 2.)", str(b))
            self.assertIn("dtype=Body", repr(b))

    def test_kernel_on_both_layouts(self):
        for lay in (pk.AoS, pk.SoA):
            b = bodies(lay)
            pk.parallel_for(4, K.lift, b=b, dz=0.5)
            np.testing.assert_array_equal(np.asarray(b.pos.z), np.full(4, 1.0))
            np.testing.assert_array_equal(np.asarray(b.id), np.arange(4) + 11)
            np.testing.assert_array_equal(np.asarray(b.pos.x), np.arange(4) * 1.5)

    def test_view_of_the_wrong_classtype_raises(self):
        for lay in (pk.AoS, pk.SoA):
            with self.assertRaisesRegex(RuntimeError, "lift.*argument 'b'.*Body"):
                pk.parallel_for(4, K.lift, b=filled(lay, 4), dz=0.5)


class ListFields(unittest.TestCase):
    """Tracer.v is a List[float] of 3, Tracer.w a List[pk.float32] of 2: p.v
    a zero-copy View of shape (n, 3), the AoS dtype a numpy subarray field."""

    def test_aos_dtype_has_subarrays(self):
        a = np.asarray(pk.View([2], K.Tracer, layout=pk.AoS))
        self.assertEqual(a.dtype.names, ("id", "v", "pos", "w"))
        self.assertEqual(a.dtype["v"].shape, (3,))
        self.assertEqual(a.dtype["w"], np.dtype((np.float32, (2,))))
        # int32 id, double v[3] at 8, Vec3 at 32, float w[2] at 56: 64 bytes
        self.assertEqual([a.dtype.fields[f][1] for f in a.dtype.names], [0, 8, 32, 56])
        self.assertEqual(a.dtype.itemsize, 64)

    def test_list_field_view_shape_strides_and_memory(self):
        for lay in (pk.AoS, pk.SoA):
            t = pk.View([5], K.Tracer, layout=lay)
            self.assertEqual(t.fields, ("id", "v", "pos", "w"))
            v = np.asarray(t.v)
            self.assertEqual(v.shape, (5, 3))
            self.assertEqual(v.dtype, np.float64)
            # AoS: (struct, 8); SoA: each component contiguous, (8, 8 * n)
            self.assertEqual(v.strides, (64, 8) if lay is pk.AoS else (8, 40))
            t.v = np.arange(15.0).reshape(5, 3)
            t.v[1, 2] = -1.0
            np.testing.assert_array_equal(np.asarray(t.v)[:, 0], [0, 3, 6, 9, 12])
            self.assertEqual(np.asarray(t)["v"][1, 2], -1.0)
            self.assertEqual(np.asarray(t.w).shape, (5, 2))
            d = np.from_dlpack(t.v)                       # DLPack: the same strides
            self.assertEqual((d.shape, d.strides), (v.shape, v.strides))
            self.assertTrue(np.shares_memory(d, v))

    def test_kernel_to_layout_and_printing(self):
        for lay, other in ((pk.AoS, pk.SoA), (pk.SoA, pk.AoS)):
            t = pk.View([4], K.Tracer, layout=lay)
            t.v = np.arange(12.0).reshape(4, 3)
            t.w = 2.0
            pk.parallel_for(4, K.spin, t=t)
            want = np.arange(12.0).reshape(4, 3) + 2.0 * np.arange(3)
            np.testing.assert_array_equal(np.asarray(t.v), want)
            np.testing.assert_array_equal(np.asarray(t.id), np.full(4, 3))
            q = pk.to_layout(t, other)
            np.testing.assert_array_equal(np.asarray(q.v), want)
            self.assertIn("(3, [ 0.,  3.,  6.], (0., 0., 0.), [2., 2.])", str(t))


def _member(p, path):
    """p.<path> ("x", "pos.x")."""
    for part in path.split("."):
        p = getattr(p, part)
    return p


def _paths(p, group=""):
    """Every field path of p that is a View (scalar and List fields, nested
    ones through their field groups)."""
    out = []
    for name in (_member(p, group[:-1]) if group else p).fields:
        path = group + name
        if isinstance(_member(p, path), pk.View):
            out.append(path)
        else:
            out.extend(_paths(p, path + "."))
    return out


class DeviceFieldInterface(unittest.TestCase):
    """The __cuda_array_interface__ a field of a GPU ClassView exposes is
    computed from the layout (field_cai): checked here against numpy's own
    view of the host field, whose buffers the device copies mirror byte for
    byte (base = the host buffer's address instead of the device one's)."""

    def check(self, p):
        bases = [b.ctypes.data for b in p._buffers()]
        paths = _paths(p)
        self.assertGreater(len(paths), 1)
        for path in paths:
            want = np.asarray(_member(p, path)).__array_interface__
            got = p._field_cai(path, bases)
            ctx = f"{p.layout.name} {p.dtype.__name__}{list(p.shape)} .{path}"
            self.assertEqual(got["shape"], want["shape"], ctx)
            self.assertEqual(got["typestr"], want["typestr"], ctx)
            self.assertEqual(got["data"], want["data"], ctx)
            self.assertEqual(got["strides"], want["strides"], ctx)
            self.assertEqual((got["version"], got["stream"]), (3, None), ctx)
        return paths

    def test_scalar_nested_and_list_fields_both_layouts(self):
        for lay in (pk.AoS, pk.SoA):
            for shape in ([5], [3, 4], [2, 3, 2], [1]):
                self.check(pk.View(shape, K.Particle, layout=lay))
                self.assertIn("pos.y", self.check(pk.View(shape, K.Body, layout=lay)))
                self.assertIn("w", self.check(pk.View(shape, K.Tracer, layout=lay)))

    def test_helper_closed_form(self):
        # AoS Tracer (64-byte struct): v (at 8) of shape (n, 3), strides (64, 8)
        cai = pk._classview.field_cai(pk.AoS, (5,), 8, 8, "<f8", 1000, 64, 3)
        self.assertEqual((cai["shape"], cai["strides"], cai["data"]),
                         ((5, 3), (64, 8), (1008, False)))
        # SoA: a scalar field contiguous (strides None), a List field (8, 8 * n)
        cai = pk._classview.field_cai(pk.SoA, (4, 2), 0, 4, "<f4", 64)
        self.assertEqual((cai["shape"], cai["strides"], cai["data"]), ((4, 2), None, (64, False)))
        cai = pk._classview.field_cai(pk.SoA, (7,), 0, 8, "<f8", 64, 0, 3)
        self.assertEqual((cai["shape"], cai["strides"]), ((7, 3), (8, 56)))
        # no elements: a null data pointer
        self.assertEqual(pk._classview.field_cai(pk.AoS, (0,), 8, 8, "<f8", 64, 24)["data"],
                         (0, False))

    @unittest.skipIf(os.environ.get("PKC_BACKEND") in ("cuda", "hip"), "host backends only")
    def test_host_field_is_a_plain_view_without_cuda_interface(self):
        for lay in (pk.AoS, pk.SoA):
            x = filled(lay).x
            self.assertIs(type(x), pk.View)
            self.assertFalse(hasattr(x, "__cuda_array_interface__"))
            self.assertEqual(x.__dlpack_device__()[0], 1)   # kDLCPU


if __name__ == "__main__":
    unittest.main()
