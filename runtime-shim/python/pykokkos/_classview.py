"""Views of @pk.classtype values: pk.View(shape, Particle, layout=pk.AoS or
pk.SoA) (docs/DIALECT.md 3.4). AoS keeps one numpy structured array (the
fields of element i side by side, as the C struct the kernels use); SoA one
numpy array per field. Either way `p.x` is a View of field x sharing the
memory, `np.asarray(p)` a structured array (AoS: the memory itself; SoA: a
copy) and kernels receive a pkc_class_view (pkc_abi.h): one strided DLTensor
per field, in the order the classtype's __init__ declares them. A field of a
classtype type (Body.pos a Vec) nests: its fields take its place in that
order ("pos.x", "pos.y", ...), the AoS struct holds the nested struct, and
`p.pos` is a FieldGroup whose `.x` is the field View. On GPU backends a field
is a FieldView: host access through the ClassView's coherence, and the
device buffer zero copy (__cuda_array_interface__ from field_cai, __dlpack__)."""
import ast
import inspect
import textwrap
import weakref

from . import _types as T
from ._errors import PkcArgumentError, PkcValueError
from ._abiconst import kDLCUDA
from ._view import View, DLHolder, numpy, zeroed

_SCALAR_NAMES = {"float": "float64", "double": "float64", "float64": "float64",
                 "float32": "float32", "int": "int64", "bool": "bool"}


def is_classtype(obj):
    """obj is a class decorated with @pk.classtype."""
    return isinstance(obj, type) and getattr(obj, "_pk_classtype", None) is not None


MAX_NESTING = 4   # as pkc: PKI_MAX_CLASS_NESTING
MAX_ARRAY_FIELD = 64   # as pkc: PKI_MAX_ARRAY_FIELD


def _annotation_dtype(cls, node, where, depth):
    """The numpy dtype of a field annotation (as pkc types a classtype field:
    Python int is int64, float float64; pk./np. spellings their widths; a
    classtype: its aligned structured dtype)."""
    np = numpy()
    text = ast.unparse(node).strip("'\"")
    last = text.rsplit(".", 1)[-1]
    inner = getattr(inspect.getmodule(cls), last, None)
    if is_classtype(inner):
        if depth >= MAX_NESTING:
            raise PkcArgumentError(f"pk.View of classtype {cls.__name__}: field '{where}' is "
                                   f"{last}, nesting classtypes more than {MAX_NESTING} deep; "
                                   "flatten the innermost classtype's fields")
        return struct_dtype(inner, depth + 1)
    if text in ("int", "float", "bool"):
        return np.dtype(_SCALAR_NAMES[text])
    if last == "int" and "." in text:          # pk.int: int32, as in PyKokkos
        return np.dtype("int32")
    if last == "float" and "." in text:        # pk.float: float32
        return np.dtype("float32")
    try:
        dt = T.as_dtype(last)
    except TypeError:
        dt = None
    if dt is None:
        raise PkcArgumentError(f"pk.View of classtype {cls.__name__}: field '{where}' has type "
                        f"{text}; Views of classtypes hold scalar fields (int, float, "
                        "bool, pk.int32, pk.float32, ...) and classtype fields only")
    return np.dtype(dt.np_dtype)


def _is_list(node):
    """node is List[T] or typing.List[T]."""
    return isinstance(node, ast.Subscript) and ast.unparse(node.value).rsplit(".", 1)[-1] == "List"


def _list_dtype(cls, ann, val, where, depth):
    """A List field `self.v: List[float] = [x, y, z]`: a numpy subarray dtype
    of the literal's length (as pkc: a C array `double v[3]`)."""
    if not isinstance(val, ast.List) or not 1 <= len(val.elts) <= MAX_ARRAY_FIELD:
        raise PkcArgumentError(f"pk.View of classtype {cls.__name__}: List field '{where}' "
                               f"needs a list literal of 1 to {MAX_ARRAY_FIELD} elements "
                               f"(self.{where}: List[float] = [x, y, z])")
    elem = None if _is_list(ann.slice) else _annotation_dtype(cls, ann.slice, where, depth)
    if elem is None or elem.names is not None:
        raise PkcArgumentError(f"pk.View of classtype {cls.__name__}: List field '{where}' "
                               "holds a scalar type only (List[float], List[pk.int32], ...)")
    return numpy().dtype((elem, (len(val.elts),)))


