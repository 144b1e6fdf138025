"""The shortcuts of a band's turn in arrays play the same battles as the long way.

A search in arrays whose way changed asks each place's last blocker first whether it
blocks the place still (``searching``, :data:`~fadad_agents.agents.core.crowd.waiting.
ASK_LAST_BLOCKER`), and the field in arrays learns who left only when a side's live list
is shorter (``waiting._Crowd._fell``), and takes those who left out of the squares its
searches measure (:data:`~fadad_agents.agents.core.crowd.filing.FALLEN_UNFILED`). None
changes what is found: a place is taken by whoever fighting stands in it, and who fights
is who the fighters' statuses say.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import Any

import numpy as np
import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import character, ranks
from fadad_agents.agents.core.base import Status
from fadad_agents.agents.core.crowd import filing, kernels, searching, waiting
from fadad_agents.agents.core.field import Field
from fadad_agents.engine import build_battle, load
from fadad_agents.policies.core.protocols import MoraleChoice

from .test_compiled_places import _in_python, random_moves
from .test_ranks_in_arrays import CASES, _played

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared

_UID = attrgetter("unique_id")


def _search_once(ask_first: bool) -> tuple[int, int]:
    """One fighter's search after its way changed (it stepped since): its first place
    stands where two others stand: one in the place's own square (searched first), and the
    one its last search found there. What it finds, and who it remembers blocking it."""
    x = np.array([0.0, 10.0, 2.0, 2.1])  # the searcher, its target, two in its way
    y = np.array([0.0, 0.0, 0.0, 0.05])
    radius = np.full(4, 0.5)
    side, fighting = np.array([0, 1, 0, 0]), np.ones(4, dtype=np.bool_)
    version = np.array([1, 0, 0, 0])
    cell = 2 * 0.5 * 2 / 3 * (1 + 1e-9) + 1e-9
    grid = kernels.file_all(x, y, fighting, cell, 4)
    way = np.array([[9.0, 0.0, 9.0, 2.0, 2.0, 1.0]])  # toward (9, 0), 2 yards this turn
    measures = np.array([cell, -1.0, -1.0, 0.5, 2.0, float(ask_first)])
    key = np.array([[0, 1, 0, 2, 9]] * 4)  # searched at version 0: its way changed
    memo = np.full((4, 2 * searching.MEMO), -1, dtype=np.int32)
    memo[0, :2] = (3, 0)  # 3 blocked its first place then
    found = searching._search(
        0, 0, 1, 0, 2, way, (x, y, radius, side, fighting, version), grid, measures, key,
        memo, np.empty(256),
    )  # fmt: skip
    return found, int(memo[0, 0])


def test_a_search_asks_a_places_last_blocker_first() -> None:
    """A fighter whose way changed finds its first place taken by the one its last search
    found there, who stands there still (asked first); without asking first, by the one
    the place's square lists first: the place taken either way, the same search."""
    asked, measured = _search_once(True), _search_once(False)
    assert asked[1] == 3
    assert measured[1] == 2
    assert asked[0] == measured[0]


