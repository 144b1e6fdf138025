"""Monte Carlo sweeps: many independent replicates of a scenario, over a parameter grid.

``sweep(scenario, runs, seed)`` plays ``runs`` replicates of every grid variant (see
:mod:`~fadad_agents.analysis.grid`) and returns a :class:`SweepResult` with one row per
battle. Replicate ``k`` plays the battle seed of ``SeedSequence(seed).spawn(runs)[k]``
in every variant (common random numbers) and on every backend (identical rows).

Work is cut into batches of ``batch_size`` replicates of one variant. With ``out`` each
finished batch is written as one Parquet part (:mod:`~fadad_agents.analysis.store`); a
sweep killed midway and started again with the same arguments plays only what is missing.

Adaptive stopping (``target_width``): after each complete batch boundary (``batch_size``,
``2 * batch_size`` ... replicates, checked in order whatever order batches finish in), a
variant stops once every side's Wilson interval is narrower than ``target_width``. The
boundaries depend on ``batch_size`` only, so the stop is the same on every backend.
"""

from __future__ import annotations

import hashlib
import math
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from fadad_agents.analysis.backends import Played, execute
from fadad_agents.analysis.differences import difference_lines
from fadad_agents.analysis.grid import GridError, Variant, expand_grid, label_value
from fadad_agents.analysis.replicates import Batch, Portable, fighter_names, ship_names
from fadad_agents.analysis.store import (
    Manifest,
    ResultStore,
    StoreError,
    grid_column_type,
    result_schema,
)
from fadad_agents.analysis.summary import (
    fighter_odds,
    loss_quantiles,
    summary_table,
    widest_interval,
    win_probabilities,
)
from fadad_agents.engine import check_playable, load
from fadad_agents.schema.limits import Limits
from fadad_agents.schema.loader import ScenarioError
from fadad_agents.schema.scenario import Scenario

__all__ = ["SweepError", "SweepResult", "default_batch_size", "sweep"]

Progress = Callable[[int, int], None]


class SweepError(ValueError):
    """Bad sweep arguments (runs, seed, batch size, target width)."""


def default_batch_size(runs: int) -> int:
    """Replicates per batch: about 64 batches a variant, 1 .. 500 replicates each."""
    return max(1, min(500, math.ceil(runs / 64)))


@dataclass(frozen=True)
class SweepResult:
    """The rows of a sweep and what it was.

    Attributes:
        frame: one row per battle, sorted by variant and replicate (see
            :func:`~fadad_agents.analysis.store.result_schema` for the columns).
        sides: side names, in scenario order.
        variants: the grid's variants (``label`` and ``values``).
        seed: the root seed.
        runs: replicates per variant asked for.
        played: replicates kept per variant (fewer than ``runs`` if stopped early).
        path: the results directory, if written.
        backend: the backend that played the batches.
        note: why the sweep was played serially instead of on the backend asked for
            (too small for workers to pay off), or None.
    """

    frame: pd.DataFrame
    sides: tuple[str, ...]
    variants: tuple[Variant, ...]
    seed: int
    runs: int
    played: dict[int, int] = field(default_factory=dict)
    path: Path | None = None
    backend: str = "serial"
    note: str | None = None

    @property
    def stopped_early(self) -> bool:
        """Whether adaptive stopping ended any variant before ``runs``."""
        return any(n < self.runs for n in self.played.values())

    def win_probabilities(self, confidence: float = 0.95) -> pd.DataFrame:
        """Per variant and side: wins, runs, p, Wilson interval (low, high, width)."""
        return win_probabilities(self.frame, confidence)

    def fighter_odds(self, confidence: float = 0.95) -> pd.DataFrame:
        """Per variant and named fighter: down, killed, rounds, wounds, taken out by whom."""
        return fighter_odds(self.frame, confidence)

    def quantiles(self) -> pd.DataFrame:
        """Per variant: mean and quantiles of rounds, seconds and each side's casualties."""
        return loss_quantiles(self.frame)

    def summary(self, confidence: float = 0.95) -> str:
        """The text summary ``fadad sweep`` and ``fadad report`` print: odds per variant,
        then (for a grid) each variant's paired difference from the first."""
        return summary_table(self.frame, confidence) + "".join(
            f"{line}\n" for line in difference_lines(self.frame, confidence)
        )


