"""Every field of a Fae stat block changes a battle as its rule says (sections 1-7).

Each case plays the same seeds with one field at two values and checks the difference its
rule calls for; ``tests/liveness_registry.py`` names the case of each field.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
import yaml

from fadad_agents.engine import LogEvent, build_battle, load
from fadad_agents.engine.fae.battle import FaeBattle
from fadad_agents.policies import REGISTRY


def _fighter(name: str, x: float, **over: Any) -> dict[str, Any]:
    """A plain Fae fighter (Sword 60, longsword, WP and FP 300) with ``over`` merged in."""
    base: dict[str, Any] = {
        "name": name,
        "attributes": {"strength": 60, "agility": 60, "luck": 50, "reaction": 60},
        "skills": {"Sword": 60, "Dodge": 30},
        "wound_points": 300,
        "fatigue_points": 300,
        "weapons": ["fae/longsword"],
        "position": [x, 0],
        "policies": {"fae_defence": "none"},
    }
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            base[key] = {**base[key], **value}
        else:
            base[key] = value
    return base


PASSIVE = {"fae_action": "passive", "fae_defence": "none"}


def _play(
    red: list[dict[str, Any]],
    blue: list[dict[str, Any]],
    rules: dict[str, Any] | None = None,
    seeds: range = range(3),
    rounds: int = 3,
) -> list[FaeBattle]:
    scenario = {
        "name": "stat block",
        "ruleset": "fae",
        "rules": rules or {},
        "sides": [{"name": "Red", "forces": red}, {"name": "Blue", "forces": blue}],
        "stop": {"max_rounds": rounds},
    }
    model = load(yaml.safe_dump(scenario))
    out = []
    for seed in seeds:
        battle = build_battle(model, seed=seed)
        assert isinstance(battle, FaeBattle)
        battle.run_to_end()
        out.append(battle)
    return out


def _events(battles: list[FaeBattle], action: str, actor: str | None = None) -> list[LogEvent]:
    return [
        e
        for b in battles
        for e in b.log.events
        if e.action == action and (actor is None or e.actor.startswith(actor))
    ]


def _mod(events: list[LogEvent], key: str) -> set[Any]:
    return {dict(e.modifiers)[key] for e in events if key in dict(e.modifiers)}


def _out(events: list[LogEvent], key: str) -> set[Any]:
    return {dict(e.outcome)[key] for e in events if key in dict(e.outcome)}


def _attack_mcs(ann: dict[str, Any], bob: dict[str, Any] | None = None, **kw: Any) -> set[int]:
    """Ann's attack chances against a passive Bob."""
    bob = bob or _fighter("Bob", 1, policies=PASSIVE)
    return _mod(_events(_play([ann], [bob], **kw), "fae_attack", "Ann"), "mcs")


def _shift(field_a: dict[str, Any], field_b: dict[str, Any], by: int, **bob: Any) -> None:
    """Ann's attack chance moves by ``by`` from one value of a field to the other."""
    low = _attack_mcs(_fighter("Ann", 0, **field_a), _fighter("Bob", 1, policies=PASSIVE, **bob))
    high = _attack_mcs(_fighter("Ann", 0, **field_b), _fighter("Bob", 1, policies=PASSIVE, **bob))
    assert low
    assert {m + by for m in low} == high


# --- gear ------------------------------------------------------------------------------


def _item() -> None:
    """A shield (item: shield) blocks with the Shield skill at its own DR; without one the
    fighter parries with its weapon (DR 40)."""
    board = {"item": "shield", "name": "Board", "dr": 30}
    block = {"fae_action": "passive", "fae_defence": "block"}
    for shield, dr in ((board, 30), (None, 40)):
        bob = _fighter("Bob", 1, policies=block, shield=shield, skills={"Shield": 60})
        battles = _play([_fighter("Ann", 0)], [bob], {"fae.equipment_wear": False})
        assert _out(_events(battles, "block", "Bob"), "item_dr") == {dr}


