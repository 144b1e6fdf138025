"""Monte Carlo sweeps: independent replicate seeds, fresh state, reproducible rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from fadad_agents.analysis import (
    SweepError,
    montecarlo,
    replicate_seed,
    replicate_seeds,
    replicates,
    run_replicate,
    sweep,
)
from fadad_agents.analysis.grid import expand_grid
from fadad_agents.analysis.montecarlo import _collect, _meta, _Plan, _Table
from fadad_agents.analysis.replicates import (
    Batch,
    Portable,
    fighter_names,
    fighter_row,
    result_row,
    ship_row,
)
from fadad_agents.analysis.store import result_schema
from fadad_agents.engine import build_battle, load, run
from fadad_agents.engine.core.streams import _AHEAD

DUEL = Path(__file__).parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"
BRAWL = Path(__file__).parents[2] / "scenarios" / "tavern-brawl.yaml"
SHIP_DUEL = Path(__file__).parents[2] / "scenarios" / "ship-duel.yaml"


def test_replicate_seeds_come_from_seed_sequence_spawn() -> None:
    """Replicate k plays the 63-bit state of child k of SeedSequence(seed).spawn(runs)."""
    children = np.random.SeedSequence(11).spawn(6)
    expected = [int(c.generate_state(1, dtype=np.uint64)[0]) & (2**63 - 1) for c in children]
    assert replicate_seeds(11, 6) == expected
    assert [replicate_seed(11, k) for k in range(6)] == expected


def test_replicate_seeds_are_distinct_and_prefix_stable() -> None:
    """A longer sweep starts with the same seeds; no two replicates share a seed."""
    seeds = replicate_seeds(0, 2000)
    assert len(set(seeds)) == 2000
    assert replicate_seeds(0, 10) == seeds[:10]
    assert replicate_seeds(1, 10) != seeds[:10]


def test_replicate_k_does_not_depend_on_replicate_k_minus_1() -> None:
    """Replicate 5 played alone equals replicate 5 inside a sweep (and in reverse order)."""
    scenario = load(DUEL)
    alone = run_replicate(scenario, 3, 5)
    frame = sweep(DUEL, 8, 3, batch_size=8, progress=False).frame
    inside = frame[frame["replicate"] == 5].iloc[0]
    for key, value in alone.items():
        assert inside[key] == value or (value is None and pd.isna(inside[key])), key
    backwards = [run_replicate(scenario, 3, k) for k in reversed(range(8))][::-1]
    forwards = [run_replicate(scenario, 3, k) for k in range(8)]
    assert backwards == forwards


def test_replicate_plays_the_battle_of_its_seed() -> None:
    """A row is the result of fadad_agents.run on the replicate's seed."""
    row = run_replicate(load(BRAWL), 9, 2)
    result = run(BRAWL, replicate_seed(9, 2), collect=False)
    assert row["seed"] == result.seed
    assert (row["winner"], row["ending"], row["rounds"]) == (
        result.winner,
        result.ending,
        result.rounds,
    )
    assert row["Dockhands.casualties"] == result.side("Dockhands").casualties
    assert row["Ship's crew.survivors"] == result.side("Ship's crew").survivors


@pytest.mark.parametrize(
    "stem", ["snorri-vs-brynhild", "tavern-brawl", "field-battle", "ship-duel", "fae-duel"]
)
def test_a_replicate_row_is_its_battle_result(stem: str) -> None:
    """A replicate's outcome and side columns are result_row of run() on its seed, and
    its ship and fighter columns those of the battle (a row is written straight from the
    battle, without the result)."""
    scenario = load(Path(__file__).parents[2] / "scenarios" / f"{stem}.yaml")
    row = run_replicate(scenario, 5, 1)
    seed = replicate_seed(5, 1)
    expected = {"replicate": 1, **result_row(run(scenario, seed))}
    battle = build_battle(scenario, seed, collect=False).run_to_end()
    expected |= ship_row(battle) | fighter_row(battle, frozenset(fighter_names(scenario)))
    assert row == expected
    assert list(row) == list(expected)


