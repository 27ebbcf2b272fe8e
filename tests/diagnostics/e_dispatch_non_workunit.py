# expect: 11:33: 'self.helper' is not a @pk.workunit of workload 'W'; dispatch one of its workunits (self.name) or a lambda
import pykokkos as pk

@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.helper)

    @pk.function
    def helper(self, x: float) -> float:
        return x
