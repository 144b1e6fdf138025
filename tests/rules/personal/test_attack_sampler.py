"""The melee sampler's shortcuts (issue 19) against the kernel's general pieces, draw for draw.

:func:`resolve_attack` inlines its dice, skips the shield cache when no shield is in play,
draws a lone crit from the whole pool, reads a plain FADAD hit without
:func:`wound_from_dice`'s keywords and records wounds from memory. Each shortcut must give
the same result from the same draws as the slow composition of the public samplers.
"""

import random
from itertools import product

from fadad_agents.rules.core.actions import crit_count, roll_initiative
from fadad_agents.rules.core.dice import roll_4df
from fadad_agents.rules.core.wounds import (
    TRACK_BOXES,
    Wound,
    WoundTrack,
    custom_track,
    new_track,
    record,
)
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal.combat import (
    NO_PROTECTION,
    AttackResult,
    CombatRules,
    Fighter,
    Protection,
    attack_from_dice,
    damage_kind,
    exchange,
    resolve_attack,
)
from fadad_agents.rules.personal.criticals import crit_modifiers, roll_crit_effect
from fadad_agents.rules.personal.dc_track import new_dc_track
from fadad_agents.rules.personal.wound_models import roll_damage_dice, wound_from_dice

SWORDSMAN = Fighter("Red", attack=1, defence=1, odm=3, ddm=2, armour=2, weapon_group=2)
SHIELDED = Fighter("Blue", attack=1, defence=1, odm=3, ddm=2, shield="medium", armour=2)
OGRE = Fighter("Ogre", attack=0, defence=0, odm=6, ddm=5, scale=4, armour=1, armour_group=1)

RULE_SETS = {
    "default": {},
    "every crit": {"fadad.crit_effects": "random"},
    "no crit effects": {"fadad.crit_effects": "none"},
    "weapon groups": {"fudge.weapon_groups": True, "fadad.crit_effects": "random"},
    "fudge numeric": {"wound_model": "fudge_numeric", "fudge.damage_roll": "1dF_factor"},
    "min-mid-max": {"wound_model": "fudge_minmidmax"},
    "target gate": {"fadad.target_mode": "target_gate_gte", "shield_mode": "fudge_skill_penalty"},
    "scratch cap": {"scratch_cap": True, "overflow_past_near_death": "stay_near_death"},
}


def _slow_attack(
    attacker: Fighter,
    defender: Fighter,
    track: object,
    rng: random.Random,
    rules: CombatRules,
    defended: bool,
    **context: object,
) -> AttackResult:
    """resolve_attack as the composition of the public samplers and attack_from_dice."""
    a_dice = roll_4df(rng, "attack", attacker.name)
    d_dice = roll_4df(rng, "defence", defender.name) if defended else None
    opposed = [context.get(k, 0) for k in ("attacker_penalty", "defender_penalty", "modifier")]
    rank, bonus = context.get("shield_rank", 1), context.get("target_bonus", 0)
    *_, rd, hit = exchange(attacker, defender, rules, a_dice, d_dice, *opposed, rank, bonus)
    effects: tuple = ()
    dice: tuple[int, ...] = ()
    if hit:
        crits = crit_count(rd, a_dice)
        for _ in range(crits if rules.crit_effects != "none" else 0):
            non_lethal = rules.crit_effects == "non_lethal"
            effects = (*effects, roll_crit_effect(rng, non_lethal=non_lethal, taken=effects))
        dice = roll_damage_dice(damage_kind(attacker, defender, rules, rd), rng, attacker.name)
    return attack_from_dice(
        attacker, defender, track, rules, a_dice, d_dice, dice, crit_effects=effects, **context
    )


def _by_value(track: object) -> object:
    """The same track as a new object: nothing recorded on it is known from memory."""
    if isinstance(track, WoundTrack):
        return WoundTrack(track.kind, track.boxes, track.filled, track.marks, track.dead)
    return track


def _general_wound(attacker: Fighter, defender: Fighter, rules: CombatRules, res: AttackResult):
    """The hit's wound through wound_from_dice with every keyword (the kernel's general path)."""
    effects = crit_modifiers(res.crit_effects)
    factor = attacker.odm - defender.ddm + (defender.armour if effects.ignore_armour else 0)
    groups = rules.damage.weapon_groups and attacker.weapon_group is not None
    grouped = groups and not effects.ignore_armour
    return wound_from_dice(
        rules.damage,
        res.rd,
        factor,
        res.damage_dice,
        attacker_dice=res.attack_dice,
        defender_dice=1 if res.defence_dice is None else res.defence_dice,
        scale_advantage=attacker.scale - defender.scale,
        damage_bonus=effects.damage_bonus,
        weapon_group=attacker.weapon_group,
        armour_group=(defender.armour_group or 0) if grouped else 0,
        critical=res.crits > 0,
    )


