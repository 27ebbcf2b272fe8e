# expect: 9:9: field 'self.Vec' has the name of its classtype; rename the field
import pykokkos as pk


@pk.classtype
class Vec:
    def __init__(self, x: float):
        self.x: float = x
        self.Vec: int = 1
