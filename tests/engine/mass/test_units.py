"""FADAD units fight by their stat blocks and the ``mass.*`` options (mass-combat.md 1).

Each test plays the same seed twice, once per value, and compares the first volleys: the
units roll the same dice, so a skill, Scale or damage modifier moves the logged relative
degree or damage number by exactly what the rule adds.
"""

from __future__ import annotations

from typing import Any

from fadad_agents.engine import build_battle, load
from fadad_agents.rules.mass.units import max_casualties
from tests.engine.conftest import duel_yaml


def unit(name: str, count: int = 50, **fields: Any) -> str:
    """A unit entry (YAML for a side's forces list): Fair skill and morale unless given."""
    stats = {"skill": "Fair", "morale": "Fair", **fields}
    lines = "".join(f"        {key}: {value}\n" for key, value in stats.items())
    return f"\n      - name: {name}\n        kind: unit\n        count: {count}\n{lines}"


def volleys(host: str, foe: str, rules: str = "", *, seed: int = 1, rounds: int = 1) -> list[Any]:
    """Every volley of a battle of ``host`` (Red) against ``foe`` (Blue)."""
    battle = build_battle(
        load(duel_yaml(host, foe, rules=rules, stop=f"max_rounds: {rounds}")), seed
    )
    battle.run_to_end()
    return list(battle.log.of("volley"))


def opening(host: str, foe: str, rules: str = "", seed: int = 1) -> tuple[str, dict[str, Any]]:
    """Who strikes the battle's first volley, and its outcome."""
    event = volleys(host, foe, rules, seed=seed)[0]
    return event.actor, dict(event.outcome)


def shift(
    host: str,
    foe: str,
    rules_a: str = "",
    rules_b: str = "",
    *,
    key: str = "rd",
    host_b: str = "",
    foe_b: str = "",
) -> dict[str, int]:
    """How far the opening volley's ``key`` moves from the set-up ``host``, ``foe``,
    ``rules_a`` to the one with ``host_b``, ``foe_b`` (when given) and ``rules_b``, by who
    struck it, over seeds 1-4."""
    shifts: dict[str, set[int]] = {}
    for seed in (1, 2, 3, 4):
        actor, a = opening(host, foe, rules_a, seed)
        same, b = opening(host_b or host, foe_b or foe, rules_b, seed)
        assert same == actor
        shifts.setdefault(actor, set()).add(b[key] - a[key])
    assert all(len(s) == 1 for s in shifts.values()), shifts
    return {name: s.pop() for name, s in shifts.items()}


HOST, FEW = unit("Host", 1000), unit("Few", 10)


def test_the_scale_cap_limits_the_bigger_units_edge() -> None:
    """mass.scale_cap (1.2): 1,000 against 10 is Scale 17 against 6, a gap of 11 fought
    as 4 by default, as 2 or 0 under a lower cap: the same dice move each roll by that."""
    assert shift(HOST, FEW, "", "mass.scale_cap: 2") == {"Host": -2, "Few": 2}
    assert shift(HOST, FEW, "", "mass.scale_cap: 0") == {"Host": -4, "Few": 4}


def test_scale_rounding_rounds_half_up_or_down() -> None:
    """mass.scale_rounding (A-70): 10 fighters are Scale log 10 / log 1.5 = 5.68, 6 half
    up and 5 down; 9 are 5.42, 5 either way: the 10 lose their edge of 1 when rounding down."""
    ten, nine = unit("Ten", 10), unit("Nine", 9)
    assert shift(ten, nine, "", "mass.scale_rounding: down") == {"Ten": -1, "Nine": 1}


STAND = "{targeting: {name: stay_back}}"
"""A unit that never strikes (so the other always opens)."""
SURE = {"skill": "Legendary+4"}
"""A unit that always hits a Terrible one."""


def test_the_scale_difference_enters_the_damage_by_option() -> None:
    """mass.scale_in_damage (A-70): off, mass shows only in the casualty table; on, the
    capped Scale difference (+4 for 1,000 against 10) is added to the damage number."""
    host = unit("Host", 1000, **SURE)
    few = unit("Few", 10, skill="Terrible", policies=STAND)
    assert shift(host, few, "", "mass.scale_in_damage: true", key="damage") == {"Host": 4}


