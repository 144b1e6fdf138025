"""Crew and Unit: many featureless fighters as one agent with a head count, resolved in bulk.

A :class:`Crew` strikes groups by Spelljammer rapid resolution (ships-spelljammer.md 13)
and checks morale on 2d10 (18, A-57); a :class:`Unit` as a FADAD unit (mass-combat.md 1,
:func:`fadad_agents.rules.mass.resolve_unit_attack`), closing on foes on open ground first
(:mod:`~fadad_agents.agents.core.fronts`). Against an individual, up to
``engine.max_on_one`` (3) members each make an ordinary kernel attack (PROPOSED); a blow
that takes a representative member out of the fight is one casualty.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import mesa
import numpy as np

from fadad_agents.agents.core import fronts
from fadad_agents.agents.core.base import Arena, Band, Combatant
from fadad_agents.agents.core.character import record_morale, strike
from fadad_agents.policies.core.policy_set import PolicySet
from fadad_agents.policies.core.protocols import MoraleChoice
from fadad_agents.rules import mass
from fadad_agents.rules.core.ladder import FAIR
from fadad_agents.rules.core.morale import MoraleResult, resolve_morale_check
from fadad_agents.rules.core.wounds import WoundTrack
from fadad_agents.rules.personal.criticals import KNOCKOUT

__all__ = ["BULK_DICE", "Crew", "Group", "Unit"]

BULK_DICE = 64
"""From this many d20s a volley is one numpy binomial draw (same law as rolling each)."""


class Group(Combatant):
    """Shared behaviour of bulk agents: head count, representative member, morale."""

    kind = "group"

    __slots__ = (
        "count",
        "down",
        "fighter",
        "member_track",
        "morale_rng",
        "start_count",
        "turn_count",
        "verb",
    )

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
        self.turn_count: int | None = None
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

    def restart(self, rng: random.Random, targeting_rng: random.Random) -> None:
        """At full strength again (:meth:`Combatant.restart`; the battle re-seeds its
        morale stream)."""
        super().restart(rng, targeting_rng)
        self.count = self.start_count
        self.turn_count = None
        self.down = 0

    @property
    def strikers(self) -> int:
        """Members who strike this turn: those standing when a simultaneous turn began
        (personal-combat.md 1.2), else those standing now; less those thrown off their feet
        (``down``: a Ship Shaken result, which the ship engine sets and clears)."""
        held = self.turn_count
        n = self.count if held is None else held
        return n - self.down if self.down < n else 0

    def hold_turn(self) -> None:
        """Losses in a simultaneous turn do not weaken the group's own blows in it."""
        self.turn_count = self.count

    def release_turn(self, arena: Arena) -> None:
        """The turn is over: the group strikes with those left standing again."""
        self.turn_count = None

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
        """A blow that takes a member out of the fight, or knocks one out (a Knockout
        crit), is one casualty; a member's other crit effects are lost among its numbers
        (agents.core.conditions)."""
        if result.hit and (result.track.out_of_fight or KNOCKOUT in result.crit_effects):
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
        target = self.target = fronts.course(self, target, arena)
        aim = fronts.closes_on(self, target, arena)
        if aim is None:
            return
        if isinstance(target, Group):
            self.volley(target, arena, aim)
            return
        for _ in range(min(self.strikers, arena.options.engine.max_on_one)):
            if not target.fighting:
                return
            strike(self, self.fighter, target, arena)

    def volley(self, target: Group, arena: Arena, modifier: int = 0) -> None:
        """Bulk attack on another group (by the attacker's own mass-combat engine)."""
        raise NotImplementedError

    def roll_morale(self) -> tuple[str, int, MoraleResult]:
        """One morale check through the kernel: the dice, the morale it rolls on, the result."""
        raise NotImplementedError

    def end_round(self, arena: Arena) -> None:
        """Check morale when the morale policy calls for it; a broken group leaves."""
        if not self.fighting:
            return
        reason = self.policies.morale.check_reason(self, arena)
        if reason is None:
            return
        dice, morale, res = self.roll_morale()
        record_morale(arena, self.name, reason, dice, morale, res)
        if not res.passed:
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

    __slots__ = ("_np_rng", "foul_air", "morale", "stats")

    def __init__(self, model: mesa.Model, *, stats: mass.CrewGroup, morale: int, **kw: Any):
        super().__init__(model, **kw)
        self.stats = stats
        self.morale = morale
        self.foul_air = 0
        """Levels lost to the foul air of the deck it stands on (the ship engine sets it,
        ``fire.fouled_air_penalty``)."""

    def restart(self, rng: random.Random, targeting_rng: random.Random) -> None:
        """At full strength, its bulk generator to be seeded again from the new stream."""
        super().restart(rng, targeting_rng)
        self._np_rng: np.random.Generator | None = None
        self.foul_air = 0

    @property
    def penalty(self) -> int:
        """Foul air on its deck: this many levels on every roll (2 d20 points a level in
        its volleys, ``engine.ladder_d20_bonus``)."""
        return -self.foul_air

    def _hits(self, dice: int, them: mass.CrewGroup, natural: bool, bonus: int) -> int:
        """Hits of ``dice`` d20s at ``bonus``: one by one for small pools, one binomial draw.

        The bulk generator is seeded from this crew's own stream on first use, so the
        volley stays reproducible and independent of other agents.
        """
        if dice < BULK_DICE:
            return mass.rapid_volley(dice, bonus, them.ac, them.count, self.rng, natural)
        if self._np_rng is None:
            self._np_rng = np.random.default_rng(self.rng.getrandbits(128))
        p_hit = float(mass.rapid_hit_probability(bonus, them.ac, natural))
        return int(mass.rapid_volley_batch(self._np_rng, [dice], [p_hit], [them.count])[0])

    def crew_view(self) -> mass.CrewGroup:
        """The crew's average crewman with its current head count."""
        return replace(self.stats, count=self.count)

    def volley(self, target: Group, arena: Arena, modifier: int = 0) -> None:
        """Rapid resolution: ``count / defender HD`` d20s, one casualty per hit (13.3-13.5);
        ``modifier`` is added to the crew's attack bonus (ship missile fire)."""
        opts = arena.options.mass
        bonus = self.stats.attack_bonus + modifier
        if self.foul_air:
            bonus -= self.foul_air * arena.options.engine.ladder_d20_bonus[1]
        them = target.crew_view()
        dice = mass.rapid_dice(
            self.strikers,
            them.hd,
            self.stats.max_damage,
            self.stats.incapacitating,
            opts.rapid_rounding,
        )
        hits = self._hits(dice, them, opts.rapid_natural_rolls, bonus)
        lost = min(hits, target.headcount)  # logged first, then applied (log order)
        arena.record(
            self.name,
            "volley",
            target.name,
            (("d20s", dice),),
            (("attack_bonus", bonus), ("ac", them.ac)),
            (
                ("result", f"{hits} hits"),
                ("hits", hits),
                ("casualties", lost),
                ("left", target.headcount - lost),
            ),
        )
        if lost:
            arena.casualties(target, lost)

    def roll_morale(self) -> tuple[str, int, MoraleResult]:
        """2d10 (``sj.crew_morale_roll``) <= morale (A-57, PROPOSED roll)."""
        dice = self.model.options.sj.crew_morale_roll
        check = resolve_morale_check(self.morale, self.morale_rng, dice, self.name)
        return dice, self.morale, check


