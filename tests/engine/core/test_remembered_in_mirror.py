"""A blocked search made in compiled code keeps its places and blockers in the field's
mirror (``crowd.occupied.REMEMBERED``: ``crowd.remembered``), and measuring them again
there finds the place a memo of Python lists finds, before and after fighters step, leave,
come and the mirror is made again: the same battle."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import ranks
from fadad_agents.agents.core.crowd import occupied, remembered
from fadad_agents.agents.core.field import Field
from tests.engine.core.test_compiled_places import _played
from tests.engine.core.test_compiled_search import _crowd

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared


def _memo(actor: Any, field: Field, move: tuple[Any, ...], kept: bool) -> Any:
    """The memo ``actor``'s search leaves (None: a place was free), kept in the mirror or
    in lists."""
    saved, occupied.REMEMBERED = occupied.REMEMBERED, kept
    try:
        actor.memory.clear()
        ranks.way_forward(actor, field, *move)
        return actor.memory.get("blocked")
    finally:
        occupied.REMEMBERED = saved


@pytest.mark.parametrize("seed", range(4))
def test_a_memo_kept_in_the_mirror_retries_as_one_in_lists(seed: int) -> None:
    """Random crowds and moves that find every place taken: the memo kept in the mirror
    and the one in lists name the same blockers; after fighters step (a few onto their
    blockers' places and back), leave and come, both retried find the same place (or
    none), again and again; and after one steps off the mirror's grid (the mirror made
    again: its slots name no one) the kept memo measures every place afresh, the same."""
    rng = random.Random(seed)
    field = Field(2)
    crowd = _crowd(rng, field, 90)
    kept_seen = retried = freed = afresh = 0
    for n in range(400):
        actor, target = rng.sample(crowd, 2)
        tx, ty = target.position
        goal = (tx + rng.uniform(-1, 1), ty + rng.uniform(-1, 1))
        gap = math.hypot(goal[0] - actor.position[0], goal[1] - actor.position[1])
        allowance = rng.choice([0.5, 1.0, 2.0])
        move = (goal, gap, min(gap, allowance), allowance, target if n % 3 else None)
        kept = _memo(actor, field, move, True)
        listed = _memo(actor, field, move, False)
        assert (kept is None) == (listed is None)
        if kept is None:
            continue
        kept_seen += 1
        assert kept.tried is None
        assert listed.tried is not None
        assert remembered.blockers(kept) == listed.tried
        assert list(map(float, kept.spots)) == listed.spots
        for _ in range(3):
            for other in rng.sample(crowd, 12):  # steps; the mirror follows every one
                if other is actor:
                    continue
                x, y = other.position
                field.move(other, x + rng.uniform(-0.6, 0.6), y + rng.uniform(-0.6, 0.6))
            if rng.random() < 0.3:  # one leaves, another comes
                gone = rng.choice([f for f in crowd if f is not actor])
                gone.status = None  # out of the fight, as the battle takes a fighter off
                field.remove(gone)
                crowd.remove(gone)
                crowd += _crowd(rng, field, 1)
            if n % 20 == 0:  # off the grid: the mirror made again
                far = rng.choice([f for f in crowd if f is not actor])
                field.move(far, 90.0 if n % 40 else -70.0, 3.0)
            afresh += field.occupancy() is not kept.stood[0]  # its slots name no one now
            found = kept.retry(actor, field)
            assert found == listed.retry(actor, field)
            assert found is None or all(type(v) is float for v in found)
            retried += 1
            freed += found is not None
            if found is not None:
                break
    assert kept_seen > 60
    assert retried > 150
    assert 10 < freed < retried
    assert afresh >= 3


@pytest.mark.parametrize(("gap", "walled"), [(None, False), (12, False), (40, False), (None, True)])
def test_a_battle_whose_memos_are_kept_in_the_mirror_is_the_same(
    gap: int | None, walled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 in ranks (in contact, 12 or 40 yards apart, or on a field whose
    edges cut their ranks) play the same first 12 rounds, event for event, with blocked
    searches remembered in the mirror or in lists; many were measured again there."""
    text = _melee_yaml(100, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    if walled:
        text += "map: {kind: open, width: 14, height: 8}\n"
    rechecked = 0
    recheck = remembered.recheck

    def counted(memo: Any, actor: Any, field: Any) -> Any:
        nonlocal rechecked
        rechecked += 1
        return recheck(memo, actor, field)

    monkeypatch.setattr(remembered, "recheck", counted)
    monkeypatch.setattr(occupied, "REMEMBERED", True)
    kept = _played(text, 3)
    assert rechecked > 50
    monkeypatch.setattr(occupied, "REMEMBERED", False)
    rechecked = 0
    assert _played(text, 3) == kept
    assert rechecked == 0
