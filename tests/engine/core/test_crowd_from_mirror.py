"""The field in arrays a band's turn is played over is read from the field's mirror.

A field placed once numba is loaded keeps its mirror in arrays (``squares.MIRRORED``):
everyone on it, where each stands and how wide. The field in arrays of a turn played in
arrays (``waiting._Crowd``) takes them from there, in the mirror's order, rather than
reading each fighter's place; it holds the same fighters, places, radii and figures as
one read from the fighters, and plays the same battle.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.base import Status
from fadad_agents.agents.core.crowd import kernels, waiting
from fadad_agents.agents.core.field import squares
from fadad_agents.engine import build_battle, load

from .test_ranks_in_arrays import _played  # the battle's log, events and final states

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared


def _figures(crowd: Any) -> dict[str, Any]:
    """What the arrays hold of each fighter, by ``unique_id`` (order apart)."""
    ids = np.sort(crowd.ids)
    return {
        "ids": ids,
        "everyone": sorted(a.unique_id for a in crowd.everyone),
        "at": sorted((a.unique_id, p) for a, p in zip(crowd.everyone, crowd.at, strict=True)),
        **{k: getattr(crowd, k)[ids] for k in ("x", "y", "radius", "side", "reach", "stride")},
        **{k: getattr(crowd, k)[ids] for k in ("most", "wanted", "fighting", "steady_at")},
        "of_side": [sorted(crowd.ids[s].tolist()) for s in crowd.of_side],
    }


def test_the_crowd_read_from_the_mirror_is_the_one_read_from_the_fighters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two bands of 300, after two rounds (some fell, many moved): the field in arrays
    made from the mirror holds what one made by reading every fighter holds (those taken
    off the field left out of both)."""
    battle = build_battle(load(_melee_yaml(300, bands=True)), 1, collect=False)
    for _ in range(2):
        battle.play_round()
    field = battle.field
    assert field.mirrored() is not None, "no mirror kept: nothing tested"
    from_mirror = _figures(waiting._Crowd(battle, kernels))
    monkeypatch.setattr(squares.Squares, "mirrored", lambda self: None)
    read = _figures(waiting._Crowd(battle, kernels))
    assert 400 < len(read["ids"]) < 600  # some taken off the field: passed over in both
    for key, value in read.items():
        if isinstance(value, list):
            assert from_mirror[key] == value, key
        else:
            assert np.array_equal(from_mirror[key], value), key


@pytest.mark.parametrize("seed", [1, 2])
def test_a_crowd_read_from_the_fighters_plays_the_same_battle(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 150 played in arrays (the threshold lowered), random crits, 12
    rounds: the same battle with the field in arrays read from the mirror and from the
    fighters."""
    text = _melee_yaml(150, bands=True).replace("max_rounds: 1000", "max_rounds: 12")
    text = text.replace("rolled}", "rolled, fadad.crit_effects: random}")
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    made = {"mirror": 0}
    crowd = waiting._Crowd

    def counted(arena: Any, kernels: Any) -> Any:
        made["mirror"] += arena.field.mirrored() is not None
        return crowd(arena, kernels)

    monkeypatch.setattr(waiting, "_Crowd", counted)
    from_mirror = _played(text, seed)
    assert made["mirror"] >= 1
    monkeypatch.setattr(squares.Squares, "mirrored", lambda self: None)
    assert _played(text, seed) == from_mirror


def test_a_crowd_made_while_everyone_fights_holds_each_ones_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two bands of 300 over three rounds: the field in arrays made while every member
    of every side fights (no status read) and one made after some fell (each status
    read) hold who fights as the fighters' statuses say; and the comparison can fail:
    a fighter whose status changed behind its side's back is not seen then."""
    made: list[tuple[bool, bool]] = []
    init = waiting._Crowd.__init__

    def checked(self: Any, arena: Any, kernels: Any) -> None:
        init(self, arena, kernels)
        everyone_fights = all(len(s.active) == len(s.members) for s in arena.sides)
        statuses = [a.status is Status.FIGHTING for a in self.everyone]
        made.append((everyone_fights, self.fighting[self.ids].tolist() == statuses))

    monkeypatch.setattr(waiting._Crowd, "__init__", checked)
    battle = build_battle(load(_melee_yaml(300, bands=True)), 1, collect=False)
    for _ in range(3):
        battle.play_round()
        battle.field.in_arrays = None  # made again at the next round's declares
    assert [fights for fights, _ in made] == [True, False, False]
    assert all(same for _, same in made)
    made.clear()
    battle = build_battle(load(_melee_yaml(300, bands=True)), 1, collect=False)
    battle.sides[0].members[0].status = Status.WITHDRAWN  # not taken off its side
    battle.play_round()
    assert made[0] == (True, False)
