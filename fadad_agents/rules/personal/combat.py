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
sampler; :mod:`~fadad_agents.rules.personal.attack_odds` gives its exact distribution.

>>> snorri = Fighter("Snorri", attack=2, defence=2, odm=5, ddm=3)
>>> brynhild = Fighter("Brynhild", attack=1, defence=1, odm=5, ddm=2, shield="medium")
>>> rules = CombatRules()
>>> hit = attack_from_dice(snorri, brynhild, new_track(), rules, 1, 1, (-2,))  # EX-PC-03
>>> hit.rd, hit.damage, hit.wound.label
(1, 2, 'Scratch')
"""

from __future__ import annotations

import random
from functools import lru_cache
from math import floor
from typing import NamedTuple

from fadad_agents.rules.core.actions import TARGET_MODES, ActionError, crit_count
from fadad_agents.rules.core.damage import fadad_damage
from fadad_agents.rules.core.dice import (
    FOUR_DF,
    TABLE_4DF,
    TableDice,
)
from fadad_agents.rules.core.wounds import Wound, WoundTrack, record, wound_for_damage
from fadad_agents.rules.personal.criticals import (
    CRIT_EFFECTS,
    CritEffect,
    CritModifiers,
    crit_modifiers,
    roll_crits,
)
from fadad_agents.rules.personal.damage import armour_group, pierced_scale
from fadad_agents.rules.personal.dc_track import DcTrack, Track, dc_record_blow
from fadad_agents.rules.personal.fighter import NO_PROTECTION, CombatRules, Fighter, Protection
from fadad_agents.rules.personal.melee import Shield, defender_target, melee_attack_modifier
from fadad_agents.rules.personal.wound_models import (
    damage_dice_kind,
    recording_cap,
    roll_damage_dice,
    wound_from_dice,
)

__all__ = [
    "NO_PROTECTION",
    "AttackResult",
    "CombatRules",
    "Fighter",
    "Protection",
    "attack_from_dice",
    "damage_kind",
    "exchange",
    "resolve_attack",
]


class AttackResult(NamedTuple):
    """Everything one attack did, for the engine and the battle log.

    An immutable named tuple rather than a frozen dataclass: the engine makes one per
    swing, and a frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field)
    cost about a quarter of the whole attack.
    """

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
    track: Track


_effects_of = lru_cache(maxsize=256)(crit_modifiers)
""":func:`criticals.crit_modifiers`, cached: a hit's crits come from a few effect tuples."""

_LONE_CRIT: dict[str, CritModifiers] = {e.name: crit_modifiers((e,)) for e in CRIT_EFFECTS}
""":func:`criticals.crit_modifiers` of each lone crit, by its name (what it reads)."""


def _crit_modifiers(effects: tuple[CritEffect, ...]) -> CritModifiers:
    """:func:`criticals.crit_modifiers` from memory: a lone crit (most) by its name, as
    hashing the effect for the cache, a dataclass, is a Python call per effect."""
    if len(effects) == 1:
        try:
            return _LONE_CRIT[effects[0].name]
        except KeyError:  # an effect of another kernel's
            pass
    return _effects_of(effects)


_new_result = tuple.__new__
"""``AttackResult(*fields)`` is ``tuple.__new__(AttackResult, fields)`` behind a generated
Python ``__new__``: the sampler calls it directly, one frame less on every swing."""

_UNDAMAGED, _DEAD = Wound.UNDAMAGED, Wound.DEAD
"""Two wound levels every swing reads, as module names: an enum member read off its class
is an attribute look-up CPython 3.12 does not cache."""

_ONE_4DF: tuple[tuple[int], ...] = tuple((total,) for total in TABLE_4DF)
"""``(roll_4df(rng),)`` for each draw, made once: a hit's damage dice without a new tuple."""


_SCALE_TARGETS: dict[int, int] = {}
"""The Target of a defender a Scale difference above its attacker, neither with a shield
(what :func:`_pair_constants` gives then), made on first use: a dict look-up, which CPython
3.12 calls in its specialised way (an ``lru_cache`` wrapper takes the generic call)."""


@lru_cache(maxsize=1024)
def _pair_constants(
    attacker_scale: int,
    attacker_shield: Shield | None,
    defender_scale: int,
    defender_shield: Shield | None,
    shield_rank: int,
    shield_mode: str,
    shield_cap: int | None = None,
) -> tuple[int, int]:
    """(defender's Target, attacker's shield modifier) of one pair: what an exchange needs
    that neither the dice nor the wounds change. Cached: a battle has few distinct pairs."""
    target = defender_target(
        defender_scale,
        attacker_scale,
        shield=defender_shield,
        shield_rank=shield_rank,
        shield_cap=shield_cap,
        shield_mode=shield_mode,
    )
    modifier = melee_attack_modifier(
        own_shield=attacker_shield, opponent_shield=defender_shield, shield_mode=shield_mode
    )
    return target, modifier


