"""What the compiled plain melee keeps of a battle on open ground (:mod:`~.ground`,
:mod:`~.placed`): which such battles it plays, each fighter's place and the field in
arrays as a play begins, the tables a move reads, and the moves and places the kernel
leaves written back to the log and the fighters.

A battle on a field where not all touch is played here when it is open ground (no edges),
of two sides, every fighter standing on it a plain character whose new target is a random
foe in reach (``random_foe``) or its nearest foe (``NearestTargeting``; a duel's opponent,
``DuelTargeting``'s first nearest) and whose movement policy closes in
(:class:`~fadad_agents.policies.core.movement.CloseIn`); the field's mirror in arrays
(:class:`~fadad_agents.agents.core.crowd.occupied.Occupied`) is made afresh for each play,
a slot a fighter by its index, stamped in the order the field's buckets list them.
"""

from __future__ import annotations

from copy import copy
from typing import Any

import numpy as np

from fadad_agents.agents.core.field.room import FEW_TO_LOOK_OVER
from fadad_agents.agents.core.ranks import _ring_turns
from fadad_agents.engine.personal.tables import NEEDS_THE_FIELD
from fadad_agents.policies.core.movement import CloseIn
from fadad_agents.rules.personal.movement import MAX_MOVE_ACTIONS, movement_allowance

__all__ = ["NOWHERE", "NO_RINGS", "Ground", "on_open_ground"]

NOWHERE = (
    np.zeros((1, 6)), np.zeros(1), *[np.zeros(1, dtype=np.int64)],
    *[np.zeros((1, 4), dtype=np.int64)] * 2, np.zeros(1, dtype=np.int64),
)  # fmt: skip
"""A battle in one melee's places, mirror, bounds and counters (:meth:`Ground.now`'s, of the
kernel's types, never read)."""
NO_RINGS = np.zeros((1, 1, 1))
"""Its rings (:attr:`Ground.rings`'), never read."""

_TWO = 2.0  # the exponent of Python's squares, read at run time (never a product)


def on_open_ground(battle: Any, members: list[Any]) -> bool:
    """Whether the compiled melee can play ``battle``'s ``members`` moving on its field:
    open ground of two sides, each of them standing on it, no one off it, each closing in
    on a random foe in reach, its nearest foe or a duel's opponent (the rest as
    :func:`~.melee._plain` asks)."""
    field = battle.field
    if (
        field is None
        or field.all_touching
        or field.width is not None
        or field.height is not None
        or field.sides != 2
        or len(battle.sides) != 2
        or field.off_field
    ):
        return False
    for m in members:
        pol = m.policies
        if not (
            m.placed
            and (pol.random_in_reach or type(pol.targeting) in NEEDS_THE_FIELD)
            and type(pol.movement) is CloseIn
            and m.conditions is None
            and 0 <= pol.movement.actions <= MAX_MOVE_ACTIONS
        ):
            return False
    return len(field.standing()) == len(members)  # the mirror made as each play begins


