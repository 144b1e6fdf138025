"""The ``engine.*`` section of :class:`~fadad_agents.rules.options.RulesOptions`.

Engine readings that belong to no single ruleset: how many members of a group reach one
fighter, and how a FADAD ladder skill becomes a d20 bonus where a d20 rule rolls for a
FADAD character (C-04). Every field is PROPOSED by the engine (no seed rule) and its
description names the module that reads it. Re-exported by
:mod:`fadad_agents.rules.options`; import it from there.
"""

from __future__ import annotations

from pydantic import Field

from fadad_agents.rules.options_base import OptionsSection

__all__ = ["EngineOptions"]


class EngineOptions(OptionsSection):
    """Engine readings not tied to one ruleset."""

    max_on_one: int = Field(
        3,
        ge=1,
        description="PROPOSED (groups): most members of a crew or unit that attack one "
        "individual in a round, each with an ordinary kernel attack, as the +4 unit-Scale "
        "cap says for units (agents.groups.Group.act).",
    )
    ladder_d20_bonus: tuple[int, int] = Field(
        (3, 2),
        description="PROPOSED (C-04): a FADAD ladder skill as a d20 bonus = first + second x "
        "level (Fair +3, Good +5, Great +7); used for helmsmen's ram, shear and crash rolls "
        "(engine.ship_close), d20 checks of crit effects (engine.ship_damage.passes) and "
        "named characters' shots at hulls (engine.ship_hull_attacks).",
    )
