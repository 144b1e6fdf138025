"""A reset battle is the battle ``build_battle`` gives; recycled runs match fresh ones.

``run`` and sweeps play small battles of characters on a recycled battle
(:func:`fadad_agents.engine.play_through`, :meth:`Battle.reset`). Replicates must share no
state: every attribute of the battle, its sides, bands and agents after a reset equals a
freshly built battle's, and the logs, round data and results are the same byte for byte.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fadad_agents.agents.core.base import Band, Combatant, SideRoster
from fadad_agents.agents.core.moving import Route
from fadad_agents.engine import Battle, BattleStateError, build_battle, load, play_through, run
from fadad_agents.engine.core import recycle
from fadad_agents.engine.core.clock import Clock

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"

FIVE_A_SIDE = """
name: five a side
rules: {fadad.initiative: rolled}
sides:
  - name: Red
    policies: {targeting: weakest, retreat: {name: wounded, params: {level: Very Hurt}}}
    forces:
      - {name: Ann, reaction_speed: Good, skills: {Sword: Good, First Aid: Fair},
         attack_skill: Sword, weapon: weapons/broadsword, armour: armour/heavy-leather,
         policies: {first_aid: near_death, retreat: hold}}
      - {name: Reds, skills: {Sword: Fair}, attack_skill: Sword, weapon: weapons/broadsword,
         count: 4}
  - name: Blue
    policies:
      morale: {name: break_at_losses, params: {fraction: 0.4}}
      stance: {name: defend_when_hurt, params: {level: Hurt}}
    forces:
      - {name: Blues, skills: {Axe: Good}, attack_skill: Axe, weapon: weapons/battleaxe,
         armour: armour/heavy-leather, count: 5, traits: {Morale: Poor}}
"""


def _plain(value: Any) -> Any:
    """A comparable copy: streams by generator state, agents by id, bands by name, a
    kept route by what it holds, arrays by their values."""
    if isinstance(value, random.Random):
        return ("stream", value.getstate())
    if isinstance(value, np.random.Generator):
        return ("numpy stream", str(value.bit_generator.state))
    if isinstance(value, Combatant):
        return ("agent", value.unique_id)
    if isinstance(value, Band):
        return ("band", value.name, value.side, [m.unique_id for m in value.members])
    if isinstance(value, Route):
        return ("route", _slots(value))
    if type(value).__name__ == "Occupied":  # the field's mirror a blocked search's memo
        return "mirror"  # keeps (crowd.remembered; not imported here: numba)
    if isinstance(value, np.ndarray):  # a memo's places and blockers kept in the mirror
        return ("array", value.tolist())
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


_FOUND_ONCE = {"plain", "roomy"}
"""Attributes an agent works out once a battle, from its roster and policies, the same
for every seed."""


def _slots(obj: Any) -> dict[str, Any]:
    names = {n for cls in type(obj).__mro__ for n in getattr(cls, "__slots__", ())}
    names |= set(getattr(obj, "__dict__", {}))
    names -= {"model", "__dict__", *_FOUND_ONCE}
    return {n: _plain(getattr(obj, n)) for n in sorted(names)}


def _roster(side: SideRoster) -> dict[str, Any]:
    """A side's roster, its live-list slots (now and at set-up) keyed by agent id instead
    of object id."""
    by_id = {id(m): m.unique_id for m in side.members}
    return {
        **_slots(side),
        "_slot": {by_id[k]: v for k, v in side._slot.items()},
        "_start_slot": {by_id[k]: v for k, v in side._start_slot.items()},
    }


def _state(battle: Battle) -> dict[str, Any]:
    """Everything a play depends on, in comparable form."""
    table = battle.datacollector.tables if battle.datacollector is not None else None
    return {
        "seed": battle.seed,
        "round": battle.round,
        "now": battle.env.now,
        "queued": len(battle.env._queue),  # type: ignore[attr-defined]
        "ending": (battle.ending, battle.winner, battle.out_side, battle.running),
        "log": list(battle.log.jsonl_lines()),
        "plural": sorted(battle.log.plural),
        "table": table,
        "row_columns": battle._row_columns,
        "rounds": battle._rounds.columns,
        "streams": _plain(
            {"initiative": battle._init_rng, "targeting": battle.streams.get("targeting")}
        ),
        "mesa": (
            battle.random.getstate(),
            str(battle.rng.bit_generator.state),
            str(battle._rng),
            battle._seed,
            battle.scenario.rng,
            battle.steps,
            battle.time,
            sorted(a.unique_id for a in battle.agents),
        ),
        "sides": [_roster(side) for side in battle.sides],
        "bands": [_plain(b) for b in battle._bands.values()],
        "band_memory": _plain([b.memory for b in battle._bands.values()]),
        "agents": [_slots(m) for side in battle.sides for m in side.members],
        "started": (battle._started, battle._foes_cache),
    }


CREWS = """
name: crews
sides:
  - name: Red
    forces:
      - {name: Deckhands, kind: crew, count: 300, skill: Fair}
      - {name: Ann, skills: {Sword: Great}, attack_skill: Sword, weapon: weapons/broadsword}
  - name: Blue
    policies: {morale: {name: casualties, params: {at: "10%, 30%"}}}
    forces:
      - {name: Boarders, kind: crew, count: 250, skill: Fair}
      - {name: Rowers, kind: crew, count: 20, skill: Poor}
