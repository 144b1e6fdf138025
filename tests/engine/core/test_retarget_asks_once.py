"""A fighter whose new target is none in reach (the nearest foe) does not ask again for a
foe in reach on the same swing (``agents.core.character.ASK_ONCE``): the same battle."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import character, moving
from fadad_agents.engine import build_battle, load
from fadad_agents.policies.core.defaults import random_foe, random_foe_told

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared


def _played(text: str, seed: int) -> list[Any]:
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    return [tuple(e) for e in battle.log]


@pytest.mark.parametrize(("per_side", "gap"), [(50, None), (100, 6)])
def test_a_retarget_told_none_in_reach_plays_the_same_battle(
    per_side: int, gap: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands formed up in ranks (in contact, or 6 yards apart) play the same first
    12 rounds, event for event, whether a fighter whose target fell and whose new one
    (none in reach: the nearest) stands out of its reach asks for another foe in reach or
    not; and asking was skipped often."""
    text = _melee_yaml(per_side, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    asked = 0
    another = moving.another_in_reach

    def counted(actor: Any, arena: Any) -> Any:
        nonlocal asked
        asked += 1
        return another(actor, arena)

    monkeypatch.setattr(moving, "another_in_reach", counted)
    once = _played(text, 1)
    asked_once, asked = asked, 0
    monkeypatch.setattr(character, "ASK_ONCE", False)
    assert _played(text, 1) == once
    assert asked - asked_once > 50, "few asks were skipped: the comparison proves little"


def test_random_foe_told_is_random_foe_and_says_whether_it_was_in_reach() -> None:
    """``random_foe_told`` draws what ``random_foe`` draws, from the same stream, and tells
    a foe in reach (``foes_in_reach`` had it) from the nearest out of reach."""
    battle = build_battle(load(_melee_yaml(20, bands=True)), 3, collect=False)
    battle.play_round()
    fighters = [m for side in battle.sides for m in side.active]
    kinds = set()
    for actor in fighters:
        state = actor.targeting_rng.getstate()
        told, in_reach = random_foe_told(actor, battle, actor.targeting_rng)
        actor.targeting_rng.setstate(state)
        assert random_foe(actor, battle, actor.targeting_rng) is told
        assert in_reach == (told in battle.foes_in_reach(actor))
        kinds.add(in_reach)
    assert kinds == {True, False}
