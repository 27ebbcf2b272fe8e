"""Dtypes, spaces, layouts, traits, decorators and annotation placeholders.

Pure Python with no imports beyond the interpreter's core, so that
`import pykokkos` stays fast; numpy dtypes are resolved lazily.
"""

from ._errors import PkcArgumentError, PkcRuntimeError, PkcValueError

# DLPack type codes (dlpack.h); kDLBool is 6 in DLPack >= 0.8.
DL_INT, DL_UINT, DL_FLOAT, DL_BOOL = 0, 1, 2, 6


class _DTypeMeta(type):
    """Metaclass of pk.DataTypeClass and of every dtype (pk.int32, ...).

    As in PyKokkos the dtypes are classes (subclasses of DataTypeClass), and
    they are also usable as values: `isinstance(pk.int32, pk.DataTypeClass)`
    is True, `np.dtype(pk.int32)` is int32 (through `.dtype`), and a dtype
    compares equal to itself, its numpy type/dtype and its numpy name."""

    def __instancecheck__(cls, obj):
        if cls is DataTypeClass and obj.__class__ is _DTypeMeta:
            return obj is not DataTypeClass
        return type.__instancecheck__(cls, obj)

    def __repr__(cls):
        """As PyKokkos' dtype classes: <class 'pykokkos.interface.data_types.float64'>
        (str(v.dtype).split('.')[-1][:-2] is numpy's name)."""
        if cls.__dict__.get("np_name") is None:
            return f"<class 'pykokkos.{cls.__name__}'>"
        return f"<class 'pykokkos.interface.data_types.{cls.name}'>"

    def __eq__(cls, other):
        if other is cls:
            return True
        if other.__class__ is _DTypeMeta or cls.__dict__.get("np_name") is None:
            return False
        if isinstance(other, str):
            return other == cls.np_name
        mod = getattr(other.__class__, "__module__", "") or ""
        if mod == "numpy" or getattr(other, "__module__", None) == "numpy":
            try:
                import numpy
                return numpy.dtype(other).name == cls.np_name
            except TypeError:
                return False
        return False

    def __ne__(cls, other):
        return not _DTypeMeta.__eq__(cls, other)

    __hash__ = type.__hash__

    @property
    def np_dtype(cls):
        """The numpy dtype (numpy imported on first use). int64/uint64 are
        numpy's 'q'/'Q' (== int64/uint64), as the arrays of PyKokkos' Views
        (pybind11's buffer format), so their elements read as
        numpy.longlong/ulonglong, as in PyKokkos."""
        import numpy
        return numpy.dtype(_NP_CHAR.get(cls.np_name, cls.np_name))

    dtype = np_dtype   # numpy reads `.dtype`: np.dtype(pk.int32) == int32

    @property
    def np_equiv(cls):
        """The numpy scalar type (np.int32, ...), as PyKokkos' np_equiv."""
        import numpy
        return numpy.dtype(cls.np_name).type

    @property
    def itemsize(cls):
        return cls.bits // 8

    def __call__(cls, *args):
        """pk.int32(x): x converted to that type, as a numpy scalar."""
        if cls.__dict__.get("np_name") is None:
            return type.__call__(cls, *args)
        return cls.np_equiv(*args)


_NP_CHAR = {"int64": "q", "uint64": "Q"}


class DataTypeClass(metaclass=_DTypeMeta):
    """Base of the element types (PyKokkos' DataTypeClass): pk.int8 ..
    pk.uint64, pk.float32/pk.float (float32), pk.float64/pk.double, pk.bool.
    Attributes: name / np_name (numpy name), code, bits (DLPack), value,
    np_equiv (numpy type), np_dtype."""

    name = np_name = value = None
    code = bits = 0


def _dtype(name, code, bits):
    return _DTypeMeta(name, (DataTypeClass,), {
        "name": name, "np_name": name, "value": name, "code": code, "bits": bits,
        "__doc__": f"pk.{name}: View/scalar element type (numpy {name})",
        "__module__": "pykokkos"})


# Kept for code that says `_types.DataType`: the class of every dtype object.
DataType = _DTypeMeta

int8 = _dtype("int8", DL_INT, 8)
int16 = _dtype("int16", DL_INT, 16)
int32 = _dtype("int32", DL_INT, 32)
int64 = _dtype("int64", DL_INT, 64)
uint8 = _dtype("uint8", DL_UINT, 8)
uint16 = _dtype("uint16", DL_UINT, 16)
uint32 = _dtype("uint32", DL_UINT, 32)
uint64 = _dtype("uint64", DL_UINT, 64)
float32 = _dtype("float32", DL_FLOAT, 32)
float64 = _dtype("float64", DL_FLOAT, 64)
bool_ = _dtype("bool", DL_BOOL, 8)
float = float32  # noqa: A001  (PyKokkos: pk.float is float32)
double = float64


