# expect: 9:16: recursive call to 'fact': recursion is not supported in
import pykokkos as pk
import math

@pk.function
def fact(n: int) -> int:
    if n <= 1:
        return 1
    return n * fact(n - 1)