def class_fields(cls, depth=1):
    """[(name, numpy dtype)] of classtype cls, from its __init__ (`self.x: T = v`,
    or `self.x = p` of an annotated parameter p), in declaration order; a
    classtype field's dtype is its structured dtype."""
    got = cls.__dict__.get("_pk_fields")
    if got is not None:
        return got
    init = cls.__dict__.get("__init__")
    fields, seen = [], set()
    if init is not None:
        try:
            src = textwrap.dedent(inspect.getsource(init))
        except (OSError, TypeError):
            raise PkcArgumentError(f"pk.View: cannot read the source of {cls.__name__}.__init__ "
                            "to find its fields") from None
        fn = ast.parse(src).body[0]
        params = {a.arg: a.annotation for a in fn.args.args}
        for st in ast.walk(fn):
            tgt, ann, val = None, None, None
            if isinstance(st, ast.AnnAssign):
                tgt, ann, val = st.target, st.annotation, st.value
            elif isinstance(st, ast.Assign) and len(st.targets) == 1:
                tgt, val = st.targets[0], st.value
            if not (isinstance(tgt, ast.Attribute) and isinstance(tgt.value, ast.Name)
                    and tgt.value.id == "self") or tgt.attr in seen:
                continue
            if ann is None and isinstance(val, ast.Name) and params.get(val.id) is not None:
                ann = params[val.id]
            if ann is None and isinstance(val, ast.Constant) and type(val.value) in (int, float):
                ann = ast.Name(id=type(val.value).__name__)
            if ann is None:
                raise PkcArgumentError(f"pk.View of classtype {cls.__name__}: annotate field "
                                f"'self.{tgt.attr}' (self.{tgt.attr}: float = ...)")
            seen.add(tgt.attr)
            if _is_list(ann):
                fields.append((tgt.attr, _list_dtype(cls, ann, val, tgt.attr, depth)))
            else:
                fields.append((tgt.attr, _annotation_dtype(cls, ann, tgt.attr, depth)))
    if not fields:
        raise PkcArgumentError(f"pk.View of classtype {cls.__name__}: it has no fields")
    cls._pk_fields = fields
    return fields


def struct_dtype(cls, depth=1):
    """The numpy structured dtype of cls's C struct (aligned as C aligns it;
    a classtype field a nested structured dtype, as the C struct nests)."""
    return numpy().dtype(class_fields(cls, depth), align=True)


def leaf_fields(cls):
    """[(path, numpy dtype)] of the scalar fields of cls, a classtype field's
    in its place ("pos.x"): the order kernels receive them in."""
    out = []

    def walk(dt, prefix):
        for name in dt.names:
            sub = dt.fields[name][0]
            if sub.names is not None:
                walk(sub, prefix + name + ".")
            elif sub.subdtype is not None:       # a List field: one leaf per component
                out.extend((f"{prefix}{name}[{k}]", sub.base) for k in range(sub.shape[0]))
            else:
                out.append((prefix + name, sub))
    walk(struct_dtype(cls), "")
    return out


def _aos_leaf(a, path):
    """Field path ("pos.x", "v[1]", "v") of structured array a: a view of a's memory."""
    for part in path.split("."):
        name, _, k = part.partition("[")
        a = a[name]
        if k:
            a = a[..., int(k[:-1])]
    return a


def _list_fields(cls):
    """{path: length} of the List fields of cls ("v", "pos.w"), nested ones included."""
    out = {}
    for path, _ in leaf_fields(cls):
        if path.endswith("]"):
            head, _, k = path.rpartition("[")
            out[head] = max(out.get(head, 0), int(k[:-1]) + 1)
    return out


