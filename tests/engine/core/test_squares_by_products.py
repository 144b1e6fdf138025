"""Sums of squares taken by ``*``, measured again by ``**`` only within a hair of the limit,
decide as ``**`` (``pow``) always decided: the same battle.

The field and the ranks measured distances by ``**``; they now square by ``*`` and call
``pow`` only where the two might part (``field.SQUARES_HAIR``). ``x ** 2`` and ``x * x``
differ in the last bit now and then, so each test below is played on points a unit in
the last place either side of the limit, where a product alone decides otherwise for
some of them (checked: each test could fail), against the decision by ``**``.
"""

from __future__ import annotations

import math
import random
from typing import Any

from fadad_agents.agents.core import ranks
from fadad_agents.agents.core.base import Status
from fadad_agents.agents.core.field import ELBOW_ROOM, Field


def _ulps(v: float, n: int) -> float:
    for _ in range(abs(n)):
        v = math.nextafter(v, math.inf if n > 0 else -math.inf)
    return v


def _at_the_edge(limit: float, seed: int, many: int = 4000) -> list[tuple[float, float]]:
    """Offsets ``(a, b)`` within a unit in the last place of ``a ** 2 + b ** 2 == limit``
    where ``**`` and ``*`` decide ``<= limit`` (or ``< limit``) differently."""
    rng = random.Random(seed)
    found = []
    r = math.sqrt(limit)
    for _ in range(many):
        t = rng.uniform(0, 2 * math.pi)
        for da in (-1, 0, 1):
            for db in (-1, 0, 1):
                a, b = _ulps(r * math.cos(t), da), _ulps(r * math.sin(t), db)
                by_pow, by_products = a**2 + b**2, a * a + b * b
                if (by_pow <= limit) != (by_products <= limit) or (by_pow < limit) != (
                    by_products < limit
                ):
                    found.append((a, b))
    assert found  # the products alone would decide some of these otherwise
    return found


class _Fighter:
    def __init__(self, uid: int, side: int, x: float, y: float, radius: float = 0.5) -> None:
        self.unique_id, self.side, self.position, self.radius = uid, side, (x, y), radius
        self.status = Status.FIGHTING


def test_foes_within_a_distance_are_those_within_it_by_pow() -> None:
    """``Field.within`` finds a fighter at the edge of the circle when ``**`` puts it
    inside, whatever the products say."""
    radius = 1.3
    edge = _at_the_edge(radius * radius, seed=1)
    field = Field(2)
    fighters = [_Fighter(uid, 0, 5 + a, -3 + b) for uid, (a, b) in enumerate(edge)]
    for fighter in fighters:
        field.add(fighter)
    want = {
        f.unique_id
        for f in fighters
        if (f.position[0] - 5) ** 2 + (f.position[1] + 3) ** 2 <= radius * radius
    }
    assert {f.unique_id for f in field.within(0, 5.0, -3.0, radius)} == want


def test_the_nearest_at_a_hair_is_the_nearest_by_pow() -> None:
    """One fighter at ``(a, b)`` where ``a ** 2 + b ** 2`` and the products part, another
    on the x axis at that very distance by ``**`` (or a unit in the last place off):
    ``Field.nearest`` picks the nearest by ``**``, ties to the lower unique_id."""
    parted = 0
    for a, b in _at_the_edge(1.3 * 1.3, seed=2, many=20000):
        by_pow = a**2 + b**2
        for c in (_ulps(math.sqrt(by_pow), n) for n in (-1, 0, 1)):
            field = Field(1)
            fighters = [_Fighter(0, 0, c, 0.0), _Fighter(1, 0, a, b)]
            for fighter in fighters:
                field.add(fighter)
            want = min(
                fighters, key=lambda f: (f.position[0] ** 2 + f.position[1] ** 2, f.unique_id)
            )
            assert field.nearest(0, 0.0, 0.0, accept=lambda f: True) is want
            parted += want is not min(
                fighters,
                key=lambda f: (
                    f.position[0] * f.position[0] + f.position[1] * f.position[1],
                    f.unique_id,
                ),
            )
    assert parted  # the products alone would pick the other now and then


def test_a_place_round_the_target_is_taken_as_pow_measures_it() -> None:
    """A place round the target (measured by ``**``) is taken by whoever stands at the
    edge of the elbow room exactly when ``**`` puts it inside; the move's end (by ``*``)
    exactly when the products do."""
    room = (0.5 + 0.5) * ELBOW_ROOM
    for a, b in _at_the_edge(room * room, seed=4)[:300]:
        field = Field(2)
        actor, other = _Fighter(0, 0, -50.0, 0.0), _Fighter(1, 1, a, b)
        field.add(actor)
        field.add(other)
        for ring, by_pow in ((1, True), (0, False)):
            tried: list[Any] = []
            place = ranks._first_free(actor, field, [-60.0, 0.0, 0.0, 0.0], ring, (), tried, 1)
            taken = a**2 + b**2 < room**2 if by_pow else a * a + b * b < room * room
            assert (place is None) is taken


