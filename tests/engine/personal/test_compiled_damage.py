"""The compiled damage of a hit (``engine.personal.damage``) against the rules' own
functions, the oracle: which damage dice a hit rolls (``damage_dice_kind``), the dice drawn
from a stream (``roll_damage_dice``, stream for stream), and the wound and damage number
they make (``wound_from_dice``), over every wound model and every option of Anna's, weapon
groups too, exactly.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from fadad_agents.engine.personal import codes, damage, tables, twister
from fadad_agents.rules.core.dice import TABLE_4DF
from fadad_agents.rules.personal.wound_models import (
    DamageRules,
    damage_dice_kind,
    roll_damage_dice,
    wound_from_dice,
)

_TABLE = np.array(TABLE_4DF, dtype=np.int64)
_KINDS = {"": 0, "1dF": 1, "3d6": 3, "4dF": 4}
_MODELS = codes.WOUND_MODELS


def _row(rules: DamageRules) -> np.ndarray:
    """The kernel's rules row with ``rules`` as :func:`tables.rules_row` writes them."""
    row = np.zeros(codes.GROUPS + 1, dtype=np.int64)
    row[codes.DAMAGE :] = (
        codes.WOUND_MODELS.index(rules.wound_model),
        codes.DAMAGE_ROLLS.index(rules.damage_roll),
        rules.double_rd, rules.graze, rules.minmidmax_minus2, rules.minmidmax_epic,
        rules.kill_above_9, rules.situational_levels, rules.graze_scale_step,
        rules.scale_damage_roll, rules.weapon_groups,
    )  # fmt: skip
    return row


def _drawn_rules(rng: random.Random) -> DamageRules:
    return DamageRules(
        wound_model=rng.choice(_MODELS),  # type: ignore[arg-type]
        damage_roll=rng.choice(codes.DAMAGE_ROLLS),  # type: ignore[arg-type]
        double_rd=rng.random() < 0.3,
        graze=rng.random() < 0.7,
        minmidmax_minus2=rng.random() < 0.5,
        minmidmax_epic=rng.random() < 0.5,
        kill_above_9=rng.random() < 0.5,
        situational_levels=rng.random() < 0.7,
        graze_scale_step=rng.choice((1, 2, 5)),
        scale_damage_roll=rng.random() < 0.5,
        weapon_groups=rng.random() < 0.5,
    )


def _dice(kind: str, rng: random.Random) -> tuple[int, ...]:
    if kind == "4dF":
        return (rng.choice(TABLE_4DF),)
    if kind == "1dF":
        return (rng.randint(-1, 1),)
    if kind == "3d6":
        return tuple(sorted(rng.randint(1, 6) for _ in range(3)))
    return ()


def test_the_rules_row_holds_the_damage_rules_where_the_kernel_reads_them() -> None:
    """:func:`tables.rules_row` ends with the damage rules at :data:`codes.DAMAGE`, the
    target mode at :data:`codes.GATE` just before, weapon sizes compared and the RD a
    scale-piercing weapon needs after, where the kernel reads them."""
    from fadad_agents.engine import build_battle, load

    text = (
        "name: m\nrules: {wound_model: fudge_minmidmax, fudge.damage_roll: parity,"
        " fudge.minmidmax_epic: true, fudge.graze_scale_step: 3,"
        " fadad.target_mode: target_gate_gte, fadad.weapon_size_comparison: true,"
        " scale_piercing_min_rd: 5}\n"
        "sides:\n"
        + "".join(
            f"  - name: S{s}\n    forces:\n      - name: F{s}\n        model: creatures/orc\n"
            "        weapon: weapons/club\n"
            for s in range(2)
        )
    )
    battle = build_battle(load(text), 1, collect=False)
    row = tables.rules_row(battle)[codes.GATE :].tolist()
    assert (
        row[1 : codes.GROUPS - codes.GATE + 1]
        == _row(battle.combat_rules.damage)[codes.DAMAGE :].tolist()
    )
    assert row == [1, 2, 3, 0, 1, 0, 1, 0, 1, 3, 0, 0, 1, 5]
    assert (codes.SIZES, codes.PIERCE_RD) == (codes.GATE + 12, codes.GATE + 13)