class FieldGroup:
    """p.pos where field pos of a View p is a classtype: its fields by name
    (`p.pos.x` the field View, sharing p's memory; `p.pos.x = v` assigns),
    `fields`, np.asarray (AoS: p's memory; SoA: a structured copy)."""

    __slots__ = ("_view", "_path")

    def __init__(self, view, path):
        object.__setattr__(self, "_view", view)
        object.__setattr__(self, "_path", path)

    def __getattr__(self, name):
        return self._view._member(self._path + "." + name)

    def __setattr__(self, name, value):
        self._view._assign(self._path + "." + name, value)

    @property
    def fields(self):
        """The names of the nested classtype's fields, in declaration order."""
        return self._view._names(self._path + ".")

    def __array__(self, dtype=None, copy=None):
        a = _aos_leaf(self._view.to_structured(), self._path)
        return a if dtype is None else a.astype(dtype)

    def __repr__(self):
        return f"FieldGroup({self._path}: {numpy().asarray(self)!r})"


class ClassView:
    """A View of @pk.classtype values. layout is pk.AoS or
    pk.SoA, rank 1 to 3; `p.x` is field x as a View sharing the memory
    (strided for AoS), `p.x = v` assigns all of field x, `np.asarray(p)` is a
    structured array (the memory itself for AoS, a copy for SoA), `len(p)`,
    `p.shape`, `p.extent(k)`, `p.fields`, printing. Kernels take it as a
    View1D..View3D of the classtype, built for both layouts."""

    __slots__ = ("_cls", "_fields", "layout", "_a", "_cols", "_arrays", "_cv", "_keep", "_dev",
                 "_hv", "_dv", "_bufs", "_bix", "_fv", "__weakref__")

    def __init__(self, shape, cls, layout=None):
        from ._view import _shape_tuple
        np = numpy()
        if layout is None or layout is T.Layout.LayoutDefault:
            layout = default_layout()
        if layout not in (T.Layout.AoS, T.Layout.SoA):
            raise PkcValueError(f"pk.View of classtype {cls.__name__}: layout must be pk.AoS or "
                             f"pk.SoA, got {layout!r}")
        shp = _shape_tuple(shape)
        if not 1 <= len(shp) <= 3:
            raise PkcValueError(f"pk.View of classtype {cls.__name__}: rank 1 to 3, got "
                             f"shape {list(shp)}")
        object.__setattr__(self, "_cls", cls)
        object.__setattr__(self, "_fields", leaf_fields(cls))
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "_cv", None)
        object.__setattr__(self, "_keep", None)
        object.__setattr__(self, "_dev", None)   # GPU backends: (DeviceMem per buffer, cv)
        object.__setattr__(self, "_hv", True)    # the host arrays hold the current values
        object.__setattr__(self, "_dv", False)   # the device copy holds them
        lists = _list_fields(cls)
        if layout is T.Layout.AoS:
            a = zeroed(shp, struct_dtype(cls))
            cols = {n: _aos_leaf(a, n) for n, _ in self._fields}
            arrays = {n: _aos_leaf(a, n) for n in lists}       # (shape..., length), strided
        else:
            a = None
            # a List field of length L: one (L, shape...) array, component k contiguous
            whole = {n: zeroed((ln,) + shp, dict(self._fields)[f"{n}[0]"])
                     for n, ln in lists.items()}
            cols = {}
            for n, dt in self._fields:
                head, _, k = n.rpartition("[")
                cols[n] = whole[head][int(k[:-1])] if n.endswith("]") else zeroed(shp, dt)
            arrays = {n: numpy().moveaxis(w, 0, -1) for n, w in whole.items()}
        object.__setattr__(self, "_a", a)
        object.__setattr__(self, "_cols", cols)
        object.__setattr__(self, "_arrays", arrays)
        # the host buffers the device copies mirror byte for byte (AoS: the
        # struct array; SoA: each scalar field, each List field's (L, ...)
        # array) and, per field path, the index of the buffer holding it
        bufs = [a] if a is not None else []
        bix = {}
        if a is None:
            for n, _ in self._fields:
                head = n.rpartition("[")[0] if n.endswith("]") else None
                if head is not None and head in bix:
                    bix[n] = bix[head]
                    continue
                bix[n] = len(bufs)
                if head is not None:
                    bix[head] = len(bufs)
                    bufs.append(whole[head])
                else:
                    bufs.append(cols[n])
        else:
            bix = dict.fromkeys(list(cols) + list(arrays), 0)
        object.__setattr__(self, "_bufs", bufs)
        object.__setattr__(self, "_bix", bix)
        object.__setattr__(self, "_fv", weakref.WeakValueDictionary())   # GPU: FieldViews

    # -- fields --
    def __getattr__(self, name):
        cols = object.__getattribute__(self, "_cols")
        if (name in cols or name in object.__getattribute__(self, "_arrays") or
                any(k.startswith(name + ".") for k in cols)):
            return self._member(name)
        raise AttributeError(f"View of classtype {self._cls.__name__} has no field or "
                             f"attribute '{name}'")

    def __setattr__(self, name, value):
        self._assign(name, value)

    def _names(self, prefix):
        """The distinct names after prefix of the leaf paths under it."""
        out = []
        for n, _ in self._fields:
            if n.startswith(prefix):
                head = n[len(prefix):].split(".", 1)[0].split("[", 1)[0]
                if head not in out:
                    out.append(head)
        return tuple(out)

    def _member(self, path):
        """Field path as a View (a scalar field; a List field: of shape (..., length))
        or a FieldGroup (a classtype field)."""
        if path in self._cols or path in self._arrays:
            arr = self._cols[path] if path in self._cols else self._arrays[path]
            if self._dev is None and not _gpu_backend():   # host backends: a plain View
                self._host(True)
                return _field_view(arr)
            fv = self._fv.get(path)
            if fv is None:
                fv = self._fv[path] = FieldView._of(self, path, arr)
            return fv
        if any(k.startswith(path + ".") for k in self._cols):
            return FieldGroup(self, path)
        raise AttributeError(f"View of classtype {self._cls.__name__} has no field '{path}'")

    def _assign(self, path, value):
        """p.x = value (a scalar field); p.pos = structured values or a FieldGroup
        of the same classtype (a classtype field)."""
        if path in self._cols or path in self._arrays:
            self._host(True)
            (self._cols[path] if path in self._cols else self._arrays[path])[...] = value
            return
        under = [n for n, _ in self._fields if n.startswith(path + ".")]
        if not under:
            raise AttributeError(f"View of classtype {self._cls.__name__}: cannot set '{path}' "
                                 f"(fields: {', '.join(self._names(''))})")
        src = numpy().asarray(value)
        if src.dtype.names is None:
            raise PkcValueError(f"View of classtype {self._cls.__name__}: field '{path}' is a "
                                "classtype; assign its fields (p.{path}.x = ...) or a "
                                "structured array of them")
        self._host(True)
        for n in under:
            self._cols[n][...] = _aos_leaf(src, n[len(path) + 1:])

    @property
    def fields(self):
        """The field names, in declaration order (a classtype field's name once)."""
        return self._names("")

    @property
    def dtype(self):
        """The classtype."""
        return self._cls

    @property
    def shape(self):
        return next(iter(self._cols.values())).shape

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        """The number of elements (product of the extents)."""
        return next(iter(self._cols.values())).size

    def extent(self, k):
        return self.shape[k]

    def __len__(self):
        return self.shape[0]

    # -- numpy --
    def to_structured(self):
        """A structured numpy array of the values: for AoS the memory itself."""
        self._host(True)
        if self._a is not None:
            return self._a
        np = numpy()
        out = np.empty(self.shape, dtype=struct_dtype(self._cls))
        for n, _ in self._fields:
            _aos_leaf(out, n)[...] = self._cols[n]
        return out

    def __array__(self, dtype=None, copy=None):
        """np.asarray(p): AoS, the structured array itself; SoA, a structured
        copy (copy=False raises ValueError: the fields are apart)."""
        if self._a is None and copy is False:
            raise PkcValueError(f"np.asarray of an SoA View of {self._cls.__name__} needs a "
                             "copy (its fields are separate arrays); use p.x for a field")
        a = self.to_structured()
        if dtype is not None and numpy().dtype(dtype) != a.dtype:
            return a.astype(dtype)
        return a.copy() if copy and self._a is not None else a

    def __str__(self):
        return str(self.to_structured())

    def __repr__(self):
        lay = "AoS" if self.layout is T.Layout.AoS else "SoA"
        body = numpy().array2string(self.to_structured(), separator=", ", prefix="View(")
        return f"View({body}, dtype={self._cls.__name__}, shape={self.shape}, layout={lay})"

    # -- host/device coherence (GPU backends), as View's --
    def _buffers(self):
        """The host arrays holding the values, each mirrored by one device
        buffer: the struct array (AoS); each scalar field and each List
        field's (L, ...) array (SoA)."""
        return self._bufs

    def _unbind_all(self):
        """Drops this View and its field Views from cached call plans."""
        from ._view import _unbind
        _unbind(self)
        for v in list(self._fv.values()):
            _unbind(v)

    def _desc(self):
        """The GPU module descriptor the device copy lives in (or would: the
        loaded module of the current GPU backend); None on host backends."""
        from ._view import _device_module
        return self._dev[0][0].desc if self._dev is not None else _device_module()

    def _dev_ptr(self, path, mems):
        """Device address of field path's first element (mems: the device buffers)."""
        k = self._bix[path]
        arr = self._cols[path] if path in self._cols else self._arrays[path]
        return mems[k].ptr + (arr.ctypes.data - self._bufs[k].ctypes.data)

    def _field_cai(self, path, bases):
        """__cuda_array_interface__ dict of field path (a scalar or List field)
        with buffer k of _buffers() at address bases[k] (field_cai)."""
        k = self._bix[path]
        is_list = path not in self._cols
        leaf = path + "[0]" if is_list else path
        dt = dict(self._fields)[leaf]
        length = self._arrays[path].shape[-1] if is_list else 0
        shape = self.shape
        if self._a is not None:
            st = self._a.dtype
            return field_cai(T.Layout.AoS, shape, field_offset(st, path), dt.itemsize,
                             dt.str, bases[k], st.itemsize, length)
        # SoA: a List component v[c] lies c whole fields into v's (L, ...) buffer
        c = int(path.rpartition("[")[2][:-1]) if path.endswith("]") else 0
        return field_cai(T.Layout.SoA, shape, c * self.size * dt.itemsize, dt.itemsize, dt.str,
                         bases[k], 0, length)

    def _host(self, write):
        """Makes the host arrays current; write: the caller may change them (the
        device copy is stale then). Unbinds the View from cached call plans so
        the next kernel call copies or marks again."""
        from ._fusion import _q as held, flush
        if held:
            flush()
        d = self._dev
        if d is None:
            return
        if not self._hv:
            for m, b in zip(d[0], self._buffers()):
                if b.nbytes:
                    m.copy(b.ctypes.data, 0, m.ptr, 1, b.nbytes)
            object.__setattr__(self, "_hv", True)
            self._unbind_all()
        if write and self._dv:
            object.__setattr__(self, "_dv", False)
            self._unbind_all()

    def _device_addr(self, desc):
        """Address of a pkc_class_view over device copies of the buffers (made
        on first use, refreshed from the host when stale); kernels may write
        them, so the host arrays are stale afterwards."""
        import ctypes
        from . import _abi
        from ._view import DeviceMem
        bufs = self._buffers()
        if self._dev is None:
            mems = [DeviceMem(desc, b.nbytes) for b in bufs]
            holders = []
            for n, dt in self._fields:
                t = T.dtype_of_numpy(dt)
                a = self._cols[n]
                ptr = self._dev_ptr(n, mems)   # field n inside the buffer holding it
                est = tuple(st // dt.itemsize for st in a.strides)
                holders.append(DLHolder.raw(self, ptr, a.shape, est, t.code, t.bits,
                                            desc.device_type, 0))
            arr = (_abi.DLTensor * len(holders))(*[h.tensor for h in holders])
            cv = _abi.pkc_class_view()
            cv.layout = _abi.LAYOUT_AOS if self._a is not None else _abi.LAYOUT_SOA
            cv.nfields = len(holders)
            cv.fields = ctypes.cast(arr, ctypes.POINTER(_abi.DLTensor))
            object.__setattr__(self, "_dev", (mems, cv, holders, arr))
            object.__setattr__(self, "_dv", False)
        mems, cv = self._dev[0], self._dev[1]
        if not self._dv:
            for m, b in zip(mems, bufs):
                if b.nbytes:
                    m.copy(m.ptr, 1, b.ctypes.data, 0, b.nbytes)
            object.__setattr__(self, "_dv", True)
        object.__setattr__(self, "_hv", False)
        return ctypes_addr(cv)

    # -- kernel argument (pkc_abi.h: pkc_class_view) --
    def _class_view_addr(self):
        """Address of this View's pkc_class_view (built once: the memory never moves)."""
        if self._cv is None:
            import ctypes
            from . import _abi
            holders = []
            for n, dt in self._fields:
                t = T.dtype_of_numpy(dt)
                holders.append(DLHolder(self._cols[n], t.code, t.bits))
            arr = (_abi.DLTensor * len(holders))(*[h.tensor for h in holders])
            cv = _abi.pkc_class_view()
            cv.layout = _abi.LAYOUT_AOS if self.layout is T.Layout.AoS else _abi.LAYOUT_SOA
            cv.nfields = len(holders)
            cv.fields = ctypes.cast(arr, ctypes.POINTER(_abi.DLTensor))
            object.__setattr__(self, "_keep", (holders, arr))
            object.__setattr__(self, "_cv", cv)
        return ctypes_addr(self._cv)




def ctypes_addr(obj):
    import ctypes
    return ctypes.addressof(obj)


def _field_view(arr):
    """Field array arr (a numpy view of the View's memory) as a pk.View."""
    v = View(arr.shape, T.dtype_of_numpy(arr.dtype), array=arr)
    if not arr.flags.c_contiguous:
        v.layout = T.Layout.LayoutStride
    return v


def _gpu_backend():
    """The current backend runs kernels on a GPU (cuda, hip)."""
    from ._loader import RUNTIME
    try:
        return T.is_gpu_backend(RUNTIME.backend())
    except ValueError:
        return False


def field_offset(st, path):
    """Byte offset of field path ("x", "pos.x", "v", "v[1]") in structured dtype st."""
    off = 0
    for part in path.split("."):
        name, _, k = part.partition("[")
        sub, at = st.fields[name][:2]
        off += at
        if k:
            off += int(k[:-1]) * sub.base.itemsize
        st = sub
    return off


def field_cai(layout, shape, offset, itemsize, typestr, base, struct_size=0, length=0):
    """The __cuda_array_interface__ (version 3) of a field of a classtype View
    of extents shape whose buffer starts at address base. AoS: element i (C
    order) of the field at base + offset + i * struct_size; SoA: the field's
    own C-order buffer, offset bytes in. length: a List field's length, a last
    axis whose components are itemsize apart (AoS, inside the struct) or whole
    fields apart (SoA: the (L, ...) buffer). Strides in bytes, None where C
    contiguous (extent-1 axes ignored, as numpy); data 0 for no elements;
    stream None: the producer fenced (CAI v3: no synchronization needed)."""
    shape = tuple(shape)
    n = 1
    for e in shape:
        n *= e
    strides, acc = [], struct_size if layout is T.Layout.AoS else itemsize
    for e in reversed(shape):
        strides.insert(0, acc)
        acc *= e
    if length:
        strides.append(itemsize if layout is T.Layout.AoS else n * itemsize)
        shape += (length,)
        n *= length
    dense, acc = [], itemsize
    for e in reversed(shape):
        dense.insert(0, acc)
        acc *= e
    contiguous = all(e == 1 or s == d for e, s, d in zip(shape, strides, dense))
    return {"shape": shape, "typestr": typestr, "version": 3,
            "data": (base + offset if n else 0, False),
            "strides": None if contiguous else tuple(strides), "stream": None}


class _FieldMem:
    """A field's place in its ClassView's device buffer (FieldView._dev)."""

    __slots__ = ("ptr", "desc")

    def __init__(self, ptr, desc):
        self.ptr, self.desc = ptr, desc


class FieldView(View):
    """Field path of a ClassView on a GPU backend: a View of the field's host
    values whose coherence is the ClassView's (host reads copy the device
    buffers back; host writes mark them stale). While the ClassView lives on a
    CUDA device it exposes the field in the device buffer, zero copy:
    __cuda_array_interface__ (asking for it moves the ClassView there if a
    CUDA module is loaded) and __dlpack__; a kernel taking it gets a tensor
    into the device buffer."""

    __slots__ = ("_owner", "_path")

    @classmethod
    def _of(cls, owner, path, arr):
        """The FieldView of field path (host array arr) of ClassView owner."""
        v = object.__new__(cls)
        dt = T.dtype_of_numpy(arr.dtype)
        if arr.dtype.char in "lL":
            arr = arr.view(dt.np_dtype)   # int64 as 'q', as View does
        v._a, v._dt, v._dl, v._deflt = arr, dt, None, False
        v.layout = T.Layout.LayoutRight if arr.flags.c_contiguous else T.Layout.LayoutStride
        v.space, v.trait = T.MemorySpace.MemorySpaceDefault, T.Trait.TraitDefault
        v._hv, v._dv = True, False
        v._owner, v._path = owner, path
        return v

    @property
    def _dev(self):
        d = self._owner._dev
        if d is None:
            return None
        return _FieldMem(self._owner._dev_ptr(self._path, d[0]), d[0][0].desc)

    def _host(self, write):
        from ._view import _in_step
        from ._graph import _state
        if _state["on"]:
            _in_step("a host read or write of a View of classtype field")
        self._owner._host(write)
        return self._a

    def _host_overwrite(self):
        return self._host(True)

    def _to_device(self, left=False):
        o = self._owner
        desc = o._desc()
        if desc is None:
            return False
        o._device_addr(desc)
        a = self._a
        isz = a.itemsize
        self._dl = DLHolder.raw(o, o._dev_ptr(self._path, o._dev[0]), a.shape,
                                tuple(st // isz for st in a.strides), self._dt.code,
                                self._dt.bits, desc.device_type, 0)
        return True

    def fill(self, value):
        self._host(True).fill(value)

    def set_precision(self, dtype):
        raise PkcValueError(f"field '{self._path}' of a View of {self._owner._cls.__name__}: "
                            "its type is the classtype's; convert a copy (p.x.astype(...))")

    def __copy__(self):
        return self

    @property
    def __cuda_array_interface__(self):
        o = self._owner
        desc = o._desc()
        if desc is None or desc.device_type != kDLCUDA:
            raise AttributeError(f"__cuda_array_interface__: field '{self._path}' of a View "
                                 f"of {o._cls.__name__} is not in CUDA device memory")
        from ._dispatch import fence
        o._device_addr(desc)       # the device copy current; the host copy stale
        fence()                    # kernels that write it have finished
        return o._field_cai(self._path, [m.ptr for m in o._dev[0]])

    def __dlpack__(self, stream=None, **kw):
        if self._dev is None:
            return self._host(True).__dlpack__()
        import cupy
        return cupy.asarray(self).__dlpack__(stream=stream)

    def __dlpack_device__(self):
        d = self._dev
        return self._a.__dlpack_device__() if d is None else (d.desc.device_type, 0)


def default_layout():
    """The layout of a classtype View made without one: SoA on every backend
    (on GPUs as Ripple; on host backends SoA measured as fast as AoS or faster
    on all four bench/layout kernels, docs/PERFORMANCE.md). Change it here,
    per backend (RUNTIME.backend()), if measurements say otherwise."""
    return T.Layout.SoA


def to_layout(p, layout):
    """pk.to_layout(p, pk.SoA or pk.AoS): p in that layout: p itself if it has it,
    else a new View holding a copy of its values."""
    if not isinstance(p, ClassView):
        raise PkcArgumentError(f"pk.to_layout: expected a View of a @pk.classtype, got "
                        f"{type(p).__name__}")
    if layout is p.layout:
        return p
    p._host(False)     # a GPU View: its values, current on the host
    q = ClassView(p.shape, p._cls, layout)
    for n, _ in p._fields:
        q._cols[n][...] = p._cols[n]
    return q