def test_resolve_attack_is_the_slow_composition_draw_for_draw():
    """Under every rule set, pair, track and protection, resolve_attack gives the result of
    the public samplers and attack_from_dice, leaves the stream where they leave it, and
    reads each hit's wound as wound_from_dice does."""
    pairs = [(SWORDSMAN, SHIELDED), (SHIELDED, SWORDSMAN), (SWORDSMAN, OGRE), (OGRE, SWORDSMAN)]
    protections = [
        NO_PROTECTION,  # the plain path's (an equal Protection() is not it)
        Protection(),
        Protection(pc=True),
        Protection(pulled_to=Wound.HURT),
    ]
    hits = plain = 0
    for (name, flat), (attacker, defender), protection in product(
        RULE_SETS.items(), pairs, protections
    ):
        rules = CombatRules.from_options(RulesOptions.from_flat(flat))
        fast_rng, slow_rng = random.Random(name), random.Random(name)
        track = new_track()
        for swing in range(120):
            context = {
                "attacker_penalty": -(swing % 3 == 0),
                "defender_penalty": -(swing % 5 == 0),
                "modifier": swing % 4 == 1,
                "shield_rank": swing % 2,
                "target_bonus": swing % 11 == 0,
                "protection": protection,
            }
            defended = swing % 7 != 0
            fast = resolve_attack(
                attacker, defender, track, fast_rng, rules, defended=defended, **context
            )
            slow = _slow_attack(
                attacker, defender, _by_value(track), slow_rng, rules, defended, **context
            )
            assert fast == slow, (name, swing)
            plain += (
                rules.plain and attacker.plain and defender.plain and protection is NO_PROTECTION
            )
            assert fast_rng.getstate() == slow_rng.getstate(), (name, swing)
            if fast.hit and not protection.pc and protection.pulled_to is None:
                dealt = _general_wound(attacker, defender, rules, fast)
                assert (fast.damage, fast.wound) == (dealt.damage, dealt.wound), (name, swing)
                hits += 1
            track = new_track() if fast.track.out_of_fight else fast.track
    assert hits > 1000
    assert plain >= 4 * 2 * 120  # four plain rule sets, two unshielded pairs


def test_the_damage_capacity_track_takes_the_same_blows():
    """On the Damage-Capacity track (section 6.4) the sampler is the slow composition too."""
    rules = CombatRules.from_options(RulesOptions.from_flat({"fadad.crit_effects": "random"}))
    fast_rng, slow_rng = random.Random(3), random.Random(3)
    track = new_dc_track(2)
    for _ in range(300):
        fast = resolve_attack(OGRE, SWORDSMAN, track, fast_rng, rules)
        assert fast == _slow_attack(OGRE, SWORDSMAN, track, slow_rng, rules, True)
        track = new_dc_track(2) if fast.track.out_of_fight else fast.track
    assert fast_rng.getstate() == slow_rng.getstate()


def test_record_from_memory_is_record_worked_out():
    """Every wound sequence under every option leaves the same track whether record answers
    from memory (tracks shared from new_track) or works it out on a new object."""
    rng = random.Random(19)
    layouts = [new_track(kind) for kind in TRACK_BOXES] + [custom_track((1, 2, 0, 1, 1))]
    for _ in range(3000):
        shared = rng.choice(layouts)
        fresh = _by_value(shared)
        options = {
            "scratch_cap": rng.random() < 0.3,
            "overflow_past_near_death": rng.choice(("dead", "stay_near_death")),
            "max_level": rng.choice((Wound.DEAD, Wound.DEAD, Wound.INCAPACITATED, 2)),
        }
        for _ in range(rng.randint(1, 6)):
            wound = rng.randint(0, 6)
            shared = record(shared, wound, **options)
            fresh = record(_by_value(fresh), wound, **options)
            assert shared == fresh


def test_empty_tracks_are_shared_values():
    """new_track and custom_track give one shared empty value per layout, equal to a new one."""
    assert new_track("epic") is new_track("epic")
    assert new_track("epic") == WoundTrack("epic", TRACK_BOXES["epic"])
    assert custom_track((2, 1, 1, 1, 1)) is custom_track((2, 1, 1, 1, 1))
    assert custom_track((2, 1, 1, 1, 1)) == WoundTrack("custom", (2, 1, 1, 1, 1))


def test_rolled_initiative_is_trait_plus_one_4df_draw():
    """A-05: a rolled initiative is the trait plus roll_4df's draw from the same stream."""
    fast_rng, slow_rng = random.Random(5), random.Random(5)
    for trait in [t for t in range(-2, 4) for _ in range(50)]:
        assert roll_initiative(trait, fast_rng, "rolled") == trait + roll_4df(slow_rng)
    assert fast_rng.getstate() == slow_rng.getstate()
