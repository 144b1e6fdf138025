"""A band's turn played in arrays plays the same battle as every member by its own method.

In a crowd the fighters waiting in a band's rear ranks play their turns in compiled code
over the field in arrays (``agents.core.crowd.waiting``, numba); the first member that
does anything else - finds a free place, strikes, or whose way the arrays cannot know -
plays its turn in Python, and the arrays learn what it changed. Whichever path plays a
battle, the dice, the log (byte for byte), every event and every fighter's final state
are the same: here the same seeds are played with the path on and off, the threshold
lowered so that bands of 100 use it.
"""

from __future__ import annotations

import gc
import math
import random
import subprocess
import sys
import weakref
from pathlib import Path
from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import moving
from fadad_agents.agents.core.conditions import Conditions
from fadad_agents.agents.core.crowd import elbows, kernels, nearest, plans, runs, waiting
from fadad_agents.engine import build_battle, load

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared

ROOT = Path(__file__).resolve().parents[3]

WALLED = "map: {kind: open, width: 14, height: 8}\n"
"""A 14 x 8 yard yard: the ranks (10 wide) reach past its long edges, so sidesteps and
the places round a target are cut short by the field's edge."""

CASES = {
    "in contact": (None, ""),
    "12 yards apart": (12, ""),
    "40 yards apart": (40, ""),
    "in contact, walled": (None, WALLED),
    "12 yards apart, walled": (12, WALLED),
}


def _played(text: str, seed: int) -> tuple[str, list[Any], list[Any]]:
    """A battle to its end: its log as read, its events, each fighter's final state."""
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    states = [
        (m.name, m.status, m.position, m.track, m.conditions, m.target and m.target.name)
        for side in battle.sides
        for m in side.members
    ]
    return battle.log.text(), [tuple(e) for e in battle.log], states


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count the members whose turns the arrays played (waited or moved there), the
    moves made in arrays, the free places they left to Python and those who waited
    whose target fell (given the nearest foe in Python), with the threshold lowered so
    bands of 100 are played in arrays."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    counts = {"waited": 0, "found": 0, "moved": 0, "undone": 0, "lost": 0}
    played, wait_in_ranks = waiting._Crowd.played, kernels.wait_in_ranks

    def counted(self: Any, turn: Any, start: int, stop: int, *rest: Any) -> Any:
        end, play = played(self, turn, start, stop, *rest)
        counts["waited"] += end - start
        counts["undone"] += not play
        return end, play

    def searched(*args: Any) -> Any:
        found = wait_in_ranks(*args)
        counts["found"] += found[1] == kernels.FOUND
        counts["moved"] += found[4]
        counts["lost"] += found[5]
        return found

    monkeypatch.setattr(waiting._Crowd, "played", counted)
    monkeypatch.setattr(kernels, "wait_in_ranks", searched)
    monkeypatch.setattr(waiting, "WAIT_DIRECT", False)  # by the dispatcher, counted here
    return counts


@pytest.mark.parametrize("case", list(CASES))
def test_a_band_turn_in_arrays_plays_the_same_battle(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 in ranks (in contact, 12 or 40 yards apart, open or walled),
    random crits (a fighter hurt before its turn leaves the arrays), to the end: the same
    log, events and final states with the rear ranks' turns played in arrays and each by
    its own method; and the arrays played most turns."""
    gap, walls = CASES[case]
    text = _melee_yaml(100, bands=True, gap=gap).replace(
        "rolled}", "rolled, fadad.crit_effects: random}"
    )
    text += walls
    counts = _counting(monkeypatch)
    seeds = (1, 2)
    in_arrays = [_played(text, seed) for seed in seeds]
    assert counts["waited"] > 200, "few turns in arrays: the comparison proves little"
    assert counts["found"] > 20, "few places found in arrays: the moves are barely tested"
    assert counts["lost"] > 20, "few lost their target waiting: the retargets barely tested"
    monkeypatch.setattr(waiting, "RANKS_IN_ARRAYS", False)
    for seed, a in zip(seeds, in_arrays, strict=True):
        own = _played(text, seed)
        assert a[0] == own[0], f"{case}, seed {seed}: the log reads differently"
        assert a[1:] == own[1:], f"{case}, seed {seed}: events or final states differ"


def test_a_big_fight_in_arrays_plays_the_same_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two bands of 2,000 in contact (the threshold as shipped), the first 4 rounds: the
    same log either way; rear ranks closing up moved in arrays."""
    text = _melee_yaml(2000, bands=True).replace("max_rounds: 1000", "max_rounds: 4")
    counts = _counting(monkeypatch)
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 256)
    in_arrays = _played(text, 3)
    assert counts["moved"] > 100, "few moves made in arrays: they are barely tested"
    assert counts["lost"] > 100, "few lost their target waiting: the retargets barely tested"
    waiting.RANKS_IN_ARRAYS = False
    try:
        assert _played(text, 3) == in_arrays
    finally:
        waiting.RANKS_IN_ARRAYS = True


