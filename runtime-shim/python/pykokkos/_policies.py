"""Execution policies: RangePolicy, MDRangePolicy, TeamPolicy (+ AUTO,
PerTeam/PerThread, Iterate). Pure Python; a policy turns into a pkc_policy
(ctypes) only when a kernel runs with it (`c_addr()`, cached on the object)."""
from ._errors import PkcArgumentError, PkcOverflowError, PkcValueError
from . import _types as T


class _AutoType:
    """pk.AUTO: let Kokkos choose the team size (team_size 0 in pkc_policy)."""

    __slots__ = ()

    def __repr__(self):
        return "pk.AUTO"


AUTO = _AutoType()


class Iterate:
    """MDRange iteration order (pkc_policy.iterate values)."""

    Default, Right, Left = 0, 1, 2


class _Per:
    """pk.PerTeam(bytes) / pk.PerThread(bytes) for set_scratch_size; in
    kernels pk.PerTeam(member) / pk.PerThread(member) mark pk.single."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"pk.{type(self).__name__}({self.value!r})"


class PerTeam(_Per):
    __slots__ = ()


class PerThread(_Per):
    __slots__ = ()


def _is_space(x):
    """An execution space (pk.OpenMP, ...) or a pk.ExecutionSpaceInstance."""
    return x.__class__ is T._Named or type(x).__name__ == "ExecutionSpaceInstance"


def _split_space(args, what):
    if args and _is_space(args[0]):
        return args[0], args[1:]
    return None, args


def _int(x, what):
    if isinstance(x, bool) or not hasattr(x, "__index__"):
        raise PkcArgumentError(f"pykokkos: {what} must be an int, got {type(x).__name__}")
    return x.__index__()


_I64 = 1 << 63


def index64(x, what):
    """x as an int that fits Kokkos' int64 index type; TypeError naming `what`
    for a float, string, bool or None (3.9 ran 3 points), OverflowError where
    it does not fit (ctypes would wrap it silently)."""
    x = _int(x, what)
    if not -_I64 <= x < _I64:
        raise PkcOverflowError(f"{what} {x} does not fit a 64-bit index "
                               f"(-2**63 <= value < 2**63)")
    return x


class RangePolicy:
    """RangePolicy([space | instance,] begin, end) (or RangePolicy(end));
    a pk.ExecutionSpaceInstance is accepted and serialized (see pk.fence)."""

    __slots__ = ("space", "begin", "end")

    def __init__(self, *args):
        space, args = _split_space(args, "RangePolicy")
        if len(args) == 1:
            args = (0, args[0])
        if len(args) != 2:
            raise PkcArgumentError("RangePolicy([space,] begin, end)")
        self.space = space
        self.begin = index64(args[0], "pk.RangePolicy: begin")
        self.end = index64(args[1], "pk.RangePolicy: end")

    def __repr__(self):
        return f"pk.RangePolicy({self.begin}, {self.end})"


class Rank:
    """pk.Rank(n, iter_outer, iter_inner) (PyKokkos, Kokkos::Rank): an
    MDRangePolicy's rank and iteration orders, as `rank=`."""

    __slots__ = ("n", "iter_outer", "iter_inner")

    def __init__(self, n, iter_outer=None, iter_inner=None):
        self.n = _int(n, "pk.Rank's rank")
        self.iter_outer, self.iter_inner = iter_outer, iter_inner


def _iterate_code(order, what):
    it = 0 if order is None else getattr(order, "value", order)
    if it not in (0, 1, 2):
        raise PkcValueError(f"pk.MDRangePolicy: {what} must be pk.Iterate.Right, "
                            f"pk.Iterate.Left or pk.Iterate.Default, got {order!r}")
    return it


