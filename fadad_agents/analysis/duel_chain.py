"""One round of a one-on-one personal duel, seen one duellist at a time
(:mod:`fadad_agents.analysis.exact`; :mod:`~fadad_agents.analysis.duel_matrix` runs it).

A duellist between rounds is a :class:`State`: its wound track (numbered, its marks'
history dropped), Ité points left and crit conditions. Within a round it is a
:class:`Turn`: the state plus what is left of its plan. Everything a strike does to its
target depends on the target's turn and on three things of the striker only (which side,
armed or bare, its penalty): the striker's *key*. So a round factors into one-strike
kernels per key over one duellist's turns, which the matrix module composes.

States are kept canonical, so that two states the future cannot tell apart are one:
an out-of-fight turn is :data:`OUT`, a strike's crits are reduced to what they leave
(:class:`Crits`: the effects commute, so their order is dropped; Weak Spot, Extra Damage
and Vitals act inside the blow), a Scratched weapon arm is an unhurt one when both cost
the same, and Ité points nobody can spend are dropped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from fadad_agents.rules.core.actions import crit_count
from fadad_agents.rules.core.dice import fudge_distribution
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal.combat import (  # the kernel's own exchange and dice kind
    CombatRules,
    Protection,
    attack_from_dice,
    damage_kind,
    exchange,
)
from fadad_agents.rules.personal.criticals import (
    CALLED_LOCATION,
    DISARM,
    KNOCKDOWN,
    KNOCKOUT,
    STAGGER,
    VITALS,
    crits_outcomes,
)
from fadad_agents.rules.personal.melee import LOCATIONS, location_penalty, location_severity
from fadad_agents.rules.personal.wound_models import damage_dice_outcomes, record_wound

__all__ = ["OUT", "Crits", "DuelChain", "Duellist", "State", "Turn"]

_ARM = ("none", "scratched", "hurt", "incapacitated")
_ARM_MIN_RD = LOCATIONS["arm"].min_rd
# A Scratched arm costs what an unhurt one does, and the arm's state only ever rises:
# the two are one state (an arm index of 0) unless a rule makes them differ.
_FOUR_DF = [(v, float(p)) for v, p in fudge_distribution(4)]
_UNDEFENDED: list[tuple[int | None, float]] = [(None, 1.0)]
_SCRATCHED = 0 if location_penalty("scratched") == location_penalty("none") else 1


class State(NamedTuple):
    """One duellist between rounds (or as it began a round)."""

    track: int
    ite: int
    prone: bool = False
    disarmed: bool = False
    staggered: int = 0
    unconscious: int = 0
    arm: int = 0
    bare: bool = False

    @property
    def owed(self) -> int:
        return int(self.prone) + int(self.disarmed) + self.staggered


class Crits(NamedTuple):
    """What one blow's crits (or a simultaneous turn's, gathered) leave the victim:
    knocked out, knocked down, disarmed, staggers, the weapon arm's state (-1: untouched).
    Applying them in any order gives the same state, so they are kept as one summary."""

    knockout: bool = False
    knockdown: bool = False
    disarm: bool = False
    staggers: int = 0
    arm: int = -1

    def add(self, other: Crits) -> Crits:
        return Crits(
            self.knockout or other.knockout,
            self.knockdown or other.knockdown,
            self.disarm or other.disarm,
            self.staggers + other.staggers,
            max(self.arm, other.arm),
        )


NO_CRITS = Crits()


class Turn(NamedTuple):
    """One duellist during a round: its state, what is left of its plan, and in a
    simultaneous turn the track and crits that land at the turn's end."""

    state: State
    attacks: int
    defences: int
    out: bool
    pending: int | None = None
    crits: Crits = NO_CRITS


OUT = Turn(State(-1, 0), 0, 0, True)
"""Every out-of-fight duellist: what put it out no longer matters."""


class Hit(NamedTuple):
    """A strike that hit, merged by what it does: the blow's wound before recording, its
    Vitals (each one more level), its crits."""

    wound: int
    vitals: int
    crits: Crits