class Ground:
    """A battle's open ground as the kernel reads it: the tables fixed for the battle
    (``geo``, ``rings``) and, for each play, its fighters' places and the field's mirror
    (:meth:`now`)."""

    def __init__(self, battle: Any, members: list[Any], sizes: list[float]) -> None:
        field = battle.field
        bonus = battle.options.move.target_bonus
        self.geo = np.array(
            [field.cell, field.widest, *map(float, map(movement_allowance, range(3))),
             float(bonus[0]), float(bonus[1]), _TWO],
            dtype=np.float64,
        )  # fmt: skip
        turns = {(d, a): _ring_turns(d, a) for d in sizes for a in sizes}
        most = max(map(len, turns.values()), default=0)
        self.rings = np.zeros((len(sizes), len(sizes), most + 1), dtype=np.float64)
        for (d, a), found in turns.items():
            row = self.rings[sizes.index(d), sizes.index(a)]
            row[0] = len(found)
            row[1 : 1 + len(found)] = found
        self.members = members
        self.most = [m.policies.movement.actions for m in members]
        self.begun: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        """:meth:`now`'s answers, by the field's filing as a play begins (one answer of a
        template serves every battle built the same: read, never changed)."""

    def of(self, members: list[Any]) -> Ground:
        """This ground (its tables) for another battle built the same, of ``members``."""
        ground = copy(self)
        ground.members = members
        return ground

    @staticmethod
    def most_on_one(room: np.ndarray, n: int) -> int:
        """The most attackers who may strike one defender in a round: as many as fit round
        it (``room``), or everyone where a defender may be never crowded (a battle of at
        most ``room.FEW_TO_LOOK_OVER`` fighters)."""
        return n if n <= FEW_TO_LOOK_OVER else int(room.max())

    @staticmethod
    def shield_rows(n: int, ranks: int) -> np.ndarray:
        """Each defender's round and list of attackers on its shield side
        (:func:`~.placed.shield_rank`), none yet: room for ``ranks`` of them."""
        rows = np.zeros((n, 2 + ranks), dtype=np.int64)
        rows[:, 0] = -1
        return rows

    @staticmethod
    def mirror_of(battle: Any, members: list[Any], standing: list[Any]) -> Any:
        """The field's mirror in arrays with ``members`` in slots by index, stamped as the
        field's buckets list them (``standing``), or None if none can be made (spread too
        wide, a giant)."""
        from fadad_agents.agents.core.crowd.occupied import Occupied  # numba: loaded

        field = battle.field
        if len(standing) != len(members):
            return None
        mirror = Occupied.made(members, field.widest)
        if mirror is None:
            return None
        order = {id(agent): k for k, agent in enumerate(standing)}
        mirror.filing[: len(members), 1] = [order[id(m)] for m in members]
        return mirror

    def now(self, battle: Any) -> tuple[Any, ...] | None:
        """Each fighter's place as the play begins (``x, y``, bearing, radius, reach,
        stride), the field's mirror (its two arrays and filing), each side's least and
        greatest bucket keys, and the counters (events taken off, next stamp); None if
        no mirror can be made. Made once for battles built the same (a template's: each
        fighter's place, bearing and kit are its key's), filed alike (the filing is this
        answer's key: the buckets' order by the fighters' set-up index, their bounds)."""
        field = battle.field
        standing = field.standing()  # bucket by bucket, each in the order filed
        filed = [field.filed(side)[1] for side in range(2)]
        key = (*(a.index for a in standing), *filed[0], *filed[1])
        found = self.begun.get(key)
        if found is not None:
            return found
        members = self.members
        mirror = self.mirror_of(battle, members, standing)
        if mirror is None:
            return None
        pos = np.array(
            [(*m.position, m.bearing, m.radius, m.reach, float(m.stride)) for m in members],
            dtype=np.float64,
        )
        bounds = np.array(filed, dtype=np.int64)
        found = pos, mirror.floats, mirror.ints, mirror.filing, bounds, _counters(mirror, members)
        self.begun[key] = found
        return found

    def leave(self, battle: Any, pos: np.ndarray) -> None:
        """Each fighter moved on the field to its place as the kernel left it, where it
        still stands there (one taken off keeps where it fell); its bearing, gait and move
        are written with the rest of it (:func:`~.entries.write_fighters`)."""
        field = battle.field
        for m, (x, y) in zip(self.members, pos[:, :2].tolist(), strict=True):
            if (x, y) != m.position:
                if m.fighting:
                    field.move(m, x, y)
                else:
                    m.position = (x, y)


def _counters(mirror: Any, members: list[Any]) -> np.ndarray:
    """The kernel's counters as a play begins (:mod:`~.ground`): no event taken off yet,
    the next bucket stamp, the blocks of the mirror's squares across and down, no nearest
    of either side found yet, and how many of each side stand in each block
    (:data:`~.ground.BLOCK`)."""
    from fadad_agents.engine.personal.ground import _BLOCKS, _LAST, BLOCK

    n = len(members)
    columns, rows = int(mirror.grid[3]), int(mirror.grid[4])
    across, down = -(-columns // BLOCK), -(-rows // BLOCK)
    counters = np.zeros(_BLOCKS + 2 * across * down, dtype=np.int64)
    counters[:_LAST] = 1, n, across, down
    counters[_LAST:_BLOCKS] = -1  # no nearest found yet
    squares = mirror.links[:n, 2]
    side = mirror.filing[:n, 0]
    block = (side * across + squares // rows // BLOCK) * down + squares % rows // BLOCK
    np.add.at(counters, _BLOCKS + block, 1)
    return counters
