"""Who fights in a crowd in arrays, and everyone fighting filed in squares.

The field in arrays (:class:`~.waiting._Crowd`) knows who fights from the sides' lists
(each fighter's status read only when someone left otherwise than fallen), and files
those who fight in squares as wide as the widest two fighters' elbow room
(:func:`~.kernels.file_all`): what the compiled loop of a band's turn searches for who
stands in a place, or in reach (:mod:`~.elbows`, :mod:`~.searching`, :mod:`~.kernels`).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import numpy as np

from fadad_agents.agents.core.base import Status

__all__ = ["DEPTH", "FALLEN_UNFILED", "Filed"]

FALLEN_UNFILED = True
"""Take a fighter who fell, withdrew or surrendered out of the squares the compiled loop
searches (it takes no place and is nobody's foe: every search skips it), so that the
fallen of a long battle are not measured again at every search (False: filed to the end;
the tests compare both)."""

DEPTH = 4
"""Fighters a square holds at first (doubled when one overflows)."""

FIGHTING = Status.FIGHTING

_DOWNED, _ACTIVE = attrgetter("downed"), attrgetter("active")


class Filed:
    """Who of a crowd fights (``fighting``, by ``unique_id``) and the squares they are
    filed in (``grid``): the part of :class:`~.waiting._Crowd` that follows the fallen.
    ``filings`` counts the squares made afresh (their arrays new)."""

    everyone: list[Any]
    sides: Any
    ids: Any
    fighting: Any
    on_field: Any
    x: Any
    y: Any
    cell: float
    depth: int
    grid: tuple[Any, Any, Any]
    kernels: Any
    filings: int
    active: int
    downed: list[int]
    nearest: list[Any]

    def _count_fighting(self, refile: bool = True) -> None:
        """Who fights, from every fighter's status; none read while every member of every
        side fights (none left its side's ``active``, where a status other than fighting
        is given: ``Battle._deactivate``), as when a play begins."""
        everyone, sides = self.everyone, self.sides
        self.active = sum(len(side.active) for side in sides)
        if self.active == sum(len(side.members) for side in sides):
            self.fighting[self.ids] = True
        else:
            self.fighting[self.ids] = np.fromiter(
                (a.status is FIGHTING for a in everyone), np.bool_, len(everyone)
            )
        self.downed = [len(side.downed) for side in sides]
        self.nearest = [None] * len(self.sides)  # filed afresh when next asked
        if refile and FALLEN_UNFILED:
            self._file(self.kernels)

    def _file(self, kernels: Any) -> None:
        """Everyone in the squares afresh (deeper squares while one overflows)."""
        self.filings += 1
        while True:
            filed = self.on_field & self.fighting if FALLEN_UNFILED else self.on_field
            self.grid = kernels.file_all(self.x, self.y, filed, self.cell, self.depth)
            if self.grid[2][3]:  # no square overflowed
                return
            self.depth *= 2

    def _fell(self) -> bool:
        """Those taken out since (each side's downed list), or, if anyone else left
        (withdrew, surrendered), everyone's status read again. Whether anyone left.
        Asked after every turn in Python: while each side's ``active`` holds as many as
        before nobody left, nor fell (one taken out leaves it first), and nothing more
        is read."""
        sides = self.sides
        active = sum(map(len, map(_ACTIVE, sides)))
        if active == self.active:
            return False
        downed = self.downed
        now = list(map(len, map(_DOWNED, sides)))
        left = now != downed
        if left:
            fallen = []
            for s, side in enumerate(sides):
                kept = self.nearest[s]
                for fell in side.downed[downed[s] :]:
                    self.fighting[fell.unique_id] = False
                    fallen.append(fell.unique_id)
                    self.active -= 1
                    if kept is not None:
                        kept[1].leave(fell)
            self.downed = now
            if FALLEN_UNFILED:
                self.kernels.unfile(
                    np.array(fallen, dtype=np.int64), self.x, self.y, *self.grid, self.cell
                )
        if self.active != active:
            self._count_fighting()
            return True
        return left