def exchange(
    attacker: Fighter,
    defender: Fighter,
    rules: CombatRules,
    attack_dice: int,
    defence_dice: int | None,
    attacker_penalty: int,
    defender_penalty: int,
    modifier: int,
    shield_rank: int,
    target_bonus: int = 0,
) -> tuple[int, int, int | None, int, bool]:
    """The opposed part of an attack: (Target, attack rolled, defence rolled, RD, hit).

    The same arithmetic as :func:`actions.opposed` over :func:`actions.rolled_degree`,
    inlined because every swing runs it (the tests hold the two together). Public for the
    exact duel odds, which enumerate the opposed rolls themselves.
    ``target_bonus`` raises the Target (a quickly moving defender, section 5).
    """
    if attacker.shield is None and defender.shield is None:  # most fights: no cache key to hash
        difference = defender.scale - attacker.scale
        try:  # a subscript, not get: no method call (a missing key costs only once)
            target = _SCALE_TARGETS[difference]
        except KeyError:
            target = _SCALE_TARGETS[difference] = defender_target(difference, 0)
        shield_modifier = 0
    else:
        target, shield_modifier = _pair_constants(
            attacker.scale, attacker.shield, defender.scale, defender.shield, shield_rank,
            rules.shield_mode, defender.shield_cap,
        )  # fmt: skip
    target += target_bonus
    a_rolled = attacker.attack + (modifier + attacker_penalty + shield_modifier) + attack_dice
    mode = rules.target_mode
    if mode not in TARGET_MODES:
        raise ActionError(f"unknown target mode {mode!r}; allowed: {', '.join(TARGET_MODES)}")
    if defence_dice is None:  # undefended: the Target alone opposes
        rd = a_rolled - target
        # in gate mode the Target is a minimum rolled degree (>=), so RD 0 hits there
        return target, a_rolled, None, rd, rd >= 1 or (rd >= 0 and mode == "target_gate_gte")
    d_rolled = defender.defence + defender_penalty + defence_dice
    if mode == "effective_opposition":
        rd = a_rolled - (d_rolled if d_rolled > target else target)
        return target, a_rolled, d_rolled, rd, rd >= 1
    rd = a_rolled - d_rolled
    return target, a_rolled, d_rolled, rd, rd >= 1 and a_rolled >= target


def _land_hit(
    attacker: Fighter,
    defender: Fighter,
    track: Track,
    rules: CombatRules,
    rd: int,
    crits: int,
    attack_dice: int,
    defence_dice: int | None,
    damage_dice: tuple[int, ...],
    crit_effects: tuple[CritEffect, ...],
    protection: Protection,
) -> tuple[int, tuple[int, ...], Wound, Track]:
    """A hit's damage number and dice, its wound after the crits, and the defender's new
    track."""
    if attacker.scale_piercing == "none":  # _factor's answer without its call: most weapons
        factor = attacker.odm - defender.ddm
    else:
        factor = _factor(attacker, defender, rules, rd)
    damage_bonus = level_bonus = 0
    ignore_armour = False
    if crit_effects:
        effects = _crit_modifiers(crit_effects)
        damage_bonus, level_bonus = effects.damage_bonus, effects.level_bonus
        ignore_armour = effects.ignore_armour
        if ignore_armour:
            factor += defender.armour
    damage = rules.damage
    weapon_group = attacker.weapon_group
    groups = damage.weapon_groups and weapon_group is not None
    if damage.wound_model == "fadad" and not damage_bonus and not groups:
        # wound_from_dice's own first branch, without its call of eleven keywords: the
        # plain FADAD hit, most hits of most battles
        number = fadad_damage(rd, factor, damage_dice[0])
        wound = wound_for_damage(number)
    else:
        hit = wound_from_dice(
            damage,
            rd,
            factor,
            damage_dice,
            attacker_dice=attack_dice,
            defender_dice=1 if defence_dice is None else defence_dice,
            scale_advantage=attacker.scale - defender.scale,
            damage_bonus=damage_bonus,
            weapon_group=weapon_group,
            # The armour group only matters under the weapon-groups option.
            armour_group=(
                0
                if not groups or ignore_armour
                else armour_group(defender.armour)
                if defender.armour_group is None
                else defender.armour_group
            ),
            critical=crits > 0,
        )
        number, damage_dice, wound = hit.damage, hit.dice, hit.wound
    w = rules.wounds
    cap: int = _DEAD
    if protection is not NO_PROTECTION:
        cap = recording_cap(
            w,
            track,
            pc=protection.pc,
            incap_at_round_start=protection.incap_at_round_start,
            point_spent=protection.point_spent,
            pulled_to=protection.pulled_to,
        )
    if isinstance(track, DcTrack):  # wounds-and-healing.md 6.4: a blow lowers the DC
        blown = dc_record_blow(track, wound, vitals=level_bonus, max_level=cap)
        return number, damage_dice, wound, blown
    scratch_cap, overflow = w.scratch_cap, w.overflow_past_near_death
    new_track = record(track, wound, scratch_cap, overflow, cap)  # in order: a hit's call
    if wound and level_bonus:  # Vitals: one more wound level after recording, per Vitals
        for _ in range(level_bonus):
            worse = min(new_track.level + 1, Wound.DEAD)
            new_track = record(
                new_track, worse, scratch_cap=scratch_cap, overflow_past_near_death=overflow,
                max_level=cap,
            )  # fmt: skip
    return number, damage_dice, wound, new_track


