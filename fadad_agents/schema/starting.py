"""Starting state: what a force brings from an earlier battle (a campaign's aftermath).

A scenario may start its fighters and ships hurt (``fadad aftermath`` writes these fields
from a battle's end state, and a GM may write them by hand):

* a character's ``wounds`` - the marks on its track, each ``<level>`` (the blow sits in
  its own box) or ``<level> in <box>`` (a Hurt written in the Incapacitated box heals as
  a Hurt): ``wounds: [Hurt, Hurt in Very Hurt]``; ``shots_left`` - its missile weapon's
  shots; Ité points left are simply ``ite_points``;
* a ship's ``hull_damage`` (SJ hull points lost) and ``damage_marks`` (FADAD level track:
  ``[Scratched, Lightly Damaged]``); crew losses are the crews' ``count``.

The marks must fit the fighter's track (the scenario's ``wound_track`` or its own boxes),
and nobody starts a battle out of it: a wound at Incapacitated or worse needs rest first
(``fadad rest``). :func:`starting_problems` checks a whole scenario.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator

from fadad_agents.rules.core.wound_marks import WOUND_LEVELS, level_of, with_marks
from fadad_agents.rules.core.wounds import WoundTrackError, custom_track, new_track
from fadad_agents.rules.ships.fadad_damage import SHIP_TRACK_BOXES, ShipLevel
from fadad_agents.schema.base import Name

__all__ = [
    "MAX_MARKS",
    "SHIP_LEVELS",
    "WoundMark",
    "mark_text",
    "parse_mark",
    "starting_problems",
]

MAX_MARKS = 50
"""Most marks a track written in a file may hold."""

SHIP_LEVELS = tuple(ShipLevel(i).label for i in range(1, 6))
"""Names of a ship's damage levels with boxes, Scratched .. Wrecked."""


def parse_mark(text: str, levels: tuple[str, ...] = WOUND_LEVELS) -> tuple[int, int]:
    """``(box, true severity)`` of ``"Hurt"`` or ``"Hurt in Incapacitated"``."""
    wound, _, box = text.partition(" in ")
    severity = level_of(wound.strip(), levels)
    return (level_of(box.strip(), levels) if box else severity), severity


def mark_text(box: int, severity: int, levels: tuple[str, ...] = WOUND_LEVELS) -> str:
    """How :func:`parse_mark` reads a mark back: ``"Hurt"`` or ``"Hurt in Incapacitated"``."""
    wound = levels[severity - 1]
    return wound if box == severity else f"{wound} in {levels[box - 1]}"


def _checked(levels: tuple[str, ...]) -> AfterValidator:
    def check(text: str) -> str:
        try:
            parse_mark(text, levels)
        except WoundTrackError as exc:
            raise ValueError(f"{exc} (write '<level>' or '<level> in <box level>')") from None
        return text

    return AfterValidator(check)


WoundMark = Annotated[Name, _checked(WOUND_LEVELS)]
"""A wound on a character's track: ``Hurt`` or ``Hurt in Incapacitated``."""
ShipMark = Annotated[Name, _checked(SHIP_LEVELS)]
"""A box of a ship's FADAD damage track: ``Scratched`` or ``Scratched in Lightly Damaged``."""


_DC_GROUP = (
    "the {} '{}' keeps wound boxes: wound_track dc_attribute (wounds-and-healing.md 6.4) "
    "is a character's; set it on each character's wound_track instead of in rules"
)
_DC_MARKS = (
    "'{}{}' records wounds on its Damage Capacity (wound_track dc_attribute), which has no "
    "boxes to mark; leave the marks out (it starts unhurt on that track)"
)


def starting_problems(scenario: Any) -> list[tuple[str, str]]:
    """``(field path, message)`` for starting state that does not fit its force."""
    problems: list[tuple[str, str]] = []
    for si, side in enumerate(scenario.sides):
        for fi, force in enumerate(side.forces):
            where = f"sides.{si}.forces.{fi}"
            group = getattr(force, "kind", "") in ("crew", "unit")
            if group and scenario.rules.wound_track == "dc_attribute":
                problems.append((where, _DC_GROUP.format(force.kind, force.name)))
            if getattr(force, "wounds", None):
                problems += _wounds_problem(force, scenario.rules, force.wounds, f"{where}.wounds")
            for n, marks in enumerate(getattr(force, "member_wounds", ())):
                spot = f"{where}.member_wounds.{n}"
                problems += _wounds_problem(force, scenario.rules, marks, spot, f" {n + 1}")
            if getattr(force, "damage_marks", None):
                problems.extend(_ship_problem(force, scenario.rules, f"{where}.damage_marks"))
    return problems


def _wounds_problem(
    force: Any, rules: Any, marks: list[str], where: str, member: str = ""
) -> list[tuple[str, str]]:
    if force.wound_boxes is not None:
        track = custom_track(force.wound_boxes)
    else:
        kind = force.wound_track or rules.wound_track
        if kind == "dc_attribute":
            return [(where, _DC_MARKS.format(force.name, member))]
        track = new_track(kind)
    try:
        track = with_marks(track, (parse_mark(m) for m in marks))
    except WoundTrackError as exc:
        return [(where, f"{exc} (its {track.kind} track: boxes {list(track.boxes)})")]
    if track.out_of_fight:
        return [
            (
                where,
                f"'{force.name}{member}' would start the battle {track.level.label}, out of the "
                "fight (rest first: fadad rest STATE --days N, or leave the fighter out)",
            )
        ]
    return []


def _ship_problem(force: Any, rules: Any, where: str) -> list[tuple[str, str]]:
    track = custom_track(force.damage_boxes or rules.ship.fadad_boxes or SHIP_TRACK_BOXES)
    try:
        with_marks(track, (parse_mark(m, SHIP_LEVELS) for m in force.damage_marks), SHIP_LEVELS)
    except WoundTrackError as exc:
        return [(where, f"{exc} (her track: boxes {list(track.boxes)})")]
    return []