def _dr() -> None:
    """Armour subtracts its DR from each blow (3.2): Hide DR 0 lets all through, DR 20 not."""
    for dr in (0, 20):
        bob = _fighter(
            "Bob", 1, policies=PASSIVE, armour={"item": "armour", "name": "Hide", "dr": dr}
        )
        hits = _events(
            _play([_fighter("Ann", 0)], [bob], {"fae.equipment_wear": False}), "fae_attack", "Ann"
        )
        for h in hits:
            o = dict(h.outcome)
            if o.get("damage") is not None:
                assert o["inflicted"] == max(0, o["damage"] - dr)


def _weapon(**gear: Any) -> list[Any]:
    return [{"item": "weapon", "name": "Blade", "skill": "Sword", "base_damage": 80, **gear}]


def _skill() -> None:
    """A weapon is tested with its own skill: Sword 60, an unknown Axe skill 0."""
    _shift({"weapons": _weapon(skill="Axe")}, {"weapons": _weapon()}, 60)


def _base_damage() -> None:
    """Damage is base x margin%: the log carries the weapon's base."""
    for base in (40, 80):
        hits = _events(
            _play(
                [_fighter("Ann", 0, weapons=_weapon(base_damage=base))],
                [_fighter("Bob", 1, policies=PASSIVE)],
            ),
            "fae_attack",
            "Ann",
        )
        assert _mod(hits, "base") == {base}


def _damage_kind() -> None:
    """Stunning with an edge strikes with the flat (-10%); a blunt weapon does not (3.3)."""
    stun = {"fae_called_shot": {"name": "none", "params": {"stun": True}}}
    _shift(
        {"weapons": _weapon(damage_kind="slashing"), "policies": stun},
        {"weapons": _weapon(damage_kind="blunt"), "policies": stun},
        10,
    )


def _hands() -> None:
    """A two-handed grip adds +20 (3.1, the bastard sword's edge)."""
    _shift({"weapons": _weapon(hands=1)}, {"weapons": _weapon(hands=2)}, 20)


def _large() -> None:
    """A large weapon in one hand: -20 (3.1)."""
    _shift({"weapons": _weapon(large=True)}, {"weapons": _weapon()}, 20)


def _bow(**gear: Any) -> list[Any]:
    bow = {"item": "weapon", "name": "Bow", "skill": "Bow", "base_damage": 50, "hands": 2}
    return [{**bow, "range_rating": 10, "max_range": 200, **gear}]


ARCHER = {"fae_action": {"name": "archer", "params": {"aim": 0}}, "fae_defence": "none"}


def _range_rating() -> None:
    """-5% per range increment (3.1): 25 yd is two increments of 10, one of 20."""
    for rating, pen in ((10, -10), (20, -5)):
        ann = _fighter(
            "Ann", 0, weapons=_bow(range_rating=rating), policies=ARCHER, skills={"Bow": 60}
        )
        shots = _events(_play([ann], [_fighter("Bob", 25, policies=PASSIVE)]), "fae_attack")
        assert _mod(shots, "range") == {pen}


def _max_range() -> None:
    """Nothing beyond the maximum range can be hit: the archer walks into range first."""
    for limit, first in ((20, "walk"), (200, "fae_attack")):
        ann = _fighter("Ann", 0, weapons=_bow(max_range=limit), policies=ARCHER, skills={"Bow": 60})
        battle = _play([ann], [_fighter("Bob", 25, policies=PASSIVE)], seeds=range(1))[0]
        own = [e for e in battle.log.events if e.actor == "Ann" and e.action != "reaction_test"]
        assert own[0].action == first


def _knife(**gear: Any) -> list[Any]:
    knife = {"item": "weapon", "name": "Knife", "skill": "Thrown Weapons", "base_damage": 30}
    return [{**knife, "range_rating": 5, "thrown": True, "weight": 1, **gear}]