def attack_from_dice(
    attacker: Fighter,
    defender: Fighter,
    track: Track,
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
    target_bonus: int = 0,
) -> AttackResult:
    """Resolve one attack whose dice are all given (pure; EX-PC-02..05 run through it).

    ``defence_dice=None`` is an undefended attack, resolved against the Target only (A-07).
    ``damage_dice`` are the damage roll the wound model uses (ignored on a miss).
    Penalties are the fighters' wound (and stun) penalties, <= 0.
    """
    target, a_rolled, d_rolled, rd, hit = exchange(
        attacker, defender, rules, attack_dice, defence_dice,
        attacker_penalty, defender_penalty, modifier, shield_rank, target_bonus,
    )  # fmt: skip
    if not hit:
        return AttackResult(
            attack_dice, a_rolled, defence_dice, d_rolled, target, rd, False, 0, (),
            0, (), Wound.UNDAMAGED, track,
        )  # fmt: skip
    crits = crit_count(rd, attack_dice)
    number, dice, wound, new_track = _land_hit(
        attacker, defender, track, rules, rd, crits, attack_dice, defence_dice, damage_dice,
        crit_effects, protection,
    )  # fmt: skip
    return AttackResult(
        attack_dice, a_rolled, defence_dice, d_rolled, target, rd, True, crits,
        crit_effects, number, dice, wound, new_track,
    )  # fmt: skip


def _factor(attacker: Fighter, defender: Fighter, rules: CombatRules, rd: int) -> int:
    """ODM - DDM of a hit winning by ``rd``: a scale-piercing weapon's good hit halves or
    ignores the defender's Mass Scale (section 11, ``scale_piercing_min_rd``)."""
    factor = attacker.odm - defender.ddm
    if attacker.scale_piercing != "none":
        mass = defender.scale if defender.mass_scale is None else defender.mass_scale
        pierced = pierced_scale(mass, rd, attacker.scale_piercing, rules.damage.piercing_min_rd)
        factor += mass - pierced
    return factor


def damage_kind(attacker: Fighter, defender: Fighter, rules: CombatRules, rd: int) -> str:
    """Which damage dice a hit by ``rd`` rolls (:func:`damage_dice_kind`), given both
    fighters' factors and Scales: what the exact duel odds enumerate a hit over."""
    return damage_dice_kind(
        rules.damage, rd, _factor(attacker, defender, rules, rd), attacker.scale - defender.scale
    )


