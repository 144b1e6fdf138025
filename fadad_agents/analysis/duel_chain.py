"""The Markov chain of a one-on-one personal duel (:mod:`fadad_agents.analysis.exact`).

A state is the two duellists between rounds: each one's wound track (numbered, its marks'
history dropped), Ité points left and crit conditions. One round from a state is played
exactly as the engine plays it and its distribution over the next states (or an end) is
computed once; the chain is then run forward to the round limit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from fadad_agents.rules.core.actions import initiative_outcomes
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal.combat import CombatRules, Protection, attack_results
from fadad_agents.rules.personal.criticals import (
    CALLED_LOCATION,
    DISARM,
    KNOCKDOWN,
    KNOCKOUT,
    STAGGER,
)
from fadad_agents.rules.personal.melee import LOCATIONS, location_penalty, location_severity
from fadad_agents.rules.personal.wound_models import record_wound

__all__ = ["DuelChain", "DuelOdds", "Duellist"]

_ARM = ("none", "scratched", "hurt", "incapacitated")
_ARM_MIN_RD = LOCATIONS["arm"].min_rd


@dataclass(frozen=True)
class DuelOdds:
    """The exact outcome of a duel.

    Attributes:
        sides: the two sides' names, in the scenario's order.
        wins: each side's chance to win.
        mutual: the chance both go down (or leave) in the same round: no winner.
        unfinished: the chance neither is down within the round limit: no result.
        rounds: ``rounds[r]`` is the chance the duel ends in round ``r + 1``.
        max_rounds: the round limit.
        states: duellist-pair states the chain visited.
    """

    sides: tuple[str, str]
    wins: tuple[float, float]
    mutual: float
    unfinished: float
    rounds: tuple[float, ...]
    max_rounds: int
    states: int

    @property
    def mean_rounds(self) -> float:
        """Expected rounds of a duel that ends within the limit."""
        done = sum(self.rounds)
        return sum((r + 1) * p for r, p in enumerate(self.rounds)) / done if done else 0.0

    def summary(self) -> str:
        """A few lines for a game master."""
        a, b = self.sides
        return (
            f"{a} wins {self.wins[0]:.4f}, {b} wins {self.wins[1]:.4f}, both down "
            f"{self.mutual:.4f}, no result in {self.max_rounds} rounds {self.unfinished:.4f}; "
            f"a decided duel lasts {self.mean_rounds:.2f} rounds on average"
        )


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


class Turn(NamedTuple):
    """One duellist during a round: its state, what is left of its plan, and what a
    simultaneous turn holds for it (wounds and crits that land at the turn's end)."""

    state: State
    attacks: int
    defences: int
    out: bool
    pending: Any = None
    crits: tuple[tuple[tuple[Any, ...], int], ...] = ()


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


class DuelChain:
    """The duel's Markov chain: one round's transitions per state, run forward."""

    def __init__(self, opts: RulesOptions, duellists: tuple[Duellist, Duellist]) -> None:
        self.duellists = duellists
        self.rules = CombatRules.of(opts)
        self.options = opts
        self.tracks: list[Any] = []
        self.track_ids: dict[Any, int] = {}
        self.budget = opts.fadad.actions_per_round
        self.knockdown = opts.fadad.knockdown_penalty
        self.knockout_rounds = opts.knockout_rounds
        self.location = opts.location
        self.order = _initiative(duellists, opts.fadad.initiative)
        a, b = duellists
        self.starts = (
            State(self.track_id(a.start_track), a.start_ite),
            State(self.track_id(b.start_track), b.start_ite),
        )
        self.strikes: dict[tuple[Any, ...], list[tuple[Any, float]]] = {}
        self.rounds: dict[tuple[State, State], list[tuple[Any, float]]] = {}

    # --- the chain ---------------------------------------------------------------------

    def run(self, limit: int) -> DuelOdds:
        dist: dict[tuple[State, State], float] = {self.starts: 1.0}
        wins, mutual, ends = [0.0, 0.0], 0.0, []
        for _ in range(limit):
            nxt: dict[tuple[State, State], float] = {}
            ended = 0.0
            for pair, p in dist.items():
                step = self.rounds.get(pair)
                if step is None:
                    step = self.rounds[pair] = self._round(pair)
                for outcome, q in step:
                    pq = p * q
                    if type(outcome) is int:  # -1 both down, else the winning side
                        ended += pq
                        if outcome < 0:
                            mutual += pq
                        else:
                            wins[outcome] += pq
                    else:
                        nxt[outcome] = nxt.get(outcome, 0.0) + pq
            ends.append(ended)
            dist = nxt
            if not dist:
                break
        names = (self.duellists[0].name, self.duellists[1].name)
        return DuelOdds(
            sides=names,
            wins=(wins[0], wins[1]),
            mutual=mutual,
            unfinished=sum(dist.values()),
            rounds=tuple(ends),
            max_rounds=limit,
            states=len(self.rounds),
        )

    def _round(self, pair: tuple[State, State]) -> list[tuple[Any, float]]:
        """One round from ``pair``: (next pair or end, probability), merged."""
        turns = [self._declare(i, s) for i, s in enumerate(pair)]
        merged: dict[Any, float] = {}
        for order, p in self.order:
            if order is None:
                first, second = self._shared(turns[0], turns[1])
                for ta, qa in first.items():
                    for tb, qb in second.items():
                        key = self._verdict(ta, tb)
                        merged[key] = merged.get(key, 0.0) + p * qa * qb
                continue
            worlds: dict[tuple[Turn, Turn], float] = {(turns[0], turns[1]): 1.0}
            for actor in order:
                worlds = self._act(worlds, actor, shared=False)
            for (ta, tb), q in worlds.items():
                key = self._verdict(ta, tb)
                merged[key] = merged.get(key, 0.0) + p * q
        return list(merged.items())

    @staticmethod
    def _verdict(ta: Turn, tb: Turn) -> Any:
        if ta.out and tb.out:
            return -1
        if tb.out:
            return 0
        if ta.out:
            return 1
        return ta.state, tb.state

    # --- declare ---------------------------------------------------------------------

    def _declare(self, i: int, s: State) -> Turn:
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
            return Turn(s, 0, 0, True)  # withdraws (or surrenders): its side is out
        if d.defend_at is not None and level >= d.defend_at:
            return Turn(s, 0, budget, False)
        n = max(1, min(budget, d.attacks))
        return Turn(s, n, budget - n, False)

    # --- acting --------------------------------------------------------------------------

    def _act(
        self, worlds: dict[tuple[Turn, Turn], float], i: int, *, shared: bool
    ) -> dict[tuple[Turn, Turn], float]:
        """Duellist ``i`` pays what crits took since it declared, then strikes."""
        out: dict[tuple[Turn, Turn], float] = {}
        for pair, p in worlds.items():
            me = pair[i]
            if me.out:
                out[pair] = out.get(pair, 0.0) + p
                continue
            s = me.state
            attacks = 0 if s.unconscious else me.attacks
            if attacks and s.owed and not s.unconscious:
                s, attacks = _pay(s, attacks)
            me = me._replace(state=s, attacks=attacks)
            start = _put(pair, i, me)
            branch = {start: p}
            for _ in range(attacks):
                branch = self._strikes(branch, i, shared)
            for w, q in branch.items():
                out[w] = out.get(w, 0.0) + q
        return out

    def _strikes(
        self, worlds: dict[tuple[Turn, Turn], float], i: int, shared: bool
    ) -> dict[tuple[Turn, Turn], float]:
        out: dict[tuple[Turn, Turn], float] = {}
        j = 1 - i
        for pair, p in worlds.items():
            me, foe = pair[i], pair[j]
            if me.attacks == 0 or foe.out:
                out[pair] = out.get(pair, 0.0) + p
                continue
            me = me._replace(attacks=me.attacks - 1)
            defended = foe.defences > 0
            if defended:
                foe = foe._replace(defences=foe.defences - 1)
            track = foe.pending if shared else foe.state.track
            for hit, q in self._outcomes(i, me.state, foe.state, track, defended):
                nfoe = self._land(j, foe, hit, shared)
                w = (me, nfoe) if i == 0 else (nfoe, me)
                out[w] = out.get(w, 0.0) + p * q
        return out

    def track_id(self, track: Any) -> int:
        """The track's number in the chain, its marks' history dropped: only healing reads
        the marks, so two tracks with the same boxes filled are one state of the fight."""
        if track.marks:
            track = dataclasses.replace(track, marks=())
        found = self.track_ids.get(track)
        if found is None:
            found = self.track_ids[track] = len(self.tracks)
            self.tracks.append(track)
        return found

    def _penalty(self, s: State) -> int:
        """Character.penalty: the track's, prone, a Hurt weapon arm."""
        prone = self.knockdown if s.prone else 0
        return int(self.tracks[s.track].penalty) - prone + location_penalty(_ARM[s.arm])

    def _outcomes(
        self, i: int, att: State, dfd: State, track: int, defended: bool
    ) -> list[tuple[Any, float]]:
        key = (i, att.bare, dfd.bare, track, self._penalty(att), self._penalty(dfd), defended)
        found = self.strikes.get(key)
        if found is None:
            a, d = self.duellists[i], self.duellists[1 - i]
            found = self.strikes[key] = self._attack(
                a.bare if att.bare else a.armed,
                d.bare if dfd.bare else d.armed,
                self.tracks[track],
                key[4],
                key[5],
                defended,
                d.protection,
            )
        return found

    def _attack(
        self,
        attacker: Any,
        defender: Any,
        track: Any,
        a_pen: int,
        d_pen: int,
        defended: bool,
        protection: Protection,
    ) -> list[tuple[Any, float]]:
        """The merged outcomes of one strike: (hit summary or None, probability). A hit
        is (new track, blow's wound, crit effects, the weapon arm's state if called)."""
        merged: dict[Any, float] = {}
        loc = self.location
        for res, p in attack_results(
            attacker, defender, track, self.rules,
            attacker_penalty=a_pen, defender_penalty=d_pen, defended=defended,
            protection=protection,
        ):  # fmt: skip
            key: Any = None
            if res.hit:
                arm = -1
                if CALLED_LOCATION in res.crit_effects:
                    severity = location_severity(
                        res.damage, max(res.rd, _ARM_MIN_RD), _ARM_MIN_RD, 0,
                        thresholds=loc.severity_thresholds,
                        cap_scale=loc.minimum_margin_cap_scale,
                    )  # fmt: skip
                    arm = _ARM.index(severity)
                key = (self.track_id(res.track), res.wound, res.crit_effects, arm)
            merged[key] = merged.get(key, 0.0) + float(p)
        return list(merged.items())

    def _land(self, j: int, foe: Turn, hit: Any, shared: bool) -> Turn:
        """A strike's outcome on duellist ``j`` (Character.strike and absorb)."""
        if hit is None:
            return foe
        track, wound, effects, arm = hit
        before = foe.pending if shared else foe.state.track
        spared = arm >= 0 and not self.location.also_general_wound
        d = self.duellists[j]
        s = foe.state
        if (
            d.protection.pc
            and not spared
            and s.ite
            and self.rules.wounds.point_spend
            and self.tracks[track].level >= Wound.NEAR_DEATH
            and d.spends(self.tracks[track].level)
        ):
            s = s._replace(ite=s.ite - 1)
            spent = record_wound(
                self.rules.wounds, self.tracks[before], wound, pc=True, point_spent=True
            )
            track = self.track_id(spent)
            foe = foe._replace(state=s)
        if spared:
            track = before
        if shared:
            crits = (*foe.crits, (effects, arm)) if effects else foe.crits
            return foe._replace(pending=track, crits=crits)
        out = self.tracks[track].out_of_fight
        foe = foe._replace(state=foe.state._replace(track=track), out=out)
        return self._suffer(d, foe, effects, arm)

    def _suffer(self, d: Duellist, t: Turn, effects: Iterable[Any], arm: int) -> Turn:
        """conditions.suffer: the crit effects of a landed blow, in order."""
        nothing_to_drop = d.armed is d.bare
        for effect in effects:
            if t.out:
                return t
            s = t.state
            if effect is KNOCKOUT:
                if self.knockout_rounds is None:
                    return t._replace(out=True)
                t = t._replace(state=s._replace(unconscious=self.knockout_rounds))
                t = t._replace(attacks=0, defences=0)
            elif effect is KNOCKDOWN:
                t = t._replace(state=s._replace(prone=True))
            elif effect is DISARM:
                if not s.bare and not nothing_to_drop:
                    t = t._replace(state=s._replace(disarmed=True, bare=True))
            elif effect is STAGGER:
                t = t._replace(state=s._replace(staggered=s.staggered + 1))
            elif effect is CALLED_LOCATION:
                s = s._replace(arm=max(s.arm, arm))
                if s.arm == 3 and not nothing_to_drop:
                    s = s._replace(bare=True, disarmed=False)
                t = t._replace(state=s)
        return t

    # --- a simultaneous turn --------------------------------------------------------------

    def _shared(self, ta: Turn, tb: Turn) -> tuple[dict[Turn, float], dict[Turn, float]]:
        """Both act on the state the turn began with; wounds and crits land at its end.

        Each one's strikes read only the other's state at the turn's start, so the two
        duellists' ends are independent: returned as one distribution each."""
        ready = (self._ready(ta), self._ready(tb))
        ends: list[dict[Turn, float]] = []
        for j in (0, 1):
            i = 1 - j
            branch = {ready: 1.0}
            for _ in range(ready[i].attacks):
                branch = self._strikes(branch, i, shared=True)
            end: dict[Turn, float] = {}
            for pair, q in branch.items():
                t = self._release(j, pair[j])
                end[t] = end.get(t, 0.0) + q
            ends.append(end)
        return ends[0], ends[1]

    def _ready(self, t: Turn) -> Turn:
        """A duellist at a shared turn's start: its crit debts paid from its attacks, its
        track held until the turn's end."""
        s, attacks = t.state, (0 if t.out or t.state.unconscious else t.attacks)
        if attacks and s.owed:
            s, attacks = _pay(s, attacks)
        return t._replace(state=s, attacks=attacks, pending=s.track)

    def _release(self, i: int, t: Turn) -> Turn:
        """Character.release_turn: the turn's wounds, then its crits."""
        track = t.pending
        s = t.state._replace(track=track)
        t = t._replace(state=s, pending=None, out=t.out or self.tracks[track].out_of_fight)
        for effects, arm in t.crits:
            t = self._suffer(self.duellists[i], t, effects, arm)
        return t._replace(crits=())


def _put(pair: tuple[Turn, Turn], i: int, turn: Turn) -> tuple[Turn, Turn]:
    return (turn, pair[1]) if i == 0 else (pair[0], turn)


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


def _initiative(
    duellists: tuple[Duellist, Duellist], mode: str
) -> list[tuple[tuple[int, int] | None, float]]:
    """The round's order of action and its chance: (0, 1), (1, 0), or None for a shared
    turn (a tie on the roll and the trait)."""
    a, b = duellists
    first = second = tie = 0.0
    for ia, pa in initiative_outcomes(a.reaction, mode):
        for ib, pb in initiative_outcomes(b.reaction, mode):
            p = float(pa * pb)
            key_a, key_b = (ia, a.reaction), (ib, b.reaction)
            if key_a > key_b:
                first += p
            elif key_b > key_a:
                second += p
            else:
                tie += p
    orders: list[tuple[tuple[int, int] | None, float]] = []
    for order, p in (((0, 1), first), ((1, 0), second), (None, tie)):
        if p:
            orders.append((order, p))
    return orders
