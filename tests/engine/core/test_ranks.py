"""Character.ranks: a ``count:`` group at a position forms so many ranks deep, its front
rank centred on its position and as wide as that takes, each rank a man's width behind the
last, away from the enemy; without it, as square a block as its count makes."""

from __future__ import annotations

from itertools import pairwise

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.engine import build_battle, load


def _spots(per_side: int, ranks: int | None) -> tuple[list[tuple[float, float]], float]:
    """Where Red's ``per_side`` swordsmen start, formed ``ranks`` deep at (0, 0) a yard from
    Blue's (who stand at x = 1 and beyond, Red's ranks behind it at x < 0), and their radius."""
    text = _melee_yaml(per_side, bands=True, gap=1, ranks=ranks)
    battle = build_battle(load(text), 1, collect=False)
    red = battle.sides[0].members
    return [m.start_position for m in red], red[0].radius


@pytest.mark.parametrize(("ranks", "files"), [(1, 12), (2, 6), (3, 4), (5, 3), (12, 1), (None, 4)])
def test_a_group_forms_so_many_ranks_deep(ranks: int | None, files: int) -> None:
    """12 swordsmen 1, 2, 3, 5 and 12 ranks deep, and without ``ranks`` (4 x 3, as square as
    12 makes): each rank a man's width behind the last, the front one centred on the
    position and ``files`` wide, its men a man's width apart; 5 ranks of 3 hold 12 as
    3, 3, 3, 3 and none (the last rank's place unfilled: 4 ranks stand)."""
    spots, radius = _spots(12, ranks)
    width = 2 * radius
    xs = sorted({x for x, _ in spots}, reverse=True)
    assert xs == pytest.approx([-width * k for k in range(len(xs))])
    assert len(xs) == -(-12 // files)  # as many ranks as it takes files wide
    front = sorted(y for x, y in spots if x == xs[0])
    assert len(front) == files
    assert sum(front) / files == pytest.approx(0.0)
    assert [b - a for a, b in pairwise(front)] == pytest.approx([width] * (files - 1))


def test_a_line_stands_in_contact_where_a_block_closes_in() -> None:
    """20 a side a yard apart, seeds 1-5: formed as lines (``ranks: 1``) no one moves in the
    first round (each stands in reach of the foe across); as blocks (5 wide, 4
    deep) those behind the front rank step up round it (9 or 10 of them moved at each of
    these seeds)."""
    for seed in range(1, 6):
        moved = {}
        for ranks in (1, None):
            battle = build_battle(
                load(_melee_yaml(20, bands=True, gap=1, ranks=ranks)), seed, collect=False
            )
            battle.play_round()
            moved[ranks] = {e.actor for e in battle.log if e.action == "move"}
        assert not moved[1], seed
        assert len({m for m in moved[None] if m.startswith("Red")}) >= 5, seed
