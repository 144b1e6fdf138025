"""A result's record (header, closing tally, round data, a small battle's log): kept only
when asked for (``run(collect=True)``) or read.

A default ``run`` keeps no record while it plays, nor the log of a battle of at most
``RECYCLE_MAX_AGENTS`` agents; the first read of ``header``, ``tally``, ``collector``,
``round_data`` or such a ``log`` replays the battle from its scenario and seed with
collection on, which must give what collecting during play gives (a battle is its scenario
and seed, byte for byte).
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import fadad_agents.engine.core.result as result_module
from benchmarks.bench_engine import _melee_yaml
from fadad_agents.engine import build_battle, load, result_of, run
from fadad_agents.engine.core.recycle import RECYCLE_MAX_AGENTS
from fadad_agents.engine.core.rounds_table import RoundsTable

SCENARIOS = Path(__file__).parents[3] / "scenarios"


@pytest.fixture
def records_made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each rounds table (DataCollector) and closing tally made since the test began."""
    made: list[str] = []
    table: Callable[..., Any] = RoundsTable.collector
    tally: Callable[..., Any] = result_module.tally_lines

    def counted_table(self: RoundsTable, *, direct: bool) -> Any:
        made.append("rounds table")
        return table(self, direct=direct)

    def counted_tally(battle: Any) -> Any:
        made.append("tally")
        return tally(battle)

    monkeypatch.setattr(RoundsTable, "collector", counted_table)
    monkeypatch.setattr(result_module, "tally_lines", counted_tally)
    return made


@pytest.mark.parametrize("stem", ["snorri-vs-brynhild", "ship-duel", "field-battle"])
def test_a_default_run_keeps_no_record_while_it_plays(stem: str, records_made: list[str]) -> None:
    """run() without collect makes no rounds table and no tally; the first read makes
    both (one replay), later reads nothing."""
    result = run(SCENARIOS / f"{stem}.yaml", seed=2)
    assert records_made == []
    assert result.round_data is not None
    assert sorted(records_made) == ["rounds table", "tally"]
    assert result.tally
    assert result.header
    assert result.collector is result.collector
    assert len(records_made) == 2


def test_collect_keeps_the_record_as_it_plays(records_made: list[str]) -> None:
    """run(collect=True) makes its rounds table and tally while playing: reading them
    replays nothing."""
    result = run(SCENARIOS / "snorri-vs-brynhild.yaml", seed=2, collect=True)
    assert sorted(records_made) == ["rounds table", "tally"]
    assert result.round_data is not None
    assert result.tally
    assert len(records_made) == 2


@pytest.mark.parametrize(
    ("stem", "seed"),
    [
        ("snorri-vs-brynhild", 1),
        ("tavern-brawl", 3),
        ("goblin-ambush", 2),
        ("field-battle", 1),
        ("ship-duel", 2),
        ("boarding-action", 1),
        ("fae-duel", 3),
        ("fae-mixed-melee", 1),
    ],
)
def test_a_read_record_is_what_collecting_keeps(stem: str, seed: int) -> None:
    """The replayed header, tally and round data equal collect=True's, row for row, and
    the log is the same byte for byte either way (personal, mass, ships, boarding, Fae)."""
    scenario = load(SCENARIOS / f"{stem}.yaml")
    kept = run(scenario, seed=seed, collect=True)
    lazy = run(scenario, seed=seed)
    assert list(lazy.log.jsonl_lines()) == list(kept.log.jsonl_lines())
    assert lazy.as_dict() == kept.as_dict()
    assert kept.round_data is not None
    assert lazy.round_data is not None
    assert 0 < len(kept.round_data) <= kept.rounds  # a Fae battle may end mid-turn
    assert lazy.round_data.equals(kept.round_data)
    assert list(lazy.round_data.columns) == list(kept.round_data.columns)
    assert lazy.header == kept.header
    assert lazy.tally == kept.tally
    assert lazy.narrate() == kept.narrate()


def test_a_fresh_seed_is_replayed_with_that_seed() -> None:
    """A run without a seed (the scenario gives none) replays the seed it drew."""
    text = (SCENARIOS / "snorri-vs-brynhild.yaml").read_text(encoding="utf-8")
    scenario = load("\n".join(line for line in text.splitlines() if not line.startswith("seed:")))
    assert scenario.seed is None
    lazy = run(scenario)
    kept = run(scenario, seed=lazy.seed, collect=True)
    assert lazy.round_data is not None
    assert lazy.round_data.equals(kept.round_data)
    assert lazy.tally == kept.tally


def test_a_hand_played_battle_without_collecting_has_no_record() -> None:
    """A battle built and played by hand may have been changed on the way: its result is
    never replayed, so without collecting or a report it has no record."""
    battle = build_battle(load(SCENARIOS / "snorri-vs-brynhild.yaml"), 1, collect=False)
    result = result_of(battle.run_to_end())
    assert result.collector is None
    assert result.round_data is None
    assert result.header == result.tally == ()


def test_a_small_battles_log_is_made_when_first_read(records_made: list[str]) -> None:
    """run() keeps no log of a small battle: its first read replays the battle (the record
    made with it, once), and gives the log collect=True keeps, byte for byte."""
    scenario = load(SCENARIOS / "snorri-vs-brynhild.yaml")
    lazy = run(scenario, seed=4)
    assert records_made == []
    log = lazy.log
    assert sorted(records_made) == ["rounds table", "tally"]
    assert lazy.log is log
    assert lazy.tally
    assert len(records_made) == 2
    kept = run(scenario, seed=4, collect=True)
    assert list(log.jsonl_lines()) == list(kept.log.jsonl_lines())
    assert log.text() == kept.log.text()


def test_a_big_battles_log_is_kept(records_made: list[str]) -> None:
    """The log of a battle of more agents than a recycled one is kept as it played
    (playing it again would cost more): reading it replays nothing."""
    text = _melee_yaml(RECYCLE_MAX_AGENTS // 2 + 1, bands=False)
    result = run(text, seed=1)
    assert sum(side.strength for side in result.sides) > RECYCLE_MAX_AGENTS
    assert result.log.text()
    assert records_made == []


def test_a_loop_that_keeps_results_keeps_no_logs() -> None:
    """A loop keeping whole results of a 5 v 5 holds a few objects each for Python's
    garbage collector, not the hundred or more of each battle's log (which it would walk
    again at every full collection: a loop of 5,000 ran 40% slower)."""
    scenario = load(_melee_yaml(5, bands=False))
    run(scenario, seed=0)
    gc.collect()
    before = len(gc.get_objects())
    results = [run(scenario, seed=seed) for seed in range(300)]
    gc.collect()
    middle = len(gc.get_objects())
    per_result = (middle - before) / len(results)
    logs = [run(scenario, seed=seed, collect=True).log for seed in range(50)]  # kept
    gc.collect()
    per_log = (len(gc.get_objects()) - middle) / len(logs)
    assert per_result < 20, per_result  # 8.6 measured
    assert per_log > 5 * per_result, (per_log, per_result)  # 105 measured
