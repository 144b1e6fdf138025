"""Plots of sweep results: win probabilities with intervals, duration and loss histograms.

Figures are built with :class:`matplotlib.figure.Figure` (no pyplot state, so nothing
leaks between calls or threads and no display is needed); each ``plot_*`` function also
draws into a given ``ax`` (a dashboard's own axes). :func:`write_report` saves the three
PNGs ``fadad report`` writes.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from fadad_agents.analysis.summary import NO_WINNER, sides_of, win_probabilities

__all__ = [
    "REPORT_FILES",
    "plot_durations",
    "plot_losses",
    "plot_win_probabilities",
    "short_label",
    "write_report",
]

REPORT_FILES = ("win_probability.png", "duration.png", "losses.png")
"""The PNG files :func:`write_report` writes, in order."""


def _axes(ax: Axes | None, width: float = 7.0, height: float = 4.2) -> Axes:
    if ax is not None:
        return ax
    return Figure(figsize=(width, height), layout="constrained").add_subplot()


def short_label(label: str) -> str:
    r"""A variant label for a tick or legend: each path cut to its last key, one per line.

    >>> short_label("rules.fadad.initiative=static, sides[Snorri].forces[0].skills.Sword=Good")
    'initiative=static\nSword=Good'
    """
    parts = []
    for setting in label.split(", "):
        path, eq, value = setting.partition("=")
        parts.append(textwrap.shorten(f"{path.rsplit('.', 1)[-1]}{eq}{value}", 40))
    return "\n".join(parts)


def _variant_names(frame: pd.DataFrame) -> dict[int, str]:
    labels = frame.groupby("variant", sort=True)["label"].first()
    return {int(str(v)): short_label(str(label)) for v, label in labels.items()}


def _title(frame: pd.DataFrame, what: str) -> str:
    variants = frame["variant"].nunique()
    count = f"{len(frame):,} battles"
    if variants > 1:
        count = f"{len(frame) // variants:,} battles x {variants} variants"
    return f"{frame['scenario'].iloc[0]}: {what} ({count})"


def plot_win_probabilities(
    frame: pd.DataFrame, ax: Axes | None = None, confidence: float = 0.95
) -> Axes:
    """Bars of each side's win probability per variant, with Wilson interval whiskers."""
    ax = _axes(ax)
    probs = win_probabilities(frame, confidence)
    outcomes = [*sides_of(frame), *([NO_WINNER] if (probs["side"] == NO_WINNER).any() else [])]
    names = _variant_names(frame)
    x = np.arange(len(names))
    width = 0.8 / len(outcomes)
    for i, side in enumerate(outcomes):
        rows = probs[probs["side"] == side].set_index("variant").reindex(list(names))
        p = rows["p"].fillna(0.0).to_numpy()
        errors = np.vstack([p - rows["low"].fillna(0.0), rows["high"].fillna(0.0) - p])
        offset = (i - (len(outcomes) - 1) / 2) * width
        ax.bar(x + offset, p, width, yerr=errors, capsize=4, label=side)
        for xi, pi, hi in zip(x + offset, p, rows["high"].fillna(0.0), strict=True):
            ax.text(xi, hi + 0.015, f"{pi:.0%}", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(x, list(names.values()) if len(names) > 1 else [])
    ax.set_ylim(0, 1.08)
    ax.set_ylabel(f"probability of winning ({confidence:.0%} Wilson interval)")
    ax.set_title(_title(frame, "who wins"))
    ax.legend(loc="upper right", fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return ax


def _step_hist(ax: Axes, values: pd.Series, bins: np.ndarray, label: str) -> None:
    counts, edges = np.histogram(values.to_numpy(dtype=float), bins=bins)
    share = counts / max(1, len(values))
    ax.stairs(share, edges, label=label, linewidth=1.8)


def _integer_bins(values: pd.Series, most: int = 60) -> np.ndarray:
    low, high = int(values.min()), int(values.max())
    step = max(1, int(np.ceil((high - low + 1) / most)))
    return np.arange(low - 0.5, high + step + 0.5, step)


def plot_durations(frame: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Histogram of battle length in rounds (share of battles), one line per variant."""
    ax = _axes(ax)
    bins = _integer_bins(frame["rounds"])
    names = _variant_names(frame)
    for variant, part in frame.groupby("variant", sort=True):
        _step_hist(ax, part["rounds"], bins, names[int(str(variant))])
    ax.set_xlabel("rounds")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("share of battles")
    ax.set_title(_title(frame, "how long it lasts"))
    if len(names) > 1:
        ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return ax


def plot_losses(frame: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Histogram of each side's casualties (share of battles), per side and variant."""
    ax = _axes(ax)
    sides = sides_of(frame)
    columns = [f"{s}.casualties" for s in sides]
    bins = _integer_bins(pd.Series(frame[columns].to_numpy().ravel()))
    names = _variant_names(frame)
    for variant, part in frame.groupby("variant", sort=True):
        for side, column in zip(sides, columns, strict=True):
            label = side if len(names) == 1 else f"{side} - {names[int(str(variant))]}"
            _step_hist(ax, part[column], bins, label)
    ax.set_xlabel("casualties (taken out of the fight)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("share of battles")
    ax.set_title(_title(frame, "losses per side"))
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return ax


def write_report(frame: pd.DataFrame, out_dir: str | Path, dpi: int = 120) -> list[Path]:
    """Save the three report PNGs (:data:`REPORT_FILES`) in ``out_dir``; their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, plot in zip(
        REPORT_FILES, (plot_win_probabilities, plot_durations, plot_losses), strict=True
    ):
        ax = plot(frame)
        figure = ax.get_figure()
        assert isinstance(figure, Figure)
        figure.savefig(out / name, dpi=dpi)
        paths.append(out / name)
    return paths
