"""Aim policies: how a fighter means its blows (personal-combat.md 4, wounds-and-healing.md 8).

A called shot names a body part before the roll; it lands there only if the attacker
wins by the part's minimum relative degree and rolls at least its Target, else the blow
is an ordinary one (the defender names where it lands: its body). A stun blow is figured
as usual but recorded on the stun track; a pulled punch never does more than its
announced wound level.

``plain`` is the default: the reference gives a called shot no edge in a fight to the
finish (a wound in a limb never takes a foe out where a body wound may), so fighters
strike plainly unless the scenario says otherwise.
"""

from __future__ import annotations

from typing import Literal

from fadad_agents.policies.core.defaults import wound_level
from fadad_agents.policies.core.protocols import PLAIN, Aim, BattleView, CombatantView

__all__ = ["CalledShot", "PlainBlows", "PulledPunches", "StunBlows", "WeaponArmWhenAhead"]

type BodyPart = Literal["leg", "arm", "head", "eye"]


class PlainBlows:
    """Ordinary blows at full force (the default)."""

    __slots__ = ()
    constant = PLAIN

    def aim(
        self, actor: CombatantView, target: CombatantView, battle: BattleView, edge: int
    ) -> Aim:
        return PLAIN


class CalledShot:
    """Always call ``location`` (leg, arm, head, eye), with a stun blow if ``stun``."""

    __slots__ = ("constant",)

    def __init__(self, location: BodyPart = "arm", stun: bool = False) -> None:
        self.constant = Aim(location=location, stun=stun)

    def aim(
        self, actor: CombatantView, target: CombatantView, battle: BattleView, edge: int
    ) -> Aim:
        return self.constant


class StunBlows:
    """Stun blows (the flat of the blade), at ``location`` if given: to take foes alive."""

    __slots__ = ("constant",)

    def __init__(self, location: BodyPart | None = None) -> None:
        self.constant = Aim(location=location, stun=True)

    def aim(
        self, actor: CombatantView, target: CombatantView, battle: BattleView, edge: int
    ) -> Aim:
        return self.constant


class PulledPunches:
    """Pull every blow to at most ``max_wound`` (a first-blood duel: Scratch)."""

    __slots__ = ("constant",)

    def __init__(self, max_wound: str = "Scratch") -> None:
        self.constant = Aim(pulled_to=wound_level(max_wound))

    def aim(
        self, actor: CombatantView, target: CombatantView, battle: BattleView, edge: int
    ) -> Aim:
        return self.constant


_ARM = Aim(location="arm")


class WeaponArmWhenAhead:
    """Call the weapon arm when the attack skill beats the foe's defence by at least
    ``min_edge`` (default the arm's minimum RD, 2): a fighter sure of winning by that
    much disables the arm (Hurt -1 to fight, Incapacitated drops the weapon) to take the
    foe alive; otherwise plain blows."""

    __slots__ = ("min_edge",)

    def __init__(self, min_edge: int = 2) -> None:  # the arm's minimum RD (section 4)
        self.min_edge = min_edge

    def aim(
        self, actor: CombatantView, target: CombatantView, battle: BattleView, edge: int
    ) -> Aim:
        return _ARM if edge >= self.min_edge else PLAIN