class MDRangePolicy:
    """MDRangePolicy([space,] begins, ends[, tiles], iterate=pk.Iterate.Right|Left),
    rank 2..6 (tile 0: Kokkos chooses). PyKokkos' keywords too: tiling=
    (the tiles), space=, iter_outer= / iter_inner= (pkc runs one order: the
    inner one where given, else the outer; the results do not depend on it)
    and rank=pk.Rank(n, iter_outer, iter_inner)."""

    __slots__ = ("space", "begin", "end", "tile", "iterate", "_c", "_a")

    def __init__(self, *args, iterate=None, rank=None, tiling=None, space=None,
                 iter_outer=None, iter_inner=None):
        if space is not None:
            args = (space,) + args
        space, args = _split_space(args, "MDRangePolicy")
        if tiling is not None:
            if len(args) != 2:
                raise PkcArgumentError("pk.MDRangePolicy: tiles given twice (positional and "
                                       "tiling=)")
            args = args + (tiling,)
        if len(args) not in (2, 3):
            raise PkcArgumentError("MDRangePolicy([space,] begins, ends[, tiles], iterate=...)")
        if rank is not None:
            if not isinstance(rank, Rank):
                raise PkcArgumentError(f"pk.MDRangePolicy: rank= takes pk.Rank(n, iter_outer, "
                                       f"iter_inner), got {rank!r}")
            if hasattr(args[0], "__len__") and rank.n != len(args[0]):
                raise PkcValueError(f"pk.MDRangePolicy: rank= says {rank.n} dimensions, the "
                                    f"bounds have {len(args[0])}")
            iter_outer, iter_inner = rank.iter_outer, rank.iter_inner
        if iterate is None:
            inner = _iterate_code(iter_inner, "iter_inner")
            iterate = inner or _iterate_code(iter_outer, "iter_outer")
        self.space = space
        for name, a in zip(("begins", "ends", "tiles"), args):
            if not hasattr(a, "__iter__"):
                raise PkcArgumentError(f"pk.MDRangePolicy: {name} must be a list of ints "
                                       f"(one per dimension), got {a!r}")
        b, e = [list(a) for a in args[:2]]
        t = list(args[2]) if len(args) == 3 else [0] * len(b)
        if not (len(b) == len(e) == len(t)):
            raise PkcValueError(f"pk.MDRangePolicy: begins, ends and tiles differ in "
                                f"length ({len(b)}, {len(e)}, {len(t)})")
        if not 2 <= len(b) <= 6:
            raise PkcValueError(f"pk.MDRangePolicy: rank must be 2..6, got {len(b)}")
        self.begin = [_int(x, "an MDRangePolicy bound") for x in b]
        self.end = [_int(x, "an MDRangePolicy bound") for x in e]
        self.tile = [_int(x, "an MDRangePolicy tile") for x in t]
        self.iterate = _iterate_code(iterate, "iterate")
        self._c = self._a = None

    @property
    def rank(self):
        return len(self.begin)

    def c_addr(self):
        """Address of the pkc_policy struct for this policy (built once)."""
        if self._a is None:
            from . import _abi
            from ctypes import addressof
            c = _abi.pkc_policy()
            c.kind, c.rank, c.iterate = _abi.POLICY_MDRANGE, len(self.begin), self.iterate
            for d, (b, e, t) in enumerate(zip(self.begin, self.end, self.tile)):
                c.begin[d] = index64(b, f"pk.MDRangePolicy: begin[{d}]")
                # an end below its begin is an empty range, as range(5, 3) (Kokkos 4
                # aborts on such a policy): the kernel sees end = begin
                c.end[d] = max(c.begin[d], index64(e, f"pk.MDRangePolicy: end[{d}]"))
                c.tile[d] = index64(t, f"pk.MDRangePolicy: tile[{d}]")
            self._c, self._a = c, addressof(c)
        return self._a

    def __repr__(self):
        return f"pk.MDRangePolicy({self.begin}, {self.end}, {self.tile})"


# pkc_policy structs of team policies by their fields (kernels only read them):
# a TeamPolicy built anew for every launch reuses the struct.
_TEAM_STRUCTS = {}


