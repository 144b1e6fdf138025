"""The wound options at battle level (wounds-and-healing.md 5, 7; C-10, A-21): the same
seeded duels played under each, every landed blow's damage read as its rule says."""

from __future__ import annotations

from fadad_agents.engine import build_battle, load
from tests.engine.conftest import duel_yaml, fighter

NUMERIC = "wound_model: fudge_numeric"


def blows(rules: str = "") -> list[tuple[int, int, str]]:
    """(RD, damage, wound) of every landed blow in three seeded duels of a Great against a
    Good swordsman, crits without effects (broadswords against heavy leather on both sides:
    each one's ODF - DDF is +1)."""
    text = duel_yaml(
        fighter("Ann", skill="Great"),
        fighter("Bob"),
        rules="fadad.crit_effects: none" + (f", {rules}" if rules else ""),
        stop="max_rounds: 4",
    )
    found = []
    for seed in (1, 2, 3):
        battle = build_battle(load(text), seed=seed)
        while not battle.finished:
            battle.play_round()
        for event in battle.log.of("attack"):
            o = dict(event.outcome)
            if o["hit"]:
                found.append((o["rd"], o["damage"], o["wound"]))
    return found


def test_fudge_numeric_damage_is_the_margin_plus_the_factors_without_a_roll() -> None:
    """``wound_model: fudge_numeric`` (section 5): damage = RD + ODF - DDF, no damage roll,
    and an RD-1 hit is a graze; under ``fadad`` a 4dF roll moves the damage."""
    numeric = blows(NUMERIC)
    solid = [(rd, dmg) for rd, dmg, _ in numeric if rd > 1]
    assert solid
    assert all(dmg == rd + 1 for rd, dmg in solid)
    assert any(rd == 1 and (dmg, wound) == (0, "Scratch") for rd, dmg, wound in numeric)
    fadad = blows()
    assert len({dmg - rd for rd, dmg, _ in fadad if rd > 1}) > 1


def test_doubled_rd_doubles_the_margin_in_the_damage() -> None:
    """``fudge.double_rd`` (A-21): damage = 2 x RD + ODF - DDF."""
    solid = [(rd, dmg) for rd, dmg, _ in blows(NUMERIC + ", fudge.double_rd: true") if rd > 1]
    assert solid
    assert all(dmg == 2 * rd + 1 for rd, dmg in solid)


def test_without_the_graze_rule_an_rd_one_hit_is_read_as_damage() -> None:
    """``fudge.graze: false``: a hit by RD 1 is damage RD + ODF - DDF like any other, not a
    graze read on the graze table."""
    grazes = [dmg for rd, dmg, _ in blows(NUMERIC + ", fudge.graze: false") if rd == 1]
    assert grazes
    assert all(dmg == 2 for dmg in grazes)


def test_a_damage_roll_moves_the_fudge_damage() -> None:
    """``fudge.damage_roll: 4dF_unlimited`` (C-10, section 7): a 4dF roll is added to the
    calculated damage, so blows of the same RD do different damage."""
    rolled = blows(NUMERIC + ", fudge.damage_roll: 4dF_unlimited")
    assert len({dmg - rd for rd, dmg, _ in rolled if rd > 1}) > 1
