# expect: 5:1: @pk.workload is not supported yet
import pykokkos as pk
import math

@pk.workload
class W:
    def __init__(self):
        pass