def _real_from_env():
    """pk.real: env PKC_REAL ("float32" | "float64", default float64); must
    match the `pkc build --real=...` the module was built with."""
    import os
    r = os.environ.get("PKC_REAL", "") or "float64"
    if r not in ("float32", "float64"):
        raise PkcValueError(f"pykokkos: PKC_REAL must be float32 or float64, got {r!r}")
    return float32 if r == "float32" else float64


real = _real_from_env()


def pkc_build_args():
    """Extra `pkc build` arguments the JIT build passes (--real from PKC_REAL,
    --bounds-check from PKC_BOUNDS_CHECK=1)."""
    import os
    r = os.environ.get("PKC_REAL", "")
    args = [f"--real={real.name}"] if r else []
    if os.environ.get("PKC_BOUNDS_CHECK", "") not in ("", "0"):
        args.append("--bounds-check")
    return args

ALL_DTYPES = (int8, int16, int32, int64, uint8, uint16, uint32, uint64,
              float32, float64, bool_)
_BY_NAME = {d.np_name: d for d in ALL_DTYPES}


class _DataTypeEnum(type):
    """Metaclass of pk.DataType: `pk.DataType.double`, `pk.DataType["int32"]`,
    `for t in pk.DataType`, `pk.int32 in pk.DataType` as with PyKokkos' enum."""

    def __iter__(cls):
        return iter(ALL_DTYPES)

    def __getitem__(cls, name):
        try:
            return getattr(cls, name)
        except AttributeError:
            raise KeyError(name) from None

    def __contains__(cls, t):
        return t in ALL_DTYPES

    def __len__(cls):
        return len(ALL_DTYPES)

    def __repr__(cls):
        return "<enum 'DataType'>"


class _DataTypeNamespace(metaclass=_DataTypeEnum):
    """pk.DataType: the dtypes by name (`pk.DataType.double` is pk.float64)."""


for _d in ALL_DTYPES:
    setattr(_DataTypeNamespace, _d.name, _d)
_DataTypeNamespace.int = int32
_DataTypeNamespace.float = float32
_DataTypeNamespace.double = float64
_DataTypeNamespace.real = real


def as_dtype(t):
    """Maps pk dtypes, Python int/float/bool, numpy types/dtypes and names to
    a DataType (Python int means int32 as a View element type). Raises
    TypeError for anything else."""
    if t.__class__ is _DTypeMeta and t is not DataTypeClass:
        return t
    import builtins
    if t is builtins.int:
        return int32
    if t is builtins.float:
        return float64
    if t is builtins.bool:
        return bool_
    name = t if isinstance(t, str) else getattr(t, "__name__", None)
    if name == "double":
        return float64
    if name not in _BY_NAME:
        try:
            import numpy
            name = numpy.dtype(t).name
        except Exception:
            name = None
    if name in _BY_NAME:
        return _BY_NAME[name]
    raise PkcArgumentError(f"pykokkos: unsupported dtype {t!r} (use one of "
                           "pk.int8..pk.uint64, pk.float32, pk.float64, pk.bool)")


def dtype_of_numpy(npdt):
    """DataType for a numpy dtype, or None if pkc has no such element type."""
    return _BY_NAME.get(npdt.name)


class _Named:
    __slots__ = ("name", "kind")

    def __init__(self, kind, name):
        self.kind, self.name = kind, name

    @property
    def value(self):
        return self.name

    def __repr__(self):
        return f"pk.{self.kind}.{self.name}"


class _EnumMeta(type):
    """PyKokkos' spaces, layouts and traits are Python Enums whose values are
    their names: pk.ExecutionSpace("OpenMP") is pk.ExecutionSpace.OpenMP,
    iteration lists the members, pk.ExecutionSpace["Cuda"] looks one up."""

    def __call__(cls, value):
        if isinstance(value, _Named) and value.kind == cls.__name__:
            return value
        m = cls._members.get(str(value)) or cls._members.get(str(value).lower())
        if m is None:
            raise PkcValueError(f"{value!r} is not a valid pk.{cls.__name__} "
                                f"(one of {', '.join(cls._order)})")
        return m

    def __getitem__(cls, name):
        return cls._members[name]

    def __iter__(cls):
        return iter(cls._members[n] for n in cls._order)

    def __len__(cls):
        return len(cls._order)