THROWER = {"Thrown Weapons": 60}


def _thrown() -> None:
    """A thrown weapon leaves the hand: one throw, then fists; a kept one strikes on."""
    for thrown, blows in ((True, 1), (False, 2)):
        ann = _fighter("Ann", 0, weapons=_knife(thrown=thrown), policies=ARCHER, skills=THROWER)
        battle = _play([ann], [_fighter("Bob", 4, policies=PASSIVE)], seeds=range(1))[0]
        knives = [
            e
            for e in battle.log.events
            if e.action == "fae_attack" and dict(e.outcome).get("weapon") == "Knife"
        ]
        assert (len(knives) == 1) is (blows == 1)


def _weight() -> None:
    """A thrown object's range is Strength / (2 x weight) (3.4): 60 / 20 = 3 yd short of a
    foe 5 yd off; 60 / 2 = 30 yd reaches."""
    for weight, hits in ((10, False), (1, True)):
        ann = _fighter("Ann", 0, weapons=_knife(weight=weight), policies=ARCHER, skills=THROWER)
        battle = _play([ann], [_fighter("Bob", 5, policies=PASSIVE)], seeds=range(1))[0]
        throw = _events([battle], "fae_attack", "Ann")[0]
        assert (throw.result != "cannot hit") is hits


# --- attributes -------------------------------------------------------------------------


def _strength() -> None:
    """Strength sets how far one throws (3.4): Strength 10 falls short of 5 yd."""
    for strength, hits in ((10, False), (60, True)):
        ann = _fighter(
            "Ann",
            0,
            weapons=_knife(weight=2),
            policies=ARCHER,
            skills=THROWER,
            attributes={"strength": strength},
        )
        battle = _play([ann], [_fighter("Bob", 5, policies=PASSIVE)], seeds=range(1))[0]
        throw = _events([battle], "fae_attack", "Ann")[0]
        assert (throw.result != "cannot hit") is hits


def _agility() -> None:
    """Agility is a weapon skill's primary attribute unless mapped: /10 to the chance."""
    _shift({"attributes": {"agility": 40}}, {"attributes": {"agility": 80}}, 4)


def _stamina() -> None:
    """A winded fighter (a stun chest shot of half its FP) recovers on Stamina tests (7)."""
    chest = {
        "fae_called_shot": {
            "name": "special",
            "params": {"shot": "chest", "stun": True, "min_chance": 1},
        }
    }
    mcs = []
    for stamina in (30, 80):
        bob = _fighter(
            "Bob", 1, policies=PASSIVE, fatigue_points=20, attributes={"stamina": stamina}
        )
        ann = _fighter("Ann", 0, policies=chest, skills={"Sword": 95})
        tests = _events(_play([ann], [bob], seeds=range(6), rounds=4), "recovery_test", "Bob")
        mcs.append(_mod(tests, "mcs"))
    assert mcs[0]
    assert {m + 50 for m in mcs[0]} == mcs[1]


def _size() -> None:
    """A charge adds half the attacker's Size to base damage (3.3)."""
    for size in (50, 80):
        ann = _fighter("Ann", 0, policies={"fae_action": "charger"}, attributes={"size": size})
        blows = _events(_play([ann], [_fighter("Bob", 20, policies=PASSIVE)]), "fae_attack", "Ann")
        assert 80 + size // 2 in _mod(blows, "base")


def _luck() -> None:
    """Luck / 10 is added to every test (section 1)."""
    _shift({"attributes": {"luck": 20}}, {"attributes": {"luck": 90}}, 7)


def _reaction() -> None:
    """The Reaction test is made against Reaction + Luck / 10 (section 2)."""
    for reaction in (30, 70):
        tests = _events(
            _play([_fighter("Ann", 0, attributes={"reaction": reaction})], [_fighter("Bob", 1)]),
            "reaction_test",
            "Ann",
        )
        assert _mod(tests, "mcs") == {reaction + 5}


