"""The battle's rounds table: Mesa's DataCollector, one row per round (DESIGN.md).

Per side: strength (heads still fighting), wounded (those fighting at Hurt or worse)
and routed (heads withdrawn or routed). The row is appended straight to the table's
column lists (Mesa's documented ``tables`` layout: column name to list), without a dict
and Mesa's per-column checks, whenever the battle's row is this plain one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mesa

from fadad_agents.agents.core.base import SideRoster
from fadad_agents.rules.core.wounds import Wound

__all__ = ["ROUNDS_TABLE", "ROUND_STATS", "RoundsTable"]

ROUNDS_TABLE = "rounds"
"""Name of the DataCollector table with one row per round."""
ROUND_STATS = ("strength", "wounded", "routed")
"""Per-side columns of the rounds table."""


class RoundsTable:
    """The rounds table's layout for one battle's sides (column names formatted once)."""

    __slots__ = ("columns", "row_keys")

    def __init__(self, sides: Sequence[SideRoster]) -> None:
        self.columns = ["round", "time"] + [
            f"{side.name}.{stat}" for side in sides for stat in ROUND_STATS
        ]
        self.row_keys = [
            (side, f"{side.name}.strength", f"{side.name}.wounded", f"{side.name}.routed")
            for side in sides
        ]

    def collector(self, *, direct: bool) -> tuple[mesa.DataCollector, list[list[Any]] | None]:
        """A new DataCollector with the table, and its column lists in order when rows
        may be appended ``direct``\\ ly (side names distinct), else None."""
        collector = mesa.DataCollector(tables={ROUNDS_TABLE: self.columns})
        table = collector.tables[ROUNDS_TABLE]
        if not direct or len(table) != len(self.columns):
            return collector, None
        return collector, [table[c] for c in self.columns]

    def row(self, round_: int, now: int) -> dict[str, int]:
        """This round's aggregates as a row (column name to value)."""
        row = {"round": round_, "time": now}
        for side, strength, wounded, routed in self.row_keys:
            row[strength], row[wounded], row[routed] = _side_stats(side)
        return row

    def append(self, columns: list[list[Any]], round_: int, now: int) -> None:
        """Append :meth:`row`'s values to the table's column lists, in order."""
        columns[0].append(round_)
        columns[1].append(now)
        i = 2
        for side, _, _, _ in self.row_keys:
            strength, wounded, routed = _side_stats(side)
            columns[i].append(strength)
            columns[i + 1].append(wounded)
            columns[i + 2].append(routed)
            i += 3


def _side_stats(side: SideRoster) -> tuple[int, int, int]:
    """One side's strength, wounded (those fighting at Hurt or worse) and routed."""
    hurt = Wound.HURT
    return side.strength, len([m for m in side.active if m.wound >= hurt]), side.routed