def test_casualties_are_the_tables_maximum_or_a_random_share_of_it() -> None:
    """mass.casualties (A-70): deterministic takes round(max% x N) for every hit; random
    takes a uniform 0..maximum, so some hits take fewer."""
    taken = {}
    for mode in ("deterministic", "random"):
        rows = [
            dict(e.outcome)
            for seed in (1, 2, 3)
            for e in volleys(
                unit("Red", 200), unit("Blue", 200), f"mass.casualties: {mode}", seed=seed, rounds=4
            )
            if dict(e.outcome)["damage"] is not None
        ]
        assert rows
        taken[mode] = [
            (o["casualties"], max_casualties(o["damage"], o["left"] + o["casualties"]))
            for o in rows
        ]
    assert all(lost == top for lost, top in taken["deterministic"])
    assert any(top > 0 for _, top in taken["deterministic"])
    assert all(lost <= top for lost, top in taken["random"])
    assert any(lost < top for lost, top in taken["random"])


# --- the Unit stat block -------------------------------------------------------------------


def test_a_bigger_unit_adds_its_scale() -> None:
    """Unit.count (1.2): Scale is log N / log 1.5; 1,000 against 10 fights at the capped
    +4 where 10 against 10 fights even."""
    assert shift(unit("Host", 10), FEW, host_b=HOST) == {"Host": 4, "Few": -4}


def test_a_units_skill_is_its_attack_and_by_default_its_defence() -> None:
    """Unit.skill, Unit.defence_skill: Great instead of Fair raises the unit's attack and
    defence by 2; a defence skill of its own (Poor) replaces the skill in defence only."""
    great = unit("Host", 10, skill="Great")
    guarded = unit("Host", 10, skill="Great", defence_skill="Poor")
    assert shift(unit("Host", 10), FEW, host_b=great) == {"Host": 2, "Few": -2}
    assert shift(great, FEW, host_b=guarded) == {"Host": 0, "Few": 4}


def test_members_strength_weapon_and_scale_add_to_the_damage() -> None:
    """Unit.strength, .weapon, .scale (wounds-and-healing.md 4.1): the damage number adds
    the member's ODM, Strength + Scale + weapon: Great Strength +2, a +3 axe instead of the
    bare fist's -1 +4, Scale +1 +1."""
    few = unit("Few", 10, skill="Terrible", policies=STAND)
    base = unit("Host", 10, **SURE)
    for field, change in (
        ({"strength": "Great"}, 2),
        ({"weapon": "{name: Axe, fadad_bonus: 3}"}, 4),
        ({"scale": 1}, 1),
    ):
        host = unit("Host", 10, **SURE, **field)
        assert shift(base, few, key="damage", host_b=host) == {"Host": change}, field


def test_members_damage_capacity_armour_and_scale_take_from_the_damage() -> None:
    """Unit.damage_capacity, .armour, .scale (4.2): the damage number loses the target's
    DDM, Damage Capacity + Mass Scale + armour: Good +1, mail of value 2, Scale 3."""
    host = unit("Host", 10, **SURE)
    few = unit("Few", 10, skill="Terrible", policies=STAND)
    for field, change in (
        ({"damage_capacity": "Good"}, -1),
        ({"armour": "{name: Mail, value: 2}"}, -2),
        ({"scale": 3}, -3),
    ):
        tough = unit("Few", 10, skill="Terrible", policies=STAND, **field)
        assert shift(host, few, key="damage", foe_b=tough) == {"Host": change}, field


def test_a_units_morale_decides_the_tables_morale_checks() -> None:
    """Unit.morale (1.3): a hit on the damage table calls a check, morale + 4dF against
    the row's level: Legendary+8 always holds, Terrible-8 always breaks."""
    host = unit("Host", 200, **SURE)
    for morale, holds in (("Legendary+8", True), ("Terrible-8", False)):
        few = unit("Few", 200, skill="Terrible", morale=morale, policies=STAND)
        checks = {
            dict(e.outcome)["morale"] for seed in (1, 2, 3) for e in volleys(host, few, seed=seed)
        } - {None}
        assert checks == {holds}


def test_a_units_policies_choose_whether_it_strikes() -> None:
    """Unit.policies: a unit told to stay back never strikes; by default it closes and does."""
    for policies, strikes in (("", True), (STAND, False)):
        fields = {"policies": policies} if policies else {}
        actors = {e.actor for e in volleys(unit("Host", 10, **fields), FEW, rounds=3)}
        assert ("Host" in actors) is strikes


def test_a_unit_strikes_the_nearest_foe_by_its_position() -> None:
    """Unit.position: a unit targeting the nearest foe strikes the one its position puts
    nearer."""
    for west, target in ((10, "West"), (90, "East")):
        host = unit(
            "Host", 50, position=f"[{west + 40}, 0]", policies="{targeting: {name: nearest}}"
        )
        foes = unit("West", 50, position="[0, 0]", policies=STAND) + unit(
            "East", 50, position="[100, 0]", policies=STAND
        )
        reach = "mass.units_at_range: false"  # who it picks, not how long it takes to close
        hit = {e.target for e in volleys(host, foes, reach, rounds=1) if e.actor == "Host"}
        assert hit == {target}