def test_moves_python_did_not_make_are_taken_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mover whose turn in Python goes otherwise than the arrays had it (here every
    third fighter a round stands still, whichever path plays it) is followed by the
    arrays, the moves they made after it taken back: still the same battle."""
    text = _melee_yaml(100, bands=True, gap=40)
    advance = moving.advance

    def balky(actor: Any, arena: Any) -> None:
        if (actor.unique_id + arena.round) % 3:
            advance(actor, arena)
        else:  # it stands, its movement actions spare
            moving._spare(actor, actor.move_actions)

    monkeypatch.setattr(moving, "advance", balky)
    monkeypatch.setattr(runs, "MOVES_INLINED", False)  # each mover's act, which balks
    counts = _counting(monkeypatch)
    in_arrays = _played(text, 1)
    assert counts["undone"] > 5, "few moves taken back: the undoing is barely tested"
    monkeypatch.setattr(waiting, "RANKS_IN_ARRAYS", False)
    assert _played(text, 1) == in_arrays


def test_arrays_not_told_of_a_move_play_another_battle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The comparison can fail: arrays that never learn where a fighter moved to (a
    broken catch-up) find places free that are taken, and the battle differs."""
    text = _melee_yaml(100, bands=True, gap=12)
    counts = _counting(monkeypatch)
    right = _played(text, 1)
    monkeypatch.setattr(waiting._Crowd, "after", lambda self, member, kernels: False)
    monkeypatch.setattr(waiting._Crowd, "catch_up", lambda self, kernels: None)
    assert counts["waited"] > 0
    assert _played(text, 1)[1] != right[1]


def _nearest_each_round(battle: Any) -> tuple[int, int]:
    """Play ``battle`` to its end, after each round asking the field in arrays and the
    field itself for each side's nearest to every fighter's place (and a far corner): how
    many answers were asked and how many differ."""
    asked = differ = 0
    while not battle.finished:
        battle.play_round()
        crowd = battle.field.in_arrays
        if crowd is None:
            continue
        crowd.catch_up(kernels)  # as the declares find it (crowd_now)
        places = [m.position for s in battle.sides for m in s.members if m.placed]
        places.append((-50.0, 80.0))
        for side in range(len(battle.sides)):
            want = battle.field.nearest_to_each(side, places)
            got = crowd.nearest_to_each(side, places)
            asked += len(places)
            differ += sum(a is not b for a, b in zip(got, want, strict=True))
    return asked, differ


def test_the_nearest_in_arrays_are_the_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each side's nearest fighter to many places, asked of the field in arrays (its side
    filed there while none of it moves, the fallen passed over) after every round of a
    battle of bands closing in, is the one the field finds; and the comparison can fail:
    arrays that do not pass over the fallen answer otherwise."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    text = _melee_yaml(100, bands=True, gap=12)
    asked, differ = _nearest_each_round(build_battle(load(text), 1, collect=False))
    assert asked > 3_000
    assert differ == 0
    monkeypatch.setattr(nearest.Nearest, "leave", lambda self, agent: None)
    assert _nearest_each_round(build_battle(load(text), 1, collect=False))[1] > 0


