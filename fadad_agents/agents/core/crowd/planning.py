"""A big turn's moves toward contact, planned in compiled code as Python plans them.

In a deep block every fighter out of reach plans a move toward its target each round
(:func:`~fadad_agents.agents.core.moving.plan_move` as it declares, then its way,
:func:`~fadad_agents.agents.core.moving.current_way`, when the band's turn is played in
arrays): a chain of calls a fighter, thousands a round, and a new plan whenever it or its
target stepped. For a fighter whose movement policy is
:class:`~fadad_agents.policies.core.movement.CloseIn` (its destination the point of
contact, :func:`~fadad_agents.agents.core.moving.contact_place`) both are worked out here
for a whole turn in one call over the field in arrays (:mod:`~.waiting`), with every
operation as Python does it: :func:`hypot` is CPython's ``math.hypot`` (its
``vector_norm``, with the exact products of a fused multiply-add), squares are the C
library's ``pow`` as Python's ``**`` (:func:`~.elbows._within`), so each plan and way is
the same to the last bit. Nothing here is drawn.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from fadad_agents.agents.core.crowd.elbows import _within, _within_pow
from fadad_agents.agents.core.field.caching import njit
from fadad_agents.agents.core.moving import _ARRIVE
from fadad_agents.agents.core.ranks import ENGAGE_MARGIN
from fadad_agents.rules.personal.movement import MAX_MOVE_ACTIONS, movement_allowance

__all__ = [
    "IN_REACH", "STANDS", "beyond_reach", "closing", "fill_plan", "hypot", "plan_moves", "put_rows",
    "recheck", "write_ways",
]  # fmt: skip

IN_REACH = -1
"""A plan's actions when the fighter's target is in reach as it declares: no move."""
STANDS = -2
"""A plan's actions when its reach touches the target within a hair (the policy gives no
destination): it stands, its attacks as wanted."""

ALLOWANCES = np.array([movement_allowance(k) for k in range(MAX_MOVE_ACTIONS + 1)], float)
"""The yards of 0, 1, 2 ... movement actions (``movement_allowance``), before stride."""

_DBL_MIN = 2.2250738585072014e-308
"""The least normal double (C's ``DBL_MIN``)."""


def _fused(typingctx: Any, x: Any, y: Any, z: Any) -> Any:
    """``x * y + z`` rounded once (C's ``fma``, LLVM's intrinsic): :data:`_fma`."""
    sig = types.float64(types.float64, types.float64, types.float64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        double = ir.DoubleType()
        fnty = ir.FunctionType(double, [double, double, double])
        return builder.call(builder.module.declare_intrinsic("llvm.fma", [double], fnty), args)

    return sig, codegen


def _fma_exactly(x: float, y: float, z: float) -> float:
    """:data:`_fma` in Python (``NUMBA_DISABLE_JIT``): the exact ``x * y + z`` in
    fractions, rounded once to the nearest double (``float`` of a fraction rounds
    correctly, ties to even, as ``fma`` does)."""
    return float(Fraction(x) * Fraction(y) + Fraction(z))


_fma: Any = _fma_exactly if numba.config.DISABLE_JIT else intrinsic(_fused)  # type: ignore[attr-defined]


@njit(cache=True)
def hypot(x: float, y: float) -> float:
    """``math.hypot(x, y)`` to the last bit: CPython 3.12's ``vector_norm`` of two
    coordinates (Modules/mathmodule.c): both scaled by the power of two of the larger,
    squared exactly (a product and its error by a fused multiply-add), summed from 1.0
    with their errors carried, the square root corrected once by its own error."""
    x, y = abs(x), abs(y)
    if math.isinf(x) or math.isinf(y):
        return math.inf
    if math.isnan(x) or math.isnan(y):
        return math.nan
    most = max(x, y)
    if most == 0.0:
        return most
    exponent = math.frexp(most)[1]  # (a call out of the compiled code: once)
    if exponent < -1023:  # subnormal: made normal, as vector_norm recurses
        return _DBL_MIN * hypot(x / _DBL_MIN, y / _DBL_MIN)
    scale = math.ldexp(1.0, -exponent)
    csum, frac1, frac2 = 1.0, 0.0, 0.0
    for v in (x, y):
        v *= scale  # lossless
        hi = v * v
        lo = _fma(v, v, -hi)  # the product's error, exactly
        total = csum + hi  # compensated sum (|csum| >= hi)
        frac2 += (csum - total) + hi
        csum = total
        frac1 += lo
    h: float = math.sqrt(csum - 1.0 + (frac1 + frac2))
    hi = -h * h
    lo = _fma(-h, h, -hi)
    total = csum + hi
    frac2 += (csum - total) + hi
    csum = total
    frac1 += lo
    v = csum - 1.0 + (frac1 + frac2)
    h += v / (2.0 * h)  # differential correction
    return h / scale


@njit(cache=True)
def _contact(ax: float, ay: float, tx: float, ty: float, ring: float) -> tuple[float, float]:
    """:func:`~fadad_agents.agents.core.moving.contact_place` of a fighter at ``(ax,
    ay)`` and its target at ``(tx, ty)``, ``ring`` yards between them in contact."""
    dx, dy = ax - tx, ay - ty
    gap = hypot(dx, dy)
    if gap < _ARRIVE:  # on top of it: from the +x side
        return tx + ring, ty
    return tx + dx / gap * ring, ty + dy / gap * ring


@njit(cache=True)
def beyond_reach(
    uids: Any,
    tids: Any,
    x: Any,
    y: Any,
    radius: Any,
    reach: Any,
    widest: float,
    over: float,
    two: float,
) -> Any:
    """Whether each fighter ``uids[i]`` stands beyond the reach of the widest of
    ``tids[i]`` (False where that is below 0), measured as ``choosing.new_target``
    measures: its squared yards by ``**`` over ``over`` times the square of its radius,
    reach and ``widest`` together, and ``moving._ARRIVE``."""
    out = np.zeros(len(uids), dtype=np.bool_)
    for i in range(len(uids)):
        k, t = uids[i], tids[i]
        if t >= 0:
            limit = radius[k] + reach[k] + widest  # ``**`` only within a hair (_within)
            out[i] = not _within(x[t] - x[k], y[t] - y[k], over * (limit * limit + _ARRIVE), two)
    return out


@njit(cache=True)
def plan_moves(
    rows: Any, x: Any, y: Any, radius: Any, reach: Any, stride: Any, most: Any, two: float
) -> Any:
    """Each declaring fighter's plan: per row of ``rows`` its index, its target's and its
    budget of actions; per answer the movement actions it spends (:data:`IN_REACH`,
    :data:`STANDS`, else 0, 1, 2) and whether its move ends in reach (1 or 0). As
    ``declaring._declare_placed`` and :func:`~fadad_agents.agents.core.moving._plan` of
    :class:`CloseIn` find them: ``x``, ``y``, ``radius``, ``reach``, ``stride`` and the
    most actions its policy spends (``most``) by index."""
    out = np.zeros((len(rows), 2), dtype=np.int64)
    for i in range(len(rows)):
        k, t, budget = rows[i, 0], rows[i, 1], rows[i, 2]
        ax, ay, tx, ty = x[k], y[k], x[t], y[t]
        full = radius[k] + reach[k] + radius[t]
        if _within_pow(ax - tx, ay - ty, full, 0.0, two):  # the declare's measure
            out[i, 0] = IN_REACH
            continue
        if _within(ax - tx, ay - ty, full * full + _ARRIVE, two):  # moving.touches
            out[i, 0] = STANDS
            continue
        gx, gy = _contact(ax, ay, tx, ty, full - ENGAGE_MARGIN)
        gap = hypot(ax - gx, ay - gy)
        spent, yards = 0, 0.0  # movement.move_plan
        if gap > 0:
            top = min(max(min(most[k], budget), 0), MAX_MOVE_ACTIONS)
            spent, yards = top, ALLOWANCES[top] * stride[k]
            for n in range(top + 1):
                if gap <= ALLOWANCES[n] * stride[k]:
                    spent, yards = n, gap
                    break
        out[i, 0] = spent
        out[i, 1] = int(yards >= gap - _ARRIVE and hypot(gx - tx, gy - ty) <= full + _ARRIVE)
    return out


@njit(cache=True)
def write_ways(
    rows: Any,
    x: Any,
    y: Any,
    radius: Any,
    reach: Any,
    stride: Any,
    version: Any,
    key: Any,
    way: Any,
    reaches: Any,
    measures: Any,
) -> Any:
    """Each fighter's way (:func:`~fadad_agents.agents.core.moving.current_way` of a
    :class:`CloseIn` fighter without conditions whose target stands on the field) in its
    rows of ``way`` and ``reaches`` (as ``waiting._Crowd._write`` writes them), per row of
    ``rows`` its index, its target's and its movement actions; only where its ``key`` (its
    version, its target, the target's version and the actions it was written for) is not
    these. Returns the indices written. ``measures`` as ``kernels.wait_in_ranks`` reads
    them (the field's width and height, the exponent 2)."""
    width, height, two = measures[1], measures[2], measures[4]
    written = np.empty(len(rows), dtype=np.int64)
    count = 0
    for i in range(len(rows)):
        k, t, actions = rows[i, 0], rows[i, 1], rows[i, 2]
        if (
            key[k, 0] == version[k]
            and key[k, 1] == t
            and key[k, 2] == version[t]
            and key[k, 3] == actions
        ):
            continue
        key[k, 0], key[k, 1], key[k, 2], key[k, 3] = version[k], t, version[t], actions
        written[count] = k
        count += 1
        ax, ay, tx, ty = x[k], y[k], x[t], y[t]
        full = radius[k] + reach[k] + radius[t]
        way[k, :] = 0.0
        way[k, 5] = reach[k]
        reaches[k, 0], reaches[k, 1] = 0, 0
        if _within(ax - tx, ay - ty, full * full + _ARRIVE, two):  # no destination
            continue
        gx, gy = _contact(ax, ay, tx, ty, full - ENGAGE_MARGIN)
        if width >= 0:  # Field.clamp
            gx = 0.0 if gx < 0.0 else width if gx > width else gx
        if height >= 0:
            gy = 0.0 if gy < 0.0 else height if gy > height else gy
        gap = hypot(ax - gx, ay - gy)
        allowance = ALLOWANCES[actions] * stride[k]
        yards = gap if gap <= allowance else allowance
        if yards <= _ARRIVE:  # it stays where it stands
            continue
        way[k, 0], way[k, 1], way[k, 2], way[k, 3], way[k, 4] = gx, gy, gap, yards, allowance
        reaches[k, 0] = 1
        if yards >= gap - _ARRIVE:  # ranks.ring's places round the target
            half = math.asin(radius[k] / (radius[t] + radius[k]))
            reaches[k, 1] = max(1, math.floor(math.pi / half + 1e-9))
    return written[:count]


@njit(cache=True)
def recheck(
    given: Any, steady: Any, fighting: Any, looks: bool, pythons: int, no_turn: int
) -> None:
    """A declared plan's rows checked again before the turn (``plans._declared``), in
    place: a row with a fighter (its index, at least 0) who no longer fights becomes
    ``no_turn``, one whose fighter is not ``steady`` or who plans attacks on a field
    where they are not looked for after waiting (``looks``) becomes ``pythons``, their
    other columns 0; every other row as it stands."""
    for i in range(len(given)):
        k = given[i, 0]
        if k < 0:
            continue
        if not fighting[k]:
            given[i, 0] = no_turn
        elif not steady[k] or (given[i, 3] > 0 and not looks):
            given[i, 0] = pythons
        else:
            continue
        given[i, 1], given[i, 2], given[i, 3] = 0, 0, 0


@njit(cache=True)
def closing(given: Any, most: Any) -> Any:
    """The rows of ``given`` whose fighter (its index, at least 0) closes in (``most``
    at least 0): their first three columns, a new array."""
    count = 0
    for i in range(len(given)):
        if given[i, 0] >= 0 and most[given[i, 0]] >= 0:
            count += 1
    rows = np.empty((count, 3), dtype=np.int64)
    count = 0
    for i in range(len(given)):
        if given[i, 0] >= 0 and most[given[i, 0]] >= 0:
            rows[count, 0], rows[count, 1], rows[count, 2] = given[i, 0], given[i, 1], given[i, 2]
            count += 1
    return rows


@njit(cache=True)
def fill_plan(given: Any, reaches: Any, version: Any) -> Any:
    """A turn's plan as ``kernels.wait_in_ranks`` reads it: ``given``'s four columns,
    then for a row with a fighter (its index, at least 0) its ``reaches``, its index and
    its own and its target's ``version``; 0 elsewhere."""
    plan = np.zeros((len(given), 9), dtype=np.int64)
    for i in range(len(given)):
        k, t = given[i, 0], given[i, 1]
        plan[i, 0], plan[i, 1], plan[i, 2], plan[i, 3] = k, t, given[i, 2], given[i, 3]
        if k >= 0:
            plan[i, 4], plan[i, 5], plan[i, 6] = reaches[k, 0], reaches[k, 1], k
            plan[i, 7], plan[i, 8] = version[k], version[t]
    return plan


@njit(cache=True)
def put_rows(plan: Any, rows: Any, moves: Any, attacks: Any) -> None:
    """Each row of ``rows`` (a fighter's index, its target's, its actions, the attacks
    it wants, its place in the turn) in row ``place`` of the turn's ``plan``: the two
    indices, its ``moves`` and ``attacks``."""
    for i in range(len(rows)):
        p = rows[i, 4]
        plan[p, 0], plan[p, 1], plan[p, 2], plan[p, 3] = (
            rows[i, 0],
            rows[i, 1],
            moves[i],
            attacks[i],
        )
