"""What a Fae agent needs of the battle it fights in (the Fae engine implements it)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

from fadad_agents.agents.core.base import Arena
from fadad_agents.schema.scenario import Obstacle

__all__ = ["FaeArena"]


class FaeArena(Arena, Protocol):
    """What a Fae agent needs beyond :class:`Arena`: the exact clock, timed callbacks, and
    the map's obstacles (terrain a glide may fly into)."""

    fae_turn: int
    obstacles: tuple[Obstacle, ...]

    def simultaneous(self, member: Any) -> bool:
        """``member`` acts at this very instant, tied with the one acting now (section 2)."""
        ...

    @property
    def now(self) -> Fraction:
        """The exact sim time (sub-second inside a Fae turn)."""
        ...

    def after(self, seconds: Fraction | int, name: str, fn: Any) -> None:
        """Call ``fn()`` ``seconds`` from now (a timed process: delayed deaths ...)."""
        ...
