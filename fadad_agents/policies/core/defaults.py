"""Default policies: plain slotted classes, one per decision kind and behaviour.

Targeting never scans every pair: a policy looks at the actor's current target and at
most ``reach`` foes drawn from the live list of active foes (O(reach) per decision).
With ``reach`` at least the number of foes, "in reach" means every active foe, in a fixed
order, so small fights are exact and large ones stay flat in cost.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from fadad_agents.policies.core.protocols import BattleView, CombatantView, MoraleChoice, Stance
from fadad_agents.rules.core.wounds import Wound

__all__ = [
    "AllOutAttack",
    "AllOutDefenceWhenHurt",
    "AlwaysAttack",
    "CasualtyMorale",
    "DuelTargeting",
    "FixedAttacks",
    "FixedTargeting",
    "HoldGround",
    "KeepPoints",
    "NearDeathFirstAid",
    "NearestTargeting",
    "NoFirstAid",
    "NoMorale",
    "RandomTargeting",
    "SaveFromDeath",
    "SaveFromDeathOnly",
    "SideLossRetreat",
    "StayBack",
    "StickyTargeting",
    "StrongestTargeting",
    "TableMorale",
    "WeakestTargeting",
    "WoundRetreat",
    "in_reach",
    "random_foe",
    "random_foe_told",
    "wound_level",
]


def wound_level(value: str | int) -> int:
    """A wound level from its label (``"Very Hurt"``, ``"very_hurt"``) or int (0..6)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return int(Wound(value))
    key = str(value).strip().upper().replace(" ", "_").replace("-", "_")
    try:
        return int(Wound[key])
    except KeyError:
        names = ", ".join(w.label for w in Wound)
        raise ValueError(f"unknown wound level {value!r}; use one of {names}") from None


def in_reach(
    actor: CombatantView, foes: Sequence[CombatantView], reach: int, rng: random.Random
) -> list[CombatantView]:
    """Foes the actor can weigh up this turn: its current target, then up to ``reach`` foes.

    Every active foe when there are at most ``reach`` of them (list order); otherwise a
    random sample of ``reach`` (with replacement: O(reach), no list copy).
    """
    n = len(foes)
    seen = list(foes) if n <= reach else [foes[int(rng.random() * n)] for _ in range(reach)]
    current = actor.target
    if current is not None and current.fighting and current not in seen:
        seen.insert(0, current)
    return seen


def _current_target(actor: CombatantView) -> CombatantView | None:
    """The actor's target if it is still fighting."""
    current = actor.target
    return current if current is not None and current.fighting else None


def random_foe(
    actor: CombatantView, battle: BattleView, rng: random.Random
) -> CombatantView | None:
    """A random foe in reach; if none is, the nearest foe (on a field), else a random one."""
    return random_foe_told(actor, battle, rng)[0]


def random_foe_told(
    actor: CombatantView, battle: BattleView, rng: random.Random
) -> tuple[CombatantView | None, bool]:
    """:func:`random_foe`'s choice, and whether it was a foe in reach (False: none was,
    so that a caller who measures it out of reach need not ask for foes in reach again
    before anyone moves)."""
    foes = battle.foes_in_reach(actor)
    if foes:
        return foes[int(rng.random() * len(foes))], True
    nearest = battle.nearest_foe(actor)  # None at once once no foe is left
    if nearest is not None:
        return nearest, False
    foes = battle.foes(actor.side)
    return (foes[int(rng.random() * len(foes))] if foes else None), False


class StickyTargeting:
    """Keep attacking the current target while it fights; else a random foe in reach (the
    nearest foe when none is)."""

    __slots__ = ()
    keeps_target = True
    """A fighting target is kept without asking (the agent reads this: no call)."""
    random_in_reach = True
    """A new target is :func:`random_foe`'s (the plain melee round calls it without asking)."""

    def choose_target(
        self, actor: CombatantView, battle: BattleView, rng: random.Random
    ) -> CombatantView | None:
        current = actor.target  # _current_target, inlined (every fighter, every round)
        if current is not None and current.fighting:
            return current
        return random_foe(actor, battle, rng)


class RandomTargeting:
    """A fresh random foe in reach every round (the nearest foe when none is)."""

    __slots__ = ()
    random_in_reach = True
    """Its target is :func:`random_foe`'s (the plain melee round calls it without asking)."""

    def choose_target(
        self, actor: CombatantView, battle: BattleView, rng: random.Random
    ) -> CombatantView | None:
        return random_foe(actor, battle, rng)


class FixedTargeting:
    """The first active foe in side order (deterministic; no dice drawn)."""

    __slots__ = ()

    def choose_target(
        self, actor: CombatantView, battle: BattleView, rng: random.Random
    ) -> CombatantView | None:
        current = _current_target(actor)
        if current is not None:
            return current
        foes = battle.foes(actor.side)
        return foes[0] if foes else None


