"""One melee attack, end to end: opposed roll, Target, damage, crits and the wound track.

This module composes the kernel's pieces into the call the engine makes for every swing
(``personal-combat.md`` sections 1-4, ``dice-and-ladder.md`` sections 5 and 7,
``wounds-and-healing.md`` sections 5-10):

1. the defender's Target from relative Scale and shield (:func:`melee.defender_target`);
2. the opposed roll, defender winning ties (:func:`actions.roll_opposed`);
3. on a hit, the crits (one per 4 RD, or the all-plus dice) and their effects;
4. the damage number under the battle's ``wound_model`` (:mod:`wound_models`);
5. the wound recorded on the defender's track (:func:`wounds.record`).

:func:`attack_from_dice` is the pure core (every die given), :func:`resolve_attack` the
sampler, and :func:`attack_outcomes` its exact distribution.

>>> snorri = Fighter("Snorri", attack=2, defence=2, odm=5, ddm=3)
>>> brynhild = Fighter("Brynhild", attack=1, defence=1, odm=5, ddm=2, shield="medium")
>>> rules = CombatRules()
>>> hit = attack_from_dice(snorri, brynhild, new_track(), rules, 1, 1, (-2,))  # EX-PC-03
>>> hit.rd, hit.damage, hit.wound.label
(1, 2, 'Scratch')
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from fadad_agents.rules.actions import Opposed, crit_count, opposed, rolled_degree
from fadad_agents.rules.criticals import CritEffect, crit_modifiers, crits_outcomes, roll_crits
from fadad_agents.rules.damage import armour_group
from fadad_agents.rules.dice import Distribution, roll_4df
from fadad_agents.rules.melee import defender_target, melee_attack_modifier
from fadad_agents.rules.wound_models import (
    DamageRules,
    WoundRules,
    damage_dice_kind,
    damage_dice_outcomes,
    record_wound,
    roll_damage_dice,
    wound_from_dice,
)
from fadad_agents.rules.wounds import Wound, WoundTrack

if TYPE_CHECKING:
    from fadad_agents.rules.options import RulesOptions

__all__ = [
    "NO_PROTECTION",
    "AttackOutcome",
    "AttackResult",
    "CombatRules",
    "Fighter",
    "Protection",
    "attack_from_dice",
    "attack_outcomes",
    "resolve_attack",
]

type CritPolicy = Literal["none", "non_lethal", "random"]


@dataclass(frozen=True, slots=True)
class Fighter:
    """What the kernel needs to know of one combatant in a melee exchange.

    Attributes:
        name: display name, used in narration only.
        attack: ladder value of the offensive skill (before wound penalties).
        defence: ladder value of the defensive skill (parry, Shield, Dodge ...).
        odm: offensive damage modifier: Strength + Strength Scale + weapon (+ magic).
        ddm: defensive damage modifier: Damage Capacity + Mass Scale + armour (+ magic).
        scale: Scale for the Target table and grazes.
        shield: ``buckler``, ``small``, ``medium``, ``large`` or None.
        armour: the armour part of ``ddm`` (a Weak Spot crit ignores it; Anna's armour
            group is read from it).
        weapon_group: Anna's weapon group (0 none, 1 Light, 2 Medium, 3 Heavy), used with
            the ``fudge.weapon_groups`` option; None = ungrouped (full damage).
    """

    name: str
    attack: int
    defence: int
    odm: int
    ddm: int
    scale: int = 0
    shield: str | None = None
    armour: int = 0
    weapon_group: int | None = None


@dataclass(frozen=True, slots=True)
class CombatRules:
    """The switches of :class:`RulesOptions` one attack needs, read once per battle."""

    target_mode: str = "effective_opposition"
    shield_mode: str = "fadad_target"
    damage: DamageRules = field(default_factory=DamageRules)
    wounds: WoundRules = field(default_factory=WoundRules)
    crit_effects: CritPolicy = "non_lethal"

    @classmethod
    def from_options(cls, opts: RulesOptions) -> CombatRules:
        """Copy what the attack needs out of validated options."""
        return cls(
            target_mode=opts.fadad.target_mode,
            shield_mode=opts.shield_mode,
            damage=DamageRules.from_options(opts),
            wounds=WoundRules.from_options(opts),
            crit_effects=opts.fadad.crit_effects,
        )


@dataclass(frozen=True, slots=True)
class Protection:
    """How the defender's wound is recorded beyond the options (``wounds-and-healing.md`` 8, 12).

    Attributes:
        pc: the PC-death options apply (never to ordinary NPCs).
        incap_at_round_start: the defender began the round Incapacitated (PC option 2).
        point_spent: an Ite/Fudge point is spent to turn a deadly wound into Incapacitated.
        pulled_to: a pulled punch: the attacker's announced maximum wound level.
    """

    pc: bool = False
    incap_at_round_start: bool = False
    point_spent: bool = False
    pulled_to: int | None = None


NO_PROTECTION = Protection()


@dataclass(frozen=True, slots=True)
class AttackResult:
    """Everything one attack did, for the engine and the battle log."""

    attack_dice: int
    attack_rolled: int
    defence_dice: int | None
    defence_rolled: int | None
    target: int
    rd: int
    hit: bool
    crits: int
    crit_effects: tuple[CritEffect, ...]
    damage: int
    damage_dice: tuple[int, ...]
    wound: Wound
    track: WoundTrack


@dataclass(frozen=True, slots=True, order=True)
class AttackOutcome:
    """The part of an :class:`AttackResult` whose exact distribution is exposed."""

    hit: bool
    crits: int
    wound: Wound


def _modifiers(
    attacker: Fighter, defender: Fighter, rules: CombatRules, attacker_penalty: int, modifier: int
) -> int:
    return modifier + melee_attack_modifier(
        wound_penalty=attacker_penalty,
        own_shield=attacker.shield,
        opponent_shield=defender.shield,
        shield_mode=rules.shield_mode,
    )


def _target(attacker: Fighter, defender: Fighter, rules: CombatRules, shield_rank: int) -> int:
    return defender_target(
        defender.scale,
        attacker.scale,
        shield=defender.shield,
        shield_rank=shield_rank,
        shield_mode=rules.shield_mode,
    )


def _exchange(
    attacker: Fighter,
    defender: Fighter,
    rules: CombatRules,
    attack_dice: int,
    defence_dice: int | None,
    attacker_penalty: int,
    defender_penalty: int,
    modifier: int,
    shield_rank: int,
) -> tuple[int, int, int | None, Opposed]:
    """The opposed part of an attack: (Target, attack rolled, defence rolled, result)."""
    target = _target(attacker, defender, rules, shield_rank)
    a_mod = _modifiers(attacker, defender, rules, attacker_penalty, modifier)
    a_rolled = rolled_degree(attacker.attack, attack_dice, a_mod)
    d_rolled = (
        None
        if defence_dice is None
        else rolled_degree(defender.defence, defence_dice, defender_penalty)
    )
    result = opposed(a_rolled, d_rolled, target, attack_dice=attack_dice, mode=rules.target_mode)
    return target, a_rolled, d_rolled, result


def attack_from_dice(
    attacker: Fighter,
    defender: Fighter,
    track: WoundTrack,
    rules: CombatRules,
    attack_dice: int,
    defence_dice: int | None,
    damage_dice: tuple[int, ...],
    *,
    crit_effects: tuple[CritEffect, ...] = (),
    attacker_penalty: int = 0,
    defender_penalty: int = 0,
    modifier: int = 0,
    shield_rank: int = 1,
    protection: Protection = NO_PROTECTION,
) -> AttackResult:
    """Resolve one attack whose dice are all given (pure; EX-PC-02..05 run through it).

    ``defence_dice=None`` is an undefended attack, resolved against the Target only (A-07).
    ``damage_dice`` are the damage roll the wound model uses (ignored on a miss).
    Penalties are the fighters' wound (and stun) penalties, <= 0.
    """
    target, a_rolled, d_rolled, result = _exchange(
        attacker, defender, rules, attack_dice, defence_dice,
        attacker_penalty, defender_penalty, modifier, shield_rank,
    )  # fmt: skip
    if not result.hit:
        return AttackResult(
            attack_dice, a_rolled, defence_dice, d_rolled, target, result.rd, False, 0, (),
            0, (), Wound.UNDAMAGED, track,
        )  # fmt: skip
    crits = crit_count(result.rd, attack_dice)
    effects = crit_modifiers(crit_effects)
    factor = attacker.odm - defender.ddm
    if effects.ignore_armour:
        factor += defender.armour
    hit = wound_from_dice(
        rules.damage,
        result.rd,
        factor,
        damage_dice,
        attacker_dice=attack_dice,
        defender_dice=1 if defence_dice is None else defence_dice,
        scale_advantage=attacker.scale - defender.scale,
        damage_bonus=effects.damage_bonus,
        weapon_group=attacker.weapon_group,
        armour_group=0 if effects.ignore_armour else armour_group(defender.armour),
        critical=crits > 0,
    )
    wound = hit.wound
    if wound and effects.level_bonus:
        wound = Wound(min(wound + effects.level_bonus, Wound.DEAD))
    new_track = record_wound(
        rules.wounds,
        track,
        wound,
        pc=protection.pc,
        incap_at_round_start=protection.incap_at_round_start,
        point_spent=protection.point_spent,
        pulled_to=protection.pulled_to,
    )
    return AttackResult(
        attack_dice, a_rolled, defence_dice, d_rolled, target, result.rd, True, crits,
        crit_effects, hit.damage, hit.dice, wound, new_track,
    )  # fmt: skip


def _damage_kind(attacker: Fighter, defender: Fighter, rules: CombatRules, rd: int) -> str:
    return damage_dice_kind(
        rules.damage, rd, attacker.odm - defender.ddm, attacker.scale - defender.scale
    )


def resolve_attack(
    attacker: Fighter,
    defender: Fighter,
    track: WoundTrack,
    rng: random.Random,
    rules: CombatRules,
    *,
    attacker_penalty: int = 0,
    defender_penalty: int = 0,
    defended: bool = True,
    modifier: int = 0,
    shield_rank: int = 1,
    protection: Protection = NO_PROTECTION,
) -> AttackResult:
    """Roll one attack: attacker's 4dF, defender's 4dF (if defended), crit effects, damage.

    Draw order is fixed (attack dice, defence dice, crit effects, damage dice), so the same
    stream gives the same attack in any process.
    """
    attack_dice = roll_4df(rng)
    defence_dice = roll_4df(rng) if defended else None
    *_, probe = _exchange(
        attacker, defender, rules, attack_dice, defence_dice,
        attacker_penalty, defender_penalty, modifier, shield_rank,
    )  # fmt: skip
    effects: tuple[CritEffect, ...] = ()
    damage_dice: tuple[int, ...] = ()
    if probe.hit:
        crits = crit_count(probe.rd, attack_dice)
        if crits and rules.crit_effects != "none":
            effects = roll_crits(crits, rng, non_lethal=rules.crit_effects == "non_lethal")
        damage_dice = roll_damage_dice(_damage_kind(attacker, defender, rules, probe.rd), rng)
    return attack_from_dice(
        attacker, defender, track, rules, attack_dice, defence_dice, damage_dice,
        crit_effects=effects, attacker_penalty=attacker_penalty,
        defender_penalty=defender_penalty, modifier=modifier, shield_rank=shield_rank,
        protection=protection,
    )  # fmt: skip


def attack_outcomes(
    attacker: Fighter,
    defender: Fighter,
    track: WoundTrack,
    rules: CombatRules,
    *,
    attacker_penalty: int = 0,
    defender_penalty: int = 0,
    defended: bool = True,
    modifier: int = 0,
    shield_rank: int = 1,
    protection: Protection = NO_PROTECTION,
) -> Distribution[AttackOutcome]:
    """Exact distribution of (hit, crits, wound) for :func:`resolve_attack`, sorted.

    Enumerates the 81 x 81 opposed dice, the crit effects and the damage dice.
    """
    from fadad_agents.rules.dice import fudge_distribution

    four_df = fudge_distribution(4)
    defence_dist: Distribution[int | None] = list(four_df) if defended else [(None, Fraction(1))]
    merged: dict[AttackOutcome, Fraction] = {}
    for a_dice, pa in four_df:
        for d_dice, pd in defence_dist:
            *_, probe = _exchange(
                attacker, defender, rules, a_dice, d_dice,
                attacker_penalty, defender_penalty, modifier, shield_rank,
            )  # fmt: skip
            p = pa * pd
            if not probe.hit:
                key = AttackOutcome(False, 0, Wound.UNDAMAGED)
                merged[key] = merged.get(key, Fraction(0)) + p
                continue
            effect_dist: Distribution[tuple[CritEffect, ...]] = [((), Fraction(1))]
            if probe.crits and rules.crit_effects != "none":
                effect_dist = crits_outcomes(
                    crit_count(probe.rd, a_dice), non_lethal=rules.crit_effects == "non_lethal"
                )
            kind = _damage_kind(attacker, defender, rules, probe.rd)
            for effects, pe in effect_dist:
                for dmg, pdmg in damage_dice_outcomes(kind):
                    res = attack_from_dice(
                        attacker, defender, track, rules, a_dice, d_dice, dmg,
                        crit_effects=effects, attacker_penalty=attacker_penalty,
                        defender_penalty=defender_penalty, modifier=modifier,
                        shield_rank=shield_rank, protection=protection,
                    )  # fmt: skip
                    key = AttackOutcome(True, res.crits, res.wound)
                    merged[key] = merged.get(key, Fraction(0)) + p * pe * pdmg
    return sorted(merged.items())
