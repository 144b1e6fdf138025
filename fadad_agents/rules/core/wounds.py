"""Wound levels, thresholds, the wound and stun tracks (``wounds-and-healing.md`` §1, §5.4,
§6, §8, §12). The ``dc_attribute`` track (§6.4) is :mod:`fadad_agents.rules.personal.dc_track`.

A wound track is a frozen value: :func:`record` returns a new track. Each mark keeps the
box it sits in *and* the true severity of the blow, because healing uses the severity
(an "H" recorded in the Incapacitated box heals as a Hurt, SEED 001 §4.57).

>>> t = new_track("standard")
>>> t = record(t, Wound.VERY_HURT)
>>> t = record(t, Wound.HURT)
>>> t.level.label, t.penalty
('Very Hurt', -2)
>>> t = record(t, Wound.HURT)          # Hurt and Very Hurt full: overflow to Incapacitated
>>> t.level.label, t.out_of_fight, t.severities
('Incapacitated', True, (3, 2, 2))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache
from typing import Literal, Protocol

__all__ = [
    "DOUBLED_RD",
    "MINMIDMAX_EPIC",
    "STANDARD",
    "TRACK_BOXES",
    "TRACK_KINDS",
    "Leveled",
    "Overflow",
    "StunEffect",
    "Thresholds",
    "Wound",
    "WoundTrack",
    "WoundTrackError",
    "custom_track",
    "graze_wound",
    "head_blow_knocks_out",
    "landing",
    "new_track",
    "pc_death_cap",
    "penalty_with_pain_threshold",
    "point_spend_saves",
    "pull_punch",
    "rebuild",
    "record",
    "record_stun",
    "stun_effect",
    "wound_for_damage",
]


class Wound(IntEnum):
    """Wound levels, indexed as in §1 (index arithmetic is used by PC-death option 1)."""

    UNDAMAGED = 0
    SCRATCH = 1
    HURT = 2
    VERY_HURT = 3
    INCAPACITATED = 4
    NEAR_DEATH = 5
    DEAD = 6

    @property
    def label(self) -> str:
        """Display name: ``"Very Hurt"``."""
        return _LABELS[self]


_LABELS = (
    "Undamaged",
    "Scratch",
    "Hurt",
    "Very Hurt",
    "Incapacitated",
    "Near Death",
    "Dead",
)
_WOUNDS = tuple(Wound)

type Thresholds = tuple[int, int, int, int, int]
"""Lowest damage number giving Scratch, Hurt, Very Hurt, Incapacitated, Near Death."""

STANDARD: Thresholds = (1, 3, 5, 7, 9)
"""§6.1: 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8 Incapacitated, 9+ Near Death (SEED)."""
DOUBLED_RD: Thresholds = (1, 4, 7, 10, 13)
"""A-21 (PROPOSED) track for ``fudge.double_rd``: 1-3, 4-6, 7-9, 10-12, 13+."""
MINMIDMAX_EPIC: Thresholds = (1, 3, 5, 6, 7)
"""A-28 (PROPOSED) Min-Mid-Max epic track: 1-2, 3-4, 5, 6, 7+."""

type Overflow = Literal["dead", "stay_near_death"]

TRACK_BOXES: dict[str, tuple[int, int, int, int, int]] = {
    "standard": (3, 1, 1, 1, 1),
    "moderately_cinematic": (4, 2, 1, 1, 1),
    "epic": (4, 3, 2, 1, 1),  # A-25 (PROPOSED)
    # Cannon fodder: Undamaged / Hurt / Out. One Hurt box, one Out (Incapacitated) box.
    "npc3": (0, 1, 0, 1, 0),
}
"""Boxes per level (Scratch, Hurt, Very Hurt, Incapacitated, Near Death), §6.2."""

TRACK_KINDS: tuple[str, ...] = tuple(TRACK_BOXES)

# Which box level a wound of each severity starts looking for (index = severity).
# npc3 (PROPOSED): Scratches leave no mark; Hurt/Very Hurt are "Hurt"; worse is "Out".
_IDENTITY = (0, 1, 2, 3, 4, 5, 6)
_FOLD: dict[str, tuple[int, ...]] = {
    "standard": _IDENTITY,
    "moderately_cinematic": _IDENTITY,
    "epic": _IDENTITY,
    "custom": _IDENTITY,
    "npc3": (0, 0, 2, 2, 4, 4, 6),
}

_PENALTY = (0, 0, -1, -2, -2, -2, -2)


class WoundTrackError(ValueError):
    """An unknown track kind or an impossible box layout."""


def _level(filled: tuple[int, int, int, int, int], dead: bool) -> Wound:
    """The highest level with a marked box, or Dead."""
    if dead:
        return Wound.DEAD
    for level in (Wound.NEAR_DEATH, Wound.INCAPACITATED, Wound.VERY_HURT, Wound.HURT):
        if filled[level - 1]:
            return level
    return Wound.SCRATCH if filled[0] else Wound.UNDAMAGED


@dataclass(frozen=True, slots=True)
class WoundTrack:
    """Boxes and marks of one fighter's wound (or stun) track.

    Attributes:
        kind: ``standard``, ``moderately_cinematic``, ``epic``, ``npc3`` or ``custom``.
        boxes: number of boxes per level, Scratch..Near Death.
        filled: marked boxes per level, Scratch..Near Death.
        marks: ``(box_level, true_severity)`` per mark, in the order recorded.
        dead: overflow past Near Death (or a killing blow) took the fighter to Dead.
        level: current wound level: the highest level with a marked box, or Dead.
        penalty: trait penalty: Hurt -1, Very Hurt -2; only the worst level counts
            (SEED 001 §4.57). Incapacitated and worse keep -2 (the fighter cannot act anyway).
        out_of_fight: Incapacitated or worse (npc3: "Out of the battle").

    The last three follow from the marks; a track is a frozen value read on every swing, so
    they are worked out once, when it is made.
    """

    kind: str
    boxes: tuple[int, int, int, int, int]
    filled: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    marks: tuple[tuple[int, int], ...] = ()
    dead: bool = False
    level: Wound = field(init=False, repr=False, compare=False)
    penalty: int = field(init=False, repr=False, compare=False)
    out_of_fight: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        level = _level(self.filled, self.dead)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "penalty", _PENALTY[level])
        object.__setattr__(self, "out_of_fight", level >= Wound.INCAPACITATED)

    @property
    def severities(self) -> tuple[int, ...]:
        """True severity of every mark, in the order recorded (for healing)."""
        return tuple(sev for _, sev in self.marks)

    def open_boxes(self, level: int) -> int:
        """Number of unmarked boxes at ``level`` (1..5)."""
        return self.boxes[level - 1] - self.filled[level - 1]


def new_track(kind: str = "standard") -> WoundTrack:
    """An empty track of a kind from :data:`TRACK_BOXES` (``wound_track`` option; for
    ``"dc_attribute"`` use :func:`fadad_agents.rules.personal.dc_track.new_dc_track`).

    Every call returns the same empty track of its kind: a track is a frozen value, and
    fighters sharing their states lets :func:`record` answer a known blow from memory.
    """
    track = _EMPTY_TRACKS.get(kind)
    if track is None:
        raise WoundTrackError(f"unknown wound track {kind!r}; allowed: {', '.join(TRACK_KINDS)}")
    return track


_EMPTY_TRACKS: dict[str, WoundTrack] = {k: WoundTrack(k, b) for k, b in TRACK_BOXES.items()}


@cache
def _empty_custom(boxes: tuple[int, int, int, int, int]) -> WoundTrack:
    return WoundTrack("custom", boxes)


def custom_track(boxes: tuple[int, int, int, int, int]) -> WoundTrack:
    """An empty track with explicit boxes, e.g. a major NPC's extra boxes (§6.2); one
    shared value per layout, as :func:`new_track`."""
    if len(boxes) != 5 or any(b < 0 for b in boxes):
        raise WoundTrackError(f"boxes must be five counts >= 0 (Scratch..Near Death): {boxes}")
    return _empty_custom((boxes[0], boxes[1], boxes[2], boxes[3], boxes[4]))


def wound_for_damage(damage: int, thresholds: Thresholds = STANDARD) -> Wound:
    """Wound level of a damage number (§6.1): 0 or less is no damage."""
    if thresholds is STANDARD and 0 <= damage <= _STANDARD_TOP:
        return _STANDARD_WOUNDS[damage]
    for i in (4, 3, 2, 1, 0):
        if damage >= thresholds[i]:
            return _WOUNDS[i + 1]
    return Wound.UNDAMAGED


_STANDARD_WOUNDS: tuple[Wound, ...] = tuple(
    wound_for_damage(damage, (*STANDARD,)) for damage in range(STANDARD[-1] + 1)
)
"""Wound of each damage number 0..9 on the standard thresholds (the common lookup)."""
_STANDARD_TOP = len(_STANDARD_WOUNDS) - 1
"""The highest damage number :data:`_STANDARD_WOUNDS` holds (a constant: no ``len`` a hit)."""


def _first_open(track: WoundTrack, start: int) -> int:
    """First level >= start with an open box, or 6 when every box up to Near Death is full."""
    boxes, filled = track.boxes, track.filled
    lvl = start
    while lvl <= 5 and filled[lvl - 1] >= boxes[lvl - 1]:
        lvl += 1
    return lvl


def landing(
    track: WoundTrack,
    wound: int,
    *,
    scratch_cap: bool = False,
    overflow_past_near_death: Overflow = "dead",
    max_level: int = Wound.DEAD,
) -> int:
    """Where a wound lands (§6.3): box level 1..5, 6 for Dead, 0 for no new mark.

    The wound takes its own level's box if one is open, else the next higher open box.
    Past Near Death it kills (``"dead"``) or is absorbed (``"stay_near_death"``, A-24).
    ``max_level`` caps the landing (pulled punches, PC-death options); a capped wound
    whose cap box is full is absorbed. With ``scratch_cap`` a Scratch never lands above
    Very Hurt.
    """
    return _landing(track, wound, scratch_cap, overflow_past_near_death, max_level)


def _landing(
    track: WoundTrack, wound: int, scratch_cap: bool, overflow: Overflow, max_level: int
) -> int:
    """:func:`landing` with positional arguments (``record`` calls it on every wound)."""
    if track.dead or wound <= 0:
        return 0
    start = _FOLD[track.kind][min(wound, 6)]
    if start == 0:
        return 0
    lvl = 6 if start == 6 else _first_open(track, start)
    if lvl == 6 and start < 6 and overflow == "stay_near_death":
        return 0
    cap = max_level
    if scratch_cap and wound == Wound.SCRATCH:
        cap = min(cap, Wound.VERY_HURT)
    if lvl <= cap:
        return lvl
    if 1 <= cap <= 5 and track.filled[cap - 1] < track.boxes[cap - 1]:
        return cap
    return 0


def record(
    track: WoundTrack,
    wound: int,
    scratch_cap: bool = False,
    overflow_past_near_death: Overflow = "dead",
    max_level: int = Wound.DEAD,
) -> WoundTrack:
    """Record one wound of true severity ``wound`` and return the new track (§6.3).

    See :func:`landing` for the placement rules. The mark stores the true severity.
    Name the options; the kernel's hit alone passes them in order (a call with keywords
    costs CPython 3.12 several hundred machine instructions more, once a hit).
    """
    if wound <= 0 or track.dead:  # no new mark (landing's first rule), the common miss
        return track
    # A pure function of a frozen track: a blow already seen on this very track (fighters
    # share their states from new_track's empty ones) is one lookup, not a new track.
    key = (id(track), wound, scratch_cap, overflow_past_near_death, max_level)
    try:  # a subscript, not get: no method call a hit (a new blow costs an exception once)
        return _RECORDED[key][1]  # the entry holds the track: no other object has its id
    except KeyError:
        pass
    recorded = _record(track, wound, scratch_cap, overflow_past_near_death, max_level)
    if len(_RECORDED) >= _RECORDED_MAX:  # tracks built elsewhere (healing, custom) add up
        _RECORDED.clear()
    _RECORDED[key] = (track, recorded)
    return recorded


_RECORDED: dict[tuple[int, int, bool, str, int], tuple[WoundTrack, WoundTrack]] = {}
""":func:`record`'s answers: (id of the track, wound, options) -> (the track, the new one)."""
_RECORDED_MAX = 8192


