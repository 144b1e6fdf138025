"""The exact distribution of one melee attack (:func:`~fadad_agents.rules.personal.combat.
resolve_attack`'s): every result its dice can give, with its probability.

The 9 x 9 opposed 4dF totals (9 undefended), the crit effects and the damage dice are
enumerated through the kernel's own pieces (:func:`~fadad_agents.rules.personal.combat.
exchange` and :func:`~fadad_agents.rules.personal.combat.attack_from_dice`), so the odds
are those of the sampler by construction.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fadad_agents.rules.core.actions import crit_count
from fadad_agents.rules.core.dice import Distribution, fudge_distribution
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.rules.personal.combat import (
    NO_PROTECTION,
    AttackResult,
    CombatRules,
    Fighter,
    Protection,
    attack_from_dice,
    damage_kind,
    exchange,
)
from fadad_agents.rules.personal.criticals import CritEffect, crits_outcomes
from fadad_agents.rules.personal.dc_track import Track
from fadad_agents.rules.personal.wound_models import damage_dice_outcomes

__all__ = ["AttackOutcome", "attack_outcomes", "attack_results"]


@dataclass(frozen=True, slots=True, order=True)
class AttackOutcome:
    """The part of an attack's result (:class:`AttackResult`) whose exact distribution
    is exposed."""

    hit: bool
    crits: int
    wound: Wound


def attack_results(
    attacker: Fighter,
    defender: Fighter,
    track: Track,
    rules: CombatRules,
    *,
    attacker_penalty: int = 0,
    defender_penalty: int = 0,
    defended: bool = True,
    modifier: int = 0,
    shield_rank: int = 1,
    protection: Protection = NO_PROTECTION,
    target_bonus: int = 0,
) -> Iterator[tuple[AttackResult, Fraction]]:
    """Every :class:`AttackResult` the sampler (``combat.resolve_attack``) can return,
    with its exact probability (not merged: a result can come from several dice).

    Enumerates the 9 x 9 opposed 4dF totals (9 undefended), the crit effects and the
    damage dice; the probabilities sum to 1.
    """
    four_df = fudge_distribution(4)
    defence_dist: Distribution[int | None] = list(four_df) if defended else [(None, Fraction(1))]
    for a_dice, pa in four_df:
        for d_dice, pd in defence_dist:
            *_, rd, hit = exchange(
                attacker, defender, rules, a_dice, d_dice,
                attacker_penalty, defender_penalty, modifier, shield_rank, target_bonus,
            )  # fmt: skip
            p = pa * pd
            effect_dist: Distribution[tuple[CritEffect, ...]] = [((), Fraction(1))]
            crits = crit_count(rd, a_dice) if hit else 0
            if crits and rules.crit_effects != "none":
                effect_dist = crits_outcomes(crits, non_lethal=rules.crit_effects == "non_lethal")
            kinds = damage_dice_outcomes(damage_kind(attacker, defender, rules, rd) if hit else "")
            for effects, pe in effect_dist:
                for dmg, pdmg in kinds:
                    res = attack_from_dice(
                        attacker, defender, track, rules, a_dice, d_dice, dmg,
                        crit_effects=effects, attacker_penalty=attacker_penalty,
                        defender_penalty=defender_penalty, modifier=modifier,
                        shield_rank=shield_rank, protection=protection,
                        target_bonus=target_bonus,
                    )  # fmt: skip
                    yield res, p * pe * pdmg


def attack_outcomes(
    attacker: Fighter,
    defender: Fighter,
    track: Track,
    rules: CombatRules,
    **context: Any,
) -> Distribution[AttackOutcome]:
    """Exact distribution of (hit, crits, wound) for the sampler
    (``combat.resolve_attack``), sorted (:func:`attack_results` merged; keywords as there)."""
    merged: dict[AttackOutcome, Fraction] = {}
    for res, p in attack_results(attacker, defender, track, rules, **context):
        key = AttackOutcome(res.hit, res.crits, res.wound)
        merged[key] = merged.get(key, Fraction(0)) + p
    return sorted(merged.items())