def test_a_side_filed_afresh_holds_only_those_who_fight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each time a side is filed afresh for the nearest of it (once it moved), the fallen
    are left out, not filed and passed over (left where they fell, a side's dead made a
    search from behind the ranks cross a front of them square by square); while the same
    fight, the fighters listed are the ones listed before (not read again)."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    battle = build_battle(load(_melee_yaml(100, bands=True, gap=12)), 1, collect=False)
    filed_with_fallen = 0
    while not battle.finished:
        battle.play_round()
        crowd = battle.field.in_arrays
        if crowd is None:
            continue
        crowd.catch_up(kernels)
        for side in range(len(battle.sides)):
            crowd.nearest[side] = None  # filed afresh when next asked
            filed = crowd.filed(side)
            if filed is None:
                continue
            fighting = [m for m in battle.sides[side].members if m.fighting and m.placed]
            ids = sorted(m.unique_id for m in filed.members)
            assert ids == sorted(m.unique_id for m in fighting)
            assert not filed.left.any()
            filed_with_fallen += len(fighting) < len(battle.sides[side].members)
            crowd.nearest[side] = None
            assert crowd.filed(side).picks is filed.picks  # the same who fight
    assert filed_with_fallen > 10, "few sides had lost anyone: the test proves little"


def _nudged(text: str, seed: int) -> tuple[str, list[Any]]:
    """A battle to its end, the last fighter of each side stepping back a yard between
    rounds (moved on the field by no turn of its own): its log as read and its events."""
    battle = build_battle(load(text), seed, collect=False)
    while not battle.finished:
        battle.play_round()
        for side in battle.sides:
            last = side.members[-1]
            if last.fighting and last.placed:
                x, y = last.position
                battle.field.move(last, x + (1.0 if side.index else -1.0), y)
    return battle.log.text(), [tuple(e) for e in battle.log]


