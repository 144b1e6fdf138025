"""Damage Capacity as the wound track (``wounds-and-healing.md`` §6.4, option
``wound_track = "dc_attribute"``; RECOVERED from the FUDGE SRD, not in the seeds).

Damage Capacity is then not a damage factor. Each hit worse than a Scratch lowers the DC
attribute one level (PROPOSED option: one level per wound level above Scratch for severe
hits); Scratches accumulate, three making one hit (PROPOSED default). At Mediocre the
character is Hurt (-1), at Poor Very Hurt (-2), at Terrible -3 (or Incapacitated, GM),
below Terrible Incapacitated or worse (PROPOSED: -4 Incapacitated, -5 Near Death, -6 or
lower Dead). A character whose undamaged DC is already Mediocre or lower is unaffected
until hit. Healing never raises DC above its undamaged level.

>>> t = dc_record(new_dc_track(1), Wound.HURT)       # Good DC -> Fair: wounded, no penalty
>>> (t.current, t.penalty, t.level.label)
(0, 0, 'Scratch')
>>> dc_record(t, Wound.HURT).penalty                    # Fair -> Mediocre: Hurt
-1
"""

from __future__ import annotations

from dataclasses import dataclass

from fadad_agents.rules.core.wounds import Wound

__all__ = ["DcTrack", "dc_heal", "dc_record", "new_dc_track"]


@dataclass(frozen=True, slots=True)
class DcTrack:
    """Damage Capacity used as the wound track.

    Attributes:
        undamaged: the DC attribute when unhurt (ladder value).
        current: the DC attribute now.
        scratches: Scratches not yet converted into a lost level.
        terrible_incapacitates: the GM's reading of Terrible DC: Incapacitated, not -3.
    """

    undamaged: int
    current: int
    scratches: int = 0
    terrible_incapacitates: bool = False

    @property
    def hit(self) -> bool:
        """Whether the DC has dropped at all."""
        return self.current < self.undamaged

    @property
    def level(self) -> Wound:
        """Equivalent wound level (for out-of-fight checks and narration)."""
        c = self.current
        if not self.hit:
            return Wound.SCRATCH if self.scratches else Wound.UNDAMAGED
        if c >= 0:
            return Wound.SCRATCH
        if c == -1:
            return Wound.HURT
        if c == -2:
            return Wound.VERY_HURT
        if c == -3:
            return Wound.INCAPACITATED if self.terrible_incapacitates else Wound.VERY_HURT
        if c == -4:
            return Wound.INCAPACITATED
        return Wound.NEAR_DEATH if c == -5 else Wound.DEAD

    @property
    def penalty(self) -> int:
        """Mediocre -1, Poor -2, Terrible -3; nothing until the DC has dropped."""
        if not self.hit or self.current >= 0:
            return 0
        return max(self.current, -3)

    @property
    def out_of_fight(self) -> bool:
        """Incapacitated or worse."""
        return self.level >= Wound.INCAPACITATED


def new_dc_track(damage_capacity: int, *, terrible_incapacitates: bool = False) -> DcTrack:
    """An unhurt DC track."""
    return DcTrack(damage_capacity, damage_capacity, 0, terrible_incapacitates)


def dc_record(
    track: DcTrack,
    wound: int,
    *,
    scratches_per_hit: int = 3,
    by_severity: bool = False,
) -> DcTrack:
    """Record a wound: lose one DC level per hit worse than a Scratch (``by_severity``: one
    per level above Scratch); every ``scratches_per_hit`` Scratches lose one level."""
    if wound <= Wound.UNDAMAGED:
        return track
    if wound == Wound.SCRATCH:
        n = track.scratches + 1
        lost, n = divmod(n, scratches_per_hit)
        return DcTrack(track.undamaged, track.current - lost, n, track.terrible_incapacitates)
    lost = wound - 1 if by_severity else 1
    if wound >= Wound.DEAD:
        lost = track.current + 6  # killing blow: straight to Dead
    return DcTrack(
        track.undamaged, track.current - lost, track.scratches, track.terrible_incapacitates
    )


def dc_heal(track: DcTrack, levels: int) -> DcTrack:
    """Heal ``levels`` DC levels (Scratches cleared), never above the undamaged DC."""
    current = min(track.current + max(levels, 0), track.undamaged)
    return DcTrack(track.undamaged, current, 0, track.terrible_incapacitates)
