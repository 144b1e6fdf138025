"""Crew and Unit: many featureless fighters as one agent with a head count, resolved in bulk.

* :class:`Crew` strikes other groups by Spelljammer rapid resolution (ships-spelljammer.md
  13: d20s = attackers / defender HD, each hit one casualty) and checks morale on 2d10
  (section 18, A-57) when its morale policy says so.
* :class:`Unit` strikes other groups as a FADAD unit (mass-combat.md 1: capped unit
  Scale, unit damage table, casualties, morale checks on the table) through
  :func:`fadad_agents.rules.mass.resolve_unit_attack`.

Against an individual, a group fights as its average member: up to
:data:`MAX_ON_ONE` members each make an ordinary kernel attack (PROPOSED: only so many
can reach one fighter, as the +4 unit-Scale cap says for units); a blow that takes a
representative member out of the fight is one casualty.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import mesa

from fadad_agents.agents.base import Arena, Band, Combatant
from fadad_agents.agents.character import strike
from fadad_agents.policies import MoraleChoice, PolicySet
from fadad_agents.rules import mass
from fadad_agents.rules.ladder import FAIR
from fadad_agents.rules.wounds import WoundTrack

__all__ = ["MAX_ON_ONE", "Crew", "Group", "Unit"]

MAX_ON_ONE = 3
"""Most members of a group that attack one individual in a round (PROPOSED)."""


class Group(Combatant):
    """Shared behaviour of bulk agents: head count, representative member, morale."""

    kind = "group"

    __slots__ = ("count", "fighter", "member_track", "morale_rng", "start_count", "verb")

    defence_verb = "defence"

    def __init__(
        self,
        model: mesa.Model,
        *,
        name: str,
        side: int,
        index: int,
        policies: PolicySet,
        rng: random.Random,
        targeting_rng: random.Random,
        morale_rng: random.Random,
        count: int,
        fighter: Any,
        member_track: WoundTrack,
        reaction: int = 0,
        band: Band | None = None,
    ) -> None:
        self.count = count
        self.start_count = count
        super().__init__(
            model,
            name=name,
            side=side,
            index=index,
            policies=policies,
            rng=rng,
            targeting_rng=targeting_rng,
            reaction=reaction,
            band=band,
        )
        self.fighter = fighter
        self.member_track = member_track
        self.morale_rng = morale_rng
        self.verb = "attack"

    @property
    def headcount(self) -> int:
        """Members still fighting."""
        return self.count if self.fighting else 0

    @property
    def initial_headcount(self) -> int:
        """Members at the start."""
        return self.start_count

    def lose(self, n: int) -> int:
        """Remove up to ``n`` members; returns how many were lost."""
        lost = min(n, self.count)
        self.count -= lost
        return lost

    def melee_track(self) -> WoundTrack:
        """A fresh member's track: each blow falls on one representative member."""
        return self.member_track

    def use_defence(self) -> bool:
        """A group always has someone to defend."""
        return True

    def absorb(self, result: Any, arena: Arena) -> None:
        """A blow that takes a member out of the fight is one casualty."""
        if result.hit and result.track.out_of_fight:
            arena.casualties(self, 1)

    def declare(self, arena: Arena) -> None:
        """Stay or leave, then pick a target."""
        pol = self.policies
        choice = pol.retreat.decide(self, arena)
        if choice is not MoraleChoice.HOLD:
            arena.leave(self, choice, f"{self.count} of {self.start_count} left")
            return
        self.target = pol.targeting.choose_target(self, arena, self.targeting_rng)  # type: ignore[assignment]

    def act(self, arena: Arena) -> None:
        """Strike the target: in bulk against a group, member by member against one fighter."""
        target = self.target
        if target is None or not target.fighting:
            target = self.policies.targeting.choose_target(self, arena, self.targeting_rng)  # type: ignore[assignment]
            self.target = target
            if target is None:
                return
        if isinstance(target, Group):
            self.volley(target, arena)
            return
        for _ in range(min(self.count, MAX_ON_ONE)):
            if not target.fighting:
                return
            strike(self, self.fighter, target, arena)

    def volley(self, target: Group, arena: Arena) -> None:
        """Bulk attack on another group (by the attacker's own mass-combat engine)."""
        raise NotImplementedError

    def morale_holds(self, reason: str) -> bool:
        """Roll a morale check through the kernel."""
        raise NotImplementedError

    def end_round(self, arena: Arena) -> None:
        """Check morale when the morale policy calls for it; a broken group leaves."""
        if not self.fighting:
            return
        reason = self.policies.morale.check_reason(self, arena)
        if reason is None:
            return
        held = self.morale_holds(reason)
        arena.record(
            self.name,
            "morale",
            None,
            (),
            (),
            (("result", "holds" if held else "breaks"), ("check", reason)),
        )
        if not held:
            self.break_(arena, reason)

    def break_(self, arena: Arena, reason: str) -> None:
        """Morale broke: withdraw (rout) or surrender, as the morale policy says."""
        choice = self.policies.morale.on_break(self, arena)
        if choice is MoraleChoice.HOLD:
            return
        arena.leave(self, choice, f"morale broke: {reason}")

    def crew_view(self) -> mass.CrewGroup:
        """This group as the average crewman of rapid resolution."""
        return mass.CrewGroup(count=self.count)

    def unit_state(self) -> mass.UnitState:
        """This group as a FADAD unit."""
        f = self.fighter
        return mass.UnitState(self.count, f.attack, f.defence, f.odm, f.ddm, FAIR)


