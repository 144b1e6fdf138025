"""A play whose log nobody reads keeps none (``BattleLog.keeps``): ``run`` without
``collect`` of a battle whose result plays it again to read a log
(``result.replays_its_log``), and a sweep's replicate without named fighters (whose fates
alone it reads from the log), make no entry as they play, and play the same battle. The
log's writers, in Python and in the compiled melee (whole, or round by round with the
field's journal of moves), still make everything else happen: take-outs, departures, moves.
"""

from __future__ import annotations

from typing import Any

import numba  # noqa: F401  # loaded: the compiled melee plays once numba is
import pytest

import fadad_agents.engine as engine
from benchmarks.bench_engine import _melee_yaml
from fadad_agents.analysis import replicates
from fadad_agents.analysis.montecarlo import sweep
from fadad_agents.engine import build_battle, load, run
from fadad_agents.engine.core.recycle import RECYCLE_MAX_AGENTS
from fadad_agents.engine.personal import entries, melee
from tests.engine.personal.test_compiled_ground import ground_scenario
from tests.engine.personal.test_compiled_melee import melee_scenario

DRAWN = [
    *((seed, melee_scenario(seed, players=0.2, morale=0.5, bands=0.5, aims=0.3, wounds=0.3))
      for seed in (0, 1, 3, 16, 20, 45)),
    *((seed, ground_scenario(seed)) for seed in (2, 5, 8, 11, 14, 17)),
]  # fmt: skip
"""Twelve drawn battles and the seeds they are played on: six melees (morale and bands
drawn often: bands surrender at 1 and 20, withdraw at 45), six on open ground, whose
fighters close in."""


def _state(battle: Any) -> tuple[Any, ...]:
    """All a user reads of a finished ``battle`` but its log: its end, each fighter's state
    and place, each side's active, downed and routed, the field's buckets."""
    fighters = [
        (m.name, m.status, m.track, repr(m.conditions), m.target and m.target.name, m.fighter,
         m.ite_points, m.position, m.bearing, m.gait)
        for side in battle.sides
        for m in side.members
    ]  # fmt: skip
    sides = [
        ([m.name for m in s.active], [m.name for m in s.downed], s.routed, s.strength)
        for s in battle.sides
    ]
    field = battle.field
    buckets = None
    if field is not None and not field.all_touching:
        buckets = [
            [(key, [a.name for a in bucket]) for key, bucket in field.filed(side)[0].items()]
            for side in range(len(battle.sides))
        ]
    return (battle.round, battle.env.now, battle.ending, battle.winner, fighters, sides, buckets)


def _played(text: str, seed: int, *, keeps: bool, compiled: bool, by_round: bool) -> Any:
    battle = build_battle(load(text), seed, collect=False)
    battle.log.keeps = keeps
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(melee, "MELEE_COMPILED", compiled)
        if by_round:
            while not battle.finished:
                battle.play_round()
        else:
            battle.run_to_end()
    return battle


