"""The Spelljammer d20 critical-hit table with shift-up, in the shared effect vocabulary.

Implements ``ships-spelljammer.md`` section 5 with ``CONFLICTS.md`` C-03, C-22, A-49 and
A-50. Roll d20; a result that cannot apply shifts to the next higher entry, wrapping
from 20 to 1 (A-49). Each entry becomes :mod:`fadad_agents.rules.ships.effects` values,
so the engine's effect handlers serve the FADAD 6dF table too.

>>> ctx = CritContext(sr=1, mc=ManeuverClass.POOR)
>>> entry_after_shift(12, ctx), entry_after_shift(17, ctx)
(13, 18)
>>> SJ_CRIT_TABLE[13], SJ_CRIT_TABLE[18]
(<SjCrit.DECK_CREW: 'Deck crew casualty'>, <SjCrit.HULL_LOSS_10: 'Loss of 10 hull points'>)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from fadad_agents.rules.core.dice import Distribution, distribution_map
from fadad_agents.rules.ships.effects import (
    SJ_ROUND_SECONDS,
    Check,
    DeckCrew,
    Fire,
    HelmShock,
    HullHoled,
    HullLoss,
    InteriorCrew,
    ManeuverLoss,
    Shaken,
    ShipEffect,
    SpeedLoss,
    WeaponDamaged,
)
from fadad_agents.rules.ships.movement import ManeuverClass

__all__ = [
    "SJ_CRIT_TABLE",
    "CritContext",
    "CritParams",
    "SjCrit",
    "SjCritResult",
    "applies",
    "crit_effects",
    "crits_triggered",
    "entry_after_shift",
    "resolve_sj_crit",
    "sj_crit_entry_outcomes",
    "sj_crit_outcomes",
]


class SjCrit(Enum):
    """The kinds of entry on the d20 critical table."""

    HULL_LOSS_5 = "Loss of 5 hull points"
    DECK_CREW = "Deck crew casualty"
    INTERIOR_CREW = "Interior crew casualty"
    SHAKEN = "Ship shaken"
    WEAPON_DAMAGED = "Large weapon damaged"
    HULL_HOLED = "Hull holed"
    MANEUVER_LOSS = "Maneuverability loss"
    HULL_LOSS_10 = "Loss of 10 hull points"
    FIRE = "Fire!"
    SR_LOSS = "Loss of SR"
    SPELLJAMMER_SHOCK = "Spelljammer shock!"


_C = SjCrit
SJ_CRIT_TABLE: dict[int, SjCrit] = dict(
    enumerate(
        (
            _C.HULL_LOSS_5,
            _C.DECK_CREW,
            _C.INTERIOR_CREW,
            _C.SHAKEN,
            _C.WEAPON_DAMAGED,
            _C.DECK_CREW,
            _C.HULL_HOLED,
            _C.MANEUVER_LOSS,
            _C.HULL_LOSS_10,
            _C.SHAKEN,
            _C.FIRE,
            _C.SR_LOSS,
            _C.DECK_CREW,
            _C.WEAPON_DAMAGED,
            _C.SHAKEN,
            _C.HULL_HOLED,
            _C.MANEUVER_LOSS,
            _C.HULL_LOSS_10,
            _C.SR_LOSS,
            _C.SPELLJAMMER_SHOCK,
        ),
        start=1,
    )
)
"""d20 roll -> entry (section 5, SEED)."""


@dataclass(frozen=True, slots=True)
class CritContext:
    """What the ship can suffer right now; decides which entries apply.

    Attributes:
        sr: current SR; Loss of SR cannot apply at SR 1 or less.
        mc: current class; Maneuverability loss cannot apply to a Poor ship.
        fire_possible: a fire can physically start (not a stone ship with magic lights).
        has_large_weapon: an operable large weapon is aboard (else Large weapon damaged
            cannot apply; PROPOSED).
        has_exposed_crew: anyone is on deck (else Deck crew casualty cannot apply;
            PROPOSED).
        anyone_aboard: anyone is aboard (else Interior crew casualty cannot apply).
    """

    sr: int
    mc: ManeuverClass
    fire_possible: bool = True
    has_large_weapon: bool = True
    has_exposed_crew: bool = True
    anyone_aboard: bool = True


def applies(kind: SjCrit, ctx: CritContext) -> bool:
    """Whether an entry can apply to the ship in ``ctx`` (section 5 effects)."""
    match kind:
        case SjCrit.SR_LOSS:
            return ctx.sr > 1
        case SjCrit.MANEUVER_LOSS:
            return ctx.mc > ManeuverClass.POOR
        case SjCrit.FIRE:
            return ctx.fire_possible
        case SjCrit.WEAPON_DAMAGED:
            return ctx.has_large_weapon
        case SjCrit.DECK_CREW:
            return ctx.has_exposed_crew
        case SjCrit.INTERIOR_CREW:
            return ctx.anyone_aboard
        case _:
            return True


def entry_after_shift(roll: int, ctx: CritContext) -> int:
    """The entry a roll lands on after shifting up past inapplicable ones (EX-SJ-16).

    After 20 the shift wraps to 1 (A-49); Loss of 5 hull points always applies, so the
    search ends within 20 steps.
    """
    if not 1 <= roll <= 20:
        raise ValueError(f"a d20 critical roll is 1..20, got {roll}")
    entry = roll
    while not applies(SJ_CRIT_TABLE[entry], ctx):
        entry = entry % 20 + 1
    return entry


def sj_crit_entry_outcomes(ctx: CritContext) -> Distribution[int]:
    """Exact distribution of the entry (1-20) a critical lands on after shift-up."""
    merged: dict[int, Fraction] = {}
    for roll in range(1, 21):
        e = entry_after_shift(roll, ctx)
        merged[e] = merged.get(e, Fraction(0)) + Fraction(1, 20)
    return sorted(merged.items())


def sj_crit_outcomes(ctx: CritContext) -> Distribution[SjCrit]:
    """Exact distribution of the kind of critical after shift-up."""
    return distribution_map(sj_crit_entry_outcomes(ctx), SJ_CRIT_TABLE.__getitem__)


def crits_triggered(
    attack_critical: bool = False,
    half_crossed: bool = False,
    shear_critical: bool = False,
    ram_crits: int = 0,
) -> int:
    """How many d20 criticals a hit calls for (A-49 triggers, section 5).

    Each trigger rolls its own critical (PROPOSED): a large weapon's critical roll, the
    hit that pushes the ship past half its hull points, a natural 20 when shearing, and a
    ram's random criticals (blunt: 1). Spell effects (*disintegrate*) are named effects,
    not rolls.
    """
    if ram_crits < 0:
        raise ValueError(f"ram criticals must be >= 0, got {ram_crits}")
    return int(attack_critical) + int(half_crossed) + int(shear_critical) + ram_crits


@dataclass(frozen=True, slots=True)
class CritParams:
    """The numbers the seed leaves open in the effects (A-50), as options set them.

    Attributes:
        fortitude_dc: bystanders' save vs death by a crew casualty
            (``sj.crit_fortitude_dc``).
        dexterity_dc: PCs' check against falling when shaken (``sj.shaken_dexterity_dc``).
        npc_fall_pct: flat chance an ordinary NPC falls when shaken (SEED 40).
        will_dc: the helmsman's save against spelljammer shock (``sj.shock_will_dc``).
        mc_loss_round_factor: rounds per unit of the "1d10 turns" of Maneuverability
            loss: 1 reads turns as rounds (A-50 default), 10 as 10-round turns
            (``sj.mc_loss_rounds_per_turn``).
    """

    fortitude_dc: int = 15
    dexterity_dc: int = 10
    npc_fall_pct: int = 40
    will_dc: int = 15
    mc_loss_round_factor: int = 1


def _d(n: int, rng: random.Random) -> int:
    return int(rng.random() * n) + 1


def crit_effects(
    kind: SjCrit, hull_damage: int, rng: random.Random, params: CritParams = CritParams()
) -> tuple[ShipEffect, ...]:
    """The shared effects of one critical entry, with its dice rolled on ``rng``.

    Args:
        kind: the entry after shift-up.
        hull_damage: the triggering attack's hull damage; crew casualties take it as
            hit points (A-50).
        rng: rolls 1d10 rounds for SR and MC losses and 1d4 days for spelljammer shock.
        params: the open numbers (A-50).
    """
    match kind:
        case SjCrit.HULL_LOSS_5:
            return (HullLoss(5),)
        case SjCrit.HULL_LOSS_10:
            return (HullLoss(10),)
        case SjCrit.DECK_CREW:
            fort = Check("fortitude", params.fortitude_dc, "d20")
            return (DeckCrew(damage=hull_damage, bystander_save=fort),)
        case SjCrit.INTERIOR_CREW:
            fort = Check("fortitude", params.fortitude_dc, "d20")
            return (InteriorCrew(damage=hull_damage, bystander_save=fort),)
        case SjCrit.SHAKEN:
            dex = Check("dexterity", params.dexterity_dc, "d20")
            return (Shaken(check=dex, npc_fall_pct=params.npc_fall_pct),)
        case SjCrit.WEAPON_DAMAGED:
            return (WeaponDamaged(),)
        case SjCrit.HULL_HOLED:
            return (HullHoled(),)
        case SjCrit.MANEUVER_LOSS:
            rounds = _d(10, rng) * params.mc_loss_round_factor
            return (ManeuverLoss(classes=1, rounds=rounds, round_seconds=SJ_ROUND_SECONDS),)
        case SjCrit.FIRE:
            return (Fire(points=0),)
        case SjCrit.SR_LOSS:
            return (SpeedLoss(sr=1, rounds=_d(10, rng), round_seconds=SJ_ROUND_SECONDS),)
        case SjCrit.SPELLJAMMER_SHOCK:
            will = Check("will", params.will_dc, "d20")
            return (HelmShock(save=will, coma_days=_d(4, rng), drive_stop_days=_d(4, rng)),)
    raise AssertionError(kind)  # pragma: no cover - the match is exhaustive


@dataclass(frozen=True, slots=True)
class SjCritResult:
    """One critical: the d20 roll, the entry it shifted to, its kind and its effects."""

    roll: int
    entry: int
    kind: SjCrit
    effects: tuple[ShipEffect, ...]


def resolve_sj_crit(
    ctx: CritContext, hull_damage: int, rng: random.Random, params: CritParams = CritParams()
) -> SjCritResult:
    """Roll the d20 critical table for a ship in ``ctx``.

    Further criticals (a Loss of hull points pushing the ship past half, section 5
    "Multiple criticals") are the caller's: apply the effects with
    ``sj_combat.apply_hull_damage`` and roll again when it says so.
    """
    roll = _d(20, rng)
    entry = entry_after_shift(roll, ctx)
    kind = SJ_CRIT_TABLE[entry]
    return SjCritResult(roll, entry, kind, crit_effects(kind, hull_damage, rng, params))
