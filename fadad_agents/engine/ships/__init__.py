"""Ship battles: 1-minute ship rounds on the hex map, gunnery, close action, fire, morale,
and the deck fights of boarding actions (Spelljammer and FADAD ship rules).

Importing this package registers the ship engine with the core
(:func:`fadad_agents.engine.core.build.register_ruleset`): any scenario with a ship is
played here.
"""

from fadad_agents.engine.core.build import Ruleset, register_ruleset
from fadad_agents.engine.ships.build import SHIP_DECISIONS, build_ship_battle, has_ships

__all__ = ["SHIP_DECISIONS", "build_ship_battle", "has_ships"]

register_ruleset(
    Ruleset(
        "ships", plays=has_ships, build=build_ship_battle, decisions=SHIP_DECISIONS, precedence=20
    )
)