class Crew(Group):
    """Featureless NPCs with SJ average stats (HD, AC, attack bonus, maximum damage)."""

    kind = "crew"

    __slots__ = ("morale", "stats")

    def __init__(self, model: mesa.Model, *, stats: mass.CrewGroup, morale: int, **kw: Any):
        super().__init__(model, **kw)
        self.stats = stats
        self.morale = morale

    def crew_view(self) -> mass.CrewGroup:
        """The crew's average crewman with its current head count."""
        return replace(self.stats, count=self.count)

    def volley(self, target: Group, arena: Arena) -> None:
        """Rapid resolution: ``count / defender HD`` d20s, one casualty per hit (13.3-13.5)."""
        opts = arena.options.mass
        them = target.crew_view()
        dice = mass.rapid_dice(
            self.count,
            them.hd,
            self.stats.max_damage,
            self.stats.incapacitating,
            opts.rapid_rounding,
        )
        hits = mass.rapid_volley(
            dice, self.stats.attack_bonus, them.ac, them.count, self.rng, opts.rapid_natural_rolls
        )
        lost = arena.casualties(target, hits) if hits else 0
        arena.record(
            self.name,
            "volley",
            target.name,
            (("d20s", dice),),
            (("attack_bonus", self.stats.attack_bonus), ("ac", them.ac)),
            (
                ("result", f"{hits} hits"),
                ("hits", hits),
                ("casualties", lost),
                ("left", target.headcount),
            ),
        )

    def morale_holds(self, reason: str) -> bool:
        """2d10 <= morale (A-57, PROPOSED roll)."""
        return mass.crew_morale_check(self.morale, self.morale_rng)


class Unit(Group):
    """A FADAD mass-combat unit: one 4dF combatant with a unit Scale bonus."""

    kind = "unit"

    __slots__ = ("state",)

    def __init__(self, model: mesa.Model, *, state: mass.UnitState, **kw: Any):
        super().__init__(model, count=state.strength, **kw)
        self.state = state

    @property
    def wound(self) -> int:
        """The unit's wound level."""
        return int(self.state.wounds.level)

    @property
    def penalty(self) -> int:
        """Very hurt units fight at -2, hurt at -1 (unit damage table)."""
        return int(self.state.wounds.skill_penalty)

    def lose(self, n: int) -> int:
        """Remove members and keep the kernel state's strength in step."""
        lost = super().lose(n)
        self.state = replace(self.state, strength=self.count)
        return lost

    def unit_state(self) -> mass.UnitState:
        """The live kernel state."""
        return self.state

    def volley(self, target: Group, arena: Arena) -> None:
        """One FADAD unit attack: opposed 4dF with capped Scale, damage table, morale."""
        res = mass.resolve_unit_attack(
            self.state, target.unit_state(), self.rng, arena.options.mass
        )
        if isinstance(target, Unit):
            target.state = replace(res.defender, strength=target.count)
        lost = arena.casualties(target, res.casualties) if res.casualties else 0
        row = (
            res.row.damage_type
            if res.row is not None
            else ("miss" if res.damage is None else "none")
        )
        arena.record(
            self.name,
            "volley",
            target.name,
            (),
            (("penalty", self.penalty),),
            (
                ("result", row),
                ("rd", res.rd),
                ("damage", res.damage),
                ("hits", int(lost > 0)),
                ("casualties", lost),
                ("left", target.headcount),
                ("morale", None if res.morale_passed is None else bool(res.morale_passed)),
            ),
        )
        if isinstance(target, Unit) and target.fighting and target.state.wounds.out_of_action:
            arena.take_out(target, "unit out of action")
        if res.morale_passed is False and target.fighting:
            arena.record(
                target.name,
                "morale",
                None,
                (),
                (),
                (("result", "breaks"), ("check", f"{row} damage")),
            )
            target.break_(arena, f"{row} damage")

    def morale_holds(self, reason: str) -> bool:
        """Morale trait + 4dF against Fair for a policy-called check (A-70, PROPOSED level)."""
        return mass.morale_check(self.state.morale, FAIR, self.morale_rng)