def _check_args(runs: int, seed: int, batch_size: int, target_width: float | None) -> None:
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise SweepError(f"runs must be a whole number >= 1, got {runs!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SweepError(f"seed must be a whole number >= 0, got {seed!r}")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise SweepError(f"batch_size must be a whole number >= 1, got {batch_size!r}")
    if target_width is not None and not 0 < target_width < 1:
        raise SweepError(f"target_width must be between 0 and 1, got {target_width!r}")


def _check_playable(base: Scenario, variants: Sequence[Variant], sides: Sequence[str]) -> None:
    """Build (not play) each variant once here, so policy and force errors surface in
    this process with their message (at the file's line) rather than from a worker."""
    if len(variants) == 1 and not variants[0].values:
        check_playable(base)
        return
    ships = ship_names(base)
    for variant in variants:
        scenario = variant.scenario
        if [s.name for s in scenario.sides] != list(sides) or ship_names(scenario) != ships:
            raise GridError(
                f"grid {variant.label}: a grid may not rename, add or reorder sides or ships "
                f"(sides: {', '.join(sides)})"
            )
        try:
            check_playable(scenario)
        except ScenarioError as exc:
            problem = exc.problems[0].split(" ", 1)[-1]  # the variant's text has no file
            raise GridError(f"grid {variant.label}: {problem}") from None


class _Plan:
    """Which batches are done, kept, and where each variant stops."""

    def __init__(self, runs: int, batch_size: int, variants: Sequence[Variant]) -> None:
        self.runs, self.batch_size, self.variants = runs, batch_size, variants
        self.sources = [Portable(v.scenario) for v in variants]  # in variant order
        # Arrow tables, not DataFrames: converted once at the end (or per adaptive check).
        self.tables: dict[tuple[int, int, int], pa.Table] = {}
        self.stop_at: dict[int, int] = {v.index: runs for v in variants}
        self.checked: dict[int, int] = {v.index: 0 for v in variants}
        # Per variant, rows of a run of batches not in a table yet (hold): start, stop, rows.
        self.held: dict[int, tuple[int, int, list[tuple[Any, ...]]]] = {}

    def batches(self, seed: int) -> Iterator[Batch]:
        """Missing batches, round-robin over variants; stopped variants are skipped lazily."""
        held = {(v, s): e for v, s, e in self.tables}
        for start in range(0, self.runs, self.batch_size):
            for variant, source in zip(self.variants, self.sources, strict=True):
                if start >= self.stop_at[variant.index]:
                    continue
                stop, begin = min(start + self.batch_size, self.runs), start
                after = (self.runs - stop) * len(self.variants)  # replicates of later batches
                while (variant.index, begin) in held and begin < stop:
                    begin = held[variant.index, begin]  # parts of an earlier, shorter sweep
                if begin < stop:
                    yield Batch(variant.index, begin, stop, seed, source, after)

    @property
    def done(self) -> int:
        """Replicates held."""
        tabled: int = sum(t.num_rows for t in self.tables.values())
        return tabled + sum(len(rows) for _, _, rows in self.held.values())

    def hold(self, batch: Batch, rows: list[dict[str, Any]], table: _Table) -> None:
        """Keep a batch's rows (as tuples) with those of the batches just before it of its
        variant, and make them one table once the variant's share of :data:`_HELD_ROWS`
        is held (:meth:`settle` makes the rest): for a sweep that writes no parts and stops
        no variant early, so never reads a batch's table alone. Arrow makes a few large
        tables faster than many small ones, each made after its batch's battles."""
        start, stop, held = self.held.pop(batch.variant, (batch.start, batch.start, []))
        if stop != batch.start:  # not the next replicates: the run held goes first
            self.tables[batch.variant, start, stop] = table.of(held)
            start, held = batch.start, []
        held += table.values_of(rows)
        if len(held) * len(self.variants) >= _HELD_ROWS:
            self.tables[batch.variant, start, batch.stop] = table.of(held)
        else:
            self.held[batch.variant] = start, batch.stop, held

    def settle(self, tables: Mapping[int, _Table]) -> None:
        """Make the tables of the rows still held (:meth:`hold`)."""
        for variant, (start, stop, held) in self.held.items():
            self.tables[variant, start, stop] = tables[variant].of(held)
        self.held.clear()

    @property
    def total(self) -> int:
        """Replicates the sweep will hold (shrinks when a variant stops early)."""
        return sum(self.stop_at.values())

    def prefix(self, variant: int, upto: int) -> pd.DataFrame:
        parts = [t for (v, s, _), t in sorted(self.tables.items()) if v == variant and s < upto]
        frame: pd.DataFrame = pa.concat_tables(parts).to_pandas()
        return frame

    def advance(self, variant: int, target_width: float | None) -> list[tuple[int, int, int]]:
        """Check the variant's completed boundaries in order; parts past a stop to drop."""
        if target_width is None:
            return []
        starts = {s: e for v, s, e in self.tables if v == variant}
        upto = self.checked[variant]
        while upto < self.stop_at[variant] and upto in starts:
            upto = starts[upto]
            self.checked[variant] = upto
            boundary = upto % self.batch_size == 0 and upto < self.runs
            if boundary and widest_interval(self.prefix(variant, upto)) < target_width:
                self.stop_at[variant] = upto
                break
        stop = self.stop_at[variant]
        return [(v, s, e) for v, s, e in self.tables if v == variant and s >= stop]


def _progress_bar(total: int, done: int, enabled: bool) -> Any:
    if not enabled:
        return None
    from tqdm.auto import tqdm

    class Bar(tqdm):  # type: ignore[misc]
        # No monitor thread (it only retunes miniters for bars updated rarely): a sweep
        # whose process stays single-threaded forks its workers at once (backends).
        monitor_interval = 0

    return Bar(total=total, initial=done, unit="battle", desc="sweep", smoothing=0.1)


def _digest(sources: Iterable[Portable]) -> str:
    """SHA-256 of the variants' scenarios as canonical JSON (what the batches carry)."""
    h = hashlib.sha256()
    for source in sources:
        h.update(source.json.encode("utf-8") + b"\0")
    return h.hexdigest()


_POOL = pa.system_memory_pool()
"""Where a sweep's Arrow tables live: the system allocator's memory, which the frame made
from them at the end reuses as they are freed column by column (Arrow's own pool keeps
what it frees, so the process held the tables and the frame at once: 0.7 kB of peak
memory a replicate instead of 0.45)."""


_HELD_ROWS = 2048
"""Rows a sweep that writes no parts keeps before they go to Arrow (:meth:`_Plan.hold`)."""


class _Table:
    """A variant's batches of rows as Arrow tables of the sweep's schema. Every batch goes
    through it, written or not, so rows have the same dtypes fresh, resumed or read back."""

    __slots__ = ("columns", "names", "played", "schema", "values")

    def __init__(self, meta: dict[str, Any], schema: pa.Schema) -> None:
        self.schema = schema
        played = [field for field in schema if field.name not in meta]
        self.played = pa.struct(played)
        # A row's played values as a tuple in the struct's order (always several: the
        # replicate, its seed and outcome).
        self.names = [field.name for field in played]
        self.values = itemgetter(*self.names)
        # Each column: its index among the played fields, or the variant's own value.
        index = {field.name: i for i, field in enumerate(played)}
        self.columns = [
            (index[f.name], None, None) if f.name not in meta else (-1, meta[f.name], f.type)
            for f in schema
        ]

    def values_of(self, rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        """Each row's played values as a tuple in the struct's order: Arrow converts it in
        half the time it converts the dict (a 5 v 5 row of 72 columns: 3.1 against 5.6
        us). A column a row lacks is None there, as Arrow reads a dict without it."""
        try:
            return list(map(self.values, rows))
        except KeyError:
            return [tuple(row.get(name) for name in self.names) for row in rows]

    def of(self, values: list[tuple[Any, ...]]) -> pa.Table:
        """The table of rows given as :meth:`values_of` gives them: the played columns in
        one conversion, as a struct array (column by column cost ~5 us per column per
        batch), the variant's own columns repeated; in the system allocator's memory
        (what _collect frees there, the frame reuses)."""
        struct = pa.array(values, type=self.played, memory_pool=_POOL)
        n = len(values)
        columns = [
            struct.field(i) if i >= 0 else pa.array([value] * n, type=kind, memory_pool=_POOL)
            for i, value, kind in self.columns
        ]
        return pa.Table.from_arrays(columns, schema=self.schema)

    def __call__(self, rows: list[dict[str, Any]]) -> pa.Table:
        return self.of(self.values_of(rows))


def sweep(
    scenario: Scenario | str | Path,
    runs: int,
    seed: int = 0,
    *,
    backend: str = "serial",
    workers: int | None = None,
    scheduler: str | None = None,
    grid: Mapping[str, Sequence[Any]] | None = None,
    out: str | Path | None = None,
    target_width: float | None = None,
    batch_size: int | None = None,
    progress: bool = True,
    on_progress: Progress | None = None,
    limits: Limits | None = None,
    auto_serial: bool = True,
) -> SweepResult:
    """Play ``runs`` independent replicates of ``scenario`` (per grid variant).

    Args:
        scenario: a Scenario, a path or YAML text.
        runs: replicates per variant (the maximum, with ``target_width``).
        seed: root seed; replicate ``k`` plays ``SeedSequence(seed).spawn(runs)[k]``.
        backend: ``"serial"``, ``"processes"`` or ``"dask"``.
        workers: worker processes (default: the CPUs available).
        scheduler: a Dask scheduler address (``"tcp://host:8786"``); implies ``"dask"``.
            Without it ``"dask"`` starts a LocalCluster of ``workers`` processes.
        grid: ``{path: [values]}``, see :mod:`fadad_agents.analysis.grid`; every variant
            plays the same seeds.
        out: a results directory (``results.parquet``): written batch by batch, and
            resumed if it already holds part of this sweep.
        target_width: stop a variant once every side's 95% Wilson interval is narrower.
        batch_size: replicates per batch and part file (default
            :func:`default_batch_size`); also the adaptive-stopping step.
        progress: show a tqdm bar (``tqdm.auto``: a widget in Jupyter).
        on_progress: called as ``on_progress(done, total)`` after each batch (dashboards).
        limits: how large a battle the file may describe (see :func:`fadad_agents.run`);
            grid variants and workers keep them.
        auto_serial: with ``processes`` or ``dask`` (no ``scheduler``), time the first
            batch here and play the rest serially when the sweep is too small for the
            workers to pay off; the result's ``note`` says so. False: always the workers.

    Returns:
        SweepResult with one row per replicate kept.

    Raises:
        ScenarioError: anything wrong with the scenario (one ``file:line field: what``
            line each).
        SweepError, GridError, BackendError, StoreError: bad arguments, grid or results
            folder; all ``ValueError``\\ s with a one-line message.
    """
    _check_args(runs, seed, 1 if batch_size is None else batch_size, target_width)
    size = default_batch_size(runs) if batch_size is None else batch_size
    base = load(scenario, limits)
    variants = expand_grid(base, grid)
    sides = tuple(s.name for s in base.sides)
    _check_playable(base, variants, sides)
    paths = list(grid or {})
    kinds = [grid_column_type([dict(v.values)[p] for v in variants]) for p in paths]
    schema = result_schema(
        list(zip(paths, kinds, strict=True)), sides, ship_names(base), fighter_names(base)
    )
    meta = {v.index: _meta(base.name, v, kinds) for v in variants}
    labels = tuple(v.label for v in variants)
    plan = _Plan(runs, size, variants)
    store = None
    if out is not None:
        digest = _digest(plan.sources)
        manifest = Manifest(base.name, digest, seed, runs, size, labels, sides, target_width)
        store = ResultStore(out, manifest, schema)
    try:
        if store is not None:
            _resume(store, plan)
        for variant in variants:
            _drop(plan, store, plan.advance(variant.index, target_width))
        if store is not None and store.read_only and next(plan.batches(seed), None):
            raise StoreError(
                f"{store.path}: cannot be written and holds {plan.done} of {plan.total} "
                "replicates; copy it somewhere writable to finish the sweep"
            )
        expected = len(variants) * -(-runs // size)
        batches = plan.batches(seed)
        scratch = None if store is None else store.path
        work = execute(batches, backend, workers, scheduler, expected, scratch, auto_serial)
        tables = {v.index: _Table(meta[v.index], schema) for v in variants}
        _play(work, plan, store, tables, target_width, progress, on_progress)
    finally:
        if store is not None:
            store.close()
    return SweepResult(
        frame=_collect(plan, schema),
        sides=sides,
        variants=tuple(variants),
        seed=seed,
        runs=runs,
        played=dict(plan.stop_at),
        path=None if store is None else store.path,
        backend=work.backend,
        note=work.note,
    )


def _play(
    work: Played,
    plan: _Plan,
    store: ResultStore | None,
    tables: Mapping[int, _Table],
    target_width: float | None,
    progress: bool,
    on_progress: Progress | None,
) -> None:
    """Keep (and write) each finished batch, check adaptive stopping, show progress."""
    bar = _progress_bar(plan.total, plan.done, progress)
    told = False
    try:
        for batch, rows in work:
            if work.note is not None and bar is not None and not told:
                bar.write(work.note, file=sys.stderr)
                told = True
            if batch.start >= plan.stop_at[batch.variant]:
                continue  # finished after its variant stopped: not part of the sweep
            if store is None and target_width is None:
                plan.hold(batch, rows, tables[batch.variant])
            else:
                table = tables[batch.variant](rows)
                if store is not None:
                    store.write_part(batch.variant, batch.start, batch.stop, table)
                plan.tables[batch.variant, batch.start, batch.stop] = table
                _drop(plan, store, plan.advance(batch.variant, target_width))
            _report(plan, bar, on_progress)
        plan.settle(tables)
    finally:
        if bar is not None:
            bar.close()


def _meta(scenario: str, variant: Variant, kinds: Sequence[Any]) -> dict[str, Any]:
    meta: dict[str, Any] = {"scenario": scenario, "variant": variant.index, "label": variant.label}
    for (path, value), kind in zip(variant.values, kinds, strict=True):
        meta[path] = label_value(value) if kind == pa.string() else value
    return meta


def _resume(store: ResultStore, plan: _Plan) -> None:
    """Open (and lock) the results directory and take its finished parts as done."""
    store.open()
    for part in store.parts():
        variant, _, stop = part
        if variant not in plan.stop_at:
            raise StoreError(f"{store.path}: holds a part of variant {variant} not in this grid")
        if stop > plan.runs:
            raise StoreError(
                f"{store.path}: already holds replicates up to {stop}; resume with runs >= {stop}"
            )
        plan.tables[part] = store.read_part(*part)


def _drop(plan: _Plan, store: ResultStore | None, parts: list[tuple[int, int, int]]) -> None:
    """Forget parts past an adaptive stop (and delete their files)."""
    for part in parts:
        del plan.tables[part]
    if store is not None:
        store.drop_parts(parts)


def _report(plan: _Plan, bar: Any, on_progress: Progress | None) -> None:
    done, total = plan.done, plan.total
    if bar is not None:
        bar.total, bar.n = total, done
        bar.refresh()
    if on_progress is not None:
        on_progress(done, total)


def _collect(plan: _Plan, schema: pa.Schema) -> pd.DataFrame:
    """The rows by variant and replicate (the parts in order give them so: sorted only
    if a part read back from disk does not hold its replicates in order)."""
    table = pa.concat_tables([t for _, t in sorted(plan.tables.items())] or [schema.empty_table()])
    plan.tables.clear()  # the frame takes over the rows: Arrow's copy is freed as it goes
    frame: pd.DataFrame = table.to_pandas(self_destruct=True, split_blocks=True, memory_pool=_POOL)
    del table
    # In numpy: pandas' arithmetic on two Series cost a tenth of a small sweep's fixed cost.
    order = frame["variant"].to_numpy() * (plan.runs + 1) + frame["replicate"].to_numpy()
    if (order[1:] >= order[:-1]).all():
        return frame
    return frame.sort_values(["variant", "replicate"], ignore_index=True)
