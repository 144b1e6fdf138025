"""Critical-hit effects for personal combat (``wounds-and-healing.md`` §10, A-17, PROPOSED).

The seed keeps only three names (Weak Spot, Vitals, Knockout); the d8 list here is the
PROPOSED completion. How many crits a hit scores is :mod:`fadad_agents.rules.core.actions`'
business (``dice-and-ladder.md`` §7). One effect per crit; a non-repeatable effect is not
drawn twice for the same hit. For boring attacks (mooks, no declared intent) choose from the
non-lethal effects only.

>>> [e.name for e in CRIT_EFFECTS if e.lethal]
['Weak Spot', 'Vitals', 'Knockout']
>>> crit_modifiers((EXTRA_DAMAGE, EXTRA_DAMAGE, VITALS)).damage_bonus
4
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from math import floor

from fadad_agents.rules.core.dice import Die, Distribution, TableDice

__all__ = [
    "CALLED_LOCATION",
    "CRIT_EFFECTS",
    "DISARM",
    "EXTRA_DAMAGE",
    "INTENT_CRITS",
    "KNOCKDOWN",
    "KNOCKOUT",
    "NON_LETHAL",
    "STAGGER",
    "VITALS",
    "WEAK_SPOT",
    "CritEffect",
    "CritModifiers",
    "UnknownIntentError",
    "allowed_effects",
    "crit_effect_outcomes",
    "crit_for_intent",
    "crit_modifiers",
    "crits_outcomes",
    "roll_crit_effect",
    "roll_crits",
]


@dataclass(frozen=True, slots=True)
class CritEffect:
    """One critical-hit effect: its d8 face, name, flags and what it does."""

    d8: int
    name: str
    lethal: bool
    repeatable: bool
    effect: str


WEAK_SPOT = CritEffect(1, "Weak Spot", True, False, "ignore the defender's armour for this hit")
VITALS = CritEffect(2, "Vitals", True, True, "+1 wound level after recording")
KNOCKOUT = CritEffect(3, "Knockout", True, False, "victim knocked out in addition to the wound")
EXTRA_DAMAGE = CritEffect(4, "Extra Damage", False, True, "+2 to the damage number")
DISARM = CritEffect(5, "Disarm", False, False, "defender drops weapon or shield")
KNOCKDOWN = CritEffect(6, "Knockdown", False, False, "defender prone; an action to rise")
STAGGER = CritEffect(7, "Stagger", False, True, "defender loses his next action")
CALLED_LOCATION = CritEffect(
    8, "Called Location", False, False, "attacker picks the hit location as a called shot"
)

CRIT_EFFECTS: tuple[CritEffect, ...] = (
    WEAK_SPOT,
    VITALS,
    KNOCKOUT,
    EXTRA_DAMAGE,
    DISARM,
    KNOCKDOWN,
    STAGGER,
    CALLED_LOCATION,
)
"""The PROPOSED d8 list, in d8 order (A-17)."""

NON_LETHAL: tuple[CritEffect, ...] = tuple(e for e in CRIT_EFFECTS if not e.lethal)
"""Effects for boring attacks: anything but Weak Spot, Vitals or Knockout (SEED)."""

INTENT_CRITS: dict[str, CritEffect] = {
    "kill": VITALS,
    "pierce_armour": WEAK_SPOT,
    "knockout": KNOCKOUT,
    "damage": EXTRA_DAMAGE,
    "disarm": DISARM,
    "knockdown": KNOCKDOWN,
    "stagger": STAGGER,
    "location": CALLED_LOCATION,
}
"""The effect a declared attacker intent asks for (the GM "lets it happen", SEED)."""


class UnknownIntentError(ValueError):
    """A declared crit intent that is not in :data:`INTENT_CRITS`."""


def crit_for_intent(intent: str) -> CritEffect:
    """The effect for a declared intent, e.g. ``"disarm"``."""
    try:
        return INTENT_CRITS[intent]
    except KeyError:
        raise UnknownIntentError(
            f"unknown crit intent {intent!r}; allowed: {', '.join(INTENT_CRITS)}"
        ) from None


def allowed_effects(
    *, non_lethal: bool = False, taken: tuple[CritEffect, ...] = ()
) -> tuple[CritEffect, ...]:
    """Effects that may still be drawn: no lethal ones for boring attacks, and no
    non-repeatable effect already taken on this hit."""
    pool = NON_LETHAL if non_lethal else CRIT_EFFECTS
    return tuple(e for e in pool if e.repeatable or e not in taken)


def roll_crit_effect(
    rng: random.Random, *, non_lethal: bool = False, taken: tuple[CritEffect, ...] = ()
) -> CritEffect:
    """Draw one effect uniformly from :func:`allowed_effects` (1d8, rerolling the excluded)."""
    pool = allowed_effects(non_lethal=non_lethal, taken=taken)
    pick = floor(rng.random() * len(pool))  # int()'s index, cheaper (see TABLE_4DF)
    if rng.__class__ is TableDice:  # the GM rolls a die as long as the pool, named in order
        names = ", ".join(f"{i + 1} {e.name}" for i, e in enumerate(pool))
        pick = rng.called(Die(1, len(pool)), pick + 1, f"critical effect ({names})") - 1
    return pool[pick]


def crit_effect_outcomes(
    *, non_lethal: bool = False, taken: tuple[CritEffect, ...] = ()
) -> Distribution[CritEffect]:
    """Exact distribution of :func:`roll_crit_effect`."""
    pool = allowed_effects(non_lethal=non_lethal, taken=taken)
    return [(e, Fraction(1, len(pool))) for e in pool]


def roll_crits(count: int, rng: random.Random, non_lethal: bool = False) -> tuple[CritEffect, ...]:
    """Draw ``count`` effects for one hit, one per crit, never repeating a non-repeatable.

    Name ``non_lethal``; the kernel's hit alone passes it in order (a call with a keyword
    costs CPython 3.12 a few hundred machine instructions more)."""
    if count == 1 and rng.__class__ is not TableDice:
        # Most crits come alone: the whole pool, the same draw as roll_crit_effect's.
        pool = NON_LETHAL if non_lethal else CRIT_EFFECTS
        return (pool[floor(rng.random() * len(pool))],)
    taken: tuple[CritEffect, ...] = ()
    for _ in range(count):
        taken = (*taken, roll_crit_effect(rng, non_lethal=non_lethal, taken=taken))
    return taken


def crits_outcomes(count: int, *, non_lethal: bool = False) -> Distribution[tuple[CritEffect, ...]]:
    """Exact distribution of the effect sequence :func:`roll_crits` draws."""
    dist: list[tuple[tuple[CritEffect, ...], Fraction]] = [((), Fraction(1))]
    for _ in range(count):
        nxt: list[tuple[tuple[CritEffect, ...], Fraction]] = []
        for seq, p in dist:
            for e, q in crit_effect_outcomes(non_lethal=non_lethal, taken=seq):
                nxt.append(((*seq, e), p * q))
        dist = nxt
    return dist


@dataclass(frozen=True, slots=True)
class CritModifiers:
    """The combined game effect of a hit's crits, for the engine to apply.

    ``damage_bonus`` adds to the damage number, ``level_bonus`` raises the recorded wound
    level, ``ignore_armour`` drops the armour from the DDM before the damage number.
    """

    damage_bonus: int = 0
    level_bonus: int = 0
    ignore_armour: bool = False
    knockout: bool = False
    disarm: bool = False
    knockdown: bool = False
    lost_actions: int = 0
    called_location: bool = False


def crit_modifiers(effects: tuple[CritEffect, ...]) -> CritModifiers:
    """Sum the effects of one hit's crits."""
    names = [e.name for e in effects]
    return CritModifiers(
        damage_bonus=2 * names.count("Extra Damage"),
        level_bonus=names.count("Vitals"),
        ignore_armour="Weak Spot" in names,
        knockout="Knockout" in names,
        disarm="Disarm" in names,
        knockdown="Knockdown" in names,
        lost_actions=names.count("Stagger"),
        called_location="Called Location" in names,
    )
