"""What a Fae fighter holds: its weapons, the grip on the readied one, what lies at its feet.

``fae-domains.md`` sections 2.1-2.2 (drop an object: free; pick up an object and ready a
weapon: short actions) and 7 (disarm): "the weapon is knocked from the target's hand. If
the target is holding the weapon with more than one hand, this maneuver must be executed
again for each one to actually knock the item away ... No matter how many hands have been
knocked away, the target may take a short action to return his grip to normal (a Ready
Weapon Action)." So a disarm that frees one hand of a two-handed grip leaves the weapon in
the other hand, held one-handed (no two-handed grip: no +20, and a large weapon's -20)
until a short re-grip; the last hand knocked off sends the weapon to the ground at the
fighter's feet, whence a short Pick Up action brings it back into its hand (PROPOSED: a
weapon picked up is held ready).

>>> from fadad_agents.schema.fae import FaeGear
>>> sword = FaeGear(item="weapon", name="Greatsword", skill="Sword", base_damage=120, hands=2)
>>> h = Hands([sword])
>>> h.knock(), h.two_handed, h.ready is sword
('hand', False, True)
>>> h.knock(), h.ready, h.pick_up() is sword, h.two_handed
('away', None, True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fadad_agents.schema.fae import FaeGear

__all__ = ["Grounded", "Hands"]


@dataclass(slots=True)
class Grounded:
    """An item at a fighter's feet: its current DR, and whether a blow knocked it there
    (its owner picks that one up again) or it was dropped on purpose."""

    item: FaeGear
    dr: int
    knocked: bool


class Hands:
    """A fighter's weapons (the first is the readied one), their DRs and grip."""

    __slots__ = ("drs", "grip_lost", "ground", "unready", "weapons")

    def __init__(self, weapons: Iterable[FaeGear]) -> None:
        self.weapons: list[FaeGear] = list(weapons)
        self.drs: list[int] = [w.dr for w in self.weapons]
        self.unready = False
        """The first weapon is carried, not in hand: it must be readied (a short action)."""
        self.grip_lost = 0
        """Hands knocked off the readied weapon's grip (a partial disarm)."""
        self.ground: list[Grounded] = []

    @property
    def ready(self) -> FaeGear | None:
        """The weapon in hand, ready to strike and parry; None: empty-handed."""
        return self.weapons[0] if self.weapons and not self.unready else None

    @property
    def two_handed(self) -> bool:
        """The readied weapon is held in both hands (its grip whole)."""
        w = self.ready
        return w is not None and w.hands == 2 and self.grip_lost == 0

    def take(self, i: int) -> tuple[FaeGear, int]:
        """Take weapon ``i`` out of the hands or the belt (thrown, dropped, broken): the
        next weapon, if any, must be readied before it strikes."""
        item, dr = self.weapons.pop(i), self.drs.pop(i)
        if i == 0:
            self.grip_lost = 0
            self.unready = bool(self.weapons)
        return item, dr

    def knock(self) -> str:
        """A disarm lands on the readied weapon: one hand knocked off (``"hand"``), or the
        last one, and the weapon falls at the fighter's feet (``"away"``)."""
        w = self.ready
        if w is None:
            return "none"
        self.grip_lost += 1
        if self.grip_lost < w.hands:
            return "hand"
        item, dr = self.take(0)
        self.ground.append(Grounded(item, dr, knocked=True))
        return "away"

    def drop(self, i: int) -> FaeGear:
        """Drop weapon ``i`` on purpose: it lies at the fighter's feet."""
        item, dr = self.take(i)
        self.ground.append(Grounded(item, dr, knocked=False))
        return item

    @property
    def knocked_down(self) -> Grounded | None:
        """A weapon a blow knocked to the ground, which its owner will want back."""
        return next((g for g in self.ground if g.knocked), None)

    def pick_up(self, item: FaeGear | None = None) -> FaeGear | None:
        """Pick ``item`` (default: a knocked-down weapon, else the last one dropped) up into
        the hand, ready; what was in hand stays carried. None: nothing there."""
        pick = next((g for g in self.ground if g.item is item), None) if item else None
        pick = pick or self.knocked_down or (self.ground[-1] if self.ground else None)
        if pick is None:
            return None
        self.ground.remove(pick)
        self.weapons.insert(0, pick.item)
        self.drs.insert(0, pick.dr)
        self.unready, self.grip_lost = False, 0
        return pick.item

    def wear(self, dr_after: int) -> FaeGear | None:
        """The readied weapon's DR after a blow; returns it if it broke (and is gone)."""
        self.drs[0] = dr_after
        if dr_after <= 0 and self.weapons[0].dr > 0:
            return self.take(0)[0]
        return None
