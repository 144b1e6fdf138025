"""The field's measures that compiled code shares with it (:mod:`~fadad_agents.agents.
core.crowd.occupied`): in a module of their own, importing nothing, so that the field
can make its mirror in arrays (:mod:`~fadad_agents.agents.core.field.squares`) without
an import circle."""

__all__ = ["ELBOW_ROOM", "SQUARES_HAIR", "SQUARES_HIGH", "SQUARES_LOW"]

ELBOW_ROOM = 2 / 3
"""PROPOSED: two fighters stand no closer than this share of their radii together (men
two-thirds of a yard apart, shoulder to shoulder in a press)."""

SQUARES_HAIR = 1e-12
"""A share: a sum of two squares by ``**`` (``pow``, as the battle has always measured
them, and several products' cost each) and the same by ``*`` differ by a few units in the
last place at most, far less than this share of either. A sum by ``*`` farther than it
from a limit lies on the same side of it by ``**``: only within it is ``**`` called."""

SQUARES_LOW, SQUARES_HIGH = 1 - SQUARES_HAIR, 1 + SQUARES_HAIR
"""Within these shares of a limit a sum of squares by ``*`` is measured again by ``**``."""
