# expect: 14:9: workload 'W' has two @pk.main methods ('run' at 10:9); keep one
import pykokkos as pk

@pk.workload
class W:
    def __init__(self, n: int):
        self.n: int = n

    @pk.main
    def run(self):
        pk.fence()

    @pk.main
    def run2(self):
        pk.fence()