class TeamPolicy:
    """TeamPolicy([space,] league_size, team_size | pk.AUTO | "auto"[, vector_length]),
    also by keyword (space=, league_size=, team_size=, vector_length=, as PyKokkos)
    and in older PyKokkos' order (league_size, team_size, vector_length, space).
    `.set_scratch_size(level, pk.PerTeam(b)[, pk.PerThread(b)])` returns the policy."""

    __slots__ = ("space", "league_size", "team_size", "vector_length",
                 "scratch_team", "scratch_thread", "_c", "_a")

    def __init__(self, *args, **kw):
        space = None
        if args and _is_space(args[0]):
            space, args = args[0], args[1:]
        elif len(args) == 4 and _is_space(args[3]):   # older PyKokkos: the space last
            space, args = args[3], args[:3]
        if kw:   # PyKokkos' keywords: TeamPolicy(league_size=..., team_size=...)
            space = kw.pop("space", space)
            names = ("league_size", "team_size", "vector_length")
            unknown = sorted(set(kw) - set(names))
            if unknown:
                raise PkcArgumentError(f"TeamPolicy: unknown keyword {unknown[0]!r}; use "
                                       "space=, league_size=, team_size=, vector_length=")
            given = list(args)
            for i, nm in enumerate(names):
                if nm in kw:
                    if i < len(given):
                        raise PkcArgumentError(f"TeamPolicy: {nm} given twice")
                    if i > len(given):
                        raise PkcArgumentError(f"TeamPolicy: {names[len(given)]} missing "
                                               f"before {nm}")
                    given.append(kw[nm])
            args = tuple(given)
        n = len(args)
        if n != 2 and n != 3:
            raise PkcArgumentError("TeamPolicy([space,] league_size, team_size | pk.AUTO"
                                   "[, vector_length])")
        self.space = space
        lg, ts = args[0], args[1]
        self.league_size = lg if lg.__class__ is int else _int(lg, "TeamPolicy league_size")
        self.team_size = ts if ts.__class__ is int else _auto_or_int(ts, "team_size")
        self.vector_length = _auto_or_int(args[2], "vector_length") if n == 3 else 0
        if self.league_size < 0 or self.team_size < 0 or self.vector_length < 0:
            raise PkcValueError(f"pk.TeamPolicy: sizes must be >= 0, got {args}")
        if self.team_size == 0 and ts is not AUTO and not isinstance(ts, str):
            raise PkcValueError("pk.TeamPolicy: team_size must be at least 1, or pk.AUTO "
                                "(Kokkos::AUTO) to let Kokkos choose; got 0")
        self.scratch_team = [0, 0]
        self.scratch_thread = [0, 0]
        self._c = self._a = None

    def set_scratch_size(self, level, *sizes):
        """Scratch bytes at level 0/1: pk.PerTeam(b) and/or pk.PerThread(b).
        One argument (PyKokkos' short form): bytes per team at level 0, given
        as a number or as pk.PerTeam(b) / pk.PerThread(b)."""
        if not sizes:
            if isinstance(level, (PerTeam, PerThread)):
                level, sizes = 0, (level,)
            elif isinstance(level, int) and not isinstance(level, bool):
                level, sizes = 0, (PerTeam(level),)
        if level not in (0, 1):
            raise PkcValueError(f"pk.TeamPolicy.set_scratch_size: level must be 0 or 1, "
                                f"got {level!r}")
        if not 1 <= len(sizes) <= 2:
            raise PkcArgumentError("set_scratch_size(level, pk.PerTeam(bytes)[, pk.PerThread(bytes)])")
        for s in sizes:
            if isinstance(s, (PerTeam, PerThread)) and _int(s.value, "a scratch size") < 0:
                raise PkcValueError(f"pk.TeamPolicy.set_scratch_size: {type(s).__name__}"
                                    f"({s.value!r}): a scratch size must not be negative")
            if isinstance(s, PerTeam):
                self.scratch_team[level] = _int(s.value, "a scratch size")
            elif isinstance(s, PerThread):
                self.scratch_thread[level] = _int(s.value, "a scratch size")
            else:
                raise PkcArgumentError(f"pk.TeamPolicy.set_scratch_size: expected "
                                       f"pk.PerTeam(bytes) or pk.PerThread(bytes), got {s!r}")
        self._c = self._a = None
        return self

    def team_size_recommended(self, *a):
        return self.team_size or 1

    def c_addr(self):
        """Address of the pkc_policy struct for this policy (rebuilt after
        set_scratch_size)."""
        if self._a is None:
            st, sh = self.scratch_team, self.scratch_thread
            key = (self.league_size, self.team_size, self.vector_length,
                   st[0], st[1], sh[0], sh[1])
            hit = _TEAM_STRUCTS.get(key)
            if hit is None:
                hit = _TEAM_STRUCTS[key] = self._build()
                if len(_TEAM_STRUCTS) > 256:
                    _TEAM_STRUCTS.clear()
                    _TEAM_STRUCTS[key] = hit
            self._c, self._a = hit
        return self._a

    def _build(self):
        """A new pkc_policy struct and its address."""
        from . import _abi
        from ctypes import addressof
        c = _abi.pkc_policy()
        c.kind, c.rank = _abi.POLICY_TEAM, 1
        c.end[0] = c.league_size = index64(self.league_size, "pk.TeamPolicy: league_size")
        c.team_size = index64(self.team_size, "pk.TeamPolicy: team_size")
        c.vector_length = index64(self.vector_length, "pk.TeamPolicy: vector_length")
        for lv in (0, 1):
            c.scratch_team[lv] = self.scratch_team[lv]
            c.scratch_thread[lv] = self.scratch_thread[lv]
        return c, addressof(c)

    def __repr__(self):
        ts = "pk.AUTO" if self.team_size == 0 else self.team_size
        return f"pk.TeamPolicy({self.league_size}, {ts}, {self.vector_length})"


def _auto_or_int(x, what):
    if x is AUTO or (isinstance(x, str) and x.lower() == "auto"):
        return 0
    return _int(x, f"TeamPolicy {what} (an int or pk.AUTO)")


def range_of(policy):
    """(begin, end) of an int or RangePolicy; raises TypeError naming the kind."""
    c = policy.__class__
    if c is RangePolicy:
        return policy.begin, policy.end
    if hasattr(policy, "__index__") and not isinstance(policy, bool):
        return 0, index64(policy, "the range")
    raise PkcArgumentError(f"expected an int or a RangePolicy as the policy, "
                           f"got {type(policy).__name__}")
