# expect: 11:27: range() step must not be zero (Python raises ValueError
# expect: 13:20: division by zero: Python raises ZeroDivisionError for '// 0'
# expect: 14:16: division by zero: Python raises ZeroDivisionError for '% 0'
# expect: 15:19: division by zero: Python raises ZeroDivisionError for '/ 0'
"""Constant zero divisors and a constant range() step of 0: Python raises on
every point, C++ would trap (SIGFPE) or loop forever. Located errors."""
import pykokkos as pk

@pk.workunit
def k(i: int, A: pk.View1D[pk.double]):
    for j in range(0, 10, 0):
        A[i] += 1.0
    A[i] = A[i] // 0
    A[i] = i % 0
    A[i] = A[i] / 0.0