def _reachable(actor: CombatantView, battle: BattleView) -> Sequence[CombatantView]:
    """The foes in reach, else the nearest foe (on a field), else every foe."""
    foes = battle.foes_in_reach(actor)
    if foes:
        return foes
    nearest = battle.nearest_foe(actor)
    return [nearest] if nearest is not None else battle.foes(actor.side)


def _weakness(c: CombatantView) -> tuple[int, int]:
    return (c.wound, -c.headcount)


class _ReachTargeting:
    """Shared by the targeting policies that rank the foes in reach by :func:`_weakness`."""

    __slots__ = ("reach",)

    def __init__(self, reach: int = 6) -> None:
        if reach < 1:
            raise ValueError("reach must be at least 1")
        self.reach = reach

    def _in_reach(
        self, actor: CombatantView, battle: BattleView, rng: random.Random
    ) -> list[CombatantView]:
        return in_reach(actor, _reachable(actor, battle), self.reach, rng)


class WeakestTargeting(_ReachTargeting):
    """The most wounded foe in reach (then the smallest group); ties keep reach order."""

    __slots__ = ()

    def choose_target(
        self, actor: CombatantView, battle: BattleView, rng: random.Random
    ) -> CombatantView | None:
        seen = self._in_reach(actor, battle, rng)
        return max(seen, key=_weakness) if seen else None


class StrongestTargeting(_ReachTargeting):
    """The least wounded foe in reach (then the largest group)."""

    __slots__ = ()

    def choose_target(
        self, actor: CombatantView, battle: BattleView, rng: random.Random
    ) -> CombatantView | None:
        seen = self._in_reach(actor, battle, rng)
        return min(seen, key=_weakness) if seen else None


def _distance2(a: CombatantView, b: CombatantView) -> float:
    pa, pb = a.position, b.position
    if pa is None or pb is None:
        return 0
    return (pa[0] - pb[0]) ** 2 + (pa[1] - pb[1]) ** 2


class NearestTargeting:
    """Keep the current target; else the nearest foe in reach (by map position)."""

    __slots__ = ("reach",)

    def __init__(self, reach: int = 6) -> None:
        if reach < 1:
            raise ValueError("reach must be at least 1")
        self.reach = reach

    def choose_target(
        self, actor: CombatantView, battle: BattleView, rng: random.Random
    ) -> CombatantView | None:
        current = actor.target
        if current is not None and current.fighting:
            return current
        nearest = battle.nearest_foe(actor)
        if nearest is not None:
            return nearest
        seen = in_reach(actor, battle.foes(actor.side), self.reach, rng)
        return min(seen, key=lambda foe: _distance2(actor, foe)) if seen else None


class DuelTargeting:
    """Pick the nearest foe in reach once, then fight only that one (a duel).

    Once the opponent is out, withdrawn or surrendered the duellist attacks no one else.
    """

    __slots__ = ("nearest",)

    def __init__(self, reach: int = 6) -> None:
        self.nearest = NearestTargeting(reach)

    def choose_target(
        self, actor: CombatantView, battle: BattleView, rng: random.Random
    ) -> CombatantView | None:
        memory = actor.memory
        if "duel" in memory:
            opponent = memory["duel"]
            return opponent if opponent.fighting else None
        chosen = self.nearest.choose_target(actor, battle, rng)
        if chosen is not None:
            memory["duel"] = chosen
        return chosen


class StayBack:
    """Never attack (a leader who stays out of the melee and lends morale)."""

    __slots__ = ()

    def choose_target(
        self, actor: CombatantView, battle: BattleView, rng: random.Random
    ) -> CombatantView | None:
        return None


class AlwaysAttack:
    """Always attack."""

    __slots__ = ()

    constant = Stance.ATTACK

    def choose_stance(
        self, actor: CombatantView, target: CombatantView, battle: BattleView
    ) -> Stance:
        return Stance.ATTACK


class AllOutAttack:
    """Attack all out every round (personal-combat.md 2.1: +1 to hit, no defence)."""

    __slots__ = ()

    def choose_stance(
        self, actor: CombatantView, target: CombatantView, battle: BattleView
    ) -> Stance:
        return Stance.ALL_OUT_ATTACK


class AllOutDefenceWhenHurt:
    """Spend every action on defence once wounded to ``level`` or worse."""

    __slots__ = ("level",)

    def __init__(self, level: str | int = "Very Hurt") -> None:
        self.level = wound_level(level)

    def choose_stance(
        self, actor: CombatantView, target: CombatantView, battle: BattleView
    ) -> Stance:
        return Stance.ALL_OUT_DEFENCE if actor.wound >= self.level else Stance.ATTACK


class FixedAttacks:
    """Spend ``attacks`` actions attacking (capped by the budget); the rest defend."""

    __slots__ = ("count",)

    def __init__(self, attacks: int = 1) -> None:
        if attacks < 1:
            raise ValueError("attacks must be at least 1")
        self.count = attacks

    @property
    def constant(self) -> int:
        """The attacks it always asks for (the agent caps them by its budget)."""
        return self.count

    def attacks(
        self, actor: CombatantView, target: CombatantView, battle: BattleView, budget: int
    ) -> int:
        return min(self.count, budget)