def _record(
    track: WoundTrack, wound: int, scratch_cap: bool, overflow: Overflow, max_level: int
) -> WoundTrack:
    """:func:`record` worked out: the new track after a wound on a live track."""
    lvl = _landing(track, wound, scratch_cap, overflow, max_level)
    if lvl == 0:
        return track
    if lvl == 6:
        return WoundTrack(track.kind, track.boxes, track.filled, track.marks, True)
    f = track.filled
    filled = (
        f[0] + (lvl == 1),
        f[1] + (lvl == 2),
        f[2] + (lvl == 3),
        f[3] + (lvl == 4),
        f[4] + (lvl == 5),
    )
    return WoundTrack(track.kind, track.boxes, filled, (*track.marks, (lvl, int(wound))), False)


def rebuild(
    track: WoundTrack, severities: tuple[int, ...], *, overflow_past_near_death: Overflow = "dead"
) -> WoundTrack:
    """An empty track of the same layout with ``severities`` re-recorded in order (healing).

    The dead do not heal: a dead track is returned unchanged.
    """
    if track.dead:
        return track
    out = WoundTrack(track.kind, track.boxes)
    for sev in severities:
        out = record(out, sev, overflow_past_near_death=overflow_past_near_death)
    return out


# --- Grazes (§5.4) ---------------------------------------------------------------------


