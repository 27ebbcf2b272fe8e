# expect: 7:22: \N{...} (a character by name) is not supported in kernel strings; write the character itself or its \uXXXX escape
import pykokkos as pk


@pk.workunit
def k(i: int):
    pk.printf("%d deg\N{DEGREE SIGN}\n", i)
