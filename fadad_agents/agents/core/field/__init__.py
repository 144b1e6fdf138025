"""The field: where personal fighters stand, in yards, and the questions asked of it.

Positions are continuous ``(x, y)`` yards on open ground.
:mod:`~fadad_agents.agents.core.field.squares` files everyone by square as they come,
move and leave; :mod:`~fadad_agents.agents.core.field.ground` answers the questions
(foes within a distance, the nearest foe, is this spot taken?) from the squares round
the point.
"""

from fadad_agents.agents.core.field.ground import Field
from fadad_agents.agents.core.field.squares import (
    CELL_YARDS,
    ELBOW_ROOM,
    HALO_MOST,
    HALO_SPAN,
    HALO_YARDS,
    SPOT_YARDS,
    SQUARES_HAIR,
    halo_key,
)

__all__ = [
    "CELL_YARDS",
    "ELBOW_ROOM",
    "HALO_MOST",
    "HALO_SPAN",
    "HALO_YARDS",
    "SPOT_YARDS",
    "SQUARES_HAIR",
    "Field",
    "halo_key",
]
