# expect: 9:5: @pk.main is only allowed in a @pk.workload class; decorate 'F' with @pk.workload instead of @pk.functor
import pykokkos as pk

@pk.functor
class F:
    def __init__(self, n: int):
        self.n: int = n

    @pk.main
    def run(self):
        pk.fence()
