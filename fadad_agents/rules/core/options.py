"""The option base every rule system's section derives from, and the ``engine.*`` section.

:class:`OptionsSection` is frozen and refuses a misspelt key. :class:`EngineOptions` holds
engine readings that belong to no single ruleset: how many members of a group reach one
fighter, and how a FADAD ladder skill becomes a d20 bonus where a d20 rule rolls for a
FADAD character (C-04). Every engine field is PROPOSED by the engine (no seed rule) and its
description names the module that reads it.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["EngineOptions", "OptionsSection"]


_Bonus = Annotated[int, Field(ge=-100, le=100)]


class OptionsSection(BaseModel):
    """One section of the rules options: frozen, and a misspelt key is an error; a key the
    section once had is refused with what to do about it (:attr:`retired`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    retired: ClassVar[dict[str, str]] = {}
    """Keys the section once had, with the message for a file that still sets one."""

    @model_validator(mode="before")
    @classmethod
    def _refuse_retired(cls, data: object) -> object:
        if isinstance(data, dict):
            for key in cls.retired.keys() & data.keys():
                raise ValueError(cls.retired[key])
        return data


class EngineOptions(OptionsSection):
    """Engine readings not tied to one ruleset."""

    max_on_one: int = Field(
        3,
        ge=1,
        le=1_000,
        description="PROPOSED (groups): most members of a crew or unit that attack one "
        "individual in a round, each with an ordinary kernel attack, as the +4 unit-Scale "
        "cap says for units (agents.groups.Group.act).",
    )
    ladder_d20_bonus: tuple[_Bonus, _Bonus] = Field(
        (3, 2),
        description="PROPOSED (C-04): a FADAD ladder skill as a d20 bonus = first + second x "
        "level (Fair +3, Good +5, Great +7); used for helmsmen's ram, shear and crash rolls "
        "(engine.ship_close), d20 checks of crit effects (engine.ship_damage.passes) and "
        "named characters' shots at hulls (engine.ship_hull_attacks).",
    )