class HoldGround:
    """Never leave the fight by choice."""

    __slots__ = ()

    constant = MoraleChoice.HOLD

    def decide(self, actor: CombatantView, battle: BattleView) -> MoraleChoice:
        return MoraleChoice.HOLD


def _choice(value: str) -> MoraleChoice:
    choice = MoraleChoice(value)
    if choice is MoraleChoice.HOLD:
        raise ValueError("the action must be 'withdraw' or 'surrender'")
    return choice


class WoundRetreat:
    """Withdraw (or surrender) once wounded to ``level`` or worse."""

    __slots__ = ("choice", "level")

    def __init__(self, level: str | int = "Very Hurt", action: str = "withdraw") -> None:
        self.level = wound_level(level)
        self.choice = _choice(action)

    def decide(self, actor: CombatantView, battle: BattleView) -> MoraleChoice:
        return self.choice if actor.wound >= self.level else MoraleChoice.HOLD


class SideLossRetreat:
    """Withdraw (or surrender) once the own side is down to ``below`` of its strength."""

    __slots__ = ("below", "choice")

    def __init__(self, below: float = 0.5, action: str = "withdraw") -> None:
        if not 0.0 < below <= 1.0:
            raise ValueError("below must be a fraction in (0, 1]")
        self.below = below
        self.choice = _choice(action)

    def decide(self, actor: CombatantView, battle: BattleView) -> MoraleChoice:
        return self.choice if battle.side_fraction(actor.side) < self.below else MoraleChoice.HOLD


class NoMorale:
    """Fight to the end: never check morale (neogi, undead, PCs)."""

    __slots__ = ()

    def check_reason(self, actor: CombatantView, battle: BattleView) -> str | None:
        return None

    def on_break(self, actor: CombatantView, battle: BattleView) -> MoraleChoice:
        return MoraleChoice.HOLD


class CasualtyMorale:
    """Check morale each time the group's losses cross a threshold (25% and 50% by default).

    Mirrors ships-spelljammer.md section 18 ("25% / 50% of the crew eliminated") and the
    FADAD unit table (checks on damage); a failed check withdraws or surrenders.
    """

    __slots__ = ("choice", "thresholds")

    def __init__(
        self, thresholds: tuple[float, ...] = (0.25, 0.5), on_break: str = "withdraw"
    ) -> None:
        if not thresholds or any(not 0.0 < t < 1.0 for t in thresholds):
            raise ValueError("thresholds must be fractions in (0, 1)")
        self.thresholds = tuple(sorted(thresholds))
        self.choice = _choice(on_break)

    def check_reason(self, actor: CombatantView, battle: BattleView) -> str | None:
        start = actor.initial_headcount
        if start <= 1:  # a lone fighter weighs its side's losses
            lost = 1.0 - battle.side_fraction(actor.side)
        else:
            lost = 1.0 - actor.headcount / start
        done = actor.memory.get("morale_thresholds", 0)
        crossed = sum(1 for t in self.thresholds if lost >= t)
        if crossed > done:
            actor.memory["morale_thresholds"] = crossed
            return f"{round(self.thresholds[crossed - 1] * 100)}% losses"
        return None

    def on_break(self, actor: CombatantView, battle: BattleView) -> MoraleChoice:
        return self.choice


class TableMorale:
    """No extra checks: only the rules' own morale checks (FADAD unit damage table);
    a broken group withdraws (or surrenders)."""

    __slots__ = ("choice",)

    def __init__(self, on_break: str = "withdraw") -> None:
        self.choice = _choice(on_break)

    def check_reason(self, actor: CombatantView, battle: BattleView) -> str | None:
        return None

    def on_break(self, actor: CombatantView, battle: BattleView) -> MoraleChoice:
        return self.choice


class NoFirstAid:
    """Never stop fighting to tend a friend."""

    __slots__ = ()

    def patient(self, actor: CombatantView, battle: BattleView) -> CombatantView | None:
        return None


class NearDeathFirstAid:
    """Tend the most recently fallen friend at Near Death, if not yet tended."""

    __slots__ = ()

    def patient(self, actor: CombatantView, battle: BattleView) -> CombatantView | None:
        downed = battle.downed(actor.side)
        for friend in reversed(downed):
            if friend.wound == Wound.NEAR_DEATH and not getattr(friend, "stabilised", True):
                return friend
        return None


class SaveFromDeath:
    """Spend an Ité point on every blow that would leave the character dying or dead."""

    __slots__ = ()
    constant = True

    def spend(self, actor: CombatantView, blow: int, battle: BattleView) -> bool:
        return True


class SaveFromDeathOnly:
    """Spend an Ité point only on a blow that would kill outright; a Near Death wound
    is left to first aid."""

    __slots__ = ()

    def spend(self, actor: CombatantView, blow: int, battle: BattleView) -> bool:
        return blow >= Wound.DEAD


class KeepPoints:
    """Never spend Ité points in battle."""

    __slots__ = ()
    constant = False

    def spend(self, actor: CombatantView, blow: int, battle: BattleView) -> bool:
        return False