def _enum(kind, names):
    members = {n: _Named(kind, n) for n in names}
    ns = _EnumMeta(kind, (), {"__slots__": (), "_order": tuple(names),
                             "_members": {**members, **{n.lower(): m for n, m in members.items()}}})
    for n, m in members.items():
        setattr(ns, n, m)
    return ns


ExecutionSpace = _enum("ExecutionSpace", ("Serial", "OpenMP", "Cuda", "HIP",
                                          "Threads", "Default", "Debug"))
MemorySpace = _enum("MemorySpace", ("HostSpace", "CudaSpace", "CudaUVMSpace",
                                    "HIPSpace", "HIPManagedSpace",
                                    "MemorySpaceDefault"))
Layout = _enum("Layout", ("LayoutRight", "LayoutLeft", "LayoutStride",
                          "LayoutDefault", "AoS", "SoA"))   # AoS/SoA: Views of classtypes
Trait = _enum("Trait", ("Atomic", "RandomAccess", "Restrict", "Unmanaged",
                        "TraitDefault"))

# The backends (PKC_BACKEND values, `pkc build --backend`) and, in one place,
# which of them run kernels on a GPU.
BACKENDS = ("serial", "openmp", "cuda", "hip")
GPU_BACKENDS = ("cuda", "hip")


def is_gpu_backend(backend):
    """True for a backend whose kernels run on a GPU (cuda, hip)."""
    return backend in GPU_BACKENDS


BACKEND_OF_SPACE = {"Serial": "serial", "OpenMP": "openmp", "Cuda": "cuda",
                    "HIP": "hip", "Default": "openmp", "Threads": "openmp",
                    "Debug": "serial"}


class ViewTypeInfo:
    """Per-member View type details for @pk.functor(name=ViewTypeInfo(...))."""

    def __init__(self, space=None, layout=None, trait=None):
        self.space, self.layout, self.trait = space, layout, trait

    def __repr__(self):
        return (f"pk.ViewTypeInfo(space={self.space!r}, layout={self.layout!r},"
                f" trait={self.trait!r})")


# ---- decorators: mark objects; pkc translates them ahead of time ----------

def _marker(attr):
    def deco(obj=None, **kwargs):
        def mark(o):
            try:
                setattr(o, attr, kwargs or True)
            except (AttributeError, TypeError):
                pass
            return o
        return mark if obj is None else mark(obj)
    deco.__name__ = attr.strip("_").replace("pk_", "")
    return deco


workunit = _marker("_pk_workunit")
functor = _marker("_pk_functor")
function = _marker("_pk_function")
workload = _marker("_pk_workload")
callback = _marker("_pk_callback")


def main(fn=None, **kwargs):
    """@pk.main: marks a workload's main; calling it (`w.run()`) runs the
    compiled main as pk.execute(pk.Default, w) does, without the callbacks."""
    def mark(f):
        def run_main(self, *args, **kw):
            if args or kw:
                raise PkcArgumentError(f"{f.__name__}: a @pk.main method takes no arguments")
            from ._workload import execute
            return execute(None, self, callbacks=False)
        for a in ("__name__", "__qualname__", "__doc__", "__module__"):
            setattr(run_main, a, getattr(f, a, None))
        run_main.__wrapped__ = f
        run_main._pk_main = kwargs or True
        return run_main
    return mark if fn is None else mark(fn)
classtype = _marker("_pk_classtype")


# ---- annotation placeholders: evaluate at def time, mean nothing here -----

class _Annot:
    __slots__ = ("base", "args")

    def __init__(self, base, args):
        self.base, self.args = base, args

    def __repr__(self):
        return f"pk.{self.base}[{', '.join(map(pk_name, self.args))}]"


def pk_name(t):
    """How pk code spells t: pk.float64 for a dtype, else repr(t)."""
    if t.__class__ is _DTypeMeta and t.__dict__.get("np_name") is not None:
        return "pk." + t.name
    return repr(t)


class _Subscriptable(type):
    def __getitem__(cls, item):
        return _Annot(cls.__name__, item if isinstance(item, tuple) else (item,))


def _placeholder(name):
    return _Subscriptable(name, (), {"__slots__": ()})


Acc = _placeholder("Acc")
TeamMember = _placeholder("TeamMember")
View1D, View2D, View3D, View4D = (_placeholder(f"View{i}D") for i in range(1, 5))
View5D, View6D, View7D, View8D = (_placeholder(f"View{i}D") for i in range(5, 9))


