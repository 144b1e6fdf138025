"""The field's shortcuts in a crowd play the same battle as the plain searches.

A fighter blocked in the ranks remembers who blocked it and skips its search while none
of them has moved (``agents.core.ranks.REMEMBER_BLOCKED``); the searches of many fighters
are made ahead together in arrays (``crowd.ahead.LOOK_AHEAD``); a fighter remembers its move
while it and its target stand where they stood (``moving._foreseen``); the nearest-foe
search skips buckets wholly farther than the best found. None may change anything a
battle shows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import moving, ranks
from fadad_agents.agents.core.crowd import ahead, declaring, waiting
from fadad_agents.agents.core.crowd.nearest import Nearest
from fadad_agents.agents.core.field import Field
from fadad_agents.agents.core.field import ground as field_module
from fadad_agents.engine import build_battle, load
from tests.engine.core.test_reach_or_nearest import asked_apart

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared

_apart = pytest.fixture(autouse=True, scope="module")(asked_apart)  # test the calls apart


def _played(text: str, seed: int) -> list[Any]:
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    return [tuple(e) for e in battle.log]


@pytest.mark.parametrize(("gap", "walled"), [(None, False), (12, False), (None, True)])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_blocked_rank_remembering_its_blockers_plays_the_same_battle(
    gap: int | None, walled: bool, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 formed up in ranks (in contact, or 12 yards apart, or in contact
    on a field whose edges cut their ranks and sidesteps short) play the same first 15
    rounds, event for event, whether blocked fighters remember their blockers (measuring
    again only the places whose blocker moved, trying them first when the way changed,
    taken straight from the memo while the fighter's remembered way is the one it was
    made for) or search afresh every round; and the remembered blocks were used, most
    of them straight."""
    text = _melee_yaml(100, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 15")
    if walled:  # a 14 x 8 yard yard: the ranks (10 wide) reach past its long edges
        text += "map: {kind: open, width: 14, height: 8}\n"
    used = straight = searching = 0
    retry, way_forward = ranks.Blocked.retry, moving.way_forward

    def counted(memo: Any, actor: Any, field: Any) -> Any:
        nonlocal used, straight
        found = retry(memo, actor, field)
        used += found is None
        straight += not searching  # not through way_forward: moving.advance's own
        return found

    def searched(*args: Any) -> Any:
        nonlocal searching
        searching += 1
        try:
            return way_forward(*args)
        finally:
            searching -= 1

    monkeypatch.setattr(ranks.Blocked, "retry", counted)
    monkeypatch.setattr(moving, "way_forward", searched)
    remembered = _played(text, seed)
    assert used > 0, "no fighter skipped a search: the comparison would prove nothing"
    assert straight * 2 > used, "few memos were taken straight: that path is barely tested"
    monkeypatch.setattr(ranks, "REMEMBER_BLOCKED", False)
    assert _played(text, seed) == remembered


@pytest.mark.parametrize("walled", [False, True])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_ranks_measured_ahead_in_arrays_play_the_same_battle(
    walled: bool, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 formed up 40 yards apart (out of reach of a run: every fighter
    chases), or so on a yard whose edges cut their ranks and sidesteps short, play the same
    first 8 rounds, byte for byte in the log, whether the searches of the fighters whose
    way changed are made together in arrays before the round's first move (the threshold
    lowered so a battle this small uses them) or each on its fighter's turn; and the
    arrays made memos that were used."""
    text = _melee_yaml(100, bands=True, gap=40).replace("max_rounds: 1000", "max_rounds: 8")
    if walled:  # 60 x 8 yards: the ranks (10 wide) reach past its long edges
        text += "map: {kind: open, width: 60, height: 8}\n"
    made = 0
    measure_ahead = ahead.measure_ahead

    def counted(field: Any, everyone: list[Any], chasers: list[Any]) -> None:
        nonlocal made
        made += len(chasers)
        measure_ahead(field, everyone, chasers)

    monkeypatch.setattr(ahead, "measure_ahead", counted)
    monkeypatch.setattr(ahead, "AHEAD_AT_LEAST", 1)
    measured = _log_text(text, seed)
    assert made > 0, "no search was made ahead: the comparison would prove nothing"
    monkeypatch.setattr(ahead, "LOOK_AHEAD", False)
    assert _log_text(text, seed) == measured


def test_the_memos_made_ahead_are_the_searches_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two bands of 1,300 in contact (36 ranks deep: the rear out of reach of a run), the
    first 3 rounds: for every fighter whose search is made ahead in arrays (those whose
    move reaches the target with the places round it), the blockers found end where its
    own search finds its first free place, and where it finds none the places are the
    ones it tries, bit for bit, and every one has a blocker: the arrays decide each place
    as the search does."""
    text = _melee_yaml(1300, bands=True).replace("max_rounds: 1000", "max_rounds: 3")
    battle = build_battle(load(text), 1, collect=False)
    checked = blocked = ringed = 0
    measure_ahead = ahead.measure_ahead

    def compared(field: Any, everyone: list[Any], chasers: list[Any]) -> None:
        nonlocal checked, blocked, ringed
        searched = []
        for actor, _, goal, gap, yards, allowance, target, _ in chasers:
            actor.memory.pop("blocked", None)
            place = ranks.way_forward(actor, field, goal, gap, yards, allowance, target)
            searched.append((place, actor.memory.pop("blocked", None)))
        measure_ahead(field, everyone, chasers)
        for (actor, *_), (place, own) in zip(chasers, searched, strict=True):
            memo = actor.memory["blocked"]
            spots, tried = memo.spots, memo.tried
            if own is not None:  # every place taken: the same places, every blocker found
                assert [v.hex() for v in spots] == [v.hex() for v in own.spots]
                assert len(tried) * 2 == len(spots)
                assert memo.ring == own.ring
                blocked += 1
                ringed += memo.ring > 0
            else:  # the first place after the blockers is the one its search found
                assert (spots[2 * len(tried)], spots[2 * len(tried) + 1]) == place
            checked += 1

    monkeypatch.setattr(ahead, "measure_ahead", compared)
    monkeypatch.setattr(ahead, "AHEAD_AT_LEAST", 1)
    monkeypatch.setattr(waiting, "RANKS_IN_ARRAYS", False)  # arrays search on each turn
    for _ in range(3):
        battle.play_round()
    assert checked > 300, checked
    assert blocked > 200, blocked
    assert ringed > 100, ringed  # moves that reach the target: the places round it too


@pytest.mark.parametrize("walled", [False, True])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_remembered_move_plays_the_same_battle(
    walled: bool, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 formed up in ranks in contact (or on a yard whose edges cut their
    ranks short) play the same first 15 rounds, byte for byte in the log, whether a
    fighter whose movement policy is foreseeable remembers its destination, plan and way
    while it and its target stand where they stood, or works them out every time; and the
    remembered ones were used: fewer moves were planned."""
    text = _melee_yaml(100, bands=True).replace("max_rounds: 1000", "max_rounds: 15")
    if walled:
        text += "map: {kind: open, width: 14, height: 8}\n"
    planned = 0
    plan = moving._plan
    monkeypatch.setattr(declaring, "ROUTES_INLINED", False)  # every route made by moving

    def counted(actor: Any, target: Any, arena: Any, budget: int, route: Any) -> Any:
        nonlocal planned  # a move worked out, not remembered
        planned += 1
        return plan(actor, target, arena, budget, route)

    monkeypatch.setattr(moving, "_plan", counted)
    remembered = _log_text(text, seed)
    kept, planned = planned, 0
    monkeypatch.setattr(moving, "_foreseen", lambda actor, target: None)
    assert _log_text(text, seed) == remembered
    assert kept < planned, "no move was remembered: the comparison would prove nothing"


@pytest.mark.parametrize(("gap", "walled"), [(None, False), (12, False), (None, True)])
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("at_once", [1, field_module.NEAREST_AT_ONCE])
def test_the_nearest_found_at_once_play_the_same_battle(
    gap: int | None, walled: bool, seed: int, at_once: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 formed up in ranks (in contact, 12 yards apart, or on a yard whose
    edges cut their ranks short) play the same first 15 rounds, byte for byte in the log,
    whether each side's nearest to every place are found at once after a single look-up
    (or, numba loaded, after NEAREST_LOADED: a band of 100 is smaller than
    NEAREST_AT_ONCE) and kept while that side stands still (through the other side's
    steps and its own losses), the foes in reach of a place taken as none where they lie
    farther, or every nearest foe and foe in reach is searched as asked; and the kept
    answers were read."""
    text = _melee_yaml(100, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 15")
    if walled:
        text += "map: {kind: open, width: 14, height: 8}\n"
    read = 0

    def counting(look_up: Any) -> Any:  # Field.nearest's and foes_in_reach's look-ups
        def counted(field: Any, side: int, x: float, y: float) -> Any:
            nonlocal read
            found = look_up(field, side, x, y)
            read += isinstance(field._nearest[side], Nearest)
            return found

        return counted

    monkeypatch.setattr(Field, "nearest_filed", counting(Field.nearest_filed))
    monkeypatch.setattr(Field, "nearest_known", counting(Field.nearest_known))
    monkeypatch.setattr(field_module, "NEAREST_AT_ONCE", at_once)
    found_at_once = _log_text(text, seed)
    assert read > 100, "few answers found at once were read: the comparison proves little"
    monkeypatch.setattr(field_module, "NEAREST_AT_ONCE", 10**9)
    monkeypatch.setattr(field_module, "NEAREST_LOADED", 10**9)  # numba is loaded here
    read = 0
    assert _log_text(text, seed) == found_at_once
    assert read == 0


def _log_text(text: str, seed: int) -> str:
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    return battle.log.to_jsonl()


class _Fighter:
    def __init__(self, uid: int, side: int, x: float, y: float) -> None:
        self.unique_id, self.side, self.position, self.radius = uid, side, (x, y), 0.5


SPOTS = st.lists(st.tuples(st.integers(0, 1), st.floats(-40, 40), st.floats(-40, 40)), max_size=60)


@given(SPOTS, st.floats(-60, 60), st.floats(-60, 60), st.integers(0, 4))
def test_the_nearest_is_the_nearest_of_all(
    spots: list[tuple[int, float, float]], x: float, y: float, every: int
) -> None:
    """Field.nearest returns the fighter of the side nearest the point that the test
    passes, the lower unique_id on a tie: what measuring every fighter finds, whether
    the side's squares are searched outward from the point or, filed in a few squares,
    each of its fighters measured (NEAREST_EACH_MEASURED 0: always searched; above any
    count: always measured)."""
    field = Field(2)
    fighters = [_Fighter(uid, side, fx, fy) for uid, (side, fx, fy) in enumerate(spots)]
    for f in fighters:
        field.add(f)
    accept = None if every == 0 else (lambda f: f.unique_id % every == 0)
    saved = field_module.NEAREST_EACH_MEASURED
    try:
        for side, measured in ((0, 0), (1, 0), (0, 1 << 30), (1, 1 << 30)):
            field_module.NEAREST_EACH_MEASURED = measured
            passed = [f for f in fighters if f.side == side and (accept is None or accept(f))]
            want = min(
                passed,
                key=lambda f: ((f.position[0] - x) ** 2 + (f.position[1] - y) ** 2, f.unique_id),
                default=None,
            )
            assert field.nearest(side, x, y, accept) is want
    finally:
        field_module.NEAREST_EACH_MEASURED = saved


GRID = st.lists(st.tuples(st.integers(0, 1), st.integers(-8, 8), st.integers(-8, 8)), max_size=80)


@given(GRID, st.integers(1, 3))
def test_the_nearest_found_at_once_are_the_nearest_of_all(
    spots: list[tuple[int, int, int]], scale: int
) -> None:
    """The nearest fighter of a side to each place where a fighter stands, found at once
    in arrays (the threshold lowered to 1) after look-ups while nobody moved, is what
    measuring every fighter finds, the lower unique_id on a tie (fighters on a grid of
    yards: many ties)."""
    field = Field(2)
    fighters = [_Fighter(u, s, x / scale, y / scale) for u, (s, x, y) in enumerate(spots)]
    for f in fighters:
        field.add(f)
    saved = field_module.NEAREST_AT_ONCE
    field_module.NEAREST_AT_ONCE = 1
    try:
        for side in (0, 1):
            for asker in fighters:
                x, y = asker.position
                assert field.nearest(side, x, y) is _nearest_of_all(fighters, side, x, y)
    finally:
        field_module.NEAREST_AT_ONCE = saved


@given(GRID, st.lists(st.integers(0, 79), max_size=6), st.integers(1, 200))
def test_the_nearest_to_each_place_are_the_nearest_of_all(
    spots: list[tuple[int, int, int]], leaving: list[int], at_once: int
) -> None:
    """The nearest fighter of a side to each of many places asked together
    (Field.nearest_to_each: in arrays once as many were asked as the threshold, here 1 to
    200, else one by one) is what measuring every fighter finds, also after some of the
    side left (passed over in the arrays), and so is each asked alone (Field.nearest)."""
    field = Field(2)
    fighters = [_Fighter(u, s, x / 2, y / 2) for u, (s, x, y) in enumerate(spots)]
    for f in fighters:
        field.add(f)
    places = [f.position for f in fighters] + [(0.3, -9.0), (20.0, 20.0)]
    saved = field_module.NEAREST_AT_ONCE
    field_module.NEAREST_AT_ONCE = at_once
    try:
        for side in (0, 1):
            field.nearest_to_each(side, places)  # filed in arrays, if so many were asked
        for pick in leaving:
            if fighters and pick < 2 * len(fighters):
                field.remove(fighters.pop(pick % len(fighters)))
        for side in (0, 1):
            want = [_nearest_of_all(fighters, side, x, y) for x, y in places]
            assert field.nearest_to_each(side, places) == want
            assert [field.nearest(side, x, y) for x, y in places] == want
    finally:
        field_module.NEAREST_AT_ONCE = saved


def _nearest_of_all(fighters: list[_Fighter], side: int, x: float, y: float) -> Any:
    """The fighter of ``side`` nearest ``(x, y)`` by measuring everyone, squares by ``**``
    and the lower unique_id on a tie (as Field.nearest measures)."""
    return min(
        (f for f in fighters if f.side == side),
        key=lambda f: ((f.position[0] - x) ** 2 + (f.position[1] - y) ** 2, f.unique_id),
        default=None,
    )


CHANGES = st.lists(st.tuples(st.booleans(), st.integers(0, 79), st.integers(-8, 8)), max_size=12)


@given(GRID, CHANGES)
def test_the_nearest_found_at_once_stay_the_nearest_as_others_move_and_leave(
    spots: list[tuple[int, int, int]], changes: list[tuple[bool, int, int]]
) -> None:
    """The nearest of a side found at once (the threshold lowered to 1) stay what
    measuring every fighter finds while fighters of either side step (a step of one side
    makes the other's found nearest no less true) or leave the field (a fighter leaving
    its side's nearest is searched again where it was the nearest), asked from every
    place where someone stands or stood; and so are the fighters of a side within a
    distance of each place, none where its nearest found at once lies farther."""
    field = Field(2)
    fighters = [_Fighter(u, s, x / 2, y / 2) for u, (s, x, y) in enumerate(spots)]
    for f in fighters:
        field.add(f)
    here = list(fighters)
    saved = field_module.NEAREST_AT_ONCE
    field_module.NEAREST_AT_ONCE = 1
    try:
        places = {f.position for f in here}
        for leaves, pick, step in [(False, 0, 0), *changes]:
            if here and pick < len(here) * 2:
                who = here[pick % len(here)]
                if leaves:
                    field.remove(who)
                    here.remove(who)
                elif step:
                    field.move(who, who.position[0] + step / 4, who.position[1] - step / 3)
                    places.add(who.position)
            for x, y in sorted(places):
                for side in (0, 1):
                    assert field.nearest(side, x, y) is _nearest_of_all(here, side, x, y)
                    for yards in (0.5, 1.5, 4.0):
                        assert {id(f) for f in field.within(side, x, y, yards)} == {
                            id(f)
                            for f in here
                            if f.side == side
                            and (f.position[0] - x) ** 2 + (f.position[1] - y) ** 2 <= yards**2
                        }
    finally:
        field_module.NEAREST_AT_ONCE = saved


@pytest.mark.parametrize("spread", [1, 100_000])
def test_the_fighters_filed_by_square_are_each_squares_own(spread: int) -> None:
    """Each place's square's fighters, as the arrays find them (in a table over the
    squares when they lie close, by sorted keys when they are spread far), are the
    fighters filed under that square, those standing in it first, then in filing order."""
    rng = np.random.default_rng(spread)
    n = 500
    rows = rng.integers(-6, 6, n) * spread
    columns = rng.integers(-6, 6, n) * spread
    filed, away = rng.permutation(n), rng.random(n) < 0.5
    spot_rows = rng.integers(-7, 7, 200) * spread
    spot_columns = rng.integers(-7, 7, 200) * spread
    lo, hi, filed_in = ahead._by_square(rows, columns, filed, away, spot_rows, spot_columns)
    for k in range(200):
        mine = [i for i in range(n) if (rows[i], columns[i]) == (spot_rows[k], spot_columns[k])]
        want = [filed[i] for i in sorted(mine, key=lambda i: (away[i], i))]
        assert filed_in[lo[k] : hi[k]].tolist() == want


@given(GRID, st.integers(1, 3))
def test_the_nearest_measured_together_are_the_nearest_of_all(
    spots: list[tuple[int, int, int]], scale: int
) -> None:
    """The nearest fighter of a side too small for the arrays to each of many places
    asked together (Field.nearest_to_each: every fighter measured to every place at once
    in numpy, the few within a hair of the least measured again by ``**``) is what
    measuring every fighter finds, the lower unique_id on a tie (fighters on a grid of
    yards: many ties), also where a fighter stands and between two."""
    field = Field(2)
    fighters = [_Fighter(u, s, x / scale, y / scale) for u, (s, x, y) in enumerate(spots)]
    for f in fighters:
        field.add(f)
    places = [f.position for f in fighters] + [(0.5 / scale, -9.0), (20.0, 20.0), (0.0, 0.0)]
    saved = field_module.NEAREST_AT_ONCE, field_module.NEAREST_TOGETHER
    saved_loaded = field_module.NEAREST_LOADED  # numba is loaded here: not filed either
    field_module.NEAREST_AT_ONCE, field_module.NEAREST_TOGETHER = 10**9, 1
    field_module.NEAREST_LOADED = 10**9
    try:
        for side in (0, 1):
            assert field.nearest_to_each(side, places) == [
                _nearest_of_all(fighters, side, x, y) for x, y in places
            ]
    finally:
        field_module.NEAREST_AT_ONCE, field_module.NEAREST_TOGETHER = saved
        field_module.NEAREST_LOADED = saved_loaded
