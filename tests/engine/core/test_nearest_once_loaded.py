"""Once numba is loaded, a side too small for the crowd's threshold is filed in arrays for
its nearest after a few look-ups (``field.ground.NEAREST_LOADED``), and only a side it
pays for (the same battle: tests/engine/core/test_crowd_shortcuts.py)."""

from __future__ import annotations

import pytest

from fadad_agents.agents.core.crowd.nearest import Nearest  # loads numba
from fadad_agents.agents.core.field import Field, ground


class _Fighter:
    def __init__(self, uid: int, side: int, x: float, y: float) -> None:
        self.unique_id, self.side, self.position, self.radius = uid, side, (x, y), 0.5


@pytest.mark.parametrize(
    ("count", "filed_at"),
    [
        (ground.NEAREST_FEWEST - 1, None),
        (ground.NEAREST_FEWEST, ground.NEAREST_LOADED),
        (ground.NEAREST_AT_ONCE - 1, ground.NEAREST_LOADED),
        (ground.NEAREST_AT_ONCE, ground.NEAREST_AT_ONCE),
    ],
)
def test_a_side_is_filed_for_its_nearest_after_the_look_ups_its_size_needs(
    count: int, filed_at: int | None
) -> None:
    """With numba loaded, a side of at least NEAREST_FEWEST fighters and fewer than
    NEAREST_AT_ONCE is filed in arrays at its NEAREST_LOADED-th look-up, a bigger one at
    its NEAREST_AT_ONCE-th (as without numba), a smaller one never; a step of the side
    drops the filing and the count starts again."""
    field = Field(2)
    side = [_Fighter(k, 1, k % 10, k // 10) for k in range(count)]
    for f in side:
        field.add(f)
    for asked in range(1, ground.NEAREST_AT_ONCE + 2):
        field.nearest(1, -5.0, 3.0)
        want = filed_at is not None and asked >= filed_at
        assert isinstance(field._nearest[1], Nearest) is want, asked
    field.move(side[0], -1.0, -1.0)
    field.nearest(1, -5.0, 3.0)
    assert not isinstance(field._nearest[1], Nearest)