"""


@pytest.mark.parametrize(
    "source",
    ["snorri-vs-brynhild.yaml", "tavern-brawl.yaml", "field-battle.yaml", FIVE_A_SIDE, CREWS],
)
@pytest.mark.parametrize("collect", [True, False])
def test_a_reset_battle_is_the_built_battle(source: str, collect: bool) -> None:
    text = (SCENARIOS / source).read_text() if source.endswith(".yaml") else source
    scenario = load(text)
    played = build_battle(scenario, 11, collect=not collect)
    played.run_to_end()
    played.reset(22, collect=collect)
    fresh = build_battle(scenario, 22, collect=collect)
    assert _state(played) == _state(fresh)
    played.run_to_end()
    fresh.run_to_end()
    assert played.round > 1
    assert _state(played) == _state(fresh)


def test_mesa_random_of_a_reset_battle_draws_as_newly_seeded() -> None:
    """Mesa's ``model.random`` (seeded only when next used after a reset) draws what
    ``random.Random(seed)`` draws, whatever was drawn from it before (a Gaussian's cached
    twin included), and Mesa's agent sets share it."""
    battle = build_battle(load(FIVE_A_SIDE), 1)
    battle.random.gauss()
    battle.run_to_end()
    battle.reset(5)
    fresh = random.Random(5)
    assert battle.agents.random is battle.random
    assert [battle.random.gauss() for _ in range(3)] == [fresh.gauss() for _ in range(3)]
    assert battle.random.choice(range(1000)) == fresh.choice(range(1000))


def test_a_rewound_clock_is_a_new_clock() -> None:
    """A reset battle's clock, rewound, is what ``Clock()`` is: time 0, nothing due, event
    ids from 0 (same-instant order follows them), no process active."""
    clock = Clock()
    clock.process(_ticks(clock))
    clock.run(until=20)
    assert not clock.idle  # the next tick is due
    clock.rewind()
    fresh = Clock()
    assert clock.idle
    assert fresh.idle
    assert (clock.now, clock.peek(), clock.active_process) == (0, fresh.peek(), None)
    assert next(clock._eid) == next(fresh._eid)  # type: ignore[attr-defined]


def _ticks(clock: Clock) -> Any:
    while True:
        yield clock.timeout(7)


def test_a_battle_reset_mid_play_starts_over() -> None:
    scenario = load(FIVE_A_SIDE)
    battle = build_battle(scenario, 3)
    battle.play_round()
    battle.play_round()
    battle.reset(3)
    assert _state(battle) == _state(build_battle(scenario, 3))