def _way_spots_as(
    here: Any, goal: Any, gap: float, yards: float, radius: float, pow_: bool
) -> list[float]:
    """``ranks._way_spots`` as it was, every sidestep measured by ``**`` (``pow_``), or
    by products alone."""
    hx, hy = here
    dx, dy = (goal[0] - hx) / gap, (goal[1] - hy) / gap
    sx, sy = -dy * 2 * radius, dx * 2 * radius
    spots: list[float] = []
    step, short = yards, 1.0
    while True:
        x, y = hx + dx * step, hy + dy * step
        spots += x, y
        for px, py in ((x + sx, y + sy), (x - sx, y - sy)):
            ox, oy = px - hx, py - hy
            if (ox**2 + oy**2 if pow_ else ox * ox + oy * oy) <= yards * yards:
                spots += px, py
        step = yards - short
        if step < ranks._SHUFFLE:
            break
        short *= 2
    return spots


def test_the_sidesteps_kept_are_those_within_the_move_by_pow() -> None:
    """A sidestep 1 yard short of a move, a man's width aside, lies on the edge of the
    move's reach when ``(yards - 1) ** 2 + width ** 2 == yards ** 2``: the sidesteps kept
    are those ``**`` keeps, radii a few units in the last place either side."""
    parted = 0
    field = Field(1)
    rng = random.Random(5)
    for _ in range(30000):
        yards = rng.uniform(1.5, 9.0)
        width = math.sqrt(yards * yards - (yards - 1) ** 2)
        radius = _ulps(width / 2, rng.randint(-1, 1))
        turn = rng.uniform(0, 2 * math.pi)
        here = (rng.uniform(-5, 5), rng.uniform(-5, 5))
        goal = (here[0] + yards * math.cos(turn), here[1] + yards * math.sin(turn))
        gap = math.hypot(goal[0] - here[0], goal[1] - here[1])
        spots: list[float] = []
        ranks._way_spots(_Fighter(0, 0, *here, radius), field, here, goal, gap, yards, spots)
        want = _way_spots_as(here, goal, gap, yards, radius, pow_=True)
        assert spots == want
        parted += want != _way_spots_as(here, goal, gap, yards, radius, pow_=False)
    assert parted  # some of these the products alone would decide otherwise


def test_the_places_round_a_target_within_reach_are_those_within_it_by_pow() -> None:
    """The places round a target kept within the actor's allowance: those ``**`` keeps,
    the allowance set a few units in the last place either side of a place's distance."""
    parted = 0
    field = Field(2)
    rng = random.Random(6)
    for _ in range(3000):
        target = _Fighter(1, 1, rng.uniform(-5, 5), rng.uniform(-5, 5))
        turn, gap = rng.uniform(0, 2 * math.pi), rng.uniform(1.0, 3.0)
        tx, ty = target.position
        actor = _Fighter(0, 0, tx + gap * math.cos(turn), ty + gap * math.sin(turn))
        actor.reach = 1.0  # type: ignore[attr-defined]
        everywhere: list[float] = []
        ranks._places_round(actor, target, field, math.inf, everywhere)
        (ax, ay), k = actor.position, rng.randrange(len(everywhere) // 2)
        x, y = everywhere[2 * k], everywhere[2 * k + 1]
        limit = _ulps(math.sqrt((x - ax) ** 2 + (y - ay) ** 2), rng.randint(-2, 2))
        spots: list[float] = []
        ranks._places_round(actor, target, field, limit, spots)
        kept = [
            (px, py)
            for px, py in zip(everywhere[0::2], everywhere[1::2], strict=True)
            if (px - ax) ** 2 + (py - ay) ** 2 <= limit * limit
        ]
        assert list(zip(spots[0::2], spots[1::2], strict=True)) == kept
        parted += any(
            ((px - ax) ** 2 + (py - ay) ** 2 <= limit * limit)
            != ((px - ax) * (px - ax) + (py - ay) * (py - ay) <= limit * limit)
            for px, py in kept
        ) or len(kept) != sum(
            (px - ax) * (px - ax) + (py - ay) * (py - ay) <= limit * limit
            for px, py in zip(everywhere[0::2], everywhere[1::2], strict=True)
        )
    assert parted  # some of these the products alone would decide otherwise
