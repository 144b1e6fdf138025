"""Battles played round by round (``play_round``: a game master's table, the dashboard) in
the compiled melee are the battles the engine's Python plays, round by round and byte for
byte: after each round the same log, fighters (tracks, targets, actions, conditions, what
their policies remember), sides and, on open ground, the same places, bearings and gaits
and the field's buckets listing everyone in the same order; and a battle handed back to
Python after any round (the compiled melee switched off, a fighter's track changed between
rounds, a round the kernel gives up on) goes on as the battle Python plays.
"""

from __future__ import annotations

import gc
import math
import weakref
from collections import OrderedDict
from typing import Any

import numba  # noqa: F401  # loaded: the compiled melee plays once numba is
import numpy as np
import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core.result import result_of
from fadad_agents.engine.personal import melee, rounds
from fadad_agents.rules.core.wounds import Wound, record
from fadad_agents.rules.personal.movement import GAITS
from tests.engine.personal.test_compiled_ground import APART, ground_scenario
from tests.engine.personal.test_compiled_melee import _ended, _remembered, melee_scenario


def _drawn_melee(seed: int) -> str:
    """A melee drawn from ``seed`` with every feature the compiled melee plays drawn now
    and then: player characters, morale, bands, targeting policies and rules, FUDGE's
    wound models, weapon sizes, more than two sides."""
    return melee_scenario(
        seed, players=0.2, morale=0.2, bands=0.3, aims=0.3, wounds=0.3, sizes=0.2,
        more_sides=0.2, ruled=0.2,
    )  # fmt: skip


def _now(battle: Any) -> tuple[Any, ...]:
    """What a user reads of ``battle`` after a round: its round, clock and log, its
    fighters' state (not their plans for the round just played: written when Python
    plays on or the battle ends, and read at its end, :func:`_ended`), its sides and, on
    a field, where each stands and the field's buckets (by side, each bucket's key and
    who stands in it, in order)."""
    fighters = [
        (m.name, m.status, m.track, repr(m.conditions), m.target and m.target.name, m.fighter,
         m.ite_points, _remembered(m.memory), m.band and _remembered(m.band.memory),
         m.position, m.bearing, m.gait)
        for side in battle.sides
        for m in side.members
    ]  # fmt: skip
    sides = [([m.name for m in s.active], [m.name for m in s.downed], s.routed)
             for s in battle.sides]  # fmt: skip
    field = battle.field
    buckets = None
    if field is not None and not field.all_touching:
        buckets = [
            [(key, [a.name for a in bucket]) for key, bucket in field.filed(side)[0].items()]
            for side in range(2)
        ]
    return (battle.round, battle.env.now, battle.log.text(), fighters, sides, buckets)


def _round_by_round(text: str, seed: int, compiled_rounds: float = math.inf) -> list[Any]:
    """``text`` at ``seed`` played round by round: what a user reads after each round,
    then the battle as it ended; the first ``compiled_rounds`` rounds with the compiled
    melee on, the rest with it off."""
    battle = build_battle(load(text), seed, collect=False)
    seen = []
    while not battle.finished:
        on = battle.round < compiled_rounds
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(melee, "MELEE_COMPILED", on)
            battle.play_round()
        seen.append(_now(battle))
    return [*seen, _ended(battle)]


