"""The state file: what a battle left of everyone, versioned, human-readable, validated on read.

``fadad run SCENARIO --state-out STATE`` (or :func:`~fadad_agents.campaign.write_state`)
writes it as JSON; a GM may read and edit it (mark a prisoner, add a day's rest by hand),
and :func:`read_state` checks it like a scenario: one line per problem,
``file:line field.path: what is wrong``. Its ``format`` and ``version`` say what it is; a
file of another version is refused in one line.

Wounds are written as a scenario's ``wounds`` are (``"Hurt"``, ``"Hurt in Very Hurt"``),
ship damage boxes as ``damage_marks``. ``rested_days`` counts the days of rest since the
battle and ``wounds_after_battle``/``hull_damage_after_battle``/``damage_marks_after_battle``
keep what the battle left, so resting twice for 10 days heals exactly as resting 20.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from fadad_agents.rules.core.wound_marks import with_marks
from fadad_agents.rules.core.wounds import WoundTrack
from fadad_agents.schema.base import Boxes, Name, Record, Text
from fadad_agents.schema.loader import load_record
from fadad_agents.schema.starting import MAX_MARKS, ShipMark, WoundMark, parse_mark

__all__ = [
    "FORMAT",
    "VERSION",
    "CharacterState",
    "EndState",
    "GroupState",
    "ShipState",
    "read_state",
    "state_text",
    "write_state",
]

FORMAT = "fadad-campaign-state"
VERSION = 1
"""The format version this code writes and reads (raised when the layout changes)."""

Fate = Literal["fighting", "out", "dead", "withdrawn", "routed", "surrendered"]
"""How a fighter or ship left the battle: still fighting at its end, taken out (wounds,
losses), dead, withdrawn or routed (fled), surrendered (captured)."""

_MANY = 100_000


class CharacterState(Record):
    """One named character (or one member of a ``count:`` group) as the battle left it."""

    name: Name = Field(description="Its name in the battle ('Guard 2' for a group member).")
    force: Name = Field(description="The scenario entry it came from ('Guard').")
    side: Name
    fate: Fate
    wounds: list[WoundMark] = Field(default_factory=list, max_length=MAX_MARKS)
    wounds_after_battle: list[WoundMark] = Field(default_factory=list, max_length=MAX_MARKS)
    boxes: Boxes = Field((3, 1, 1, 1, 1), description="Its track's boxes, Scratch..Near Death.")
    track: Literal["standard", "moderately_cinematic", "epic", "npc3", "custom"] = Field(
        "standard", description="Its track's kind (npc3 writes a Very Hurt in its Hurt box)."
    )
    healing: int = Field(
        0, ge=-10, le=10, description="Healing attribute: its Health or Constitution trait."
    )
    ite_points: int = Field(0, ge=0, le=100, description="Ité points left.")
    shots_left: int | None = Field(None, ge=0, le=1000, description="Missile shots left.")
    effects: list[Text] = Field(
        default_factory=list, max_length=20, description="Lasting crit effects (weapon arm)."
    )

    def marked(self, wounds: list[str]) -> WoundTrack:
        """Its track with ``wounds`` (its own, or those it had after the battle) marked."""
        return with_marks(WoundTrack(self.track, self.boxes), (parse_mark(m) for m in wounds))


class GroupState(Record):
    """A crew or unit of featureless NPCs: how many are left."""

    name: Name
    side: Name
    kind: Literal["crew", "unit"]
    fate: Fate
    count_start: int = Field(ge=1, le=_MANY)
    count: int = Field(ge=0, le=_MANY, description="Heads left standing at the end.")


class ShipState(Record):
    """A ship as the battle left her, with the repair bill she owes."""

    name: Name
    side: Name
    fate: Fate
    hull_points: int = Field(ge=1, le=100_000)
    tons: int = Field(1, ge=1, le=1_000_000)
    cost_gp: int = Field(0, ge=0, le=10**12, description="Her price (FADAD repair bills).")
    hull_damage: int = Field(0, ge=0, le=100_000, description="SJ hull points lost.")
    hull_damage_after_battle: int = Field(0, ge=0, le=100_000)
    damage_marks: list[ShipMark] = Field(default_factory=list, max_length=MAX_MARKS)
    damage_marks_after_battle: list[ShipMark] = Field(default_factory=list, max_length=MAX_MARKS)
    crew_start: int = Field(0, ge=0, le=_MANY, description="Own hands aboard at the start.")
    crew_lost: int = Field(0, ge=0, le=_MANY, description="Own hands lost in the battle.")
    fires: int = Field(0, ge=0, le=1000, description="Fires still burning at the end.")
    criticals: list[Text] = Field(
        default_factory=list, max_length=50, description="Lasting critical damage."
    )
    repairs: dict[Name, Any] = Field(
        default_factory=dict, description="The repair bill owed (gold, days ...)."
    )


class EndState(Record):
    """Everyone's state at the end of a battle (and after any rest since)."""

    format: Literal["fadad-campaign-state"] = "fadad-campaign-state"
    version: int = VERSION
    scenario: Name
    seed: int = Field(ge=0, lt=2**63)
    winner: Name | None = None
    ending: Name
    rounds: int = Field(ge=0)
    healing_model: Literal["fadad", "fudge"] = Field(
        "fadad", description="The battle's healing_model option (C-09): how `fadad rest` heals."
    )
    ship_damage_model: Literal["sj_hull_points", "fadad_levels"] = "sj_hull_points"
    repair_workers_per_ton: int = Field(1, ge=1, le=100)
    rested_days: int = Field(0, ge=0, le=100_000)
    characters: list[CharacterState] = Field(default_factory=list, max_length=_MANY)
    groups: list[GroupState] = Field(default_factory=list, max_length=_MANY)
    ships: list[ShipState] = Field(default_factory=list, max_length=10_000)

    @model_validator(mode="before")
    @classmethod
    def _known_version(cls, data: Any) -> Any:
        """Refuse another version before anything else is read."""
        if isinstance(data, dict) and data.get("version", VERSION) != VERSION:
            raise PydanticCustomError(
                "state_version",
                "this is a version {found} state file; this fadad reads version {known} "
                "(write it again with this version's fadad run --state-out)",
                {"where": "version", "found": data.get("version"), "known": VERSION},
            )
        return data


def state_text(state: EndState) -> str:
    """The state as the JSON text :func:`write_state` writes."""
    return json.dumps(state.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


def write_state(state: EndState, path: str | Path) -> None:
    """Write ``state`` to ``path`` as JSON."""
    Path(path).write_text(state_text(state), encoding="utf-8")


def read_state(path: str | Path) -> EndState:
    """Read and validate a state file. Raises ScenarioError (one line per problem)."""
    return load_record(Path(path), EndState)
