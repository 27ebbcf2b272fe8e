"""Module-level constants pkc built into kernels, checked against the module.

pkc folds a module-level name that its file assigns once, at top level, to a
literal (`SCALE = 1.0`) into the kernels that read it (docs/DIALECT.md 1.1).
Another module can still rebind it before the first launch (`kernels.SCALE =
2.0`, a driver configuring its kernels): the kernel would then compute with
the old value. stale() finds such names when a kernel's plan is made (once
per kernel) so that the launch raises instead, and from then on guards the
module: assigning another value to such a name (`kernels.SCALE = 3.0`)
raises at the assignment (a ModuleType subclass's __setattr__; nothing is
checked per launch).
"""
import ast
import dis
import os
import sys
import types

from ._errors import PkcValueError

_cache = {}   # path -> (mtime_ns, {name: value})


def _literal(node):
    try:
        v = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return v if type(v) in (int, float, bool) else None


def source_constants(path):
    """{name: value} of the top-level names path assigns exactly once, to an
    int, float or bool literal, and no function declares `global` (cached by
    modification time); {} where the file cannot be read or parsed."""
    try:
        mtime = os.stat(path).st_mtime_ns
    except OSError:
        return {}
    hit = _cache.get(path)
    if hit is not None and hit[0] == mtime:
        return hit[1]
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        _cache[path] = (mtime, {})
        return {}
    counts, values, rebound = {}, {}, set()
    for node in tree.body:
        targets = (node.targets if isinstance(node, ast.Assign) else
                   [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
        for t in targets:
            if isinstance(t, ast.Name):
                counts[t.id] = counts.get(t.id, 0) + 1
                value = getattr(node, "value", None)
                if isinstance(node, ast.AugAssign) or value is None or len(targets) > 1:
                    rebound.add(t.id)
                else:
                    values[t.id] = _literal(value)
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            rebound.update(node.names)
    consts = {n: v for n, v in values.items()
              if v is not None and counts.get(n) == 1 and n not in rebound}
    _cache[path] = (mtime, consts)
    return consts


def _names(code, out, depth=0):
    """The global names code (and the defs nested in it: team closures) loads."""
    out.update(i.argval for i in dis.get_instructions(code)
               if i.opname in ("LOAD_GLOBAL", "LOAD_NAME"))
    for c in code.co_consts:
        if isinstance(c, types.CodeType) and depth < 8:
            _names(c, out, depth + 1)


_BAKED = "__pkc_constants__"   # module attribute: {name: (value, kernel)} guarded


def _message(kname, n, now, built, path):
    return (f"{kname}: the module constant '{n}' is {now!r} now, but pkc built the kernel "
            f"with {built!r}, the value {os.path.basename(path)} assigns it (a name assigned "
            f"once at module level is a compile-time constant); pass it as a kernel "
            f"argument, or set it in a function of that module with `global {n}` so "
            f"that kernels read it at each call")


def _same(now, built):
    try:
        return bool(now == built)   # 2 for 2.0, numpy scalars: the same number
    except Exception:   # an object whose == raises (an array): not the number built in
        return False


class _GuardedModule(types.ModuleType):
    """A kernel module whose compile-time constants kernels have been built
    with: rebinding one to another value from outside raises."""

    def __setattr__(self, name, value):
        baked = self.__dict__.get(_BAKED)
        if baked and name in baked and not _same(value, baked[name][0]):
            built, kname, path = baked[name]
            raise PkcValueError(_message(kname, name, value, built, path))
        super().__setattr__(name, value)


def _guard(glob, names, consts, kname, path):
    mod = sys.modules.get(glob.get("__name__", ""))
    if mod is None or getattr(mod, "__dict__", None) is not glob:
        return
    if type(mod) is types.ModuleType:
        try:
            mod.__class__ = _GuardedModule
        except TypeError:
            return
    elif not isinstance(mod, _GuardedModule):
        return   # a module with a class of its own: not touched
    baked = glob.setdefault(_BAKED, {})
    for n in names:
        baked.setdefault(n, (consts[n], kname, path))


def stale(kname, funcs, glob, skip=()):
    """Raises PkcValueError if a module constant the code of funcs reads
    (besides names in skip: globals the kernel reads at each call) has
    another value in glob (the module's namespace) than its file assigns."""
    path, names = None, set()
    for f in funcs:
        code = getattr(getattr(f, "__func__", f), "__code__", None)
        if code is None or (path and code.co_filename != path):
            continue
        path = path or code.co_filename
        _names(code, names)
    if not path or not names:
        return
    consts = source_constants(path)
    used = [n for n in sorted(names) if n in consts and n not in skip and n in glob]
    for n in used:
        if not _same(glob[n], consts[n]):
            raise PkcValueError(_message(kname, n, glob[n], consts[n], path))
    if used:
        _guard(glob, used, consts, kname, path)
