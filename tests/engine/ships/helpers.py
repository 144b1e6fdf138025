"""Set-ups the ship option and stat-block tests share: the duel under FADAD rules, a
scripted FADAD broadside, a scripted FADAD ram in the fleet action."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fadad_agents.engine.ships.close import ram
from fadad_agents.engine.ships.gunnery import fire_guns
from fadad_agents.hexmap import DIRECTIONS
from tests.engine.conftest import Script, dice
from tests.engine.engine_options_helpers import DUEL, FADAD_RULES, FLEET, FixedDice, events, ships

__all__ = ["FADAD_DUEL", "fadad_shots", "fleet_ram", "ship_named"]

FADAD_DUEL = DUEL.replace("  ship.damage_model: sj_hull_points\n  ship.crit_table: sj_d20\n", "")
"""The duel with no damage model or crit table of its own (tests add FADAD_RULES)."""


def ship_named(battle: Any, name: str) -> Any:
    """The ship called ``name``."""
    return next(s for s in battle.ships if s.name == name)


def fadad_shots(
    rules: dict[str, object],
    hexes: int,
    change: Callable[[Any], None] | None = None,
    text: str = FADAD_DUEL,
    roll: float = 0.0,
) -> list[dict[str, object]]:
    """The reaver's FADAD shots at the merchant ``hexes`` dead ahead, every 4dF from
    ``roll`` (0.0: -4), as logged (modifiers and outcome together); ``change(battle)``
    first alters the battle."""
    battle = ships(text, {**FADAD_RULES, **rules})
    salt, gannet = battle.ships
    if change is not None:
        change(battle)
    where = salt.hex
    for _ in range(hexes):
        where = where + DIRECTIONS[0]
    battle.place(gannet, where, 3)
    battle.round = 1
    battle.gunnery_rng = FixedDice(roll)
    fire_guns(battle, gannet)
    return [dict((*e.modifiers, *e.outcome)) for e in events(battle, "gunnery", "Red Gannet")]


def fleet_ram(
    rules: dict[str, object],
    target: str,
    last: float,
    change: Callable[[Any], None] | None = None,
    text: str = FLEET,
) -> Any:
    """Wolf's Tooth rams ``target`` in the fleet action (rammer 4dF +4, target -4, damage
    dice +4); ``last`` is the fraction of the d100 for entangling."""
    battle = ships(text, rules)
    if change is not None:
        change(battle)
    wolf, foe = ship_named(battle, "Wolf's Tooth"), ship_named(battle, target)
    battle.place(wolf, foe.hex, wolf.facing)
    battle.initiative_side = wolf.side
    battle.close_rng = Script(dice(4), dice(-4), dice(4), dice(4), last)
    ram(battle, wolf, foe)
    return battle