def _python(text: str, seed: int) -> list[Any]:
    """:func:`_round_by_round`, every round played in Python."""
    return _round_by_round(text, seed, 0)


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each round a :class:`~fadad_agents.engine.personal.rounds.Rounds` was asked to
    play was played in compiled code."""
    answers: list[bool] = []
    real = rounds.Rounds.play

    def spy(self: Any, battle: Any) -> bool:
        answers.append(real(self, battle))
        return answers[-1]

    monkeypatch.setattr(rounds.Rounds, "play", spy)
    return answers


def _same_rounds(text: str, seed: int, compiled_rounds: float = math.inf) -> None:
    python = _python(text, seed)
    compiled = _round_by_round(text, seed, compiled_rounds)
    assert len(compiled) == len(python), f"seed {seed}: another number of rounds\n{text}"
    for k, (a, b) in enumerate(zip(compiled, python, strict=True)):
        assert a == b, f"seed {seed}: round {k + 1} differs\n{text}"


@pytest.mark.parametrize("seed", range(30))
def test_drawn_melees_round_by_round_are_the_battles_python_plays(
    seed: int, played: list[bool]
) -> None:
    """A melee drawn from ``seed`` (:func:`_drawn_melee`), at two seeds, played round by
    round: the same after every round as in Python."""
    for battle_seed in (seed, 1000 + seed):
        _same_rounds(_drawn_melee(seed), battle_seed)


@pytest.mark.parametrize("seed", range(30))
def test_drawn_melees_on_open_ground_round_by_round_are_the_battles_python_plays(
    seed: int, played: list[bool]
) -> None:
    """A melee on open ground drawn from ``seed``, at two seeds, played round by round: the
    same after every round as in Python, the field's buckets listing everyone in the
    same order."""
    for battle_seed in (seed, 1000 + seed):
        _same_rounds(ground_scenario(seed), battle_seed)


def test_the_drawn_melees_are_played_round_by_round_in_compiled_code(
    played: list[bool],
) -> None:
    """The comparisons above prove something: the compiled melee plays most of their
    rounds, on open ground and in one melee, and many battles last past three rounds."""
    long = 0
    for seed in range(30):
        for text in (_drawn_melee(seed), ground_scenario(seed)):
            long += len(_round_by_round(text, seed)) > 4
    assert sum(played) >= 0.6 * len(played)
    assert long >= 20


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("after", [1, 2, 3])
def test_a_battle_switched_to_python_after_any_round_goes_on_as_python_plays_it(
    seed: int, after: int, played: list[bool]
) -> None:
    """The compiled melee switched off after round ``after``: the battle is handed back
    (every stream's state into its ``random.Random``) and Python plays the rest, the
    battle Python plays from the start."""
    _same_rounds(_drawn_melee(seed), seed, after)
    _same_rounds(ground_scenario(seed), seed, after)


def _with_a_wound(text: str, seed: int, compiled: bool) -> list[Any]:
    """``text`` at ``seed`` round by round, the compiled melee ``compiled`` or not, the
    first fighter of the second side given a Hurt by hand after round 1 (a game master's
    ruling)."""
    battle = build_battle(load(text), seed, collect=False)
    seen = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(melee, "MELEE_COMPILED", compiled)
        while not battle.finished:
            battle.play_round()
            if battle.round == 1:
                m = battle.sides[1].members[0]
                m.track = record(m.track, Wound.HURT, 3, False)
            seen.append(_now(battle))
    return [*seen, _ended(battle)]


def test_a_track_changed_between_rounds_hands_the_battle_to_python(played: list[bool]) -> None:
    """A fighter's wound track changed by hand between rounds: the compiled melee does not
    play on from what it left but hands the battle back, and Python plays it from there,
    the battle Python plays with the same change."""
    text = _melee_yaml(20, bands=True)
    python = _with_a_wound(text, 4, False)
    played.clear()
    compiled = _with_a_wound(text, 4, True)
    assert compiled == python
    assert played[:2] == [True, False]
    assert len(played) == 2  # none asked after it handed the battle back
    assert len(compiled) > 4


class _GivesUpAt:
    """The kernel's module, whose plays give up at round ``rnd``."""

    def __init__(self, kernel: Any, rnd: int) -> None:
        self.kernel, self.rnd = kernel, rnd
        self.FULL, self.GAVE_UP = kernel.FULL, kernel.GAVE_UP

    def play(self, *args: Any) -> int:
        if args[-2] == self.rnd:
            return int(self.GAVE_UP)
        return int(self.kernel.play(*args))

    def play_on_ground(self, *args: Any) -> int:
        if args[-2] == self.rnd:
            return int(self.GAVE_UP)
        return int(self.kernel.play_on_ground(*args))


@pytest.mark.parametrize("text", [ground_scenario(3), _melee_yaml(30, bands=True)])
def test_a_round_the_kernel_gives_up_on_is_played_in_python(
    text: str, played: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round the kernel gives up on (round 3 here) is played in Python, the battle handed
    back as round 2 left it (its arrays played again from the start): the battle Python
    plays."""
    python = _python(text, 3)
    real = melee._melee

    def giving_up(battle: Any) -> Any:
        found = real(battle)
        if found is not None:
            found.kernel = _GivesUpAt(found.kernel, 3)
        return found

    monkeypatch.setattr(melee, "_melee", giving_up)
    monkeypatch.setattr(melee, "_TEMPLATES", OrderedDict())
    assert _round_by_round(text, 3) == python
    assert played == [True, True, False]


@pytest.mark.parametrize("text", [APART, _melee_yaml(30, bands=True), _melee_yaml(4, bands=False)])
def test_a_round_that_outgrows_its_room_is_played_again_with_more(
    text: str, played: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round whose events outgrow their room (a few at first here) is played again with
    twice as much, the rounds before it played again from the start to leave its arrays
    as they were: the battle Python plays, each round in compiled code."""
    python = _python(text, 2)
    monkeypatch.setattr(rounds, "ROOM_A_ROUND", 0)
    grown: list[int] = []
    real = rounds.Rounds._grow

    def growing(self: Any) -> None:
        grown.append(len(self.melee.events))
        real(self)

    monkeypatch.setattr(rounds.Rounds, "_grow", growing)
    monkeypatch.setattr(rounds, "ROOM_BESIDES", 4)
    assert _round_by_round(text, 2) == python
    assert grown
    assert all(played)
    assert len(played) == len(python) - 1


def test_round_data_is_collected_from_compiled_rounds(played: list[bool]) -> None:
    """Round data (each side's strength, wounded and routed a round) read from a battle
    played round by round in compiled code: the rows Python's rounds give."""
    text = _melee_yaml(20, bands=True)

    def rows(compiled: bool) -> Any:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(melee, "MELEE_COMPILED", compiled)
            battle = build_battle(load(text), 6, collect=True)
            while not battle.finished:
                battle.play_round()
            frame = result_of(battle).round_data
            return frame.reset_index().to_dict("list"), battle.log.text()

    python = rows(False)
    assert rows(True) == python
    assert played
    assert all(played)
    assert len(python[0]["round"]) > 3


def test_a_battle_reset_is_played_round_by_round_afresh(played: list[bool]) -> None:
    """A battle played some rounds, reset to another seed and played round by round: the
    battle built afresh for that seed (its rounds compiled anew from the first)."""
    text = _melee_yaml(10, bands=True)
    python = _python(text, 9)
    battle = build_battle(load(text), 8, collect=False)
    battle.play_round()
    battle.play_round()
    battle.reset(9, collect=False)
    seen = []
    while not battle.finished:
        battle.play_round()
        seen.append(_now(battle))
    assert [*seen, _ended(battle)] == python
    assert all(played)


def test_a_battle_played_on_to_its_end_after_some_rounds(played: list[bool]) -> None:
    """``run_to_end`` after two rounds played one at a time plays the rest round by round
    in compiled code: the battle Python plays."""
    text = APART
    python = _python(text, 4)[-1]
    battle = build_battle(load(text), 4, collect=False)
    battle.play_round()
    battle.play_round()
    battle.run_to_end()
    assert _ended(battle) == python
    assert all(played)
    assert len(played) == battle.round


@pytest.mark.parametrize("whole", [True, False], ids=["whole", "round by round"])
def test_a_battle_played_in_compiled_code_goes_when_let_go(
    whole: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A battle the compiled melee played, whole or round by round, is freed once nothing
    holds it: what it keeps of the play goes with it (it was kept in a table of the
    module's, which kept every such battle, and its fighters, alive: a leak, mended
    2026-12-07); a big battle's arrays are kept for the next one's."""
    text = _melee_yaml(40, bands=True)
    battle = build_battle(load(text), 3, collect=not whole)
    if whole:
        battle.run_to_end()
        assert battle.__dict__[melee._MELEE] is not None
    else:
        battle.play_round()
        battle.play_round()
        assert battle.__dict__[melee._ROUNDS] is not None
    gone = weakref.ref(battle)
    monkeypatch.setattr(rounds, "_SPARE", {})
    monkeypatch.setattr(rounds, "_SPARE_AT_LEAST", 0)  # (a big battle's kept: this one's too)
    del battle
    gc.collect()
    assert gone() is None
    assert whole or rounds._SPARE  # its arrays kept for the next battle's


@pytest.mark.parametrize("seed", range(6))
def test_moves_noted_for_the_field_are_made_when_python_plays_on(seed: int) -> None:
    """Rounds played in compiled code with nobody looking at the field between them: each
    move and take-off waits, noted in order (``Squares.later``), and is made on the field
    when Python plays on after round 3 (the compiled melee switched off), the battle
    Python plays from the start; a look-up after round 2 finds the field as Python's
    rounds leave it."""
    text = ground_scenario(seed)

    def played(compiled_rounds: float, look_after: int) -> tuple[Any, ...]:
        battle = build_battle(load(text), seed, collect=False)
        looked = None
        while not battle.finished:
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(melee, "MELEE_COMPILED", battle.round < compiled_rounds)
                battle.play_round()
            if battle.round == look_after:
                looked = _now(battle)
        return looked, _ended(battle), _now(battle)

    python = played(0, 2)
    assert played(3, 2) == python
    assert played(3, 0)[1:] == python[1:]  # never looked at until the end


def test_a_round_writes_what_changed_of_each_fighter_to_the_bit() -> None:
    """``swing.changed_rows``: by each thing a fighter shows, the fighters a round changed
    it of and its value; a column of no thing (a plan) is no change; a bearing that turned
    from 0.0 to -0.0 is one (Python's ``atan2`` tells them apart), and one never written
    (NaN) is always written."""
    from fadad_agents.engine.personal.swing import changed_rows

    s = np.zeros((4, 4), dtype=np.int64)
    written = s.copy()
    things = np.array([0, -1, 1, 1], dtype=np.int64)  # column 1 a plan; thing 2 the bearing
    values = np.array([0, 3], dtype=np.int64)  # thing 1's value in column 3
    pos = np.zeros((4, 6))
    bearings = np.array([0.0, 0.0, np.nan, 1.5])
    s[0, 0] = 3  # its track, say
    s[1, 1] = 9  # a plan alone
    s[3, 2], s[3, 3] = 5, 7
    s[2, 3] = 4
    pos[1, 2] = -0.0
    pos[3, 2] = 1.5
    rows, found = np.empty((3, 4), dtype=np.int64), np.empty((3, 4), dtype=np.int64)
    counts = np.zeros(3, dtype=np.int64)
    changed_rows(s, written, things, values, pos, bearings, rows, found, counts)
    assert counts.tolist() == [1, 2, 2]
    assert rows[0, :1].tolist() == [0]
    assert found[0, :1].tolist() == [3]
    assert rows[1, :2].tolist() == [2, 3]
    assert found[1, :2].tolist() == [4, 7]
    assert rows[2, :2].tolist() == [1, 2]
    assert written[:, 0].tolist() == [3, 0, 0, 0]
    assert written[3].tolist() == [0, 0, 5, 7]
    assert written[1, 1] == 0  # a plan is not written
    assert math.copysign(1.0, bearings[1]) == -1.0
    assert bearings[2] == 0.0
    # nothing changed since: none written; off the field (no places), bearings unread
    changed_rows(s, written, things, values, pos, bearings, rows, found, counts)
    assert counts.tolist() == [0, 0, 0]
    s[0, 2] = 1
    changed_rows(s, written, things, values, np.zeros((0, 6)), bearings[:0], rows, found, counts)
    assert counts.tolist() == [0, 1, 0]


@pytest.mark.parametrize("compiled", [False, True])
def test_a_gait_given_in_one_melee_is_one_no_round_writes(
    compiled: bool, played: list[bool]
) -> None:
    """In one melee no round writes a gait (Python's rounds move nobody): a gait a game
    master gave a fighter before the first round is still its gait after the rounds,
    whichever plays them; the compiled rounds write only what they change."""
    battle = build_battle(load(_melee_yaml(5, bands=False)), 3, collect=False)
    assert battle.field is None or battle.field.all_touching  # (no ground of the kernel's)
    given = battle.sides[0].members[0]
    given.gait = GAITS[1]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(melee, "MELEE_COMPILED", compiled)
        for _ in range(2):
            battle.play_round()
    assert played[:2] == [True, True] if compiled else not played
    assert given.gait is GAITS[1]