def graze_wound(factor: int, scale_advantage: int = 0, scale_step: int = 5) -> Wound:
    """Wound of a graze (RD +1, §5.4): factor < 0 Undamaged, 0-4 Scratch, 5+ Hurt.

    A-22 (PROPOSED): each full ``scale_step`` points of the attacker's Scale advantage
    raises a damaging graze one level, capped at Very Hurt.
    """
    if factor < 0:
        return Wound.UNDAMAGED
    level = 1 if factor <= 4 else 2
    if scale_advantage >= scale_step:
        level = max(level, min(level + scale_advantage // scale_step, 3))
    return Wound(level)


# --- PC death (§12, C-13) ---------------------------------------------------------------


class Leveled(Protocol):
    """Any wound record with a current level (a box track, the Damage-Capacity track)."""

    @property
    def level(self) -> Wound: ...


def pc_death_cap(
    track: Leveled,
    *,
    max_three_levels: bool = False,
    no_near_death_unless_incap: bool = False,
    incap_at_round_start: bool = False,
    point_spent: bool = False,
) -> int:
    """Highest level a blow may leave a protected PC at (pass it as ``max_level``).

    Option 1: at most three levels a blow (Undamaged -> Very Hurt; Hurt -> Near Death).
    Option 2: no Near Death unless Incapacitated at the start of the round.
    ``point_spent``: an Ite (FADAD) or Fudge point (A-29) turns a deadly wound into
    Incapacitated. Automatic death (a knife at a helpless throat) bypasses all of these:
    record ``Wound.DEAD`` without a cap.
    """
    cap: int = Wound.DEAD
    current = track.level
    if max_three_levels:
        cap = min(cap, current + 3)
    if no_near_death_unless_incap and not incap_at_round_start:
        cap = min(cap, max(int(Wound.INCAPACITATED), current))
    if point_spent:
        cap = min(cap, max(int(Wound.INCAPACITATED), current))
    return cap


def penalty_with_pain_threshold(level: int, pain_threshold: int = 0) -> int:
    """Wound penalty with *High Pain Threshold* (+1: one level less) or *Low Pain Threshold*
    (-1: one level more) (SEED 001 §4.51). Only Hurt and Very Hurt carry penalties; a Low
    Pain Threshold makes Very Hurt -3."""
    if level < Wound.HURT or level >= Wound.INCAPACITATED:
        return _PENALTY[min(level, Wound.DEAD)]
    return min(0, _PENALTY[level] + pain_threshold)


def point_spend_saves(
    track: WoundTrack,
    wound: int,
    *,
    scratch_cap: bool = False,
    overflow_past_near_death: Overflow = "dead",
    max_level: int = Wound.DEAD,
) -> bool:
    """Whether a blow would leave the fighter Near Death or Dead, so that an Ite point
    (FADAD §4.5.9) or Fudge point (A-29) could turn it into Incapacitated: record it
    again with ``max_level=Wound.INCAPACITATED``."""
    lvl = landing(
        track,
        wound,
        scratch_cap=scratch_cap,
        overflow_past_near_death=overflow_past_near_death,
        max_level=max_level,
    )
    return lvl >= Wound.NEAR_DEATH


def pull_punch(wound: int, declared: int) -> int:
    """A pulled punch never does more than the declared level (§8, EX-WND-15)."""
    return min(wound, declared)


# --- Stun and knockout (§8, A-27) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StunEffect:
    """What the worst stun mark does: ``name`` and duration in combat rounds.

    ``rounds`` is ``None`` for a knockout that lasts the rest of the combat (A-27).
    """

    name: str
    rounds: int | None
    can_attack: bool
    defence_penalty: int
    action_penalty: int
    unconscious: bool


_NO_STUN = StunEffect("none", 0, True, 0, 0, False)
_STUN = StunEffect("Stun", 1, False, -1, 0, False)
_VERY_STUNNED = StunEffect("Very Stunned", 2, False, -2, -2, False)


def stun_effect(level: int, knockout_rounds: int | None = None) -> StunEffect:
    """Stun result of a wound-equivalent level on the stun track (§8).

    Hurt -> Stun (no attacks or all-out defence, -1 to defend, one round); Very Hurt ->
    Very Stunned (no attacks, -2 to all, two rounds); Incapacitated or worse -> Knockout
    (rest of the combat by default, A-27). A Scratch has no effect (A-27).
    """
    if level >= Wound.INCAPACITATED:
        return StunEffect("Knockout", knockout_rounds, False, 0, 0, True)
    if level == Wound.VERY_HURT:
        return _VERY_STUNNED
    if level == Wound.HURT:
        return _STUN
    return _NO_STUN


def head_blow_knocks_out(rolled: int, rd: int) -> bool:
    """GM option (SEED 001 §4.62): a successful Good-or-better blow to the head knocks out
    automatically; in an opposed action it must also win (RD >= 1)."""
    return rolled >= 1 and rd >= 1


def record_stun(
    stun_track: WoundTrack, wound: int, *, scratches_accumulate: bool = False
) -> WoundTrack:
    """Record a stun blow on the separate stun track (same boxes, overflow to Knockout).

    A second Stun later in the fight lands in the Very Hurt box: Very Stunned (EX-WND-16).
    Stun overflow never kills: past Near Death it stays a knockout.
    """
    if wound == Wound.SCRATCH and not scratches_accumulate:
        return stun_track
    return record(
        stun_track, min(wound, Wound.NEAR_DEATH), overflow_past_near_death="stay_near_death"
    )