def test_rows_come_sorted_whatever_order_a_part_holds() -> None:
    """A part holding its replicates out of order (one read back from a results folder)
    still gives rows sorted by variant and replicate."""
    frame = sweep(DUEL, 4, 1, batch_size=2, progress=False).frame
    table = pa.Table.from_pandas(frame, preserve_index=False)
    for first in ([1, 0], [0, 1]):
        plan = _Plan(4, 2, expand_grid(load(DUEL), None))
        plan.tables[0, 0, 2] = table.slice(0, 2).take(first)
        plan.tables[0, 2, 4] = table.slice(2, 2)
        rows = _collect(plan, table.schema)
        assert list(rows["replicate"]) == [0, 1, 2, 3]
        assert list(rows["seed"]) == list(frame["seed"])


def test_sweep_rows_and_columns() -> None:
    """One row per replicate, sorted, with the scenario, seed, outcome and side columns."""
    result = sweep(DUEL, 12, 4, progress=False)
    frame = result.frame
    assert list(frame["replicate"]) == list(range(12))
    assert list(frame["seed"]) == replicate_seeds(4, 12)
    assert set(frame["scenario"]) == {"Snorri vs Brynhild"}
    assert set(frame["winner"].dropna()) <= {"Snorri", "Brynhild"}
    for column in ("ending", "rounds", "duration_s", "Snorri.survivors", "Brynhild.casualties"):
        assert column in frame.columns
    assert (frame["duration_s"] == 6 * frame["rounds"]).all()
    assert result.sides == ("Snorri", "Brynhild")
    assert result.played == {0: 12}
    assert not result.stopped_early


def test_same_seed_same_rows_any_batch_size() -> None:
    """Batching changes nothing: the rows depend on (scenario, seed, replicate) only."""
    a = sweep(DUEL, 15, 2, batch_size=4, progress=False).frame
    b = sweep(DUEL, 15, 2, batch_size=15, progress=False).frame
    pd.testing.assert_frame_equal(a, b)


def test_different_seeds_give_different_battles() -> None:
    """The root seed matters (the duel is not decided in advance)."""
    a = sweep(DUEL, 30, 0, progress=False).frame
    b = sweep(DUEL, 30, 1, progress=False).frame
    assert list(a["seed"]) != list(b["seed"])
    assert list(a["rounds"]) != list(b["rounds"])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"runs": 0}, "runs must be a whole number >= 1"),
        ({"runs": 5, "seed": -1}, "seed must be a whole number >= 0"),
        ({"runs": 5, "batch_size": 0}, "batch_size must be a whole number >= 1"),
        ({"runs": 5, "target_width": 1.5}, "target_width must be between 0 and 1"),
    ],
)
def test_bad_arguments_are_one_line_errors(kwargs: dict[str, object], message: str) -> None:
    """Bad runs, seed, batch size or width raise SweepError saying what is allowed."""
    with pytest.raises(SweepError, match=message):
        sweep(DUEL, progress=False, **kwargs)  # type: ignore[arg-type]


def test_progress_callback_reaches_total() -> None:
    """on_progress sees the count grow to the total, once per batch."""
    seen: list[tuple[int, int]] = []
    sweep(DUEL, 10, 0, batch_size=3, progress=False, on_progress=lambda d, t: seen.append((d, t)))
    assert seen == [(3, 10), (6, 10), (9, 10), (10, 10)]


def test_progress_bar_writes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """progress=True shows a tqdm bar; progress=False is silent."""
    sweep(DUEL, 4, 0, progress=True)
    assert "4/4" in capsys.readouterr().err
    sweep(DUEL, 4, 0, progress=False)
    assert capsys.readouterr().err == ""


def test_top_level_sweep_is_the_analysis_sweep() -> None:
    """fadad_agents.sweep is the Monte Carlo entry point (imported lazily)."""
    import fadad_agents
    import fadad_agents.analysis

    assert fadad_agents.sweep is fadad_agents.analysis.sweep


def test_ship_duel_rows_have_hull_and_crew() -> None:
    """With ships, each row adds every ship's hull share, crew still fighting and colours."""
    frame = sweep(SHIP_DUEL, 4, 2, progress=False).frame
    for ship in ("Saltwind", "Red Gannet"):
        assert frame[f"{ship}.hull"].between(0.0, 1.0).all()
        assert (frame[f"{ship}.crew_fighting"] >= 0).all()
        assert frame[f"{ship}.struck"].dtype == bool
    row = run_replicate(load(SHIP_DUEL), 2, 3)
    result = run(SHIP_DUEL, replicate_seed(2, 3), collect=False)
    assert (row["winner"], row["ending"], row["rounds"]) == (
        result.winner,
        result.ending,
        result.rounds,
    )
    assert frame.iloc[3]["Saltwind.hull"] == row["Saltwind.hull"]