# --- mounts ---------------------------------------------------------------------------

STEED = {
    "name": "steed",
    "attributes": {"size": 150, "reaction": 45},
    "skills": {"Kick": 40},
    "weapon": "fae/hooves",
    "wound_points": 90,
    "fatigue_points": 120,
    "walk_mr": 15,
    "run_mr": 60,
}
LANCER = {"fae_tactics": "lancer", "fae_defence": "none"}


def _rider(**steed: Any) -> dict[str, Any]:
    return _fighter("Ann", 0, mount={**STEED, **steed}, policies=LANCER)


def _mount_attributes() -> None:
    """The mount makes its own Reaction test, on its own Reaction."""
    for reaction in (20, 80):
        steed = {**STEED["attributes"], "reaction": reaction}  # type: ignore[dict-item]
        tests = _events(
            _play([_rider(attributes=steed)], [_fighter("Bob", 50)]), "reaction_test", "Ann's steed"
        )
        assert _mod(tests, "mcs") == {reaction + 5}


def _mount_skills() -> None:
    """The mount kicks on its own Kick skill."""
    kicks = []
    for kick in (20, 70):
        battles = _play([_rider(skills={"Kick": kick})], [_fighter("Bob", 1, policies=PASSIVE)])
        kicks.append(_mod(_events(battles, "fae_attack", "Ann's steed"), "mcs"))
    assert kicks[0]
    assert {m + 50 for m in kicks[0]} == kicks[1]


def _mount_wound_points() -> None:
    """A mount whose wounds pass its Wound Points falls, unhorsing its rider."""
    fell = []
    for wp in (1, 900):
        bob = _fighter("Bob", 1, skills={"Sword": 95}, policies={"targeting": "test_mount"})
        fell.append(bool(_events(_play([_rider(wound_points=wp)], [bob]), "unhorsed")))
    assert fell == [True, False]


def _mount_fatigue_points() -> None:
    """A mount stunned past its Fatigue Points drops unconscious."""
    stun = {
        "targeting": "test_mount",
        "fae_called_shot": {"name": "none", "params": {"stun": True}},
    }
    outs = []
    for fp in (1, 900):
        bob = _fighter("Bob", 1, skills={"Sword": 95}, policies=stun)
        outs.append({e.result for e in _events(_play([_rider(fatigue_points=fp)], [bob]), "out")})
    assert "unconscious" in outs[0]
    assert "unconscious" not in outs[1]


def _mount_walk_mr() -> None:
    """A mount ordered to move goes up to twice its Walk MR (10 yd at Walk MR 5; at 15 the
    11 yd to its foe's side)."""
    for walk in (5, 15):
        ann = _rider(walk_mr=walk)
        ann["policies"] = {"fae_defence": "none"}  # no charge orders: the rider moves
        obeyed = _events(_play([ann], [_fighter("Bob", 12, policies=PASSIVE)]), "mount_obeys")
        assert max(_out(obeyed, "yards")) == min(2 * walk, 11)


def _mount_run_mr() -> None:
    """A charging mount runs up to its Run MR."""
    for run in (30, 60):
        obeyed = _events(
            _play([_rider(run_mr=run)], [_fighter("Bob", 100, policies=PASSIVE)]), "mount_obeys"
        )
        assert max(_out(obeyed, "yards")) == run


def _mount_fly_mr() -> None:
    """A flying mount lets its rider fly (its Fly MR): the rider's flight is logged."""
    swoop = {"fae_tactics": {"name": "swoop", "params": {"altitude": 5}}, "fae_defence": "none"}
    flights = []
    for fly in (None, 40):
        ann = _fighter("Ann", 0, mount={**STEED, "fly_mr": fly}, policies=swoop)
        flights.append(bool(_events(_play([ann], [_fighter("Bob", 80)]), "fly", "Ann")))
    assert flights == [False, True]


