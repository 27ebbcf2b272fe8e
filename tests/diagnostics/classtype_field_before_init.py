# expect: 13:25: 'self.x' is read before __init__ of classtype 'P' assigns it
# expect: 14:9: 'self.n' is read before __init__ of classtype 'P' assigns it
import pykokkos as pk

# In Python, reading self.x before __init__ assigns it raises AttributeError;
# in the C++ pkc writes it would read an uninitialized member. Fields read
# after their assignment (self.z) are fine.


@pk.classtype
class P:
    def __init__(self, x: float):
        self.y: float = self.x + 1.0
        self.n += 1
        self.x: float = x
        self.n: int = 0
        self.z: float = self.x * 2.0 + self.y
