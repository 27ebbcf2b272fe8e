"""PyKokkos' pykokkos.interface.hierarchical."""
from .._types import TeamMember
from .._policies import AUTO, PerTeam, PerThread

from .. import single  # noqa: E402  (kernel-only)

__all__ = ["AUTO", "TeamMember", "PerTeam", "PerThread", "single"]