def _mount_weapon() -> None:
    """A mount with a weapon fights on its own margin; one without never attacks."""
    kicked = []
    for weapon in ("fae/hooves", None):
        battles = _play([_rider(weapon=weapon)], [_fighter("Bob", 1, policies=PASSIVE)])
        kicked.append(bool(_events(battles, "fae_attack", "Ann's steed")))
    assert kicked == [True, False]


# --- characters -------------------------------------------------------------------------


def _count() -> None:
    """``count: 3`` is three fighters, named 1..3."""
    battle = _play([_fighter("Ann", 0, count=3)], [_fighter("Bob", 1)], seeds=range(1))[0]
    assert sorted(m.name for m in battle.fae_members if m.side == 0) == ["Ann 1", "Ann 2", "Ann 3"]


def _skills() -> None:
    """The weapon's skill is the base of the attack test."""
    _shift({"skills": {"Sword": 30}}, {"skills": {"Sword": 70}}, 40)


def _skill_attributes() -> None:
    """A skill mapped to Strength adds Strength / 10 instead of Agility / 10."""
    _shift(
        {"attributes": {"strength": 90}},
        {"attributes": {"strength": 90}, "skill_attributes": {"Sword": "strength"}},
        3,
    )


def _wound_points() -> None:
    """Wounds above Wound Points: dead (3.2)."""
    deaths = []
    for wp in (1, 900):
        bob = _fighter("Bob", 1, policies=PASSIVE, wound_points=wp)
        deaths.append({e.result for e in _events(_play([_fighter("Ann", 0)], [bob]), "out")})
    assert deaths == [{"dead"}, set()]


def _fatigue_points() -> None:
    """Fatigue above Fatigue Points: unconscious (stun damage, C-24)."""
    stun = {"fae_called_shot": {"name": "none", "params": {"stun": True}}}
    outs = []
    for fp in (1, 900):
        bob = _fighter("Bob", 1, policies=PASSIVE, fatigue_points=fp)
        outs.append(
            {e.result for e in _events(_play([_fighter("Ann", 0, policies=stun)], [bob]), "out")}
        )
    assert outs == [{"unconscious"}, set()]


def _walk_mr() -> None:
    """The free walk covers up to Walk MR yards."""
    for walk in (4, 8):
        walks = _events(
            _play([_fighter("Ann", 0, walk_mr=walk)], [_fighter("Bob", 6, policies=PASSIVE)]),
            "walk",
            "Ann",
        )
        assert max(e.result for e in walks) == min(walk, 5.0)


def _run_mr() -> None:
    """A Run covers up to Run MR yards."""
    for run in (20, 30):
        runs = _events(
            _play([_fighter("Ann", 0, run_mr=run)], [_fighter("Bob", 60, policies=PASSIVE)]),
            "run",
            "Ann",
        )
        assert max(e.result for e in runs) == run


def _fly_mr() -> None:
    """Flight needs a Fly MR: a flyer flies in, a walker walks."""
    swoop = {"fae_tactics": {"name": "swoop", "params": {"altitude": 5}}}
    for fly, actions in ((None, {"run"}), (30, {"fly", "climb"})):
        ann = _fighter("Ann", 0, fly_mr=fly, policies=swoop)
        battle = _play([ann], [_fighter("Bob", 40, policies=PASSIVE)], seeds=range(1))[0]
        first = next(
            e for e in battle.log.events if e.actor == "Ann" and e.action != "reaction_test"
        )
        assert first.action in actions


def _can_glide() -> None:
    """A glider aloft that takes no flight action glides at the end of the turn."""
    glides = []
    for glide in (False, True):
        ann = _fighter("Ann", 0, can_glide=glide, altitude=9, policies=PASSIVE)
        glides.append(bool(_events(_play([ann], [_fighter("Bob", 50, policies=PASSIVE)]), "glide")))
    assert glides == [False, True]