def test_dice_kind_and_hit_equal_the_rules_for_drawn_hits() -> None:
    """200,000 hits drawn over every wound model and option (RD 0 to 15, factors and Scale
    advantages -12 to 12, the dice of the kind, both opposed rolls, Extra Damage bonuses,
    weapon and armour groups, critical or not): the same dice kind, wound and damage
    number as the rules' own functions."""
    rng = random.Random(20261206)
    seen: Counter[Any] = Counter()
    dice = np.zeros(3, dtype=np.int64)
    for _ in range(200_000):
        rules = _drawn_rules(rng)
        row = _row(rules)
        rd, factor, advantage = rng.randint(0, 15), rng.randint(-12, 12), rng.randint(-12, 12)
        kind = damage_dice_kind(rules, rd, factor, advantage)
        assert damage.dice_kind(row, rd, factor, advantage) == _KINDS[kind], (rules, rd, factor)
        rolled = _dice(kind, rng)
        attack = rng.choice(TABLE_4DF)
        defence = rng.choice((*TABLE_4DF, 1))  # 1: undefended, as the swing passes it
        bonus = rng.choice((0, 0, 0, 2, 4))
        group, armour = rng.choice((None, 0, 1, 2, 3)), rng.randint(0, 3)
        critical = rng.random() < 0.2
        dice[: len(rolled)] = rolled
        expected = wound_from_dice(
            rules, rd, factor, rolled, attacker_dice=attack, defender_dice=defence,
            scale_advantage=advantage, damage_bonus=bonus, weapon_group=group,
            armour_group=armour, critical=critical,
        )  # fmt: skip
        got = damage.hit(
            row, rd, factor, advantage, dice, len(rolled), attack, defence, bonus,
            -1 if group is None else group, armour, critical,
        )  # fmt: skip
        assert got == (expected.wound, expected.damage), (rules, rd, factor, rolled, group)
        seen[rules.wound_model, expected.wound] += 1
        seen[kind] += 1
    assert all(seen[model, wound] for model in _MODELS for wound in range(6)), seen
    assert all(seen[kind] for kind in _KINDS), seen


def test_every_option_changes_some_hit() -> None:
    """The comparison above proves something: each damage switch, flipped alone, changes
    the wound of some hit under the model that reads it."""
    rng = random.Random(7)
    flips = {
        "double_rd": "fudge_numeric", "graze": "fudge_numeric",
        "minmidmax_minus2": "fudge_minmidmax", "minmidmax_epic": "fudge_minmidmax",
        "kill_above_9": "fudge_minmidmax", "situational_levels": "fudge_freeform",
        "scale_damage_roll": "fudge_numeric", "weapon_groups": "fadad",
    }  # fmt: skip
    dice = np.zeros(3, dtype=np.int64)
    for name, model in flips.items():
        base = DamageRules(wound_model=model)  # type: ignore[arg-type]
        flipped = dataclasses.replace(base, **{name: not getattr(base, name)})
        changed = 0
        for rd, factor, advantage in itertools.product(range(16), range(-8, 9), (-6, 0, 6)):
            kind = damage_dice_kind(flipped, rd, factor, advantage)
            rolled = _dice(kind, rng)
            dice[: len(rolled)] = rolled
            args = (rd, factor, advantage, dice, len(rolled), 0, 1, 0, 1, 3, False)
            a, b = damage.hit(_row(base), *args), damage.hit(_row(flipped), *args)
            changed += a != b or damage.dice_kind(_row(base), rd, factor, advantage) != (
                damage.dice_kind(_row(flipped), rd, factor, advantage)
            )
        assert changed, name


@pytest.mark.parametrize("kind", ["4dF", "1dF", "3d6", ""])
def test_damage_dice_are_drawn_as_python_draws_them(kind: str) -> None:
    """``roll`` draws what ``roll_damage_dice`` draws from the same stream, 3d6 sorted,
    and leaves the stream where Python's is left."""
    rng = random.Random(99)
    rng.random()
    state = np.fromiter(rng.getstate()[1], dtype=np.uint32, count=twister.N + 1)
    dice = np.zeros(3, dtype=np.int64)
    for _ in range(3_000):
        expected = roll_damage_dice(kind, rng)
        n = damage.roll(_KINDS[kind], state, _TABLE, dice)
        assert tuple(dice[:n].tolist()) == expected
    assert state.tolist() == list(rng.getstate()[1])