@dataclass(frozen=True)
class Duellist:
    """What the chain needs to know of one duellist (fixed for the whole duel)."""

    name: str
    armed: Any
    bare: Any
    reaction: int
    protection: Protection
    spends: Callable[[int], bool]
    retreat_at: int | None
    defend_at: int | None
    attacks: int
    start_track: Any
    start_ite: int


Key = tuple[int, bool, int]
"""A striker's key: its side, whether it fights bare-handed, its penalty."""


class DuelChain:
    """The rules of one round, per duellist: declaring, paying crit debts, one strike."""

    def __init__(self, opts: RulesOptions, duellists: tuple[Duellist, Duellist]) -> None:
        self.duellists = duellists
        self.rules = CombatRules.of(opts)
        self.options = opts
        self.tracks: list[Any] = []
        self.out_of_fight: list[bool] = []
        self.track_ids: dict[Any, int] = {}
        self.budget = opts.fadad.actions_per_round
        self.knockdown = opts.fadad.knockdown_penalty
        self.knockout_rounds = opts.knockout_rounds
        self.location = opts.location
        # the hit reads the opposed dice themselves only for the parity damage roll
        # (wound_from_dice), and for the crit count (crit_count: all plus)
        self.parity = self.rules.damage.damage_roll == "parity"
        self.starts = tuple(
            State(self.track_id(d.start_track), d.start_ite if self._may_spend(d) else 0)
            for d in duellists
        )
        self.hits: dict[tuple[Any, ...], list[tuple[Hit | None, float]]] = {}
        self.landings: dict[tuple[Any, ...], list[tuple[Any, float]]] = {}
        self.blows: dict[tuple[Any, ...], list[tuple[Hit, float]]] = {}
        self.effect_sets: dict[tuple[int, bool], list[tuple[tuple[Any, ...], float]]] = {}
        self.dice: dict[tuple[int, int, int], tuple[Any, ...]] = {}
        self.recorded: dict[tuple[int, int, int, int], int] = {}

    def _may_spend(self, d: Duellist) -> bool:
        return bool(d.protection.pc and self.rules.wounds.point_spend)

    def track_id(self, track: Any) -> int:
        """The track's number in the chain, its marks' history dropped: only healing reads
        the marks, so two tracks with the same boxes filled are one state of the fight."""
        if track.marks:
            track = dataclasses.replace(track, marks=())
        found = self.track_ids.get(track)
        if found is None:
            found = self.track_ids[track] = len(self.tracks)
            self.tracks.append(track)
            self.out_of_fight.append(track.out_of_fight)
        return found

    def penalty(self, s: State) -> int:
        """Character.penalty: the track's, prone, a Hurt weapon arm."""
        prone = self.knockdown if s.prone else 0
        return int(self.tracks[s.track].penalty) - prone + location_penalty(_ARM[s.arm])

    # --- declaring and paying ---------------------------------------------------------

    def declare(self, i: int, s: State) -> Turn:
        """Crit debts paid (Conditions.start_round), then the policies' choices."""
        budget = self.budget
        if s.unconscious:
            s = s._replace(unconscious=s.unconscious - 1)
            if s.unconscious:
                return Turn(s, 0, 0, False)
        s, budget = _pay(s, budget)
        if not budget:
            return Turn(s, 0, 0, False)
        d = self.duellists[i]
        level = self.tracks[s.track].level
        if d.retreat_at is not None and level >= d.retreat_at:
            return OUT  # withdraws (or surrenders): its side is out
        if d.defend_at is not None and level >= d.defend_at:
            return Turn(s, 0, budget, False)
        n = max(1, min(budget, d.attacks))
        return Turn(s, n, budget - n, False)

    @staticmethod
    def ready(t: Turn) -> Turn:
        """A duellist as its turn comes: what crits took since it declared paid from its
        planned attacks (none while unconscious)."""
        s, attacks = t.state, (0 if t.out or t.state.unconscious else t.attacks)
        if attacks and s.owed:
            s, attacks = _pay(s, attacks)
        return t._replace(state=s, attacks=attacks)

    def key(self, i: int, t: Turn) -> Key:
        """The striker's key of duellist ``i`` in turn ``t``."""
        return i, t.state.bare, self.penalty(t.state)

    # --- one strike --------------------------------------------------------------------

    def strike(self, key: Key, foe: Turn) -> list[tuple[Turn, float]]:
        """One strike by the striker ``key`` on ``foe`` (its turn after the strike, merged).
        A simultaneous turn (``foe.pending`` set) holds the wound and crits to its end."""
        if foe.out:
            return [(foe, 1.0)]
        i, bare, penalty = key
        defended = foe.defences > 0
        if defended:
            foe = foe._replace(defences=foe.defences - 1)
        s = foe.state
        shared = foe.pending is not None
        before = s.track if foe.pending is None else foe.pending
        # an undefended target meets the blow with its Target alone: its penalty is not read
        key6 = (i, bare, penalty, s.bare, self.penalty(s) if defended else 0, defended)
        j = 1 - i
        attacks, defences, crits_so_far = foe.attacks, foe.defences, foe.crits
        rest = s[2:]
        out_of_fight, knocked_out = self.out_of_fight, self.knockout_rounds is None
        new = tuple.__new__  # NamedTuple's own constructor costs a third of this loop
        merged: dict[Turn, float] = {}
        for landing, q in self._landings(key6, before, s.ite):
            if landing is None:
                t = foe
            else:
                track, ite, crits = landing
                if out_of_fight[track] or (crits.knockout and knocked_out):
                    t = OUT  # out now, or at the simultaneous turn's end whatever follows
                elif shared:
                    if crits is not NO_CRITS:
                        crits = self._held(j, s, crits_so_far.add(crits))
                    else:
                        crits = crits_so_far
                    held = s if ite == s.ite else s._replace(ite=ite)
                    t = new(Turn, (held, attacks, defences, False, track, crits))
                else:
                    state = new(State, (track, ite, *rest))
                    t = new(Turn, (state, attacks, defences, False, None, NO_CRITS))
                    if crits is not NO_CRITS:
                        t = self._suffer(j, t, crits)
            merged[t] = merged.get(t, 0.0) + q
        return list(merged.items())

    def _landings(
        self, key: tuple[Any, ...], before: int, ite: int
    ) -> list[tuple[tuple[int, int, Crits] | None, float]]:
        """A strike's outcomes on a target with this track and these Ité points: None (a
        miss) or (its track, its Ité points, the crits), merged."""
        memo = (key, before, ite)
        found = self.landings.get(memo)
        if found is None:
            merged: dict[tuple[int, int, Crits] | None, float] = {}
            for hit, q in self._hits(key):
                landing = None if hit is None else self._land(key[0], before, ite, hit)
                merged[landing] = merged.get(landing, 0.0) + q
            found = self.landings[memo] = list(merged.items())
        return found

    def _hits(self, key: tuple[Any, ...]) -> list[tuple[Hit | None, float]]:
        """The kernel's exact outcomes of one strike (striker's side, bare, penalty, the
        target's bare, penalty, defended), merged by what they do.

        :func:`~fadad_agents.rules.personal.attack_odds.attack_results` enumerated per key
        costs ~1,400 kernel calls; instead the opposed dice are enumerated here and what
        a hit does is enumerated once per (dice, RD): the kernel's hit (``_land_hit``)
        reads the RD and the dice, not the penalties that led to them, nor the target's
        track for the wound (only for its recording, :meth:`_recorded`)."""
        found = self.hits.get(key)
        if found is not None:
            return found
        i, a_bare, a_pen, d_bare, d_pen, defended = key
        a, d = self.duellists[i], self.duellists[1 - i]
        attacker, defender = (a.bare if a_bare else a.armed), (d.bare if d_bare else d.armed)
        defences = _FOUR_DF if defended else _UNDEFENDED
        merged: dict[Hit | None, float] = {}
        for a_dice, pa in _FOUR_DF:
            for d_dice, pd in defences:
                *_, rd, hit = exchange(
                    attacker, defender, self.rules, a_dice, d_dice, a_pen, d_pen, 0, 1, 0
                )
                if not hit:
                    merged[None] = merged.get(None, 0.0) + pa * pd
                    continue
                for blow, q in self._blows(key, attacker, defender, a_dice, d_dice, rd):
                    merged[blow] = merged.get(blow, 0.0) + pa * pd * q
        found = self.hits[key] = list(merged.items())
        return found

    def _blows(
        self, key: tuple[Any, ...], attacker: Any, defender: Any, a_dice: int,
        d_dice: int | None, rd: int,
    ) -> list[tuple[Hit, float]]:  # fmt: skip
        """What a hit by these dice and RD does, as attack_results enumerates it: the crit
        effects (as a set: the kernel counts them, their order is not read) and the
        damage dice."""
        i, a_bare, a_pen, d_bare, d_pen, _ = key
        crits = crit_count(rd, a_dice)
        memo = (i, a_bare, d_bare, rd, crits, (a_dice, d_dice) if self.parity else None)
        found = self.blows.get(memo)
        if found is not None:
            return found
        effect_dist: list[tuple[tuple[Any, ...], float]] = [((), 1.0)]
        policy = self.rules.crit_effects
        if crits and policy != "none":
            effect_dist = self._effect_sets(crits, policy == "non_lethal")
        kinds = damage_dice_outcomes(damage_kind(attacker, defender, self.rules, rd))
        d = self.duellists[1 - i]
        loc = self.location
        merged: dict[Hit, float] = {}
        for effects, pe in effect_dist:
            for dmg, pdmg in kinds:
                res = attack_from_dice(
                    attacker, defender, self.tracks[self.starts[1 - i].track], self.rules,
                    a_dice, d_dice, dmg, crit_effects=effects, attacker_penalty=a_pen,
                    defender_penalty=d_pen, protection=d.protection,
                )  # fmt: skip
                if not res.hit or res.rd != rd:
                    raise RuntimeError("the kernel's exchange moved under the chain")
                arm = -1
                if CALLED_LOCATION in effects:
                    severity = location_severity(
                        res.damage, max(rd, _ARM_MIN_RD), _ARM_MIN_RD, 0,
                        thresholds=loc.severity_thresholds,
                        cap_scale=loc.minimum_margin_cap_scale,
                    )  # fmt: skip
                    arm = _SCRATCHED if severity == "scratched" else _ARM.index(severity)
                crit = Crits(
                    KNOCKOUT in effects,
                    KNOCKDOWN in effects,
                    DISARM in effects,
                    effects.count(STAGGER),
                    arm,
                )
                if crit == NO_CRITS:
                    crit = NO_CRITS  # the one instance: the chain tests it by identity
                vitals = effects.count(VITALS) if res.wound else 0
                blow = Hit(res.wound, vitals, crit)
                rep = (i, res.wound, vitals)
                if rep not in self.dice:  # one way to deal this blow, to record it anew
                    self.dice[rep] = (attacker, defender, a_dice, d_dice, dmg, effects, key)
                merged[blow] = merged.get(blow, 0.0) + pe * float(pdmg)
        found = self.blows[memo] = list(merged.items())
        return found

    def _effect_sets(self, crits: int, non_lethal: bool) -> list[tuple[tuple[Any, ...], float]]:
        memo = (crits, non_lethal)
        found = self.effect_sets.get(memo)
        if found is None:
            merged: dict[tuple[Any, ...], float] = {}
            for seq, p in crits_outcomes(crits, non_lethal=non_lethal):
                effects = tuple(sorted(seq, key=lambda e: e.d8))
                merged[effects] = merged.get(effects, 0.0) + float(p)
            found = self.effect_sets[memo] = list(merged.items())
        return found

    def _recorded(self, i: int, track: int, hit: Hit) -> int:
        """The target's track after the blow: the kernel records the same dice on it."""
        memo = (i, track, hit.wound, hit.vitals)
        found = self.recorded.get(memo)
        if found is None:
            attacker, defender, a_dice, d_dice, dmg, effects, key = self.dice[
                (i, hit.wound, hit.vitals)
            ]
            res = attack_from_dice(
                attacker, defender, self.tracks[track], self.rules, a_dice, d_dice, dmg,
                crit_effects=effects, attacker_penalty=key[2], defender_penalty=key[4],
                protection=self.duellists[1 - i].protection,
            )  # fmt: skip
            if res.wound != hit.wound:
                raise RuntimeError("the kernel dealt another wound from the same dice")
            found = self.recorded[memo] = self.track_id(res.track)
        return found

    def _land(self, i: int, before: int, ite: int, hit: Hit) -> tuple[int, int, Crits]:
        """A hit by duellist ``i`` (Character.strike and absorb): the target's track after
        the wound (an Ité point spent by the target's policy) and Ité points left; the
        crits land next (at a simultaneous turn's end)."""
        track = before
        if hit.crits.arm < 0 or self.location.also_general_wound:  # else the arm takes it
            track = self._recorded(i, before, hit)
            level = self.tracks[track].level
            if ite and level >= Wound.NEAR_DEATH and self.duellists[1 - i].spends(level):
                ite -= 1
                spent = record_wound(
                    self.rules.wounds, self.tracks[before], hit.wound, pc=True, point_spent=True
                )
                track = self.track_id(spent)
        return track, ite, hit.crits

    def _held(self, j: int, s: State, crits: Crits) -> Crits:
        """The crits a simultaneous turn holds for its end, less those that will change
        nothing then (its state is the turn's start's until the end)."""
        can_drop = self.duellists[j].armed is not self.duellists[j].bare
        return Crits(
            crits.knockout,
            crits.knockdown and not s.prone,
            crits.disarm and not s.bare and can_drop,
            crits.staggers,
            crits.arm if crits.arm > s.arm else -1,
        )

    def _suffer(self, j: int, t: Turn, crits: Crits) -> Turn:
        """conditions.suffer: a landed blow's crit effects (they commute: one pass)."""
        if crits is NO_CRITS:
            return t
        track, ite, prone, disarmed, staggered, unconscious, arm, bare = t.state
        attacks, defences = t.attacks, t.defences
        if crits.knockout:
            if self.knockout_rounds is None:
                return OUT
            unconscious, attacks, defences = self.knockout_rounds, 0, 0
        d = self.duellists[j]
        can_drop = d.armed is not d.bare
        prone = prone or crits.knockdown
        if crits.disarm and not bare and can_drop:
            disarmed = bare = True
        staggered += crits.staggers
        if crits.arm > arm:
            arm = crits.arm
            if arm == 3 and can_drop:
                bare, disarmed = True, False
        new = tuple.__new__
        state = new(State, (track, ite, prone, disarmed, staggered, unconscious, arm, bare))
        return new(Turn, (state, attacks, defences, False, t.pending, t.crits))

    def end(self, j: int, t: Turn) -> State | None:
        """Duellist ``j``'s state after the round (None: out); a simultaneous turn's
        wounds and crits land now (Character.release_turn)."""
        if t.out:
            return None
        if t.pending is None:
            return t.state
        if self.tracks[t.pending].out_of_fight:
            return None
        released = Turn(t.state._replace(track=t.pending), t.attacks, t.defences, False)
        t = self._suffer(j, released, t.crits)
        return None if t.out else t.state


def _pay(s: State, actions: int) -> tuple[State, int]:
    """Conditions.pay: rising, then picking the weapon up, then the staggers."""
    while actions and s.owed:
        actions -= 1
        if s.prone:
            s = s._replace(prone=False)
        elif s.disarmed:
            s = s._replace(disarmed=False, bare=False)
        else:
            s = s._replace(staggered=s.staggered - 1)
    return s, actions
