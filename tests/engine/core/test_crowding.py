"""Crowding on the field: no defender is struck in melee by more fighters in one round than
fit round it (six round a man, more round a dragon, ``map.max_attackers`` in a doorway),
and no two fighters ever stand in one place (personal-combat.md 5; PROPOSED elbow room)."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import moving
from fadad_agents.agents.core.field import ELBOW_ROOM
from fadad_agents.agents.core.moving import never_crowded, room
from fadad_agents.engine import build_battle, load
from tests.engine.conftest import SCENARIOS


def _has_fighters_on_the_field(path: Any) -> bool:
    battle = build_battle(load(path), 1, collect=False)
    placed = [any(getattr(m, "placed", False) for m in side.members) for side in battle.sides]
    return sum(placed) >= 2


ON_THE_FIELD = sorted(p.stem for p in SCENARIOS.glob("*.yaml") if _has_fighters_on_the_field(p))
"""Every shipped scenario with characters on a field (personal battles, Fae beside them)."""


def _fighters(battle: Any) -> dict[str, Any]:
    return {m.name: m for side in battle.sides for m in side.members}


@pytest.mark.parametrize("stem", ON_THE_FIELD)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_defender_is_struck_by_more_than_fit_round_it(stem: str, seed: int) -> None:
    """Distinct melee attackers on the field per defender and round <= the places round
    it for the largest of them (``moving.room``, with the scenario's map.max_attackers)."""
    battle = build_battle(load(SCENARIOS / f"{stem}.yaml"), seed, collect=False)
    battle.run_to_end()
    who = _fighters(battle)
    struck: dict[tuple[int, str], set[str]] = defaultdict(set)
    for e in battle.log:
        if e.action == "attack" and e.target in who and who[e.actor].placed:
            struck[(e.round, e.target)].add(e.actor)
    assert struck, "no melee blow on the field: the check would prove nothing"
    for (rnd, name), attackers in struck.items():
        defender = who[name]
        most = max(room(defender, who[a], battle) for a in attackers)
        assert len(attackers) <= most, f"round {rnd}: {sorted(attackers)} on {name}"


@pytest.mark.parametrize("stem", ["tavern-brawl"])
def test_no_two_fighters_stand_in_one_place(stem: str) -> None:
    """After every round of the brawl, any two fighters still on the field stand at least
    ELBOW_ROOM of their radii together apart (those behind wait in ranks)."""
    battle = build_battle(load(SCENARIOS / f"{stem}.yaml"), 2, collect=False)
    while not battle.finished:
        battle.play_round()
        standing = [m for side in battle.sides for m in side.members if m.placed and m.fighting]
        for i, a in enumerate(standing):
            for b in standing[i + 1 :]:
                apart = math.dist(a.position, b.position)
                assert apart >= (a.radius + b.radius) * ELBOW_ROOM - 1e-9, (a.name, b.name)


def _log(text: str, seed: int) -> list[str]:
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    return list(battle.log.jsonl_lines())


FIVE_A_SIDE = _melee_yaml(5, bands=False)
CROWDS = {
    "seven on one": _melee_yaml(1, bands=False).replace("count: 1", "count: 7", 1),
    "a doorway": FIVE_A_SIDE.replace("sides:", "map: {max_attackers: 2}\nsides:"),
}


@pytest.mark.parametrize("text", [FIVE_A_SIDE, *CROWDS.values()], ids=["5v5", *CROWDS])
def test_a_fight_nobody_can_be_crowded_in_counts_no_places(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five a side, six places round each: nobody counts its attackers
    (``moving.never_crowded``), and the battles are the ones counting gives; round a
    man set on by a band of seven, or in a doorway of two, the places are counted."""
    battle = build_battle(load(text), 1, collect=False)
    battle.run_to_end()
    roomy = [never_crowded(m, battle) for side in battle.sides for m in side.members]
    assert all(roomy) if text is FIVE_A_SIDE else not all(roomy)
    fast = [_log(text, seed) for seed in range(8)]
    monkeypatch.setattr(moving, "never_crowded", lambda defender, arena: False)
    assert [_log(text, seed) for seed in range(8)] == fast
