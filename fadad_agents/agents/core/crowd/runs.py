"""A run of a band's turn that the compiled loop played, left on the fighters.

:func:`~.kernels.wait_in_ranks` plays, in arrays, the turns of a band's members from
one that Python must play to the next: most wait where they stand, a few move there
(their turns are the move alone), and some who wait lost their target. Here each of
them is left as its own turn would leave it, in turn order (:func:`played`): the
waiters' spare movement actions go to defences, a few a time in one loop; each mover's
turn is played in Python with the place the arrays found; the one whose target fell takes
the nearest foe. The field in arrays (``waiting._Crowd``) then follows what Python did.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from fadad_agents.agents.core import moving
from fadad_agents.agents.core.character import Character
from fadad_agents.rules.personal.movement import GAITS, MAX_MOVE_ACTIONS

__all__ = ["MOVES_INLINED", "Foes", "played"]

MOVES_INLINED = True
"""A mover's turn after the arrays moved it played here (:func:`_move`: the steps of
:meth:`Character.act` and :func:`moving.advance` such a turn takes, inlined), not by its
act (False: every mover by ``act``; the tests compare both)."""

_ACT = Character.act
_ARRIVE = moving._ARRIVE
_ALLOWANCES = moving._ALLOWANCES


def played(
    crowd: Any,
    turn: Sequence[Any],
    start: int,
    stop: int,
    run: tuple[list[int], list[list[float]], list[int]],
    act: Callable[[Any], None],
    arena: Any,
    kernels: Any,
    found: tuple[Any, Any] | None = None,
) -> tuple[int, bool]:
    """Leave the members ``start`` to ``stop`` who waited as their own turns would
    (:func:`moving.advance` finding no place: spare movement actions to defences; one
    whose target fell, :func:`~.kernels.wait_in_ranks`' ``lost``, then takes the nearest
    foe, as ``random_foe`` does with none in reach), and play the turns of those who moved
    in the arrays (``run``: who, to which places, and who lost their target), each by
    ``act`` with the place found. The first whose state the arrays did not know (a crit
    since the turn began) ends the run there, to be played (True); a mover whose turn
    went otherwise (it did not stand where the arrays moved it, or someone fell) ends it
    after it, played. The ``crowd`` then follows Python, the moves after undone. Returns
    where the run ends, and whether that member is yet to play. ``found``: the foes as the
    compiled loop found the nearest of each who lost its target, and the rows it found
    (:class:`Foes`' ``found``; None: found here, :func:`_nearest_foes`)."""
    movers, spots, lost = run
    nearest = _nearest_foes(crowd, turn, lost, arena, found) if lost else None
    m, i = 0, start
    for mark in (*(sorted(movers + lost) if lost else movers), stop):  # in turn order
        held = _waited(turn, i, mark)
        moves = m < len(movers) and movers[m] == mark
        if held < 0 and mark < stop and not moves:  # a waiter whose target fell
            held = _waited(turn, mark, mark + 1)
            member = turn[mark]
            if held < 0 and member.fighting:
                # random_foe's choice with no foe in reach: every foe stands on the field
                # (else the arrays leave a fighter with attacks to Python), so the
                # nearest, None only when no foe is left
                member.target = nearest[mark]  # type: ignore[index]
        if held < 0 and moves:
            member = turn[mark]
            if not member.fighting or member.conditions is not None:  # as a waiter's
                held = mark
        if held >= 0:  # a crit since the turn began: its turn is Python's
            _undo(crowd, turn, movers[m:], spots[m:], kernels)
            return held, True
        if mark == stop:
            break
        i = mark + 1
        if moves:
            m += 1
            if not _moved(crowd, turn[mark], tuple(spots[m - 1]), act, arena, kernels):
                _undo(crowd, turn, movers[m:], spots[m:], kernels)
                return mark + 1, False
    return stop, True


def _moved(
    crowd: Any,
    member: Any,
    place: tuple[float, ...],
    act: Callable[[Any], None],
    arena: Any,
    kernels: Any,
) -> bool:
    """Play the turn of ``member``, whom the arrays moved to ``place``, by ``act`` with
    that place found (or here, :func:`_move`), and bring the ``crowd`` up to date.
    Whether it went as in the arrays: it stands there, and nobody fell."""
    inlined = MOVES_INLINED and _move(crowd, member, place, arena)
    if not inlined:
        member.memory["found"] = place
        act(member)
        member.memory.pop("found", 0)
    k = crowd.slot[member.unique_id]
    now = member.position
    if now is not crowd.at[k]:  # one move of the field's, followed
        crowd.followed += 1
        crowd.followed_of[member.side] += 1
    # (nobody falls in a turn played here: a move alone, nobody asked who fell)
    if now == place and (inlined or not crowd._fell()):
        crowd.at[k] = now
        return True
    crowd._shift(member.unique_id, place, now, kernels)
    crowd.at[k] = now
    crowd._fell()
    return False


def _move(crowd: Any, member: Any, place: tuple[float, ...], arena: Any) -> bool:
    """The turn of ``member``, whom the arrays moved to ``place``, as its act plays it
    (:meth:`Character.act` of a fighter out of its target's reach, or ``move_first``'s
    :func:`moving.advance`, its gait cleared already): its gait cleared, then
    :func:`moving.advance` with the place found - its way's goal the one the arrays
    searched along (row ``unique_id`` of the crowd's ``way``, as :func:`moving.
    current_way` finds it), the actions spent, the move, its bearing and gait, the log's
    entry, the spare actions to defences - and no blow: the arrays move only one who
    stands out of its target's reach there, and one who plans attacks only where no foe
    stands in its reach there, its target fighting (:data:`~.waiting.MOVERS_WITH_ATTACKS`:
    its act's blows then find nobody, ``another_in_reach``). False, nothing done, where
    the turn may go otherwise: a character of another kind, with conditions or a missile
    weapon, one that stepped, takes the free step in reach, or whose
    round's searches were not yet made ahead, or whose way the arrays did not work out
    themselves (its movement policy other than :class:`CloseIn`)."""
    target = member.target
    planned = member.move_actions
    if (
        type(member).act is not _ACT
        or not crowd.closes[member.unique_id]
        or not member.placed
        or member.conditions is not None
        or member.missile is not None
        or member.stepped
        or target is None
        or not target.placed
        or arena.field.looked_ahead != arena.round
    ):
        return False
    here: Any = member.position
    (hx, hy), (x, y), (tx, ty) = here, place, target.position
    reach = member.radius + member.reach + target.radius
    limit = reach * reach + _ARRIVE
    if (hx - tx) ** 2 + (hy - ty) ** 2 <= limit or (x - tx) ** 2 + (y - ty) ** 2 <= limit:
        return False  # in reach now (its act steps no free step), or once there (a blow)
    member.gait = None
    yards = math.hypot(hx - x, hy - y)
    if yards <= _ARRIVE:
        moving._spare(member, planned)
        return True
    way, uid = crowd.way, member.unique_id
    gx, gy = way.item(uid, 0), way.item(uid, 1)  # (no row view made: a Python float each)
    pace = float(member.stride)
    spent, most = 0, planned if planned < MAX_MOVE_ACTIONS else MAX_MOVE_ACTIONS
    while spent < most and yards > _ALLOWANCES[spent] * pace:
        spent += 1
    arena.field.move(member, x, y)
    member.bearing = math.atan2(gy - hy, gx - hx)
    gait = GAITS[spent]
    member.gait = gait
    arena.defer(moving.move_event, (member.name, target.name, spent, gait, yards, here, x, y))
    spare = planned - spent
    if spare > 0:  # moving._spare, its target out of reach (above)
        member.move_actions -= spare
        member.defences_left += spare
    return True


def _waited(turn: Sequence[Any], i: int, j: int) -> int:
    """The members ``i`` to ``j`` of ``turn``, who waited in the arrays, each left as
    :func:`moving.advance` finding no place leaves it (its spare movement actions to
    defences); those not fighting passed over. Stops at the first with conditions (a crit
    since the turn began: the arrays did not know its turn) and returns its place in
    ``turn``, else -1."""
    for member in turn[i:j]:
        if not member.fighting:
            continue
        if member.conditions is not None:
            return turn.index(member, i, j)
        member.gait = None
        planned = member.move_actions
        if planned:
            member.move_actions = 0
            member.defences_left += planned
    return -1


def _nearest_foes(
    crowd: Any, turn: Sequence[Any], lost: list[int], arena: Any, found: tuple[Any, Any] | None
) -> dict[int, Any]:
    """:meth:`~fadad_agents.engine.core.space.OnTheField.nearest_foe` of each member
    of ``turn`` at ``lost``: while a run is played no foe moves, and one who falls ends it
    (:func:`played`). With two sides, as the compiled loop found it (``found``: the foes
    filed, :class:`~.nearest.Nearest`, and each one's row there, in ``lost``'s order;
    None: nobody fights); else found together from the ``crowd`` (its
    ``nearest_to_each``)."""
    if found is None or arena.field.sides != 2:
        places = [turn[i].position for i in lost]  # a band's members: of one side
        nearest = arena.nearest_foes(turn[lost[0]].side, places, crowd.nearest_to_each)
        return dict(zip(lost, nearest, strict=True))
    filed, rows = found
    if filed is None or not arena.foes(turn[lost[0]].side):
        return dict.fromkeys(lost)
    return dict(zip(lost, filed.at(rows[: len(lost)]), strict=True))


def _undo(
    crowd: Any, turn: Sequence[Any], movers: list[int], spots: list[list[float]], kernels: Any
) -> None:
    """Take back the moves the arrays made for ``movers`` (members of ``turn``, moved
    to ``spots``) whose turns were not played: each stands where Python has it."""
    for i, spot in zip(reversed(movers), reversed(spots), strict=True):
        member = turn[i]
        crowd._shift(member.unique_id, tuple(spot), member.position, kernels)


class Foes:
    """The foes of a band's turn filed for the compiled loop (``near``: a side's
    :attr:`~.nearest.Nearest.arrays`), where it finds the nearest foe of one who lost its
    target, filed when it first asks (:data:`~.kernels.NEAR`) and again when the crowd
    files them afresh; and the rows it found (``lost_rows``), which :func:`played` reads.
    No foe moves during a band's turn, and a fall marks the filing (``Nearest.leave``):
    the loop's answers are those the crowd's filing gives when the run is played."""

    def __init__(self, crowd: Any, turn: Sequence[Any], arena: Any, n: int) -> None:
        from fadad_agents.agents.core.crowd import nearest  # numba: crowds only

        self.crowd, self.arena = crowd, arena
        self.side = 1 - turn[0].side if arena.field.sides == 2 and n else -1
        self.unfiled, self.none = nearest.UNFILED, nearest.NOBODY  # (made once)
        self.near: tuple[Any, ...] = self.unfiled
        self.filed: Any = None  # the Nearest searched (None: nobody)
        self.rows = np.empty(n, dtype=np.int64)

    def arrays(self) -> tuple[Any, ...]:
        """``near`` and ``lost_rows`` for the loop: the filing asked for again where the
        crowd has filed the foes afresh since (someone left: ``_Crowd._count_fighting``)."""
        filed = self.filed
        if filed is not None:
            kept = self.crowd.nearest[self.side]
            if kept is None or kept[1] is not filed or kept[0] != self.crowd.moves_of[self.side]:
                self.near, self.filed = self.unfiled, None
        return self.near, self.rows

    def file(self) -> None:
        """File the foes for the loop (the crowd's filing of their side,
        ``_Crowd.filed``): nobody where none fights, or with more sides than two (each
        nearest then found in Python, :func:`_nearest_foes`)."""
        side = self.side
        if side < 0:  # more sides than two: the nearest found in Python (runs)
            self.near = self.none
            return
        filed = self.crowd.filed(side) if self.arena.foes(1 - side) else None
        self.filed = filed
        self.near = self.none if filed is None else filed.arrays

    @property
    def found(self) -> tuple[Any, Any] | None:
        """What ``runs.played`` reads of the nearest foes the loop found: the filing, and
        each one's row in it (None: found in Python, as with more sides than two)."""
        return None if self.side < 0 else (self.filed, self.rows)
