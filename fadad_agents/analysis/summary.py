"""Summaries of sweep results: win probabilities with Wilson intervals, quantiles.

The Wilson score interval (Wilson 1927) keeps its coverage near the nominal level for
small samples and for probabilities near 0 or 1, where the normal (Wald) interval
collapses to zero width; it is what adaptive stopping measures.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import cast

import pandas as pd

__all__ = [
    "NO_WINNER",
    "QUANTILES",
    "fighter_lines",
    "fighter_odds",
    "fighters_of",
    "loss_quantiles",
    "quantiles",
    "ships_of",
    "sides_of",
    "summary_table",
    "widest_interval",
    "wilson_interval",
    "win_probabilities",
]

NO_WINNER = "(no winner)"
"""Outcome label of battles without a winner (stopped, mutual destruction)."""

QUANTILES: tuple[float, ...] = (0.05, 0.25, 0.5, 0.75, 0.95)
"""Quantiles reported for duration and losses."""

_STANDARD_NORMAL = NormalDist()
# The standard library's normal quantile (Wichura's AS241, ~1e-16 relative error, as
# scipy's ndtri): no scipy.stats import (half a second) in every sweep worker.


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion.

    >>> low, high = wilson_interval(5, 10)
    >>> round(low, 4), round(high, 4)
    (0.2366, 0.7634)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)

    Raises:
        ValueError: successes outside 0..trials, or confidence outside (0, 1).
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"successes must be in 0..trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    z = _STANDARD_NORMAL.inv_cdf(0.5 + confidence / 2)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # At 0 or n successes the bound is exactly 0 or 1; floating point misses by an ulp.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def sides_of(frame: pd.DataFrame) -> list[str]:
    """Side names of a results table, in scenario order (from ``<side>.strength``)."""
    return [c.removesuffix(".strength") for c in frame.columns if c.endswith(".strength")]


def ships_of(frame: pd.DataFrame) -> list[str]:
    """Ship names of a results table (from ``<ship>.hull``); empty without ships."""
    return [c.removesuffix(".hull") for c in frame.columns if c.endswith(".hull")]


def fighters_of(frame: pd.DataFrame) -> list[str]:
    """Named individuals of a results table (from ``<fighter>.down``), in file order."""
    return [c.removesuffix(".down") for c in frame.columns if c.endswith(".down")]


def _percent(p: float, low: float, high: float) -> str:
    return f"{p:.0%} ({low * 100:.0f}–{high * 100:.0f})"


def fighter_odds(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """One row per variant and named fighter: how often taken out (``down``) and killed,
    each with its Wilson interval, the mean rounds in the fight and final wound level, and
    who took the fighter out most often (``by``, with the share of runs ``by_p``)."""
    rows = []
    for variant, label, part in _labels(frame):
        runs = len(part)
        for name in fighters_of(frame):
            down = int(part[f"{name}.down"].sum())
            dead = int(part[f"{name}.killed"].sum())
            hands = part[f"{name}.taken_out_by"].dropna().value_counts()
            by, by_n = (str(hands.index[0]), int(hands.iloc[0])) if len(hands) else (None, 0)
            rows.append(
                (
                    variant,
                    label,
                    name,
                    runs,
                    down / runs,
                    *wilson_interval(down, runs, confidence),
                    dead / runs,
                    *wilson_interval(dead, runs, confidence),
                    float(part[f"{name}.rounds_active"].mean()),
                    float(part[f"{name}.wound_level"].mean()),
                    by,
                    by_n / runs,
                )
            )
    columns = ["variant", "label", "fighter", "runs", "down", "down_low", "down_high"]
    columns += ["killed", "killed_low", "killed_high", "rounds_active", "wound_level"]
    return pd.DataFrame(rows, columns=[*columns, "by", "by_p"])


def fighter_lines(odds: pd.DataFrame) -> list[str]:
    """``Snorri: down 38% (31–45), dead 2% (1–5), in the fight 6.1 rounds, most often by
    Brynhild (38%)``: one line per row of :func:`fighter_odds`."""
    lines = []
    for row in odds.to_dict("records"):
        down = _percent(float(row["down"]), float(row["down_low"]), float(row["down_high"]))
        dead = _percent(float(row["killed"]), float(row["killed_low"]), float(row["killed_high"]))
        text = f"{row['fighter']}: down {down}, dead {dead}, "
        text += f"in the fight {float(row['rounds_active']):.1f} rounds"
        if row["by"] is not None:
            text += f", most often by {row['by']} ({float(row['by_p']):.0%})"
        lines.append(text)
    return lines


def _labels(frame: pd.DataFrame) -> list[tuple[int, str, pd.DataFrame]]:
    return [
        (int(cast(int, variant)), str(part["label"].iloc[0]), part)
        for variant, part in frame.groupby("variant", sort=True)
    ]


def win_probabilities(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """One row per variant and side: wins, runs, p and its Wilson interval.

    A ``(no winner)`` row is added for variants where some battles had no winner.
    Columns: variant, label, side, wins, runs, p, low, high, width.
    """
    rows = []
    sides = sides_of(frame)
    for variant, label, part in _labels(frame):
        runs = len(part)
        winners = part["winner"].fillna(NO_WINNER).value_counts()
        outcomes = sides + ([NO_WINNER] if winners.get(NO_WINNER, 0) else [])
        for side in outcomes:
            wins = int(winners.get(side, 0))
            low, high = wilson_interval(wins, runs, confidence)
            rows.append((variant, label, side, wins, runs, wins / runs, low, high, high - low))
    columns = ["variant", "label", "side", "wins", "runs", "p", "low", "high", "width"]
    return pd.DataFrame(rows, columns=columns)


def widest_interval(frame: pd.DataFrame, confidence: float = 0.95) -> float:
    """The widest win-probability interval of any side (adaptive stopping's measure)."""
    probs = win_probabilities(frame, confidence)
    sides = probs[probs["side"] != NO_WINNER]
    return float(sides["width"].max()) if len(sides) else 1.0


def quantiles(
    frame: pd.DataFrame, columns: Sequence[str], qs: Sequence[float] = QUANTILES
) -> pd.DataFrame:
    """Mean and quantiles of ``columns`` per variant (long form: one row per column)."""
    rows = []
    for variant, label, part in _labels(frame):
        for column in columns:
            values = part[column].astype(float)
            figures = [float(values.quantile(q)) for q in qs]
            rows.append((variant, label, column, float(values.mean()), *figures))
    names = ["variant", "label", "measure", "mean", *(f"q{round(q * 100):02d}" for q in qs)]
    return pd.DataFrame(rows, columns=names)


def loss_quantiles(frame: pd.DataFrame, qs: Sequence[float] = QUANTILES) -> pd.DataFrame:
    """Quantiles of duration (rounds, seconds), each side's casualties, each ship's hull."""
    columns = [
        "rounds",
        "duration_s",
        *(f"{s}.casualties" for s in sides_of(frame)),
        *(f"{s}.hull" for s in ships_of(frame)),
    ]
    return quantiles(frame, columns, qs)


def summary_table(frame: pd.DataFrame, confidence: float = 0.95) -> str:
    """A text summary: win probabilities with intervals, then duration and loss quantiles."""
    probs = win_probabilities(frame, confidence)
    level = f"{confidence:.0%}"
    lines = []
    for variant, label, part in _labels(frame):
        if label != "base" or frame["variant"].nunique() > 1:
            lines.append(f"variant {variant}: {label}")
        lines.append(f"{part['scenario'].iloc[0]}: {len(part)} battles")
        mine = probs[probs["variant"] == variant]
        shown = pd.DataFrame(
            {
                "side": mine["side"],
                "wins": mine["wins"],
                "p(win)": mine["p"].map("{:.3f}".format),
                f"{level} interval": [
                    f"{lo:.3f} .. {hi:.3f}"
                    for lo, hi in zip(mine["low"], mine["high"], strict=True)
                ],
            }
        )
        lines.append(shown.to_string(index=False))
        qs = loss_quantiles(part).drop(columns=["variant", "label"])
        lines.append(qs.to_string(index=False, float_format="{:.1f}".format))
        lines.extend(fighter_lines(fighter_odds(part, confidence)))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
