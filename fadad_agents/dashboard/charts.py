"""Small SVG charts for the dashboards: lines over rounds, histograms, interval bars.

Plain strings for an ``ipywidgets.HTML``: cheap enough to redraw every step, and no
matplotlib figure per step (DESIGN.md, Interfaces).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from fadad_agents.dashboard.hexview import SIDE_COLOURS

__all__ = ["histogram_svg", "interval_svg", "lines_svg"]

W, H, PAD = 420.0, 180.0, 34.0


def _frame(title: str, body: str, width: float = W, height: float = H) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" '
        'style="font-family:sans-serif;font-size:11px;display:inline-block;vertical-align:top">'
        f'<text x="{PAD:.0f}" y="14" font-weight="bold">{escape(title)}</text>{body}</svg>'
    )


def _axes(xmax: float, ymax: float, xlabel: str) -> str:
    x1, y1 = W - 10, H - PAD
    return (
        f'<line x1="{PAD}" y1="{y1}" x2="{x1}" y2="{y1}" stroke="#444"/>'
        f'<line x1="{PAD}" y1="22" x2="{PAD}" y2="{y1}" stroke="#444"/>'
        f'<text x="{PAD - 4}" y="26" text-anchor="end">{ymax:g}</text>'
        f'<text x="{PAD - 4}" y="{y1}" text-anchor="end">0</text>'
        f'<text x="{x1}" y="{y1 + 14}" text-anchor="end">{xmax:g}</text>'
        f'<text x="{(PAD + x1) / 2:.0f}" y="{y1 + 14}" text-anchor="middle">{escape(xlabel)}</text>'
    )


def lines_svg(
    series: Sequence[Sequence[float]], names: Sequence[str], *, title: str = "Strength"
) -> str:
    """One polyline per series over rounds 0..n (``series[k][i]`` = series k at round i)."""
    n = max((len(s) for s in series), default=0)
    ymax = max((max(s) for s in series if s), default=1) or 1
    xmax = max(n - 1, 1)
    sx, sy = (W - 10 - PAD) / xmax, (H - PAD - 22) / ymax
    body = [_axes(xmax, ymax, "round")]
    for k, (s, name) in enumerate(zip(series, names, strict=True)):
        colour = SIDE_COLOURS[k % len(SIDE_COLOURS)]
        pts = " ".join(f"{PAD + i * sx:.1f},{H - PAD - v * sy:.1f}" for i, v in enumerate(s))
        body.append(
            f'<polyline class="series" points="{pts}" fill="none" stroke="{colour}" '
            f'stroke-width="2"/><text x="{W - 12:.0f}" y="{30 + 13 * k}" text-anchor="end" '
            f'fill="{colour}">{escape(name)}: {s[-1] if s else 0:g}</text>'
        )
    return _frame(title, "".join(body))


def histogram_svg(
    values: Sequence[float], *, title: str, xlabel: str, bins: int = 20, colour: str = "#1f5fbf"
) -> str:
    """A histogram of ``values`` with ``bins`` equal bins (integers get unit bins if few)."""
    if not values:
        return _frame(title, '<text x="40" y="90">no runs yet</text>')
    lo, hi = min(values), max(values)
    first, last = lo, hi  # axis labels: the smallest and largest value seen
    if all(float(v).is_integer() for v in values) and hi - lo + 1 <= bins:
        bins, lo, hi = int(hi - lo + 1), lo - 0.5, hi + 0.5  # one bar per whole number
    width = (hi - lo) / bins if hi > lo else 1.0
    counts = [0] * bins
    for v in values:
        counts[min(int((v - lo) / width), bins - 1)] += 1
    top = max(counts)
    bw, sy = (W - 10 - PAD) / bins, (H - PAD - 22) / top
    bars = "".join(
        f'<rect x="{PAD + i * bw:.1f}" y="{H - PAD - c * sy:.1f}" width="{max(bw - 1, 0.5):.1f}" '
        f'height="{c * sy:.1f}" fill="{colour}"><title>{c}</title></rect>'
        for i, c in enumerate(counts)
    )
    axes = (
        f'<line x1="{PAD}" y1="{H - PAD}" x2="{W - 10}" y2="{H - PAD}" stroke="#444"/>'
        f'<text x="{PAD}" y="{H - PAD + 14}">{first:g}</text>'
        f'<text x="{W - 10}" y="{H - PAD + 14}" text-anchor="end">{last:g}</text>'
        f'<text x="{W / 2:.0f}" y="{H - PAD + 14}" text-anchor="middle">{escape(xlabel)}</text>'
        f'<text x="{PAD - 4}" y="26" text-anchor="end">{top}</text>'
    )
    return _frame(title, axes + bars)


def interval_svg(
    rows: Sequence[tuple[str, float, float, float]], *, title: str = "Win probability"
) -> str:
    """Horizontal bars with interval whiskers: ``(label, p, low, high)`` per row, 0..1."""
    height = 30.0 + 22.0 * len(rows)
    left, right = 150.0, W - 50
    span = right - left
    body = []
    for i, (label, p, low, high) in enumerate(rows):
        y = 26 + 22 * i
        colour = SIDE_COLOURS[i % len(SIDE_COLOURS)]
        body.append(
            f'<text x="{left - 6}" y="{y + 12}" text-anchor="end">{escape(label)}</text>'
            f'<rect x="{left}" y="{y}" width="{p * span:.1f}" height="14" fill="{colour}" '
            f'fill-opacity="0.6"/><line x1="{left + low * span:.1f}" y1="{y + 7}" '
            f'x2="{left + high * span:.1f}" y2="{y + 7}" stroke="#111" stroke-width="2"/>'
            f'<text x="{right + 4}" y="{y + 12}">{p:.0%}</text>'
        )
    return _frame(title, "".join(body), height=height)
