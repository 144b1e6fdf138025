"""Look-ups on the field cost what the fighters near a place cost, whatever the reach: a
Scale +60 giant's elbow room spans miles of squares, and the look-up must not visit them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fadad_agents.agents.core.field.squares import keys_in

SQUARES = st.tuples(st.integers(-6, 6), st.integers(-6, 6))


@given(
    st.dictionaries(SQUARES, st.just([object()]), max_size=40),
    st.integers(-8, 8),
    st.integers(0, 10),
    st.integers(-8, 8),
    st.integers(0, 10),
)
def test_the_squares_looked_in_are_the_boxes_filled_ones_in_grid_order(
    table: dict[tuple[int, int], list[object]], i0: int, di: int, j0: int, dj: int
) -> None:
    """Whichever way they are found (the box square by square, or the filled squares when
    the box is larger), the filled squares visited are those inside the box, in the order
    the box is walked (i, then j): the same fighters in the same order, the same battle."""
    i1, j1 = i0 + di, j0 + dj
    grid = [(i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1) if (i, j) in table]
    assert [k for k in keys_in(table, i0, i1, j0, j1) if k in table] == grid


def test_a_giants_reach_visits_only_the_filled_squares() -> None:
    """A box of 4 * 10**18 squares round three fighters is three look-ups, not 10**18."""
    table = {(0, 0): ["a"], (5, -3): ["b"], (10**6, 2): ["c"]}
    found = keys_in(table, -(10**9), 10**9, -(10**9), 10**9)
    assert list(found) == [(0, 0), (5, -3), (10**6, 2)]
