"""TableDice: a stream whose rolls may be made at the table, drawn exactly as a plain one."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from fadad_agents.rules.core import dice
from fadad_agents.rules.core.actions import roll_initiative
from fadad_agents.rules.core.dice import Die, TableDice
from fadad_agents.rules.core.morale import resolve_morale_check
from fadad_agents.rules.core.wounds import new_track
from fadad_agents.rules.personal.combat import CombatRules, Fighter, resolve_attack

ROLLS: list[Callable[[random.Random], Any]] = [
    dice.roll_4df,
    dice.roll_1df,
    dice.roll_6df,
    dice.roll_d6,
    dice.roll_d20,
    dice.roll_d100,
    dice.roll_3d6,
    lambda r: dice.roll_nds(r, 2, 10),
    lambda r: dice.roll_ndf(r, 3),
    lambda r: roll_initiative(1, r),
    lambda r: resolve_morale_check(11, r).roll,
]


def _table(seed: int, answer: Callable[..., Any] | None = None) -> tuple[TableDice, list[Any]]:
    stream = random.Random(seed)
    stream.__class__ = TableDice
    asked: list[Any] = []

    def call(die: Die, rolled: Any, owner: str | None, purpose: str) -> Any:
        asked.append((str(die), rolled, owner, purpose))
        return rolled if answer is None else answer(die, rolled)

    stream.call = call  # type: ignore[attr-defined]
    stream.owner = "Snorri"  # type: ignore[attr-defined]
    return stream, asked


@pytest.mark.parametrize("roll", ROLLS)
def test_a_table_stream_left_to_the_seed_rolls_as_a_plain_one(roll: Callable[..., Any]) -> None:
    """Each roll function: the same rolls, in the same order, from Random and TableDice."""
    plain, (table, asked) = random.Random(11), _table(11)
    assert [roll(plain) for _ in range(50)] == [roll(table) for _ in range(50)]
    assert len(asked) == 50
    assert plain.random() == table.random()


def test_the_table_answer_is_the_roll_used_and_the_stream_moves_on_alike() -> None:
    """An entered roll replaces the seed's; the stream's position is the seed's either way."""
    table, asked = _table(5, lambda die, rolled: 4)
    assert dice.roll_4df(table, "attack") == 4
    assert asked[0][2:] == ("Snorri", "attack")
    plain = random.Random(5)
    dice.roll_4df(plain)
    assert plain.random() == table.random()


def test_a_swing_asks_attack_defence_and_damage_by_whose_roll_they_are() -> None:
    """resolve_attack on a table stream: the defence die is the defender's; all-plus entered
    attack dice make the crits the rules give."""
    snorri = Fighter("Snorri", attack=2, defence=2, odm=5, ddm=3)
    brynhild = Fighter("Brynhild", attack=1, defence=1, odm=5, ddm=2, shield="medium")
    entered = iter([1, -1, 0])
    table, asked = _table(1, lambda die, rolled: next(entered))
    res = resolve_attack(snorri, brynhild, new_track(), table, CombatRules())
    assert [(a[2], a[3]) for a in asked] == [
        ("Snorri", "attack"),
        ("Brynhild", "defence"),
        ("Snorri", "damage"),
    ]
    assert (res.attack_dice, res.defence_dice, res.rd, res.damage) == (1, -1, 3, 6)
