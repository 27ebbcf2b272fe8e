"""pykokkos.PkcError and its family: the errors the shim raises.

Each one also subclasses the built-in exception it replaces, so code that
says `except TypeError` (or ValueError, RuntimeError) keeps working, and
`except pk.PkcError` catches every error pkc's runtime raises. No imports:
`import pykokkos` stays fast.
"""


class PkcError(Exception):
    """Base of every error pkc's runtime shim raises."""


class PkcArgumentError(PkcError, TypeError):
    """An argument of the wrong type or number (a kernel's, a policy's, ...)."""


class PkcValueError(PkcError, ValueError):
    """An argument of the right type but a bad value (negative extent, ...)."""


class PkcIndexError(PkcError, IndexError):
    """A View index past its extent (a kernel built with --bounds-check)."""


class PkcZeroDivisionError(PkcError, ZeroDivisionError):
    """An integer // or % by zero in a kernel."""


class PkcOverflowError(PkcError, OverflowError):
    """A range, index or scalar argument that does not fit its C type."""


class PkcRuntimeError(PkcError, RuntimeError):
    """A failure while running: device copies, the runtime library, Kokkos."""


class PkcBuildError(PkcRuntimeError):
    """The kernel module is missing and could not be built (pkc failed, or
    is not on PATH)."""


class PkcKernelError(PkcRuntimeError):
    """A kernel or workload that pkc rejected (its diagnostic is in the
    message) or that the built module does not hold."""


__all__ = ["PkcError", "PkcArgumentError", "PkcValueError", "PkcIndexError",
           "PkcZeroDivisionError", "PkcOverflowError", "PkcRuntimeError",
           "PkcBuildError", "PkcKernelError"]
