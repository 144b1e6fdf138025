"""The ``guard`` movement policy: each guard keeps within ``radius`` yards of its ward, the
comrade named ``ward`` or else the side's most wounded (the first of them), closing on foes
that come that near. Its ward is found in the side's live list without copying it (a band
of 750 guards copied the list at every move of each)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.engine import build_battle, load
from fadad_agents.policies.core.movement import Guard


class _Friend:
    def __init__(self, name: str, wound: int) -> None:
        self.name, self.wound = name, wound


class _Side:
    def __init__(self, friends: list[_Friend]) -> None:
        self.live = friends

    def friends(self, side: int) -> list[_Friend]:
        return self.live


def _copied_ward(guard: Guard, actor: Any, battle: Any) -> Any:
    """The ward as found before: the side's list copied without the actor, then searched."""
    friends = [f for f in battle.friends(actor.side) if f is not actor]
    if guard.ward:
        return next((f for f in friends if f.name == guard.ward), None)
    return max(friends, key=lambda f: f.wound, default=None)


@given(
    st.lists(st.tuples(st.sampled_from("ABCJ"), st.integers(0, 3)), max_size=12),
    st.integers(0, 11),
    st.sampled_from(["", "J", "A"]),
)
def test_the_ward_is_the_first_named_else_the_first_most_wounded(
    friends: list[tuple[str, int]], me: int, ward: str
) -> None:
    """On sides of a few fighters sharing names and wounds, the guard among them or not:
    the ward is the one the side's copied list gave, the guard itself never."""
    side = [_Friend(name, wound) for name, wound in friends]
    actor = side[me] if me < len(side) else _Friend("J", 0)
    actor.side = 0  # type: ignore[attr-defined]
    battle = _Side(side)
    guard = Guard(ward=ward)
    found = guard._ward(actor, battle)  # type: ignore[arg-type]
    assert found is _copied_ward(guard, actor, battle)
    assert found is not actor


def _guarded(radius: float) -> str:
    """A jarl who holds his ground and a band of 30 who guard him, against a band of 30
    twenty yards off."""
    text = _melee_yaml(30, bands=True, gap=20).replace("max_rounds: 1000", "max_rounds: 6")
    jarl = """      - name: Jarl
        reaction_speed: Fair
        skills: {Sword: Great}
        attack_skill: Sword
        weapon: weapons/broadsword
        armour: armour/heavy-leather
        position: [-8, 0]
        policies: {movement: hold}
"""
    text = text.replace("  - name: Red\n    forces:\n", "  - name: Red\n    forces:\n" + jarl, 1)
    guard = f"{{name: guard, params: {{ward: Jarl, radius: {radius}}}}}"
    policy = f"        policies: {{movement: {guard}}}\n"
    return text.replace("        count: 30\n        position: [0, 0]\n",
                        "        count: 30\n        position: [0, 0]\n" + policy, 1)  # fmt: skip


def _spread(text: str, rounds: int) -> tuple[float, float]:
    """The band's mean yards from the jarl at the start and after ``rounds`` rounds."""
    battle = build_battle(load(text), 4, collect=False)
    jarl = next(m for m in battle.agents if m.name == "Jarl")
    band = [m for m in battle.agents if m.side == jarl.side and m is not jarl]

    def mean() -> float:
        return sum(math.dist(m.position, jarl.position) for m in band) / len(band)

    start = mean()
    for _ in range(rounds):
        battle.play_round()
    return start, mean()


def test_guards_draw_in_round_their_ward_and_play_as_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Thirty guards formed up eight yards from their jarl, who holds, the foe twenty yards
    beyond: in two rounds they draw in round him, where the same band closing on the foe
    draws away; and the battle is the same, byte for byte, with the ward found by copying
    the side's list."""
    start, guarding = _spread(_guarded(3.0), 2)
    close = _guarded(3.0).replace("{name: guard, params: {ward: Jarl, radius: 3.0}}", "close")
    closing = _spread(close, 2)[1]
    assert guarding < start - 0.5
    assert closing > start + 1.0
    battle = build_battle(load(_guarded(3.0)), 4, collect=False)
    battle.run_to_end()
    log = battle.log.to_jsonl()
    monkeypatch.setattr(Guard, "_ward", _copied_ward)
    again = build_battle(load(_guarded(3.0)), 4, collect=False)
    again.run_to_end()
    assert again.log.to_jsonl() == log
