"""A blow of one plain character on another, struck with its calls inlined
(``agents.core.blows.PLAIN_BLOWS``), is the blow :func:`strike`'s general path strikes:
the same dice, events, log bytes and final states, battle for battle."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import blows
from fadad_agents.engine import build_battle, load


def _ranks(per_side: int, *, gap: int | None = None, rules: str = "") -> str:
    """Two bands formed up in ranks (the scaling benchmark's), 12 rounds at most."""
    text = _melee_yaml(per_side, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    return text.replace("fadad.initiative: rolled", f"fadad.initiative: rolled{rules}")


def _players(text: str) -> str:
    """``text`` with two player characters a side standing by the bands' front ranks (a
    protected target: ``land``'s own path)."""
    for side, x in (("Red", 0), ("Blue", 2)):
        heroes = "".join(
            f"""      - name: {side} hero {i}
        player: true
        ite_points: 1
        skills: {{Sword: Great}}
        attack_skill: Sword
        weapon: weapons/broadsword
        position: [{x}, {y}]
"""
            for i, y in enumerate((-6, 6))
        )
        head = f"  - name: {side}\n    forces:\n"
        text = text.replace(head, head + heroes)
    return text


SCENARIOS: dict[str, str] = {
    "ranks in contact": _ranks(30),
    "ranks 6 yards apart": _ranks(30, gap=6),
    "random crits (conditions, penalties)": _ranks(30, rules=", fadad.crit_effects: random"),
    "static initiative (every turn shared: wounds pending)": _ranks(30).replace("rolled", "static"),
    "player characters (protected: land's own path)": _players(_ranks(20, gap=2)),
    "shields (a shield's rank)": _ranks(20).replace(
        "armour/heavy-leather", "armour/heavy-leather\n        shield: shields/medium"
    ),
}


def _played(text: str, seed: int) -> tuple[str, list[Any], list[Any]]:
    """A battle to its end: its log as read, its events, each fighter's final state."""
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    states = [
        (m.name, m.status, m.track, m.conditions, m.defences_left)
        for side in battle.sides
        for m in side.members
    ]
    return battle.log.text(), [tuple(e) for e in battle.log], states


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_a_plain_blow_strikes_as_the_general_path(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each scenario plays the same battles, byte for byte in the log, with plain blows
    on and off; and with them on, most blows were struck on the plain path."""
    text = SCENARIOS[name]
    struck = 0
    plain_strike = blows._plain_strike

    def counted(*args: Any) -> Any:
        nonlocal struck
        struck += 1
        return plain_strike(*args)

    monkeypatch.setattr(blows, "_plain_strike", counted)
    seeds = range(2)
    inlined = [_played(text, seed) for seed in seeds]
    assert struck > 50, f"{name}: few plain blows: the comparison proves little"
    monkeypatch.setattr(blows, "PLAIN_BLOWS", False)
    struck = 0
    general = [_played(text, seed) for seed in seeds]
    assert struck == 0
    for seed, (a, b) in enumerate(zip(inlined, general, strict=True)):
        assert a[0] == b[0], f"{name}, seed {seed}: the log reads differently"
        assert a[1:] == b[1:], f"{name}, seed {seed}: events or final states differ"