class Unit(Group):
    """A FADAD mass-combat unit: one 4dF combatant with a unit Scale bonus."""

    kind = "unit"

    __slots__ = ("leader", "led_morale", "shot", "start_state", "state", "turn_state")

    def __init__(self, model: mesa.Model, *, state: mass.UnitState, **kw: Any):
        self.start_state = state  # unit states are frozen: an attack makes a new one
        self.leader: Any = None  # the character leading it (Unit.leader): :meth:`follow`
        self.led_morale = state.morale
        self.shot: Any = None  # agents.core.fronts (None: it reaches every foe)
        super().__init__(model, count=state.strength, **kw)

    def follow(self, leader: Any, leadership: int) -> None:
        """Led by ``leader``: while he fights, it checks morale on the better of its own and
        his Leadership (mass-combat.md 1.3, "the unit (or its leader) rolls"; PROPOSED)."""
        self.leader, self.led_morale = leader, max(self.start_state.morale, leadership)

    def restart(self, rng: random.Random, targeting_rng: random.Random) -> None:
        """Back to its starting strength, wounds and morale."""
        super().restart(rng, targeting_rng)
        self.state = self.start_state
        self.turn_state: mass.UnitState | None = None

    @property
    def acting_state(self) -> mass.UnitState:
        """The unit as it strikes and defends this turn: as it stood when a simultaneous
        turn began (personal-combat.md 1.2), else as it stands now."""
        held = self.turn_state
        return self.state if held is None else held

    def hold_turn(self) -> None:
        """Wounds and losses in a simultaneous turn do not change the unit's own rolls."""
        super().hold_turn()
        self.turn_state = self.state

    def release_turn(self, arena: Arena) -> None:
        """The turn is over: the unit fights as it now stands."""
        super().release_turn(arena)
        self.turn_state = None

    @property
    def wound(self) -> int:
        """The unit's wound level."""
        return int(self.state.wounds.level)

    @property
    def penalty(self) -> int:
        """Very hurt units fight at -2, hurt at -1 (unit damage table)."""
        return int(self.acting_state.wounds.skill_penalty)

    def lose(self, n: int) -> int:
        """Remove members and keep the kernel state's strength in step."""
        lost = super().lose(n)
        self.state = replace(self.state, strength=self.count)
        return lost

    def unit_state(self) -> mass.UnitState:
        """The live kernel state (its morale its leader's while he stands: :meth:`follow`)."""
        state, led = self.state, self.leader is not None and self.leader.fighting
        return replace(state, morale=self.led_morale) if led else state

    def volley(self, target: Group, arena: Arena, modifier: int = 0) -> None:
        """One FADAD unit attack: opposed 4dF with capped Scale, damage table, morale."""
        me, opts = fronts.aimed(self.acting_state, modifier), arena.options.mass
        res = mass.resolve_unit_attack(me, target.unit_state(), self.rng, opts)
        if isinstance(target, Unit):
            target.state = replace(res.defender, strength=target.count)
        lost = min(res.casualties, target.headcount)  # logged first, then applied
        row = (
            res.row.damage_type
            if res.row is not None
            else ("miss" if res.damage is None else "no effect")
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
                ("left", target.headcount - lost),
                ("morale", None if res.morale_passed is None else bool(res.morale_passed)),
            ),
        )
        if lost:
            arena.casualties(target, lost)
        if isinstance(target, Unit) and target.fighting and target.state.wounds.out_of_action:
            arena.take_out(target, "unit out of action")
        if res.morale_passed is False and target.fighting:
            arena.record(
                target.name,
                "morale",
                None,
                (),
                (),
                (("result", "breaks"), ("check", f"{row.replace('_', ' ')} damage")),
            )
            target.break_(arena, f"{row.replace('_', ' ')} damage")

    def roll_morale(self) -> tuple[str, int, MoraleResult]:
        """Morale trait + 4dF against Fair (``mass.morale_check_level``) for a policy-called
        check (A-70, PROPOSED level)."""
        level = self.model.options.mass.morale_check_level
        trait = self.unit_state().morale
        return "4dF", trait, mass.resolve_unit_morale(trait, level, self.morale_rng, self.name)

    @staticmethod
    def strike_together(units: list[Unit], arena: Arena) -> None:
        """A band of units strikes at once: every unit-on-group attack in one numpy call.

        The band acts simultaneously (group initiative): the rolls are drawn together by
        :func:`fadad_agents.rules.mass.resolve_unit_attacks_batch` against the targets as
        they stood when the band acted, then casualties, wounds and morale are applied in
        the order of action (losses never exceed what is left). Attacks on individuals
        go one by one as usual.
        """
        pairs: list[tuple[Unit, Group, int]] = []
        for unit in units:
            if not unit.fighting:
                continue
            target = unit.target
            if target is None or not target.fighting:
                pol = unit.policies.targeting
                target = unit.target = pol.choose_target(unit, arena, unit.targeting_rng)  # type: ignore[assignment]
            if isinstance(target, Group):  # its course may hold it at a lone fighter
                target = unit.target = fronts.course(unit, target, arena)
            if isinstance(target, Group):
                if (aim := fronts.closes_on(unit, target, arena)) is not None:
                    pairs.append((unit, target, aim))
            elif target is not None:
                unit.act(arena)
        if not pairs:
            return
        band = units[0].band
        gen = band.memory.get("np_rng")
        if gen is None:
            gen = band.memory["np_rng"] = np.random.default_rng(units[0].rng.getrandbits(128))
        views = [(fronts.aimed(u.acting_state, m), t.unit_state(), t.penalty) for u, t, m in pairs]
        batch = mass.resolve_unit_attacks_batch(
            gen,
            [a.attack + a.wounds.skill_penalty for a, _, _ in views],
            [d.defence + pen for _, d, pen in views],
            [a.strength for a, _, _ in views],
            [d.strength for _, d, _ in views],
            [a.odm - d.ddm for a, d, _ in views],
            [d.morale for _, d, _ in views],
            arena.options.mass,
        )
        for k, (unit, target, _) in enumerate(pairs):
            if target.fighting:
                unit.apply_hit(
                    target, arena, int(batch.rd[k]), int(batch.damage[k]),
                    int(batch.casualties[k]),
                    None if not batch.morale_checked[k] else bool(batch.morale_passed[k]),
                )  # fmt: skip

    def apply_hit(
        self, target: Group, arena: Arena, rd: int, damage: int, casualties: int,
        morale: bool | None,
    ) -> None:  # fmt: skip
        """Apply one batched unit attack to ``target``: losses, wounds, log, morale."""
        hit = damage != mass.NO_HIT
        if hit and isinstance(target, Unit):
            target.state = replace(
                target.state, wounds=mass.record_unit_damage(target.state.wounds, damage)
            )
        lost = min(casualties, target.headcount)  # logged first, then applied
        row = mass.unit_damage_row(damage) if hit else None
        kind = row.damage_type if row is not None else ("no effect" if hit else "miss")
        arena.record(
            self.name,
            "volley",
            target.name,
            (),
            (("penalty", self.penalty),),
            (
                ("result", kind),
                ("rd", rd),
                ("damage", damage if hit else None),
                ("hits", int(lost > 0)),
                ("casualties", lost),
                ("left", target.headcount - lost),
                ("morale", morale),
            ),
        )
        if lost:
            arena.casualties(target, lost)
        if isinstance(target, Unit) and target.fighting and target.state.wounds.out_of_action:
            arena.take_out(target, "unit out of action")
        if morale is False and target.fighting:
            arena.record(
                target.name,
                "morale",
                None,
                (),
                (),
                (("result", "breaks"), ("check", f"{kind.replace('_', ' ')} damage")),
            )
            target.break_(arena, f"{kind.replace('_', ' ')} damage")
