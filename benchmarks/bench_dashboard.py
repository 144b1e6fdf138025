"""Dashboard speed: one Step click (play a round and redraw map, status, chart and log).

Issue 6 target: a dashboard step of the boarding action under 100 ms. Measured also on the
other large scenarios: the tavern brawl (40 individual fighters), the 500 v 500 field
battle, the ship duel and the 3 v 3 fleet action (ship rounds with gunnery and crews).
Each battle is reset (not timed) and stepped to its end, repeatedly, and the mean time
of a step is reported; the replay cost of Back (rewind one round) is reported too.
"""

from __future__ import annotations

import time

from benchmarks.harness import Row, quick
from fadad_agents.dashboard import BattleDashboard

__all__ = ["BENCHMARKS"]

SCENARIOS = ("boarding-action", "tavern-brawl", "field-battle", "ship-duel", "fleet-action")
TARGET_MS = 100.0
MIN_SECONDS = 1.0
"""Each scenario stepped to its end again and again for at least this long (a quarter of
it with ``--quick``), and at least 20 steps."""


def _step_ms(name: str) -> tuple[float, float, int]:
    """Mean ms of a Step click, mean ms of a Back click, and steps measured."""
    dash = BattleDashboard(name, seed=1)
    session = dash.session
    assert session is not None
    spent = back_spent = 0.0
    steps = backs = 0
    start = time.perf_counter()
    least = quick(MIN_SECONDS, MIN_SECONDS / 4)
    while time.perf_counter() - start < least or steps < 20:
        dash.reset()
        while not session.finished:
            t = time.perf_counter()
            dash.step()
            spent += time.perf_counter() - t
            steps += 1
        t = time.perf_counter()
        dash.back()
        back_spent += time.perf_counter() - t
        backs += 1
        session = dash.session
        assert session is not None
    return 1000 * spent / steps, 1000 * back_spent / backs, steps


def bench_dashboard_step() -> list[Row]:
    """Time of one dashboard step and of one rewind on each playable large scenario."""
    rows = []
    for name in SCENARIOS:
        step, back, _ = _step_ms(name)
        rows.append(
            Row(f"dashboard step ({name})", step, "ms", f"< {TARGET_MS:.0f}", step < TARGET_MS)
        )
        rows.append(Row(f"dashboard back ({name})", back, "ms"))
    return rows


BENCHMARKS = [bench_dashboard_step]