def _altitude() -> None:
    """A foe 5 yd up is out of a sword's reach (distance counts the height)."""
    for up, reached in ((0, True), (5, False)):
        bob = _fighter("Bob", 1, policies=PASSIVE, altitude=up, can_glide=up > 0, walk_mr=0)
        blows = _events(_play([_fighter("Ann", 0)], [bob], seeds=range(1), rounds=1), "fae_attack")
        assert bool(blows) is reached


def _underwater() -> None:
    """Underwater, melee uses half the skill (section 6)."""
    _shift({"underwater": True}, {"underwater": False}, 30)


def _blinded() -> None:
    """Blind, or in the dark: -60% (3.1)."""
    _shift({"blinded": True}, {"blinded": False}, 60)


def _ambidextrous() -> None:
    """The off hand's -10% does not apply to the ambidextrous (3.1)."""
    dual = {"fae_action": {"name": "fighter", "params": {"dual": True}}, "fae_defence": "none"}
    pair = ["fae/longsword", "fae/shortsword"]
    seconds = []
    for amb in (False, True):
        ann = _fighter("Ann", 0, weapons=pair, policies=dual, ambidextrous=amb)
        blows = _events(_play([ann], [_fighter("Bob", 1, policies=PASSIVE)]), "fae_attack", "Ann")
        seconds.append(
            {
                dict(e.modifiers)["situation"]
                for e in blows
                if dict(e.outcome).get("weapon") == "Shortsword" and not dict(e.modifiers)["flank"]
            }
        )
    assert seconds == [{-10}, {0}]


def _weapons() -> None:
    """With no weapon the fighter strikes with its fists."""
    for weapons, name in (([], "Fists"), (["fae/longsword"], "Longsword")):
        blows = _events(
            _play([_fighter("Ann", 0, weapons=weapons)], [_fighter("Bob", 1, policies=PASSIVE)]),
            "fae_attack",
            "Ann",
        )
        assert _out(blows, "weapon") == {name}


def _armour() -> None:
    """Armour subtracts its DR from every blow's damage (3.2)."""
    for armour, dr in ((None, 0), ("fae/chain-armour", 12)):
        bob = _fighter("Bob", 1, policies=PASSIVE, armour=armour)
        hits = _events(
            _play([_fighter("Ann", 0)], [bob], {"fae.equipment_wear": False}), "fae_attack", "Ann"
        )
        pairs = {
            (dict(h.outcome)["damage"], dict(h.outcome)["inflicted"])
            for h in hits
            if dict(h.outcome).get("damage") is not None
        }
        assert pairs
        assert all(i == max(0, d - dr) for d, i in pairs)


def _shield() -> None:
    """With a shield, blocks test Shield at the shield's DR."""
    block = {"fae_action": "passive", "fae_defence": "block"}
    for shield, dr in (("fae/round-shield", None), (None, 40)):
        bob = _fighter("Bob", 1, policies=block, shield=shield, skills={"Shield": 60})
        battles = _play([_fighter("Ann", 0)], [bob], {"fae.equipment_wear": False})
        drs = _out(_events(battles, "block", "Bob"), "item_dr")
        assert drs
        assert (drs == {40}) is (dr == 40)


def _mount() -> None:
    """A mount is a combatant of its own beside its rider."""
    battle = _play([_rider()], [_fighter("Bob", 40)], seeds=range(1))[0]
    assert [m.name for m in battle.fae_members if m.side == 0] == ["Ann", "Ann's steed"]
    plain = _play([_fighter("Ann", 0)], [_fighter("Bob", 40)], seeds=range(1))[0]
    assert [m.name for m in plain.fae_members if m.side == 0] == ["Ann"]


def _policies() -> None:
    """A fighter's policies decide its actions: a passive one never attacks."""
    for policies, attacks in ((PASSIVE, False), ({}, True)):
        blows = _events(
            _play([_fighter("Ann", 0, policies=policies)], [_fighter("Bob", 1, policies=PASSIVE)]),
            "fae_attack",
            "Ann",
        )
        assert bool(blows) is attacks


