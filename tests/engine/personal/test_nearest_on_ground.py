"""The compiled melee's search for a side's nearest on open ground (``ground.nearest``)
against every fighter of that side measured one by one: the nearest by ``**``, the lower
``unique_id`` on a tie, whatever it begins from (the last nearest found, the asker's last
target, another side's fighter, one off the field, none), over fields a mile wide where
most of the mirror's blocks are empty, and with ties built in (pairs mirrored about the
points asked)."""

from __future__ import annotations

import random

import numba  # noqa: F401  # loaded: the compiled melee plays once numba is
import pytest

from fadad_agents.agents.core.crowd.occupied import _unlink, _views
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.personal import melee
from fadad_agents.engine.personal.ground import _LAST, nearest


def _scattered(rng: random.Random, points: list[tuple[int, int]]) -> str:
    """Two sides of lone swordsmen scattered over 1,500 by 60 yards (spots on a 3-yard
    lattice, none shared), side 1 also in pairs mirrored about each of ``points``."""
    taken: set[tuple[int, int]] = set()
    sides: list[list[tuple[int, int]]] = [[], []]

    def put(side: int, spot: tuple[int, int]) -> None:
        if spot not in taken:
            taken.add(spot)
            sides[side].append(spot)

    for px, py in points:
        for _ in range(2):
            dx, dy = 3 * rng.randint(1, 40), 3 * rng.randint(-5, 5)
            put(1, (px + dx, py + dy))
            put(1, (px - dx, py - dy))
    for side in (0, 1):
        for _ in range(rng.randint(1, 40)):
            put(side, (3 * rng.randint(0, 500), 3 * rng.randint(0, 20)))
    lines = ["name: scattered", "sides:"]
    for side, spots in enumerate(sides):
        lines += [f"  - name: Side {side}", "    forces:"]
        lines += [
            f"      - {{name: S{side}x{k}, skills: {{Sword: Good}}, attack_skill: Sword, "
            f"weapon: weapons/broadsword, position: [{x}, {y}]}}"
            for k, (x, y) in enumerate(spots)
        ]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(6))
def test_the_nearest_is_every_fighters_least(seed: int) -> None:
    """44 points, each side, five ways to begin: the least of every fighter measured."""
    rng = random.Random(seed)
    points = [(3 * rng.randint(0, 500), 3 * rng.randint(0, 20)) for _ in range(4)]
    battle = build_battle(load(_scattered(rng, points)), seed, collect=False)
    found = melee._melee_of(battle)
    assert found is not None  # the compiled melee plays it
    assert found.ground is not None
    pos, floats, ints, filing, bounds, counters = (a.copy() for a in found.ground.now(battle))
    geo = found.ground.geo
    n = len(found.members)
    ties = 0
    asked = points + [(rng.uniform(-50, 1550), rng.uniform(-20, 80)) for _ in range(40)]
    for x, y in asked:
        for side in (0, 1):
            ours = [i for i in range(n) if filing[i, 0] == side]
            d = {i: (pos[i, 0] - x) ** 2.0 + (pos[i, 1] - y) ** 2.0 for i in ours}
            least = min(d.values())
            tied = [i for i in ours if d[i] == least]
            ties += len(tied) > 1
            expected = min(tied, key=lambda i: filing[i, 2])
            begun = [(-1, -1), (rng.choice(ours), -1), (-1, rng.randrange(n))]
            begun += [(rng.choice(ours), rng.choice(ours)), (rng.randrange(n), -1)]
            theirs = [i for i in range(n) if filing[i, 0] != side]  # the other side's nearest
            begun.append(
                (-1, min(theirs, key=lambda i: (pos[i, 0] - x) ** 2 + (pos[i, 1] - y) ** 2))
            )
            for last, hint in begun:  # (the last found is always of its side, or none)
                counters[_LAST + side] = last if last < 0 or filing[last, 0] == side else -1
                got = nearest(x, y, side, geo, floats, ints, filing, bounds, counters, hint)
                assert got == expected, (x, y, side, last, hint)
    assert ties > 0


def test_a_fighter_taken_off_the_field_is_never_begun_from() -> None:
    """The nearest of side 1 to a point taken off the mirror (out of its square's list,
    its square -1, as the kernel takes off one who falls), then asked for again begun from
    it, as the last found and as the hint: the next nearest, never the one taken off."""
    rng = random.Random(9)
    battle = build_battle(load(_scattered(rng, [(750, 30)])), 9, collect=False)
    found = melee._melee_of(battle)
    assert found is not None
    assert found.ground is not None
    pos, floats, ints, filing, bounds, counters = (a.copy() for a in found.ground.now(battle))
    geo, n = found.ground.geo, len(found.members)
    _, _, links, head, _, _ = _views(floats, ints)
    ours = [i for i in range(n) if filing[i, 0] == 1]
    for x, y in [(750.0, 30.0), (0.0, 0.0), (1500.0, 60.0)]:
        gone = nearest(x, y, 1, geo, floats, ints, filing, bounds, counters, -1)
        _unlink(gone, head, links)
        ours.remove(gone)
        d = {i: (pos[i, 0] - x) ** 2.0 + (pos[i, 1] - y) ** 2.0 for i in ours}
        expected = min(ours, key=lambda i: (d[i], filing[i, 2]))
        counters[_LAST + 1] = gone
        assert nearest(x, y, 1, geo, floats, ints, filing, bounds, counters, gone) == expected