def resolve_attack(
    attacker: Fighter,
    defender: Fighter,
    track: Track,
    rng: random.Random,
    rules: CombatRules,
    attacker_penalty: int = 0,
    defender_penalty: int = 0,
    defended: bool = True,
    modifier: int = 0,
    shield_rank: int = 1,
    protection: Protection = NO_PROTECTION,
    target_bonus: int = 0,
) -> AttackResult:
    """Roll one attack: attacker's 4dF, defender's 4dF (if defended), crit effects, damage.

    Draw order is fixed (attack dice, defence dice, crit effects, damage dice), so the same
    stream gives the same attack in any process. The result is
    :func:`attack_from_dice` of the drawn dice (one pass: the exchange is not redone).

    Name the arguments after ``rules``; the engine's blows alone (the plain melee's and
    ``agents.core.blows.strike``) pass them in order, as every swing's call with keywords
    costs CPython 3.12 about 600 machine instructions more (an unspecialised call binding
    each keyword by name).
    """
    # The stream's class's method, called with the stream: ``rng.random`` would make a
    # bound method every swing (CPython 3.12 never caches that look-up on a Random).
    draw = type(rng).random
    attack_dice = TABLE_4DF[floor(draw(rng) * 81.0)]  # roll_4df, inlined (floor: see TABLE_4DF)
    defence_dice = TABLE_4DF[floor(draw(rng) * 81.0)] if defended else None
    if (
        rules.plain
        and attacker.plain
        and defender.plain
        and protection is NO_PROTECTION
        and track.__class__ is WoundTrack
        and rng.__class__ is not TableDice
    ):
        # The plain path, most swings of most battles: exchange's unshielded effective
        # opposition and _land_hit's plain FADAD hit (crits adding no damage or wound
        # level), inlined, the rules' own functions called (crit_count, fadad_damage,
        # wound_for_damage): calls and tuples saved a swing (test_attack_sampler holds
        # the path to the general one draw for draw).
        difference = defender.scale - attacker.scale
        try:  # a subscript, not get: no method call (a missing key costs only once)
            target = _SCALE_TARGETS[difference]
        except KeyError:
            target = _SCALE_TARGETS[difference] = defender_target(difference, 0)
        target += target_bonus
        a_rolled = attacker.attack + (modifier + attacker_penalty) + attack_dice
        if defence_dice is None:
            d_rolled = None
            rd = a_rolled - target
        else:
            d_rolled = defender.defence + defender_penalty + defence_dice
            rd = a_rolled - (d_rolled if d_rolled > target else target)
        if rd < 1:
            return _new_result(AttackResult, (
                attack_dice, a_rolled, defence_dice, d_rolled, target, rd, False, 0, (),
                0, (), _UNDAMAGED, track,
            ))  # fmt: skip
        crits = crit_count(rd, attack_dice)
        policy = rules.crit_effects
        drawn: tuple[CritEffect, ...] = ()
        factor = attacker.odm - defender.ddm
        if crits and policy != "none":
            drawn = roll_crits(crits, rng, policy == "non_lethal")  # in order: a crit's call
            mods = _crit_modifiers(drawn)
            if mods.damage_bonus or mods.level_bonus:  # _land_hit reads them
                number, dice, wound, new_track = _land_hit(
                    attacker, defender, track, rules, rd, crits, attack_dice, defence_dice,
                    _ONE_4DF[floor(draw(rng) * 81.0)], drawn, protection,
                )  # fmt: skip
                return _new_result(AttackResult, (
                    attack_dice, a_rolled, defence_dice, d_rolled, target, rd, True, crits,
                    drawn, number, dice, wound, new_track,
                ))  # fmt: skip
            if mods.ignore_armour:  # a Weak Spot
                factor += defender.armour
        dice = _ONE_4DF[floor(draw(rng) * 81.0)]
        number = fadad_damage(rd, factor, dice[0])
        wound = wound_for_damage(number)
        w = rules.wounds
        new_track = record(track, wound, w.scratch_cap, w.overflow_past_near_death, _DEAD)
        return _new_result(AttackResult, (
            attack_dice, a_rolled, defence_dice, d_rolled, target, rd, True, crits, drawn,
            number, dice, wound, new_track,
        ))  # fmt: skip
    # Some rolls made at the table: one class check a swing.
    table = rng if rng.__class__ is TableDice else None
    if table is not None:
        attack_dice = table.called(FOUR_DF, attack_dice, "attack", attacker.name)
        if defence_dice is not None:
            defence_dice = table.called(FOUR_DF, defence_dice, "defence", defender.name)
    target, a_rolled, d_rolled, rd, hit = exchange(
        attacker, defender, rules, attack_dice, defence_dice,
        attacker_penalty, defender_penalty, modifier, shield_rank, target_bonus,
    )  # fmt: skip
    if not hit:
        return _new_result(AttackResult, (
            attack_dice, a_rolled, defence_dice, d_rolled, target, rd, False, 0, (),
            0, (), _UNDAMAGED, track,
        ))  # fmt: skip
    crits = crit_count(rd, attack_dice)
    effects: tuple[CritEffect, ...] = ()
    policy = rules.crit_effects
    if crits and policy != "none":
        effects = roll_crits(crits, rng, policy == "non_lethal")  # in order: a crit's call
    damage = rules.damage
    if damage.wound_model == "fadad":  # damage_dice_kind's answer for FADAD, without the call
        damage_dice: tuple[int, ...] = _ONE_4DF[floor(draw(rng) * 81.0)]
        if table is not None:
            damage_dice = (table.called(FOUR_DF, damage_dice[0], "damage", attacker.name),)
    else:
        kind = damage_kind(attacker, defender, rules, rd)
        damage_dice = roll_damage_dice(kind, rng, owner=attacker.name)
    number, dice, wound, new_track = _land_hit(
        attacker, defender, track, rules, rd, crits, attack_dice, defence_dice, damage_dice,
        effects, protection,
    )  # fmt: skip
    return _new_result(AttackResult, (
        attack_dice, a_rolled, defence_dice, d_rolled, target, rd, True, crits,
        effects, number, dice, wound, new_track,
    ))  # fmt: skip