def test_recycled_runs_match_fresh_battles() -> None:
    """Plays of one scenario object reuse one battle; every play is a fresh battle's."""
    scenario = load(FIVE_A_SIDE)
    seen = set()
    for seed, collect in [(5, True), (1, False), (5, False), (9, True), (2, True)]:
        fresh = build_battle(scenario, seed, collect=collect).run_to_end()
        with play_through(scenario, seed, collect=collect) as battle:
            seen.add(id(battle))
            assert list(battle.run_to_end().log.jsonl_lines()) == list(fresh.log.jsonl_lines())
            assert (battle.datacollector is None) is (not collect)
            if battle.datacollector is not None and fresh.datacollector is not None:
                assert battle.datacollector.tables == fresh.datacollector.tables
        result = run(scenario, seed=seed, collect=collect)
        assert list(result.log.jsonl_lines()) == list(fresh.log.jsonl_lines())
    assert len(seen) == 1  # the same battle object each time: recycling was exercised


def test_an_earlier_result_keeps_its_own_log() -> None:
    """A result's log and collected round data stay its own when the battle is reused."""
    scenario = load(FIVE_A_SIDE)
    first = run(scenario, seed=1, collect=True)
    lines = list(first.log.jsonl_lines())
    frame = first.round_data
    assert frame is not None
    run(scenario, seed=2)
    assert list(first.log.jsonl_lines()) == lines
    assert first.round_data is not None
    assert first.round_data.equals(frame)


def test_a_kept_battle_holds_no_old_log() -> None:
    """A battle kept for the scenario's next play leaves its log to the result alone (the
    log goes with the result), keeping an empty one with the same group names."""
    scenario = load(CREWS)
    with play_through(scenario, 3) as battle:
        played = battle.run_to_end().log
    assert played.raw
    assert not battle.log.raw
    assert played.plural
    assert battle.log.plural == played.plural


def test_a_battle_that_raised_is_not_kept() -> None:
    scenario = load(FIVE_A_SIDE)
    with pytest.raises(RuntimeError), play_through(scenario, 1) as battle:
        raise RuntimeError("boom")
    with play_through(scenario, 1) as again:
        assert again is not battle


def test_fae_battles_are_built_afresh() -> None:
    """A Fae battle cannot be reset (ship battles can: tests/engine/ships/test_recycle.py)."""
    scenario = load(SCENARIOS / "fae-duel.yaml")
    with play_through(scenario, 1) as first:
        first.run_to_end()
        assert not first.resettable
        with pytest.raises(BattleStateError, match="cannot be reset"):
            first.reset(2)
    with play_through(scenario, 1) as second:
        assert second is not first


def test_a_battle_stepped_by_mesa_is_not_reset() -> None:
    battle = build_battle(load(FIVE_A_SIDE), 1)
    battle.step()
    with pytest.raises(BattleStateError, match="cannot be reset"):
        battle.reset(1)


def test_large_battles_are_not_kept() -> None:
    per_side = recycle.RECYCLE_MAX_AGENTS // 2 + 1
    scenario = load(
        "name: melee\nsides:\n"
        + "".join(
            f"  - name: {side}\n    forces:\n      - {{name: {side}s, count: {per_side}}}\n"
            for side in ("Red", "Blue")
        )
    )
    with play_through(scenario, 1) as first:
        first.run_to_end()
    with play_through(scenario, 1) as second:
        assert second is not first


def test_threads_playing_one_scenario_get_their_own_battles() -> None:
    """Threads (a Dask worker's) run one scenario object at once: every log is the
    fresh battle's for its seed."""
    from concurrent.futures import ThreadPoolExecutor

    scenario = load(FIVE_A_SIDE)
    seeds = range(40)
    with ThreadPoolExecutor(max_workers=4) as pool:
        logs = list(pool.map(lambda s: run(scenario, seed=s).log.to_jsonl(), seeds))
    assert logs == [build_battle(scenario, s).run_to_end().log.to_jsonl() for s in seeds]


def test_a_battle_stepped_by_mesa_is_disposed_and_later_ones_are_kept() -> None:
    scenario = load(FIVE_A_SIDE)
    with play_through(scenario, 1) as stepped:
        stepped.step()
        stepped.run_to_end()
    with play_through(scenario, 2) as first:
        assert first is not stepped
        first.run_to_end()
    with play_through(scenario, 3) as second:
        assert second is first
