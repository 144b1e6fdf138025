"""Widespread attacks in a battle (personal-combat.md 7, A-11): one placement roll
strikes everyone in the sphere, damages even with a negative RD when placed Terrible or
better, against Scale / 3 and the volume Scale difference, under the rounding options."""

from __future__ import annotations

from typing import Any

from tests.engine.conftest import Script, dice
from tests.engine.core.test_ranged import _archer, _battle, _target

WAND = (
    "{name: Fireball wand, ranged: true, range_yards: [10, 50, 100, 200], "
    "area_ft3: 33510, fadad_bonus: 10, muscle_powered: false}"
)
"""A 20-foot fireball (33,510 cubic feet: volume Scale 22.9, radius 6.67 yards), ODM 10."""

ARMADA = """
      - name: Armada
        scale: 24
        volume_scale: 28
        skills: {Sword: Fair}
        attack_skill: Sword
        armour: {name: Hull, material: natural, value: 1}
        position: [60, 30]
        policies: {movement: hold}
"""
"""EX-PC-08: Mass Scale 24, volume Scale 28, armour 1."""


def blasts(battle: Any) -> list[dict[str, Any]]:
    return [
        dict(e.outcome) | dict(e.modifiers) | {"victim": e.target, "round": e.round}
        for e in battle.log.of("blast")
    ]


def wand_battle(
    targets: str, *, rules: str = "", seed: int = 1, script: tuple[float, ...] = ()
) -> Any:
    battle = _battle(_archer(0, weapon=WAND), targets, rules=rules, rounds=0, seed=seed)
    if script:
        battle.sides[0].members[0].rng = Script(*script)
    battle.play_round()
    return battle


TRIO = _target(60) + _target(64, name="Cole") + _target(80, name="Dunn")
"""Brand at 60 yards, Cole 4 yards past him (inside the sphere), Dunn 20 past (outside)."""


def test_a_blast_strikes_everyone_in_its_sphere_with_one_roll() -> None:
    """``Weapon.area_ft3``: the fireball aimed at Brand also strikes Cole, 4 yards off,
    with the same placement roll, and spares Dunn, 20 yards off; the same wand without an
    area is an ordinary shot at Brand alone."""
    battle = wand_battle(TRIO)
    first = [b for b in blasts(battle) if b["round"] == 1]
    assert [b["victim"] for b in first][:2] == ["Brand", "Cole"]
    assert "Dunn" not in {b["victim"] for b in blasts(battle)}
    assert first[0]["attack"] == first[1]["attack"]
    plain = _battle(_archer(0, weapon=WAND.replace("area_ft3: 33510, ", "")), TRIO, rounds=1)
    assert not plain.log.of("blast")
    assert {e.target for e in plain.log.of("shoot")} == {"Brand"}


def test_a_placed_blast_damages_even_when_dodged() -> None:
    """A placement rolled Terrible or better damages even with a negative RD: Legendary
    (Great, concentrating +2) against Brand's dodge at Superb +2 (RD -1) still burns
    him."""
    battle = wand_battle(
        _target(60, policies="movement: hold").replace(
            "{Sword: Good}", "{Sword: Good, Dodge: Superb}"
        ),
        script=(dice(0), dice(2), dice(0)),
    )
    hit = blasts(battle)[0]
    assert hit["rd"] < 0
    assert hit["hit"]
    assert hit["damage"] > 0


def test_ex_pc_08_a_fireball_barely_scratches_the_armada() -> None:
    """EX-PC-08: against the fireball the Armada's DDM is 24/3 + (28 - 23) + 1 = 14, so an
    ODM-10 fireball does at most a Scratch on any seed; ``Creature.volume_scale`` is what
    makes it so (without it, volume Scale = Mass Scale 24: DDM 8 + 1 + 1 = 10)."""
    for seed in range(1, 6):
        battle = wand_battle(ARMADA, seed=seed)
        for blast in blasts(battle):
            assert blast["ddm"] == 14
            assert blast["damage"] <= 1
    small = wand_battle(ARMADA.replace("        volume_scale: 28\n", ""))
    assert {b["ddm"] for b in blasts(small)} == {10}


def test_volume_scale_rounding_sets_the_attacks_volume_scale() -> None:
    """``range.volume_scale_rounding``: the fireball's log1.5(33510 / 3.09) = 22.9 is 23
    to the nearest (DDM 14) and 22 rounded down (DDM 15)."""
    nearest = wand_battle(ARMADA)
    floor = wand_battle(ARMADA, rules="range.volume_scale_rounding: floor")
    assert {b["ddm"] for b in blasts(nearest)} == {14}
    assert {b["ddm"] for b in blasts(floor)} == {15}


HOBBIT = _target(60, extra="        scale: -4\n        mass_scale: -4\n")


def test_widespread_scale_rounding_sets_a_third_of_the_scale() -> None:
    """``range.widespread_scale_rounding``: a Scale -4 victim's third is -1 toward zero
    and -2 rounded down, so the same blast does one more damage."""
    script = (dice(2), dice(-4), dice(0))
    zero = wand_battle(HOBBIT, script=script)
    floor = wand_battle(HOBBIT, script=script, rules="range.widespread_scale_rounding: floor")
    (a,), (b,) = ([x for x in blasts(z) if x["round"] == 1] for z in (zero, floor))
    assert (b["ddm"], b["damage"]) == (a["ddm"] - 1, a["damage"] + 1)