def test_a_move_the_arrays_did_not_follow_is_caught_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The arrays look for moves they did not follow only when the field counts more moves
    than they followed (``Field.moves``): a fighter moved between rounds by none of the
    turns they played is found there, and the battle is the same as each by its own
    method."""
    text = _melee_yaml(100, bands=True, gap=12)
    counts = _counting(monkeypatch)
    in_arrays = _nudged(text, 1)
    assert counts["waited"] > 200, "few turns in arrays: the comparison proves little"
    monkeypatch.setattr(waiting, "RANKS_IN_ARRAYS", False)
    assert _nudged(text, 1) == in_arrays


def test_a_battles_arrays_go_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The field in arrays is kept on the battle's field, not beside it: a reset drops the
    arrays of the play before, and once a battle is dropped nothing keeps it (a sweep of
    crowd fights does not hold every battle it played)."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    battle = build_battle(load(_melee_yaml(20, bands=True, gap=12)), 1, collect=False)
    battle.run_to_end()
    assert battle.field.in_arrays is not None, "the arrays never played: nothing is shown"
    battle.reset(2)
    assert battle.field.in_arrays is None
    gone = weakref.ref(battle)
    del battle
    gc.collect()
    assert gone() is None, "something still holds the battle after it was dropped"


def test_small_battles_never_load_numba() -> None:
    """A fresh process that imports the package and plays the 5 v 5 and a ship duel has
    not imported numba (its import costs a crowd's first fight alone)."""
    code = (
        "import sys, fadad_agents\n"
        "from benchmarks.bench_engine import _melee_yaml\n"
        "from fadad_agents.engine import load, run\n"
        "run(load(_melee_yaml(5, bands=False)), seed=1)\n"
        "run('scenarios/ship-duel.yaml', seed=1)\n"
        "print('numba' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False"]


def test_squares_decide_as_python_at_the_limit() -> None:
    """The compiled squares decide ``a ** 2 + b ** 2 <= limit`` and ``< room ** 2`` as
    Python does (its ``**`` is the C library's ``pow``, a unit in the last place off
    ``a * a`` now and then), even a hair either side of the limit, where ``*`` would
    decide some otherwise."""
    rng = random.Random(7)
    cases = []
    while len(cases) < 300:
        a, b = rng.uniform(-30, 30), rng.uniform(-30, 30)
        if a * a + b * b != a**2 + b**2:  # where * and ** part
            cases.append((a, b))
    for a, b in cases:
        exact = a**2 + b**2
        for limit in (math.nextafter(exact, 0), exact, math.nextafter(exact, math.inf)):
            assert elbows._within(a, b, limit, 2.0) == (a**2 + b**2 <= limit)
        room = math.sqrt(exact)
        for r in (math.nextafter(room, 0), room, math.nextafter(room, math.inf)):
            assert elbows._closer(a, b, r, 2.0) == (a**2 + b**2 < r**2)


def test_squares_against_a_squared_reach_decide_as_python_at_the_limit() -> None:
    """The compiled squares decide ``a ** 2 + b ** 2 <= r ** 2 + plus`` as Python does
    with the limit's ``pow`` made only within a hair of it (``elbows._within_pow``), at
    reaches a unit in the last place either side of the point's distance, where ``r * r``
    and ``r ** 2`` part or ``*`` and ``**`` part for the point."""
    rng = random.Random(11)
    cases = []
    while len(cases) < 300:
        a, b = rng.uniform(-30, 30), rng.uniform(-30, 30)
        r = math.sqrt(a**2 + b**2)
        if a * a + b * b != a**2 + b**2 or r * r != r**2:  # where * and ** part
            cases.append((a, b, r))
    for a, b, room in cases:
        for plus in (0.0, 1e-6):
            for r in (math.nextafter(room, 0), room, math.nextafter(room, math.inf)):
                r = math.sqrt(max(r * r - plus, 0.0)) if plus and r == room else r
                want = a**2 + b**2 <= r**2 + plus
                assert elbows._within_pow(a, b, r, plus, 2.0) == want, (a, b, r, plus)


def _turns_read(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """How many members each band turn's plan read again at its play (None: every one,
    no plan left by its declares)."""
    read: list[int | None] = []
    declared = plans._declared

    def counted(*args: Any) -> Any:
        given, rows = declared(*args)
        read.append(None if rows is None else len(rows))
        return given, rows

    monkeypatch.setattr(plans, "_declared", counted)
    return read


def test_each_band_turn_plays_the_plan_its_declares_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every band turn of a round declares before the first plays: each turn's plan is
    kept till its own play, not only the last turn's, and the play reads again only the
    few members its declares did not plan."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    read = _turns_read(monkeypatch)
    text = _melee_yaml(100, bands=True, gap=12).replace("max_rounds: 1000", "max_rounds: 3")
    _played(text, 1)
    assert len(read) == 6, "two band turns a round, 3 rounds"
    assert None not in read, "a turn's plan was lost before its play"
    assert sum(read) < 20  # type: ignore[arg-type]


def test_a_crit_between_declare_and_turn_is_met_in_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fighter knocked out after it declared, before its band's turn (here by hand: the
    last four who plan no attack in a round's second turn, as if the first turn's blows
    had), plays that turn as its own method does - nothing: its planned move is not
    turned into defences - not as one who waits in the arrays: the same battle and the
    same fighters after every turn either way; and the arrays met such fighters in runs."""
    text = _melee_yaml(100, bands=True, gap=12).replace("max_rounds: 1000", "max_rounds: 4")
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    in_arrays, played = waiting.in_arrays, waiting._Crowd.played
    met = 0

    def meeting(self: Any, turn: Any, start: int, stop: int, *rest: Any) -> Any:
        nonlocal met
        end, play = played(self, turn, start, stop, *rest)
        met += end < stop and play and turn[end].conditions is not None
        return end, play

    def knocking(turn: Any, arena: Any) -> bool:  # asked as a turn declares, then plays
        rnd = arena.round
        after.append([(m.position, m.move_actions, m.defences_left, m.gait, m.conditions)
                      for side in arena.sides for m in side.members])  # fmt: skip
        if (rnd, id(turn)) in declared:
            plays[rnd] = plays.get(rnd, 0) + 1
            if plays[rnd] == 2:
                for member in [m for m in turn if m.fighting and not m.attacks_planned][-4:]:
                    member.conditions = Conditions(knockdown_penalty=1, unconscious=1)
        declared.add((rnd, id(turn)))
        return in_arrays(turn, arena)

    monkeypatch.setattr(waiting._Crowd, "played", meeting)
    monkeypatch.setattr(waiting, "in_arrays", knocking)
    runs = []
    for arrays in (True, False):
        monkeypatch.setattr(waiting, "RANKS_IN_ARRAYS", arrays)
        declared: set[tuple[int, int]] = set()
        plays: dict[int, int] = {}
        after: list[Any] = []
        runs.append((_played(text, 1), after))
    assert runs[0][0] == runs[1][0], "the battle differs"
    assert runs[0][1] == runs[1][1], "fighters differ after a turn"
    assert met >= 4, "no knocked-out fighter met in the arrays' runs: nothing is shown"
