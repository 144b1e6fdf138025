"""A band's turn in arrays: the fighters waiting in its rear ranks played in compiled code.

In a deep block most of a band's members find, on their turn, every place their move may
end taken (:func:`~fadad_agents.agents.core.ranks.way_forward`): they wait, and their
turn changes nothing anyone else sees but their own spare actions. Such a turn is a
search and a few assignments, so a run of them is played in one compiled call
(:func:`~fadad_agents.agents.core.crowd.kernels.wait_in_ranks`, numba) over the field in
arrays; the run stops at the first member that does anything else (finds a free place,
strikes, or whose way cannot be known in arrays), whose turn is played in Python by its
own method - with the free place the arrays found, the same its own search would find -
and the arrays are brought up to date with what it changed (where it stands, who fell).
One who waits with attacks planned while its target fell goes on in the arrays when they
find no foe in its reach, and finds the nearest foe there too (its new target, set in
Python: :func:`~fadad_agents.policies.core.defaults.random_foe`'s choice then, no dice).

Nothing is drawn or logged in the compiled part: the same battle, byte for byte (a test
plays battles with :data:`RANKS_IN_ARRAYS` on and off). numba is imported when a turn this
big is first played, unless loaded (:mod:`~fadad_agents.agents.core.field.compiled`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np

from fadad_agents.agents.core import moving
from fadad_agents.agents.core.crowd import filing, runs
from fadad_agents.agents.core.crowd.filing import Filed
from fadad_agents.agents.core.field import ELBOW_ROOM, HALO_MOST, compiled
from fadad_agents.policies.core.movement import CloseIn

__all__ = [
    "IN_ARRAYS_AT_LEAST", "MOVERS_WITH_ATTACKS", "RANKS_IN_ARRAYS", "WAIT_DIRECT", "move_first",
    "play_band_turn",
]  # fmt: skip

RANKS_IN_ARRAYS = True
"""Play a big band's turn with its waiting fighters in compiled code (False: every
member by its own method; the tests compare both)."""

ASK_LAST_BLOCKER = True
"""A search in arrays whose way changed asks the one who blocked each place last time
first whether it blocks the place still (:mod:`~.searching`; False: each place measured
over the squares; the tests compare both)."""

MOVERS_WITH_ATTACKS = True
"""One with attacks whose move ends out of its target's reach, no foe in its reach there,
moves in arrays too (its act's blows find nobody; False: Python's; the tests compare both)."""

WAIT_DIRECT = True
"""Call the compiled loop, and the refiling of one who moved, by their code for the
arrays' types, without numba's dispatch (:data:`~.kernels.wait_now`,
:data:`~.kernels.refile_now`; False: by the dispatcher; the tests compare both)."""

IN_ARRAYS_AT_LEAST = 256
"""Fewer members in a turn than this, and each plays its own (arrays pay off in a crowd)."""

_UNWRITTEN = object()  # a fighter's way not yet written in the arrays

_FIGURES = attrgetter("unique_id", "side", "reach", "stride", "placed", "radius")
_POLICIES, _MISSILE = attrgetter("policies"), attrgetter("missile")
_ACTIVE = attrgetter("active")


def in_arrays(turn: Sequence[Any], arena: Any) -> bool:
    """Whether ``turn`` (a band's members) is played here: big enough, on a field where
    nobody is too wide for squares of a man's size."""
    field = arena.field
    return (
        RANKS_IN_ARRAYS
        and len(turn) >= IN_ARRAYS_AT_LEAST
        and field is not None
        and not field.all_touching
        and field.widest <= HALO_MOST
    )


def play_band_turn(
    turn: Sequence[Any], arena: Any, act: Callable[[Any], None], *, retargets: bool = True
) -> None:
    """Each member of ``turn`` still fighting acts in order (``act``), runs of those who
    wait in the ranks, or only move, played in arrays (the movers' turns then played in
    Python, the same moves). Without ``retargets``, one who waits whose target fell is
    left to ``act`` (a shared turn's moves: it takes its new target when it strikes)."""
    from fadad_agents.agents.core.crowd import kernels, plans  # numba: for crowds only

    crowd = _crowd(arena, kernels)
    plan, way = plans.plan_turn(crowd, turn, arena, kernels)
    arena.field.looked_ahead = arena.round  # searches made ahead serve Python's turns only
    n, i = len(turn), 0
    moved, places = np.empty(n, dtype=np.int64), np.empty((n, 2))  # the movers, in order
    lost = np.empty(n, dtype=np.int64)  # those whose target fell, in order
    outcome = (moved, places, lost)
    takes = crowd.takes_nearest if retargets else np.zeros_like(crowd.takes_nearest)
    foes = runs.Foes(crowd, turn, arena, n)
    state = (takes, *crowd.state(), *outcome)
    wait = kernels.wait_now if WAIT_DIRECT else kernels.wait_in_ranks
    while i < n:
        stop, why, px, py, count, fell = wait(i, plan, way, *state, *foes.arrays())
        end, play = stop, True  # the first member is Python's (a striker most often)
        if stop > i:  # a run the arrays played, left on its fighters
            run = (moved[:count].tolist(), places[:count].tolist(), lost[:fell].tolist())
            for mover in run[0]:  # moved in the arrays already
                crowd.moves_of[turn[mover].side] += 1
            end, play = crowd.played(turn, i, stop, run, act, arena, kernels, foes.found)
            if end != stop or not play:  # a turn other than the arrays had it: synced
                state = (takes, *crowd.state(), *outcome)
        if why == kernels.NEAR and end == stop:
            foes.file()
            play = False
        if end == n:
            return
        if not play:
            i = end
            continue
        member = turn[end]
        if member.fighting:
            if (  # as its own search finds it, unless a crit since slows it
                end == stop
                and why in (kernels.FOUND, kernels.BLOCKED)
                and member.conditions is None
            ):
                member.memory["found"] = (px, py) if why == kernels.FOUND else None
            act(member)
            member.memory.pop("found", 0)
            if crowd.after(member, kernels):
                state = (takes, *crowd.state(), *outcome)
        i = end + 1


def move_first(turn: Sequence[Any], arena: Any) -> None:
    """A shared turn's movers (:func:`~fadad_agents.agents.core.moving.movers_first`, in
    the order drawn by lot) each move before anyone in the turn strikes, then act without
    moving again (``stepped``). A crowd of them (:func:`in_arrays`, the two sides
    together) is played as a band's turn is, those who wait or only step in arrays, none
    taking a new target there (each takes it when it acts, as in Python): a tied round of
    two blocks of 10,000 cost 40-45 us an agent-round with every mover's search in
    Python, against 7-13 for a round of band turns."""
    movers = moving.movers_first(turn, arena)
    for m in movers:
        m.gait = None
    if in_arrays(movers, arena):
        play_band_turn(movers, arena, lambda m: moving.advance(m, arena), retargets=False)
    else:
        for m in movers:
            moving.advance(m, arena)
    for m in movers:
        m.stepped = True


def _crowd(arena: Any, kernels: Any) -> _Crowd:
    """The battle's field in arrays, brought up to date; kept on the field, which drops it
    when a play begins (``Field.clear``), so it lives and dies with its battle."""
    field = arena.field
    crowd: _Crowd | None = field.in_arrays
    if crowd is None:
        crowd = field.in_arrays = _Crowd(arena, kernels)
    else:
        crowd.catch_up(kernels)
    return crowd


def crowd_now(arena: Any, kernels: Any) -> _Crowd:
    """The field in arrays as it stands while the round's turns declare, brought up to
    date once a round (nobody moves while declaring)."""
    field = arena.field
    crowd: _Crowd | None = field.in_arrays
    if crowd is None:
        crowd = field.in_arrays = _Crowd(arena, kernels)
    elif crowd.declared != arena.round:
        crowd.catch_up(kernels)
        crowd.declared_plans.clear()  # of turns a round ended before they played
    crowd.declared = arena.round
    return crowd


class _Crowd(Filed):
    """The field in arrays for one play of a battle: where each fighter stands (by
    ``unique_id``), its radius and side, whether it fights, how often it moved
    (``version``: a way worked out before holds while neither end moved), and everyone
    filed in squares as wide as the widest two fighters' elbow room."""

    def __init__(self, arena: Any, kernels: Any) -> None:
        compiled.load()  # numba: its first compile on an install said so
        field = arena.field
        self.sides = arena.sides
        self.declared = -1  # the round whose declares last read the arrays (crowd_now)
        # each turn's plan as its declares left it, by the turn's id, till its play
        # (plans.plan_turn): every turn of a round declares before the first plays
        self.declared_plans: dict[int, tuple[Any, int, Any]] = {}
        # everyone, and where each stands and how wide, from the field's mirror in arrays
        # when it is kept (in the order it lists them: the order of placing, about that
        # of memory, so each pass over a crowd of objects below costs a few times less);
        # else in memory order (the field's squares list them scattered). Nothing here
        # depends on order.
        mirror = field.mirrored()
        if mirror is not None:
            everyone, spots = mirror.standing()
        else:
            everyone, spots = sorted(field.standing(), key=id), None
        self.everyone = everyone
        self.listed = [*everyone, None]  # as a side is filed (:meth:`filed`): None last
        self.at = [a.position for a in everyone]
        self.field = field
        self.followed = field.moves  # the field's moves the arrays follow (catch_up)
        self.followed_of = field.moved_of.copy()  # side by side (filed_now)
        self.replaying = False  # a run's moves made in arrays, not yet on the field
        n = len(everyone)
        # what the arrays hold of each fighter, read in one pass over a crowd of objects
        # scattered in memory (a pass a field costs more than the reading)
        figures = np.fromiter(
            chain.from_iterable(map(_FIGURES, everyone)), np.float64, 6 * n
        ).reshape(-1, 6)
        if spots is None:
            spots = np.empty((n, 3))
            spots[:, :2] = np.fromiter(chain.from_iterable(self.at), np.float64, 2 * n).reshape(
                -1, 2
            )
            spots[:, 2] = figures[:, 5]
        ids = self.ids = figures[:, 0].astype(np.int64)
        # each side's fighters (their indices in everyone), filed to be asked for the
        # nearest of them (:meth:`nearest_to_each`) while none of them moved
        sides = figures[:, 1].astype(np.int64)
        self.of_side = [np.flatnonzero(sides == s) for s in range(len(self.sides))]
        self.nearest: list[tuple[int, Any] | None] = [None] * len(self.sides)
        # of_side's who fight (when last filed: who did, and their indices in everyone,
        # and in listed with None's last: Nearest's picks)
        self.members_of: list[tuple[Any, Any, Any] | None] = [None] * len(self.sides)
        self.moves_of = [0] * len(self.sides)  # moves in the arrays, side by side
        size = int(ids.max()) + 1 if n else 1
        # each fighter's index in everyone by unique_id, -1 off the field (a list: read
        # one at a time, where an array's item costs more)
        slots = np.full(size, -1, dtype=np.int64)
        slots[ids] = np.arange(n)
        self.slot = slots.tolist()
        self.x, self.y, self.radius = np.zeros(size), np.zeros(size), np.zeros(size)
        self.x[ids], self.y[ids], self.radius[ids] = spots[:, 0], spots[:, 1], spots[:, 2]
        self.side = np.zeros(size, dtype=np.int64)
        self.side[ids] = sides
        # what a plan in compiled code reads: each fighter's reach and stride, and the
        # most actions its movement spends if it closes in (CloseIn), else -1
        self.reach, self.stride = np.zeros(size), np.zeros(size)
        self.reach[ids], self.stride[ids] = figures[:, 2], figures[:, 3]
        self.most = np.full(size, -1, dtype=np.int64)
        self.takes_nearest = np.zeros(size, dtype=np.bool_)
        self._moving(everyone, figures[:, 4] != 0)
        self.fighting = np.zeros(size, dtype=np.bool_)
        self.on_field = np.zeros(size, dtype=np.bool_)
        self.on_field[ids] = True
        self.version = np.zeros(size, dtype=np.int64)
        # each fighter's last search: its key, then each place's blocker and its version
        self.memo_key = np.full((size, 5), -1, dtype=np.int64)
        # (unfilled: a row is cleared when its key is first written, and no key is yet)
        self.memo = np.empty((size, 2 * kernels.MEMO), dtype=np.int32)
        # each fighter's way (plans.plan_turn): the goal's x, y, the yards to it, the yards
        # it moves, its allowance and its reach; whether it has one and how many places
        # round its target it tries; the way object they were written from
        self.way = np.zeros((size, 6))
        self.reaches = np.zeros((size, 2), dtype=np.int64)
        self.written: list[Any] = [_UNWRITTEN] * size
        # a way written in compiled code (:mod:`.planning`): what it was worked out for
        # (the fighter's version, its target, the target's version, its actions)
        self.way_key = np.full((size, 4), -1, dtype=np.int64)
        self.closes: list[bool] = (self.most >= 0).tolist()
        self.kernels = kernels
        self.filings = 0  # how often everyone was filed afresh (the grid's arrays new)
        self._count_fighting(refile=False)
        # attacks after waiting look for foes in reach: none off the field (crews, units)
        self.looks_in_reach = not field.off_field
        self.cell = 2 * field.widest * ELBOW_ROOM * (1 + 1e-9) + 1e-9
        self.depth = filing.DEPTH
        # as kernels.wait_in_ranks reads them; 2.0 the exponent of Python's squares, given
        # at run time (a constant 2 would be compiled into a product); whether a search
        # asks a place's last blocker first (ASK_LAST_BLOCKER); MOVERS_WITH_ATTACKS
        self.measures = np.array(
            [
                self.cell,
                -1.0 if field.width is None else float(field.width),
                -1.0 if field.height is None else float(field.height),
                field.widest,
                2.0,
                float(ASK_LAST_BLOCKER),
                float(MOVERS_WITH_ATTACKS),
            ]
        )
        self._file(kernels)

    def _moving(self, everyone: Sequence[Any], placed: Any) -> None:
        """Who may wait in arrays whatever the round (:attr:`steady`: on the field, its
        way foreseeable - :func:`moving.current_way` follows from where it and its
        target stand - no missile), who closes in (:attr:`most`), and whose new target is
        ``random_foe``'s (:attr:`takes_nearest`: the nearest foe when none is in reach),
        and the attacks each wants (:attr:`wanted`: ``attack_count``; a fighter's
        policies are set once, frozen), each policy set asked once (a band shares one)."""
        n = len(everyone)
        policies = list(map(_POLICIES, everyone))
        kinds, which = np.unique(np.fromiter(map(id, policies), np.int64, n), return_inverse=True)
        foreseeable, closes = np.zeros(len(kinds), dtype=np.bool_), np.full(len(kinds), -1)
        nearest = np.zeros(len(kinds), dtype=np.bool_)
        wanted = np.zeros(len(kinds), dtype=np.int64)
        for k, first in enumerate(np.unique(which, return_index=True)[1].tolist()):
            movement = policies[first].movement
            foreseeable[k] = getattr(movement, "foreseeable", False)
            nearest[k] = policies[first].random_in_reach
            wanted[k] = getattr(policies[first], "attack_count", 0)
            if type(movement) is CloseIn:
                closes[k] = movement.actions
        unarmed = np.fromiter(map(id, map(_MISSILE, everyone)), np.int64, n) == id(None)
        steady = placed & unarmed & foreseeable[which]
        self.steady_at = np.zeros(len(self.most), dtype=np.bool_)
        self.steady_at[self.ids] = steady
        self.steady: list[bool] = self.steady_at.tolist()  # by unique_id, as slot
        self.most[self.ids] = closes[which]
        self.wanted = np.zeros(len(self.most), dtype=np.int64)
        self.wanted[self.ids] = wanted[which]
        self.takes_nearest[self.ids] = nearest[which]

    def catch_up(self, kernels: Any) -> None:
        """Bring the arrays up to date with every move and fall since they were last:
        everyone looked at only when the field counts more moves than the arrays followed
        (a pass over a crowd of objects scattered in memory costs a few ms)."""
        field = self.field
        if field.moves != self.followed:
            at = self.at
            for k, agent in enumerate(self.everyone):
                if agent.position is not at[k]:
                    self._moved(k, agent, kernels)
            self.followed = field.moves
        self.followed_of[:] = field.moved_of
        self._fell()

    def nearest_to_each(self, side: int, points: list[tuple[float, float]]) -> list[Any]:
        """The fighter of ``side`` nearest each of ``points``, as
        :meth:`~fadad_agents.agents.core.field.Field.nearest_to_each` finds it (everyone of
        the side on the field passes), from the arrays: those of the side who fight
        filed there in squares (:class:`~.nearest.Nearest`), again only once one of the
        side moved in the arrays (:attr:`moves_of`), those who fall since passed over
        (:meth:`_fell`); no fighter read."""
        filed = self.filed(side)
        return [None] * len(points) if filed is None else filed.to_each(points)

    def filed(self, side: int) -> Any:
        """Those of ``side`` who fight, filed to be asked for the nearest of them
        (:class:`~.nearest.Nearest`, as :meth:`nearest_to_each` asks), or None if none
        does."""
        from fadad_agents.agents.core.crowd.nearest import Nearest  # numba: crowds only

        kept = self.nearest[side]
        if kept is None or kept[0] != self.moves_of[side]:
            slots = self.of_side[side]
            fighting = self.fighting[self.ids[slots]]
            if not fighting.any():
                return None
            known = self.members_of[side]
            if known is not None and np.array_equal(known[0], fighting):
                slots, picks = known[1], known[2]
            else:  # only those who fight: the fallen, left where they fell, are never
                # looked at (a side's dead filed too made a search from behind the ranks
                # cross a front of them, square by square: 9 us a search mid-battle)
                slots = slots[fighting] if not fighting.all() else slots
                picks = np.append(slots, len(self.everyone))  # listed's None last
                self.members_of[side] = (fighting, slots, picks)
            ids = self.ids[slots]
            spots = np.column_stack((self.x[ids], self.y[ids]))
            filed = Nearest.of(spots, ids, self.listed, picks)
            kept = self.nearest[side] = (self.moves_of[side], filed)
        return kept[1]

    def filed_now(self, side: int) -> Any:
        """Those of ``side`` who fight, filed as :meth:`filed` files them, when the arrays
        hold the side as the field does now (:meth:`~fadad_agents.agents.core.field.
        Field.nearest` asks): every move of the side the field counts followed here, no
        move made here ahead of the field's (a run being played), and nobody of any side
        gone since the arrays last looked; else None."""
        if (
            self.replaying
            or self.followed_of[side] != self.field.moved_of[side]
            or sum(map(len, map(_ACTIVE, self.sides))) != self.active
        ):
            return None
        kept = self.nearest[side]
        if kept is not None and kept[0] == self.moves_of[side]:
            return kept[1]
        return self.filed(side)

    def state(self) -> tuple[Any, ...]:
        """The field's arrays as :func:`kernels.wait_in_ranks` reads them."""
        return (
            self.x, self.y, self.radius, self.side, self.fighting, self.version, *self.grid,
            self.measures, self.memo_key, self.memo,
        )  # fmt: skip

    def played(
        self,
        turn: Sequence[Any],
        start: int,
        stop: int,
        run: tuple[list[int], list[list[float]], list[int]],
        act: Callable[[Any], None],
        arena: Any,
        kernels: Any,
        found: tuple[Any, Any] | None = None,
    ) -> tuple[int, bool]:
        """:func:`~.runs.played` of the run ``start`` to ``stop`` of ``turn`` (``run`` and
        ``found`` as there). Returns where it ends, and whether that member is to play."""
        self.replaying = True  # till each mover's move is made on the field, or undone
        try:
            return runs.played(self, turn, start, stop, run, act, arena, kernels, found)
        finally:
            self.replaying = False

    def after(self, member: Any, kernels: Any) -> bool:
        """Bring the arrays up to date after ``member`` played its turn in Python: where
        it stands now, and who fell. Whether everyone was filed afresh."""
        uid, slot = member.unique_id, self.slot
        k = slot[uid] if uid < len(slot) else -1
        filings = self.filings
        if k >= 0 and member.position is not self.at[k]:
            self._moved(k, member, kernels)
        self._fell()
        return self.filings != filings

    def _moved(self, k: int, agent: Any, kernels: Any) -> None:
        """``agent`` (``everyone[k]``) moved: its place, version and square."""
        was = self.at[k]
        self.at[k] = agent.position
        self.followed += 1
        self.followed_of[agent.side] += 1
        self._shift(agent.unique_id, was, agent.position, kernels)

    def _shift(self, uid: int, was: Any, now: Any, kernels: Any) -> None:
        """Fighter ``uid`` from ``was`` to ``now`` in the arrays: its place, version and
        square (everyone filed afresh, :attr:`filings`, if it left the squares' box or
        its new square was full)."""
        (ox, oy), (nx, ny) = was, now
        self.x[uid], self.y[uid] = nx, ny
        self.moves_of[self.side[uid]] += 1
        self.version[uid] += 1
        if filing.FALLEN_UNFILED and not self.fighting[uid]:  # not filed
            return
        refile = kernels.refile_now if WAIT_DIRECT else kernels.refile
        if not refile(uid, ox, oy, nx, ny, self.grid, self.cell):
            self._file(kernels)