# Reducer annotations of an accumulator: `acc: pk.Max[pk.double]` (Acc = Sum).
Sum, Prod, Max, Min = (_placeholder(n) for n in ("Sum", "Prod", "Max", "Min"))
# Reducers a launch may name only (reducer=pk.BAnd, PyKokkos): bitwise and logical.
BAnd, BOr, LAnd, LOr = (_placeholder(n) for n in ("BAnd", "BOr", "LAnd", "LOr"))


class _StructReducer(_Subscriptable):
    """pk.MaxLoc / MinLoc / MinMax / MinMaxLoc: reducers whose accumulator has
    fields (acc.val, acc.loc; acc.min_val, acc.max_val, acc.min_loc,
    acc.max_loc), usable as annotations (`acc: pk.MaxLoc[pk.double]`) and as
    `reducer=` at a launch; a kernel returns them as ValLoc / MinMax /
    MinMaxLoc tuples. They are markers: constructing one raises."""

    def __call__(cls, *a, **k):
        raise NotImplementedError(
            f"pk.{cls.__name__} is a reducer marker: name it as a launch's reducer= or in an "
            f"accumulator's annotation (acc: pk.{cls.__name__}[pk.double])")


MaxLoc = _StructReducer("MaxLoc", (), {"__slots__": ()})
MinLoc = _StructReducer("MinLoc", (), {"__slots__": ()})
MinMax = _StructReducer("MinMax", (), {"__slots__": ()})
MinMaxLoc = _StructReducer("MinMaxLoc", (), {"__slots__": ()})
REDUCERS = (Sum, Prod, Min, Max, MaxLoc, MinLoc, BAnd, BOr, LAnd, LOr, MinMax, MinMaxLoc)


class _ReducerType(type):
    def __instancecheck__(cls, obj):
        return any(obj is r for r in REDUCERS)


class Reducer(metaclass=_ReducerType):
    """PyKokkos' pk.Reducer: the type of the reducer markers (pk.Sum, pk.Max,
    ..., pk.MinMaxLoc), for host code that passes one on (`def run(reducer:
    pk.Reducer, ...)`); isinstance(pk.Max, pk.Reducer) holds."""

    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        raise PkcArgumentError("pk.Reducer is the type of pk.Sum, pk.Max, ...: pass one of those")


class _ScratchAnnot(_Annot):
    """pk.ScratchView1D[pk.double]: an annotation that also answers shmem_size."""
    __slots__ = ("view",)

    def shmem_size(self, *extents):
        return self.view.shmem_size(*extents, dtype=self.args[0])


class _ScratchView(_Subscriptable):
    def __getitem__(cls, item):
        a = _ScratchAnnot(cls.__name__, item if isinstance(item, tuple) else (item,))
        a.view = cls
        return a

    def shmem_size(cls, *extents, dtype=None):
        """Bytes of team scratch a ScratchView of these extents needs, as
        Kokkos::View::shmem_size: product * sizeof(T) + sizeof(T) (alignment slack)."""
        if len(extents) != cls._rank:
            raise PkcArgumentError(f"pk.{cls.__name__}.shmem_size takes {cls._rank} "
                                   f"extent(s), got {len(extents)}")
        size = as_dtype(float64 if dtype is None else dtype).bits // 8
        n = 1
        for e in extents:
            if int(e) < 0:
                raise PkcValueError(f"pk.{cls.__name__}.shmem_size: negative extent {e}")
            n *= int(e)
        return n * size + size


ScratchView1D, ScratchView2D, ScratchView3D = (
    _ScratchView(f"ScratchView{i}D", (), {"__slots__": (), "_rank": i})
    for i in range(1, 4))


# Names that exist only inside kernels (pkc translates them); calling them
# from Python raises a clear error instead of an AttributeError.
KERNEL_ONLY = ("TeamThreadRange", "ThreadVectorRange", "TeamVectorRange",
               "TeamThreadMDRange", "ThreadVectorMDRange", "TeamVectorMDRange",
               "single", "atomic_add", "atomic_sub", "atomic_increment",
               "atomic_decrement", "atomic_compare_exchange", "lower_bound",
               "upper_bound") + tuple(
    "atomic_fetch_" + op for op in ("add", "sub", "mul", "div", "max", "min", "mod",
                                    "and", "or", "xor", "lshift", "rshift")) + tuple(
    "atomic_" + op for op in ("mul", "div", "max", "min", "mod", "and", "or", "xor",
                              "lshift", "rshift"))


def kernel_only(name):
    """A stand-in for pk.<name>, which only kernels may use."""
    def f(*args, **kwargs):
        raise PkcRuntimeError(f"pk.{name} can only be used inside a @pk.workunit "
                              "(pkc compiles it to C++); it cannot run in Python")
    f.__name__ = f.__qualname__ = name
    return f
