"""Monte Carlo analysis: sweeps of many battles, summaries with intervals, plots.

``sweep(scenario, runs, seed)`` plays independent replicates (serially, on local
processes or on Dask) and returns a :class:`SweepResult`; :func:`read_results` loads a
results directory written with ``out=``; :func:`summary_table`, :func:`win_probabilities`
and :func:`loss_quantiles` summarise any results table; :mod:`.plots` draws them::

    >>> from fadad_agents.analysis import sweep                # doctest: +SKIP
    >>> result = sweep("scenarios/tavern-brawl.yaml", runs=1000, seed=1,
    ...                backend="processes", out="brawl.parquet")
    >>> result.win_probabilities()[["side", "p", "low", "high"]]
"""

from __future__ import annotations

from fadad_agents.analysis.backends import (
    BACKENDS,
    BackendError,
    default_workers,
    shutdown_workers,
)
from fadad_agents.analysis.compare import Comparison, compare
from fadad_agents.analysis.differences import (
    Difference,
    difference_lines,
    newcombe_interval,
    paired_differences,
)
from fadad_agents.analysis.grid import GridError, Variant, expand_grid, parse_path
from fadad_agents.analysis.montecarlo import SweepError, SweepResult, default_batch_size, sweep
from fadad_agents.analysis.replicates import (
    SIDE_FIELDS,
    replicate_seed,
    replicate_seeds,
    run_replicate,
)
from fadad_agents.analysis.store import StoreError, read_results
from fadad_agents.analysis.summary import (
    NO_WINNER,
    fighter_odds,
    loss_quantiles,
    quantiles,
    sides_of,
    summary_table,
    widest_interval,
    wilson_interval,
    win_probabilities,
)

__all__ = [
    "BACKENDS",
    "NO_WINNER",
    "SIDE_FIELDS",
    "BackendError",
    "Comparison",
    "Difference",
    "GridError",
    "StoreError",
    "SweepError",
    "SweepResult",
    "Variant",
    "compare",
    "default_batch_size",
    "default_workers",
    "difference_lines",
    "expand_grid",
    "fighter_odds",
    "loss_quantiles",
    "newcombe_interval",
    "paired_differences",
    "parse_path",
    "quantiles",
    "read_results",
    "replicate_seed",
    "replicate_seeds",
    "run_replicate",
    "shutdown_workers",
    "sides_of",
    "summary_table",
    "sweep",
    "widest_interval",
    "wilson_interval",
    "win_probabilities",
]