def _position() -> None:
    """A foe out of reach must be closed with first; one in reach is struck at once."""
    for x, first in ((1, "fae_attack"), (30, "run")):
        battle = _play(
            [_fighter("Ann", 0)], [_fighter("Bob", x, policies=PASSIVE)], seeds=range(1)
        )[0]
        own = next(e for e in battle.log.events if e.actor == "Ann" and e.action != "reaction_test")
        assert own.action == first


class _MountFirst:
    """Targets a foe's mount (a test policy)."""

    def choose_target(self, actor: Any, battle: Any, rng: Any) -> Any:
        foes = [f for f in battle.foes(actor.side) if f.fighting]
        return next((f for f in foes if "'s " in f.name), foes[0] if foes else None)


CASES: dict[str, Callable[[], None]] = {
    "FaeGear.item": _item,
    "FaeGear.dr": _dr,
    "FaeGear.skill": _skill,
    "FaeGear.base_damage": _base_damage,
    "FaeGear.damage_kind": _damage_kind,
    "FaeGear.hands": _hands,
    "FaeGear.large": _large,
    "FaeGear.range_rating": _range_rating,
    "FaeGear.max_range": _max_range,
    "FaeGear.thrown": _thrown,
    "FaeGear.weight": _weight,
    "FaeAttributes.strength": _strength,
    "FaeAttributes.agility": _agility,
    "FaeAttributes.stamina": _stamina,
    "FaeAttributes.size": _size,
    "FaeAttributes.luck": _luck,
    "FaeAttributes.reaction": _reaction,
    "FaeMount.attributes": _mount_attributes,
    "FaeMount.skills": _mount_skills,
    "FaeMount.wound_points": _mount_wound_points,
    "FaeMount.fatigue_points": _mount_fatigue_points,
    "FaeMount.walk_mr": _mount_walk_mr,
    "FaeMount.run_mr": _mount_run_mr,
    "FaeMount.fly_mr": _mount_fly_mr,
    "FaeMount.weapon": _mount_weapon,
    "FaeCharacter.count": _count,
    "FaeCharacter.attributes": _agility,
    "FaeCharacter.skills": _skills,
    "FaeCharacter.skill_attributes": _skill_attributes,
    "FaeCharacter.wound_points": _wound_points,
    "FaeCharacter.fatigue_points": _fatigue_points,
    "FaeCharacter.walk_mr": _walk_mr,
    "FaeCharacter.run_mr": _run_mr,
    "FaeCharacter.fly_mr": _fly_mr,
    "FaeCharacter.can_glide": _can_glide,
    "FaeCharacter.altitude": _altitude,
    "FaeCharacter.underwater": _underwater,
    "FaeCharacter.blinded": _blinded,
    "FaeCharacter.ambidextrous": _ambidextrous,
    "FaeCharacter.weapons": _weapons,
    "FaeCharacter.armour": _armour,
    "FaeCharacter.shield": _shield,
    "FaeCharacter.mount": _mount,
    "FaeCharacter.policies": _policies,
    "FaeCharacter.position": _position,
}
"""The case of each stat-block field (``Class.field`` as the liveness registry keys it)."""


@pytest.mark.parametrize("field", list(CASES))
def test_a_stat_block_field_changes_the_battle(field: str) -> None:
    """Each Fae stat-block field, at two values on the same seeds, changes the battle as
    its rule says (the case's docstring)."""
    REGISTRY.register("targeting", "test_mount", _MountFirst, replace=True)
    CASES[field]()


def test_the_cases_copy_no_shared_state() -> None:
    """The fighter builder never shares its nested mappings between fighters."""
    a, b = _fighter("A", 0), _fighter("B", 1, attributes={"luck": 90})
    assert a["attributes"]["luck"] == 50
    assert b["attributes"]["luck"] == 90
    assert copy.deepcopy(a) == a