@pytest.mark.parametrize("path", [SHIP_DUEL, BRAWL], ids=lambda p: p.stem)
def test_a_batch_mixed_ahead_plays_what_each_replicate_plays_alone(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch mixes its replicates' stream seeds ahead, as arrays (the names learnt from
    its first battle), and each row is still the replicate played on its own."""
    mixed: list[int] = []
    mix = replicates.mix_ahead

    def spy(seeds: list[int], names: set[str]) -> None:
        mixed.append(len(seeds))
        mix(seeds, names)

    monkeypatch.setattr(replicates, "mix_ahead", spy)
    monkeypatch.setattr(replicates, "_STREAMS", {})
    scenario = load(path)
    rows = replicates.run_batch(Batch(0, 0, 24, 5, Portable(scenario)))
    assert mixed == [23]  # from the second replicate on: the first told the names
    assert not _AHEAD  # each battle took its seed's entry
    for k, row in enumerate(rows):
        assert row == {"variant": 0, **run_replicate(scenario, 5, k)}


def test_a_batch_table_holds_its_rows_as_arrow_converts_the_dicts() -> None:
    """The batch's table (rows converted as tuples in the schema's order) is the table of
    the row dicts matched by column name, a row missing a column (none does today) holding
    null there; the variant's own columns repeat on every row."""
    scenario = load(BRAWL)
    rows = replicates.run_batch(Batch(0, 0, 6, 3, Portable(scenario)))
    sides = [s.name for s in scenario.sides]
    schema = result_schema([], sides, (), fighter_names(scenario))
    meta = _meta(scenario.name, expand_grid(scenario, None)[0], [])
    table = _Table(meta, schema)
    played = [f for f in schema if f.name not in meta]
    by_name = pa.array(rows, type=pa.struct(played))
    got = table(rows)
    assert got.schema == schema
    for field in played:
        assert got.column(field.name).combine_chunks() == by_name.field(field.name)
    assert got.column("scenario").to_pylist() == [scenario.name] * 6
    short = [dict(row) for row in rows]
    del short[2][f"{sides[0]}.dead"]
    assert table(short).column(f"{sides[0]}.dead").to_pylist()[2] is None


def test_rows_held_over_batches_make_the_frame_a_table_a_batch_makes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A sweep that writes no parts holds the rows of consecutive batches and makes one
    table of them (every _HELD_ROWS rows, and of the rest at the end): the frame is the
    one a table a batch gives."""
    monkeypatch.setattr(montecarlo, "_HELD_ROWS", 1)  # every batch its own table
    alone = sweep(DUEL, 23, 6, batch_size=2, progress=False).frame
    for held in (5, 2048):
        monkeypatch.setattr(montecarlo, "_HELD_ROWS", held)
        pd.testing.assert_frame_equal(sweep(DUEL, 23, 6, batch_size=2, progress=False).frame, alone)


def test_a_batch_out_of_order_starts_a_new_run_of_held_rows() -> None:
    """Rows are held only in a run of replicates: a batch that does not follow the run
    (a worker finished it early) has the run made into its table first, so every table
    holds the replicates its key names."""
    scenario = load(DUEL)
    variants = expand_grid(scenario, None)
    plan = _Plan(9, 3, variants)
    schema = result_schema([], [s.name for s in scenario.sides], (), fighter_names(scenario))
    table = _Table(_meta(scenario.name, variants[0], []), schema)
    for start in (0, 6, 3):
        batch = Batch(0, start, start + 3, 1, Portable(scenario))
        plan.hold(batch, replicates.run_batch(batch), table)
    assert plan.done == 9
    plan.settle({0: table})
    assert sorted(plan.tables) == [(0, 0, 3), (0, 3, 6), (0, 6, 9)]
    for (_, start, stop), part in plan.tables.items():
        assert part.column("replicate").to_pylist() == list(range(start, stop))
    frame = _collect(plan, schema)
    assert list(frame["seed"]) == replicate_seeds(1, 9)