@pytest.mark.parametrize("case", ["in contact", "12 yards apart, walled"])
@pytest.mark.parametrize("switch", ["ASK_LAST_BLOCKER", "FALLEN_UNFILED"])
def test_each_shortcut_of_the_searches_plays_the_same_battle(
    switch: str, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 in ranks, random crits, to the end: the same log, events and
    final states with each search in arrays asking a place's last blocker first or
    measuring every place over the squares (``ASK_LAST_BLOCKER``), and with those who
    left taken out of the squares or kept there (``FALLEN_UNFILED``)."""
    gap, walls = CASES[case]
    text = _melee_yaml(100, bands=True, gap=gap).replace(
        "rolled}", "rolled, fadad.crit_effects: random}"
    )
    text += walls
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    shortcut = _played(text, 1)
    monkeypatch.setattr(waiting if switch == "ASK_LAST_BLOCKER" else filing, switch, False)
    assert _played(text, 1) == shortcut


def _filed(crowd: Any) -> list[int]:
    """The fighters the squares of the field in arrays hold, by index, in order."""
    squares, counts, _ = crowd.grid
    return sorted(int(k) for s in np.flatnonzero(counts).tolist() for k in squares[s, : counts[s]])


@pytest.mark.parametrize("unfiled", [True, False])
def test_the_arrays_know_who_fights_after_every_turn_in_python(
    unfiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 to the end, random crits: after every turn played in Python the
    field in arrays holds as fighting exactly those whose status is fighting, though it
    reads the sides' downed lists only when a live list shrank, and its squares (what the
    searches measure) hold exactly those, each once (everyone on the field while the
    fallen are kept filed); and the fallen were many."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    monkeypatch.setattr(filing, "FALLEN_UNFILED", unfiled)
    after = waiting._Crowd.after
    checked: list[tuple[bool, bool]] = []
    fallen: list[int] = []

    def checking(self: Any, member: Any, kernels: Any) -> bool:
        refiled = after(self, member, kernels)
        statuses = [a.status is Status.FIGHTING for a in self.everyone]
        held = self.ids[self.fighting[self.ids]] if unfiled else self.ids
        checked.append(
            (self.fighting[self.ids].tolist() == statuses, _filed(self) == sorted(held.tolist()))
        )
        fallen.append(len(self.ids) - int(self.fighting[self.ids].sum()))
        return refiled

    monkeypatch.setattr(waiting._Crowd, "after", checking)
    text = _melee_yaml(100, bands=True, gap=12).replace(
        "rolled}", "rolled, fadad.crit_effects: random}"
    )
    _played(text, 1)
    assert len(checked) > 100
    assert all(fights and squares for fights, squares in checked)
    assert max(fallen) > 50


def test_one_who_withdraws_mid_turn_is_taken_out_of_squares_made_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every 15th blow makes a foe of the striker withdraw (not downed: everyone's status
    read again and everyone filed afresh, ``Filed._count_fighting``). The band's turn
    then reads the new squares (``_Crowd.after`` says so whenever they were made again),
    and the battle is the one every member plays by its own method (blows are struck in
    Python either way)."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    strike, after = character.strike, waiting._Crowd.after
    blows, told = [0], []

    def withdrawing(attacker: Any, fighter: Any, target: Any, arena: Any) -> Any:
        struck = strike(attacker, fighter, target, arena)
        blows[0] += 1
        foes = arena.sides[1 - attacker.side].active
        if blows[0] % 15 == 0 and len(foes) > 1:
            arena.leave(min(foes, key=_UID), MoraleChoice.WITHDRAW, "told to")
        return struck

    def checking(self: Any, member: Any, kernels: Any) -> bool:
        grid = self.grid
        refiled = after(self, member, kernels)
        if self.grid is not grid:
            told.append(refiled)
        return refiled

    monkeypatch.setattr(character, "strike", withdrawing)
    monkeypatch.setattr(waiting._Crowd, "after", checking)
    text = _melee_yaml(100, bands=True, gap=12)
    in_arrays = _played(text, 1)
    assert len(told) > 5
    assert all(told)
    assert sum(status is Status.WITHDRAWN for _, status, *_ in in_arrays[2]) > 5
    monkeypatch.setattr(waiting, "RANKS_IN_ARRAYS", False)
    blows[0] = 0
    assert _played(text, 1) == in_arrays


def test_a_run_of_none_leaves_everything_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run the arrays stopped at its first member (Python's: a striker most often),
    left on the fighters as any run is, changes no fighter and nothing in the arrays,
    and ends where it began, that member yet to play: what a band's turn takes without
    asking (``waiting.play_band_turn``)."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    battle = build_battle(load(_melee_yaml(100, bands=True, gap=12)), 1, collect=False)
    battle.play_round()
    crowd, turn = battle.field.in_arrays, battle.sides[0].members

    def state() -> Any:
        fighters = [(m.gait, m.move_actions, m.defences_left, m.target) for m in turn]
        return fighters, crowd.x.tolist(), crowd.version.tolist(), list(crowd.at)

    before = state()
    for start in (0, 37, 99):
        assert crowd.played(turn, start, start, ([], [], []), None, battle, kernels) == (
            start,
            True,
        )
    assert state() == before


@pytest.mark.parametrize("bounds", [(None, None), (14, 8), (None, 6)])
def test_a_search_in_arrays_tries_pythons_places(bounds: tuple[Any, Any]) -> None:
    """Random moves toward a target or not, near and far, on open ground and on fields
    whose edges clamp places: the places a search in arrays tries, in order
    (``searching._spots``, in the compiled loop of a band's turn), are those Python tries
    (``ranks._places_round``, then ``ranks._way_spots``), bit for bit, and so is the
    count round the target."""
    field = Field(2, width=bounds[0], height=bounds[1])
    width, height = (-1.0 if b is None else float(b) for b in bounds)
    compared = 0
    for actor, target, aimed, goal, gap, yards, allowance in random_moves(
        random.Random(11), 3000, (2.0, 4.0, 8.0)
    ):
        want, ring = _in_python(actor, field, goal, gap, yards, allowance, aimed)
        (ax, ay), (tx, ty) = actor.position, target.position
        crowd = (
            np.array([ax, tx]), np.array([ay, ty]), np.array([actor.radius, target.radius]),
            np.array([0, 1]), np.ones(2, dtype=np.bool_), np.zeros(2, dtype=np.int64),
        )  # fmt: skip
        way = np.array([[*goal, gap, yards, allowance, actor.reach]])
        measures = np.array([1.0, width, height, 0.9, 2.0, 1.0])
        slots = ranks.ring(target.radius, actor.radius)[1] if aimed else 0
        spots = np.empty(2 * searching._MOST_SPOTS)
        count, ring_count = searching._spots(0, 0, 1, slots, way, crowd, measures, spots)
        if count < 0:  # more places than the arrays hold: Python's search
            continue
        assert (spots[: 2 * count].tolist(), ring_count) == (want, ring)
        compared += 1
    assert compared > 2500