@pytest.mark.parametrize("by_round", [False, True], ids=["whole", "round by round"])
@pytest.mark.parametrize("compiled", [False, True], ids=["Python", "compiled"])
def test_a_log_that_keeps_nothing_leaves_the_same_battle(
    compiled: bool, by_round: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twelve drawn battles, each played with a log that keeps and one that keeps nothing:
    the second's log is empty and the battles end the same, fighter for fighter, place
    for place. Among them fighters are taken out, bands break and leave, and fighters on
    open ground move; in the compiled melee its writer made those happen without the
    entries (``entries._write_effects``, spied)."""
    effects: list[int] = []
    write = entries._write_effects
    monkeypatch.setattr(entries, "_write_effects", lambda *a: effects.append(a[2]) or write(*a))
    actions: set[str] = set()
    for seed, text in DRAWN:
        kept = _played(text, seed, keeps=True, compiled=compiled, by_round=by_round)
        bare = _played(text, seed, keeps=False, compiled=compiled, by_round=by_round)
        assert len(kept.log) > 0
        assert len(bare.log) == 0
        assert bare.log.outs == []
        assert _state(bare) == _state(kept), seed
        actions |= {event.action for event in kept.log}
    assert {"out", "surrender", "withdraw", "move"} <= actions
    assert bool(effects) == compiled


def _logs_seen_by_result_of(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, int]]:
    """Each log ``run`` hands its battle's result (whether it keeps events, how many),
    noted as the result is made, in a list that grows as ``run`` is called."""
    seen: list[tuple[bool, int]] = []
    result_of = engine.result_of

    def spied(battle: Any, **kwargs: Any) -> Any:
        seen.append((battle.log.keeps, len(battle.log)))
        return result_of(battle, **kwargs)

    monkeypatch.setattr(engine, "result_of", spied)
    return seen


SMALL = _melee_yaml(5, bands=False)
"""A 5 v 5 melee in contact (10 agents: its result replays to read a log)."""


def test_run_keeps_no_log_of_a_battle_its_result_replays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``run`` without ``collect`` of a battle of at most ``RECYCLE_MAX_AGENTS`` agents
    plays it with a log that keeps nothing (its result holds no log, and plays the battle
    again when one is read); the result reads as one collected: the same outcome, sides
    and log, event for event."""
    seen = _logs_seen_by_result_of(monkeypatch)
    for seed in range(5):
        seen.clear()
        result = run(SMALL, seed=seed)
        assert seen == [(False, 0)]
        collected = run(SMALL, seed=seed, collect=True)
        assert seen[1][0]
        assert seen[1][1] > 0
        assert (result.winner, result.rounds, result.sides) == (
            collected.winner, collected.rounds, collected.sides,
        )  # fmt: skip
        assert result.log.text() == collected.log.text()


def test_run_keeps_the_log_of_a_bigger_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    """A battle of more than ``RECYCLE_MAX_AGENTS`` agents keeps its log as it plays: its
    result holds it (playing it again would cost more than keeping it)."""
    seen = _logs_seen_by_result_of(monkeypatch)
    per_side = RECYCLE_MAX_AGENTS // 2 + 1
    result = run(_melee_yaml(per_side, bands=True), seed=1)
    assert seen[0][0]
    assert seen[0][1] > 0
    assert result.record.log is not None
    assert len(result.log) == seen[0][1]


def test_a_reset_battle_keeps_its_log_again() -> None:
    """A battle reset after a play that kept no log keeps the next one's (a recycled
    battle's next play may be one whose log is read)."""
    battle = build_battle(load(SMALL), 1, collect=False)
    battle.log.keeps = False
    battle.run_to_end()
    battle.reset(2, collect=False)
    assert battle.log.keeps
    battle.run_to_end()
    assert len(battle.log) > 0


def test_a_sweep_keeps_no_log_unless_a_named_fighters_fate_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A sweep's replicate reads its log for its named fighters' fates alone (who took each
    out, and when): where no fighter is named (bands), it keeps none, and each row is the
    one its battle, played alone and collected, gives; where fighters are named, it keeps
    its log."""
    kept: list[bool] = []
    battle_row = replicates._battle_row

    def spied(battle: Any, row: dict[str, Any]) -> None:
        kept.append(battle.log.keeps)
        battle_row(battle, row)

    monkeypatch.setattr(replicates, "_battle_row", spied)
    bands = load(_melee_yaml(6, bands=True))
    frame = sweep(bands, 12, 7, progress=False).frame
    assert kept == [False] * 12
    for row in frame.itertuples():
        alone = run(bands, seed=int(row.seed), collect=True)
        assert (row.winner, row.rounds, row.duration_s) == (
            alone.winner, alone.rounds, alone.duration,
        )  # fmt: skip
    kept.clear()
    sweep(load(SMALL), 12, 7, progress=False)
    assert kept == [True] * 12
