# expect: 21:23: data member 'self.history' is a Python list (or dict, str, ...), which stays in Python
# expect-only
# A workload's members annotated list/dict/str belong to its Python side
# (callbacks): accepted, and named if a kernel reads one.
from typing import Dict
import pykokkos as pk


@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n
        self.history: list = []
        self.names: Dict[str, int] = {}
        self.label: str = "run"
        self.total: float = 0.0

    @pk.main
    def run(self):
        self.total = pk.parallel_reduce(self.n, self.add)
        self.total += self.history[0]

    @pk.workunit
    def add(self, i: int, acc: pk.Acc[pk.double]):
        acc += i
