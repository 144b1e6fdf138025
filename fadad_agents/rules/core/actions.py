"""FADAD/FUDGE action resolution: rolled degree, unopposed and opposed actions, crits, initiative.

Implements ``dice-and-ladder.md`` sections 3-7 and the order of action of
``personal-combat.md`` section 1.2, with ``CONFLICTS.md`` A-01 (Target as the floor of the
opposition, option ``fadad.target_mode``), A-05 (initiative roll, ``fadad.initiative``) and
A-07 (an undefended attack is resolved against the Target only).

Every sampler has its exact distribution beside it: :func:`roll_opposed` /
:func:`opposed_outcomes`, :func:`roll_initiative` / :func:`initiative_outcomes`.

>>> opposed(0, 0, -1).hit          # EX-DICE-02: defender wins ties
False
>>> r = opposed(4, -1, -1, attack_dice=2)  # EX-PC-05: RD 5, one crit
>>> r.rd, r.hit, r.crits
(5, True, 1)
>>> unopposed(1, -1, 0)            # EX-DICE-05: Good, dice -1, DL Fair
(True, 0)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import groupby
from math import floor
from typing import Literal, NamedTuple

from fadad_agents.rules.core.dice import (
    FOUR_DF,
    TABLE_4DF,
    Distribution,
    TableDice,
    fudge_distribution,
    roll_4df,
)

__all__ = [
    "ALL_PLUS_DICE",
    "TARGET_MODES",
    "ActionError",
    "InitiativeEntry",
    "InitiativeMode",
    "Opposed",
    "TargetMode",
    "crit_count",
    "hit_probability",
    "initiative_groups",
    "initiative_order",
    "initiative_outcomes",
    "opposed",
    "opposed_outcomes",
    "rd_distribution",
    "roll_initiative",
    "roll_opposed",
    "roll_situational",
    "roll_unopposed",
    "rolled_degree",
    "situational_outcomes",
    "unopposed",
    "unopposed_outcomes",
    "unopposed_probability",
]

type TargetMode = Literal["effective_opposition", "target_gate_gte"]
type InitiativeMode = Literal["rolled", "static"]

TARGET_MODES: tuple[TargetMode, ...] = ("effective_opposition", "target_gate_gte")
ALL_PLUS_DICE = 4
"""The 4dF total of four +1 faces: with RD > 0 it gives at least one crit (section 7)."""


class ActionError(ValueError):
    """An action cannot be resolved as asked (unknown mode, nothing to oppose...)."""


def rolled_degree(trait: int, dice: int, modifier: int = 0) -> int:
    """Rolled degree = trait + situational modifiers + dice (section 3).

    >>> rolled_degree(1, 2, -2)   # EX-DICE-03: Good-2+2 = Good
    1
    """
    return trait + modifier + dice


def unopposed(trait: int, dice: int, difficulty: int, modifier: int = 0) -> tuple[bool, int]:
    """An unopposed action (section 4): success iff rolled >= DL; degree = rolled - DL."""
    degree = rolled_degree(trait, dice, modifier) - difficulty
    return degree >= 0, degree


def crit_count(rd: int, attack_dice: int) -> int:
    """FADAD crit count (section 7): one per full 4 RD; all-plus dice with RD > 0 give >= 1.

    The all-plus rule does not stack with RD crits (EX-DICE-04).

    >>> [crit_count(rd, dice) for rd, dice in [(5, 2), (1, 4), (8, 1), (0, 4), (11, 4)]]
    [1, 1, 2, 0, 2]
    """
    crits = rd // 4 if rd >= 4 else 0
    if attack_dice == ALL_PLUS_DICE and rd > 0:
        crits = max(crits, 1)
    return crits


@dataclass(frozen=True, slots=True)
class Opposed:
    """The outcome of one opposed (or undefended) action.

    Attributes:
        attack_rolled: the attacker's rolled degree.
        defence_rolled: the defender's rolled degree; ``None`` when undefended (A-07).
        target: the defender's Target (minimum rolled degree to hit); ``None`` if none.
        rd: relative degree from the attacker's side, as the target mode defines it.
        hit: whether the attack succeeds (the defender wins ties).
        crits: number of FADAD crits (0 unless ``hit``).
    """

    attack_rolled: int
    defence_rolled: int | None
    target: int | None
    rd: int
    hit: bool
    crits: int


def _check_mode(mode: str) -> TargetMode:
    if mode == "effective_opposition":
        return "effective_opposition"
    if mode == "target_gate_gte":
        return "target_gate_gte"
    raise ActionError(f"unknown target mode {mode!r}; allowed: {', '.join(TARGET_MODES)}")


def _rd_and_hit(
    attack: int, defence: int | None, target: int | None, mode: TargetMode
) -> tuple[int, bool]:
    if defence is None and target is None:
        raise ActionError("an action needs a defence roll, a Target or both to oppose it")
    if mode == "effective_opposition" or defence is None:
        # Undefended: the Target alone opposes; in gate mode the Target is a
        # "minimum rolled degree" (>=), so RD 0 hits there.
        opposition = max(x for x in (defence, target) if x is not None)
        rd = attack - opposition
        gate_hit = mode == "target_gate_gte" and rd >= 0
        return rd, rd >= 1 or gate_hit
    rd = attack - defence
    return rd, rd >= 1 and (target is None or attack >= target)


def opposed(
    attack_rolled: int,
    defence_rolled: int | None,
    target: int | None = None,
    *,
    attack_dice: int = 0,
    mode: str = "effective_opposition",
) -> Opposed:
    """Resolve an opposed action from the rolled degrees (sections 5, 5.1, 7).

    ``effective_opposition`` (default, A-01): RD = attack - max(defence, Target), hit iff
    RD >= 1. ``target_gate_gte``: RD = attack - defence, hit iff attack > defence and
    attack >= Target. With ``defence_rolled=None`` the attack is undefended and meets the
    Target only (A-07). ``attack_dice`` is the attacker's 4dF total, for the all-plus crit.

    Raises:
        ActionError: unknown ``mode``, or neither a defence nor a Target.
    """
    if mode == "effective_opposition" and defence_rolled is not None and target is not None:
        # The common case, inlined from _rd_and_hit (every melee and ranged exchange).
        rd = attack_rolled - (defence_rolled if defence_rolled > target else target)
        hit = rd >= 1
    else:
        rd, hit = _rd_and_hit(attack_rolled, defence_rolled, target, _check_mode(mode))
    crits = crit_count(rd, attack_dice) if hit else 0
    return Opposed(attack_rolled, defence_rolled, target, rd, hit, crits)


@cache
def _opposed_table(
    attack: int, defence: int | None, target: int | None, mode: TargetMode
) -> tuple[tuple[Opposed, Fraction], ...]:
    dice4 = fudge_distribution(4)
    defence_dist: Distribution[int | None] = (
        [(None, Fraction(1))] if defence is None else [(d, p) for d, p in dice4]
    )
    table: list[tuple[Opposed, Fraction]] = []
    for a_dice, pa in dice4:
        for d_dice, pd in defence_dist:
            d_rolled = None if defence is None or d_dice is None else defence + d_dice
            result = opposed(attack + a_dice, d_rolled, target, attack_dice=a_dice, mode=mode)
            table.append((result, pa * pd))
    return tuple(table)


def opposed_outcomes(
    attack_trait: int,
    defence_trait: int | None,
    target: int | None = None,
    *,
    attack_modifier: int = 0,
    defence_modifier: int = 0,
    mode: str = "effective_opposition",
) -> Distribution[Opposed]:
    """Exact distribution of an opposed action over the 81 x 81 equally likely dice.

    Each 4dF total appears once with its weight (``fudge_distribution(4)``), so the list
    has 81 entries (9 when undefended) whose probabilities sum to 1.
    """
    checked = _check_mode(mode)
    defence = None if defence_trait is None else defence_trait + defence_modifier
    return list(_opposed_table(attack_trait + attack_modifier, defence, target, checked))


def hit_probability(
    attack_trait: int,
    defence_trait: int | None,
    target: int | None = None,
    *,
    attack_modifier: int = 0,
    defence_modifier: int = 0,
    mode: str = "effective_opposition",
) -> Fraction:
    """Exact probability that the attack hits (see :func:`opposed_outcomes`)."""
    dist = opposed_outcomes(
        attack_trait,
        defence_trait,
        target,
        attack_modifier=attack_modifier,
        defence_modifier=defence_modifier,
        mode=mode,
    )
    return sum((p for o, p in dist if o.hit), Fraction(0))


def rd_distribution(
    attack_trait: int,
    defence_trait: int | None,
    target: int | None = None,
    *,
    attack_modifier: int = 0,
    defence_modifier: int = 0,
    mode: str = "effective_opposition",
) -> Distribution[int]:
    """Exact distribution of the relative degree, ascending."""
    merged: dict[int, Fraction] = {}
    for o, p in opposed_outcomes(
        attack_trait,
        defence_trait,
        target,
        attack_modifier=attack_modifier,
        defence_modifier=defence_modifier,
        mode=mode,
    ):
        merged[o.rd] = merged.get(o.rd, Fraction(0)) + p
    return sorted(merged.items())


def roll_opposed(
    attack_trait: int,
    defence_trait: int | None,
    target: int | None,
    rng: random.Random,
    *,
    attack_modifier: int = 0,
    defence_modifier: int = 0,
    mode: str = "effective_opposition",
) -> tuple[Opposed, int, int | None]:
    """Roll an opposed action: returns (result, attacker's 4dF, defender's 4dF or None).

    Draw order is fixed (attacker, then defender) so equal seeds give equal dice. An
    undefended attack (``defence_trait=None``) draws only the attacker's dice.
    """
    checked = _check_mode(mode)
    a_dice = roll_4df(rng)
    d_dice = None if defence_trait is None else roll_4df(rng)
    d_rolled = (
        None
        if defence_trait is None or d_dice is None
        else rolled_degree(defence_trait, d_dice, defence_modifier)
    )
    result = opposed(
        rolled_degree(attack_trait, a_dice, attack_modifier),
        d_rolled,
        target,
        attack_dice=a_dice,
        mode=checked,
    )
    return result, a_dice, d_dice


def roll_unopposed(
    trait: int, difficulty: int, rng: random.Random, modifier: int = 0, purpose: str = "4dF"
) -> tuple[bool, int, int]:
    """Roll an unopposed action: returns (success, degree of success, 4dF total)."""
    dice = roll_4df(rng, purpose)
    success, degree = unopposed(trait, dice, difficulty, modifier)
    return success, degree, dice


def unopposed_outcomes(
    trait: int, difficulty: int, modifier: int = 0
) -> Distribution[tuple[bool, int]]:
    """Exact distribution of ``(success, degree)`` of an unopposed action."""
    return [(unopposed(trait, d, difficulty, modifier), p) for d, p in fudge_distribution(4)]


def unopposed_probability(trait: int, difficulty: int, modifier: int = 0) -> Fraction:
    """Exact probability that an unopposed action succeeds."""
    return sum(
        (p for (ok, _), p in unopposed_outcomes(trait, difficulty, modifier) if ok), Fraction(0)
    )


def roll_situational(rng: random.Random) -> int:
    """A situational roll: 4dF tied to no trait, -4..+4 (section 6)."""
    return roll_4df(rng)


def situational_outcomes() -> Distribution[int]:
    """Exact distribution of a situational roll."""
    return list(fudge_distribution(4))


# --- initiative (personal-combat.md section 1.2, A-05) ---------------------------------


def _check_initiative_mode(mode: str) -> InitiativeMode:
    if mode == "rolled":
        return "rolled"
    if mode == "static":
        return "static"
    raise ActionError(f"unknown initiative mode {mode!r}; allowed: rolled, static")


def roll_initiative(
    trait: int, rng: random.Random, mode: str = "rolled", owner: str | None = None
) -> int:
    """Initiative: reaction-speed trait + 4dF (``rolled``) or the trait alone (``static``),
    rolled by ``owner`` (a band's lead) when made at the table.

    ``static`` draws nothing from the stream.
    """
    if mode == "rolled":  # the common case first (every group, every round)
        roll = TABLE_4DF[floor(rng.random() * 81.0)]  # roll_4df, inlined: one call less a roll
        if rng.__class__ is TableDice:
            roll = int(rng.called(FOUR_DF, roll, "initiative", owner))
        return trait + roll
    _check_initiative_mode(mode)  # "static", or raises on an unknown mode
    return trait


def initiative_outcomes(trait: int, mode: str = "rolled") -> Distribution[int]:
    """Exact distribution of :func:`roll_initiative`."""
    if _check_initiative_mode(mode) == "static":
        return [(trait, Fraction(1))]
    return [(trait + d, p) for d, p in fudge_distribution(4)]


class InitiativeEntry(NamedTuple):
    """One combatant's place in the order of action.

    A named tuple (immutable; the engine makes one per group per round, and a frozen
    dataclass costs several times as much to make).

    Attributes:
        uid: unique id of the combatant (the final tiebreak).
        initiative: rolled (or static) initiative.
        trait: the reaction-speed trait (the first tiebreak: higher goes first).
    """

    uid: int
    initiative: int
    trait: int

    def sort_key(self) -> tuple[int, int, int]:
        """The total order of action: (-initiative, -trait, uid)."""
        return (-self.initiative, -self.trait, self.uid)


def _order_key(e: InitiativeEntry) -> tuple[int, int, int]:
    return (-e.initiative, -e.trait, e.uid)  # InitiativeEntry.sort_key, one call cheaper


def initiative_order(entries: Iterable[InitiativeEntry]) -> list[InitiativeEntry]:
    """Order of action: highest initiative first, then higher trait, then lower uid.

    Entries equal in initiative and trait act simultaneously (section 1.2; see
    :func:`initiative_groups`): the uid only lists them in a fixed order. Deterministic
    for any input order. Raises :class:`ActionError` on duplicate uids.
    """
    ordered = sorted(entries, key=_order_key)
    if len({e.uid for e in ordered}) != len(ordered):
        uids = sorted(e.uid for e in ordered)
        raise ActionError(f"initiative entries must have unique uids, got {uids}")
    return ordered


def initiative_groups(entries: Iterable[InitiativeEntry]) -> list[list[InitiativeEntry]]:
    """Entries grouped into simultaneous actors (equal initiative and trait), in order."""
    ordered = initiative_order(entries)
    return [list(group) for _, group in groupby(ordered, key=lambda e: (e.initiative, e.trait))]
