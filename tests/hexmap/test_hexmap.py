"""The ship hex map: coordinates, distance, rings, lines, rotation, arcs and drawing."""

import doctest
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fadad_agents import hexmap
from fadad_agents.hexmap import (
    ALL_SECTORS,
    ARCS,
    DIRECTIONS,
    ORIGIN,
    ArcError,
    Hex,
    HexError,
    arc_sectors,
    direction_to,
    distance,
    from_offset,
    from_pixel,
    in_arc,
    line,
    neighbours,
    relative_bearing,
    ring,
    rotate,
    sector,
    sectors,
    spiral,
    to_offset,
    to_pixel,
    turn,
    turn_toward,
    within,
)
from fadad_agents.hexmap import arcs as arcs_module
from fadad_agents.hexmap import coords as coords_module
from fadad_agents.hexmap import pixel as pixel_module

coord = st.integers(-60, 60)
hexes = st.builds(Hex, coord, coord)
facings = st.integers(0, 5)
radii = st.integers(0, 12)
small_hexes = st.builds(Hex, st.integers(-25, 25), st.integers(-25, 25))
QUARTERS = ("fore", "starboard", "aft", "port")


def _float_line(a: Hex, b: Hex) -> list[Hex]:
    """The classic floating-point cube lerp with the 1e-6 nudge (redblobgames)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    eq, er, es = 1e-6, 2e-6, -3e-6
    out = []
    for i in range(n + 1):
        t = i / n
        q = a.q + eq + (b.q - a.q) * t
        r = a.r + er + (b.r - a.r) * t
        s = a.s + es + (b.s - a.s) * t
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        out.append(Hex(rq, rr))
    return out


@pytest.mark.parametrize("module", [coords_module, arcs_module, pixel_module])
def test_docstring_examples(module):
    """The usage examples in the module docstrings run as written."""
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


# --- coordinates and distance -----------------------------------------------------------


def test_hex_is_frozen_and_slotted():
    """Hex is immutable, has no __dict__, and derives s = -q - r."""
    h = Hex(2, -5)
    assert h.s == 3
    assert not hasattr(h, "__dict__")
    with pytest.raises(AttributeError):
        h.q = 1  # type: ignore[misc]


def test_vector_arithmetic():
    """Hexes add, subtract, negate and scale componentwise."""
    assert Hex(1, 2) + Hex(3, -1) == Hex(4, 1)
    assert Hex(1, 2) - Hex(3, -1) == Hex(-2, 3)
    assert -Hex(1, -2) == Hex(-1, 2)
    assert Hex(1, -1) * 3 == 3 * Hex(1, -1) == Hex(3, -3)


def test_directions_clockwise_from_north():
    """Direction order is N, NE, SE, S, SW, NW, each a unit step, opposite = +3."""
    assert (Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0)) == DIRECTIONS
    for d in range(6):
        assert DIRECTIONS[d].length() == 1
        assert DIRECTIONS[(d + 3) % 6] == -DIRECTIONS[d]
    assert neighbours(ORIGIN) == DIRECTIONS
    assert Hex(2, 2).neighbour(3) == Hex(2, 3)


def test_bad_direction_and_radius_are_value_errors():
    """Direction 6 and radius -1 raise HexError (a ValueError) naming the allowed range."""
    with pytest.raises(HexError, match=r"0\.\.5"):
        ORIGIN.neighbour(6)
    with pytest.raises(ValueError, match="negative"):
        ring(ORIGIN, -1)


@given(hexes, hexes)
def test_distance_symmetric_and_zero_iff_equal(a, b):
    """Distance is symmetric, non-negative, and zero exactly when the hexes are equal."""
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_triangle_inequality(a, b, c):
    """d(a, c) <= d(a, b) + d(b, c)."""
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, hexes, hexes)
def test_distance_translation_invariant(a, b, t):
    """Shifting both hexes by the same vector keeps their distance."""
    assert distance(a + t, b + t) == distance(a, b)


def test_distance_examples():
    """Straight and diagonal distances on the flat-topped map."""
    assert distance(ORIGIN, Hex(0, -5)) == 5
    assert distance(ORIGIN, Hex(3, -1)) == 3
    assert distance(Hex(-2, 1), Hex(2, -1)) == 4


@given(hexes)
def test_neighbours_at_distance_one(h):
    """All six neighbours are distinct and one step away."""
    ns = neighbours(h)
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 for n in ns)


# --- rotation and facing ------------------------------------------------------------------


@given(hexes, hexes, st.integers(-20, 20))
def test_rotation_preserves_distance(h, c, k):
    """Rotating about any centre keeps the distance to that centre and between hexes."""
    assert distance(rotate(h, k, c), c) == distance(h, c)
    assert distance(rotate(h, k), rotate(c, k)) == distance(h, c)


@given(hexes, hexes)
def test_six_rotations_are_identity(h, c):
    """Six sixth-turns (or one plus its inverse) give back the hex."""
    g = h
    for _ in range(6):
        g = rotate(g, 1, c)
    assert g == h
    assert rotate(rotate(h, 2, c), -2, c) == h


def test_rotation_turns_direction_clockwise():
    """One clockwise step maps direction d to d + 1."""
    for d in range(6):
        assert rotate(DIRECTIONS[d], 1) == DIRECTIONS[(d + 1) % 6]


@given(facings, st.integers(-30, 30))
def test_turn_wraps_and_composes(f, k):
    """turn adds steps modulo 6 and turning back undoes it."""
    assert turn(f, k) == (f + k) % 6
    assert turn(turn(f, k), -k) == f


def test_turn_toward_shortest():
    """turn_toward gives the shortest signed turn; a half turn is +3."""
    assert turn_toward(0, 1) == 1
    assert turn_toward(0, 5) == -1
    assert turn_toward(1, 4) == 3
    assert turn_toward(5, 1) == 2
    with pytest.raises(HexError):
        turn(6, 1)


# --- rings, spirals, discs ----------------------------------------------------------------


@given(hexes, radii)
def test_ring_size_and_distance(c, r):
    """ring(c, r) has 6r distinct hexes (1 for r = 0), all exactly r from c."""
    hs = ring(c, r)
    assert len(hs) == (6 * r if r else 1)
    assert len(set(hs)) == len(hs)
    assert all(distance(c, h) == r for h in hs)


@given(hexes, st.integers(1, 12))
def test_ring_walks_clockwise_from_north(c, r):
    """The ring starts due north and each hex neighbours the next (closing the loop)."""
    hs = ring(c, r)
    assert hs[0] == c + DIRECTIONS[0] * r
    assert all(distance(hs[i], hs[(i + 1) % len(hs)]) == 1 for i in range(len(hs)))


@given(hexes, radii)
def test_spiral_and_within_agree(c, r):
    """spiral and within list the same 3r(r+1)+1 hexes, exactly those within r."""
    sp = list(spiral(c, r))
    wi = within(c, r)
    assert len(sp) == len(wi) == 3 * r * (r + 1) + 1
    assert set(sp) == set(wi)
    assert all(distance(c, h) <= r for h in wi)
    assert sp[0] == c
    assert [distance(c, h) for h in sp] == sorted(distance(c, h) for h in sp)


def test_within_covers_disc_exactly():
    """Every hex of a box within r of the centre is in within(), and no other."""
    c, r = Hex(2, -1), 4
    box = {Hex(q, s) for q in range(-10, 11) for s in range(-10, 11)}
    assert set(within(c, r)) == {h for h in box if distance(c, h) <= r}


# --- lines --------------------------------------------------------------------------------


@given(hexes, hexes)
def test_line_length_ends_and_steps(a, b):
    """line(a, b) has distance + 1 hexes from a to b, each next to the previous one."""
    hs = line(a, b)
    assert len(hs) == distance(a, b) + 1
    assert hs[0] == a
    assert hs[-1] == b
    assert all(distance(hs[i], hs[i + 1]) == 1 for i in range(len(hs) - 1))


@settings(max_examples=300)
@given(small_hexes, small_hexes)
def test_line_matches_classic_float_algorithm(a, b):
    """The exact-integer line equals the textbook float lerp with the 1e-6 nudge."""
    assert line(a, b) == _float_line(a, b)


@given(hexes, st.integers(0, 5), st.integers(0, 15))
def test_line_along_a_direction_is_straight(a, d, n):
    """A line along one hex direction steps in that direction every time."""
    assert line(a, a + DIRECTIONS[d] * n) == [a + DIRECTIONS[d] * i for i in range(n + 1)]


def test_line_along_edges_is_deterministic():
    """A line along hex edges (a corner line) picks the same side every call."""
    a, b = ORIGIN, Hex(2, -4)  # along the corner line q == s: every other point is a tie
    # the +q nudge breaks each tie toward the north-east side
    assert line(a, b) == [Hex(0, 0), Hex(1, -1), Hex(1, -2), Hex(2, -3), Hex(2, -4)]
    assert line(a, b) == line(a, b)


# --- firing arcs --------------------------------------------------------------------------


def test_arc_names_are_sector_sets():
    """The four quarters partition the six sectors; named halves and 'all' as documented."""
    quarters = [ARCS[q] for q in QUARTERS]
    assert sum(len(q) for q in quarters) == 6
    assert frozenset().union(*quarters) == ALL_SECTORS
    assert ARCS["bow"] | ARCS["stern"] == ALL_SECTORS
    assert ARCS["all"] == ALL_SECTORS
    assert arc_sectors([0, 3]) == {0, 3}
    with pytest.raises(ArcError, match="unknown firing arc"):
        arc_sectors("sideways")
    with pytest.raises(ValueError, match=r"0\.\.5"):
        arc_sectors([6])


def test_neighbour_sectors_facing_north():
    """Facing north, the six neighbours lie in sectors fore, fwd-stbd, aft-stbd, aft ..."""
    for d in range(6):
        assert sectors(ORIGIN, 0, DIRECTIONS[d]) == {d}
        assert sectors(ORIGIN, 2, DIRECTIONS[d]) == {(d - 2) % 6}


def test_boundary_hexes_belong_to_two_sectors():
    """Hex (1, -2) lies on the fore / forward-starboard line: in both arcs when inclusive."""
    target = Hex(1, -2)
    assert sectors(ORIGIN, 0, target) == {0, 1}
    assert in_arc(ORIGIN, 0, target, "fore")
    assert in_arc(ORIGIN, 0, target, "forward-starboard")
    assert sector(ORIGIN, 0, target) == 0
    assert not in_arc(ORIGIN, 0, target, "forward-starboard", inclusive=False)
    # the line between the two starboard sectors: ties go toward the bow
    assert sectors(ORIGIN, 0, Hex(2, -1)) == {1, 2}
    assert sector(ORIGIN, 0, Hex(2, -1)) == 1


def test_same_hex_is_in_every_arc():
    """A target sharing the firer's hex is in every arc."""
    for name in ARCS:
        assert in_arc(Hex(3, 3), 4, Hex(3, 3), name)


@given(hexes, facings, hexes)
def test_quarters_partition_when_exclusive(o, f, t):
    """With boundary hexes given to the sector nearer the bow, each hex is in one quarter."""
    inside = [q for q in QUARTERS if in_arc(o, f, t, q, inclusive=False)]
    assert len(inside) == 1 or t == o


@given(hexes, facings, hexes)
def test_inclusive_sectors_cover_and_overlap_only_on_lines(o, f, t):
    """Every other hex is in 1 sector, or in 2 adjacent ones when two cube coords tie."""
    ss = sectors(o, f, t)
    if t == o:
        assert ss == ALL_SECTORS
        return
    d = t - o
    on_line = d.q == d.r or d.r == d.s or d.s == d.q
    assert len(ss) == (2 if on_line else 1)
    if on_line:
        a, b = sorted(ss)
        assert (b - a) % 6 in (1, 5)


@given(hexes, facings, hexes, st.integers(-6, 6))
def test_arcs_turn_with_the_ship(o, f, t, k):
    """Rotating target and facing together about the firer keeps the relative sectors."""
    assert sectors(o, turn(f, k), rotate(t, k, o)) == sectors(o, f, t)


@given(hexes, facings, hexes)
def test_port_and_starboard_are_mirror_images(o, f, t):
    """Reflecting across the ship's axis swaps port and starboard sectors."""
    # reflect the relative vector across the north axis (q, r, s) -> (-q, -s, -r), at facing 0
    d = rotate(t, -f, o) - o
    mirrored = o + Hex(-d.q, -d.s)
    want = {(6 - k) % 6 for k in sectors(o, 0, o + d)}
    assert sectors(o, 0, mirrored) == want


@given(hexes, facings, hexes)
def test_sector_matches_geometric_bearing(o, f, t):
    """Away from boundaries the sector is the one whose centre bearing is within 30 deg."""
    if t == o:
        return
    x0, y0 = to_pixel(o, 1.0)
    x1, y1 = to_pixel(t, 1.0)
    bearing = math.degrees(math.atan2(x1 - x0, -(y1 - y0))) % 360  # clockwise from north
    rel = (bearing - 60 * f) % 360
    ss = sectors(o, f, t)
    for k in ss:
        off = (rel - 60 * k + 180) % 360 - 180
        assert abs(off) <= 30 + 1e-6


@given(hexes, hexes)
def test_direction_to_points_into_the_target_sector(o, t):
    """direction_to picks a sector holding the target; on a tie the lower number."""
    if o == t:
        with pytest.raises(HexError):
            direction_to(o, t)
        return
    d = direction_to(o, t)
    assert d == min(sectors(o, 0, t))
    assert relative_bearing(o, d, t) == 0


def test_direction_to_neighbours():
    """direction_to a neighbour is the direction of the step."""
    for d in range(6):
        assert direction_to(Hex(1, 1), Hex(1, 1) + DIRECTIONS[d]) == d
    assert relative_bearing(ORIGIN, 0, Hex(0, 4)) == 3


# --- drawing ------------------------------------------------------------------------------


@given(hexes, st.floats(1.0, 50.0))
def test_pixel_round_trip(h, size):
    """from_pixel(to_pixel(h)) == h, also a little off-centre."""
    x, y = to_pixel(h, size, origin=(5.0, -3.0))
    assert from_pixel(x, y, size, origin=(5.0, -3.0)) == h
    assert from_pixel(x + 0.3 * size, y - 0.3 * size, size, origin=(5.0, -3.0)) == h


def test_flat_top_layout():
    """Flat-topped: north is straight up (negative y), columns 1.5 size apart."""
    x, y = to_pixel(Hex(0, -1), 10.0)
    assert x == 0.0
    assert y == pytest.approx(-10 * math.sqrt(3))
    x, y = to_pixel(Hex(1, 0), 10.0)
    assert (x, y) == pytest.approx((15.0, 5 * math.sqrt(3)))
    cs = hexmap.corners(ORIGIN, 10.0)
    assert cs[0] == pytest.approx((10.0, 0.0))
    assert len(hexmap.svg_points(ORIGIN, 10.0).split()) == 6
    with pytest.raises(HexError):
        to_pixel(ORIGIN, 0.0)


@given(hexes, st.sampled_from(["odd", "even"]))
def test_offset_round_trip(h, parity):
    """Offset coordinates convert back to the same hex for both parities."""
    col, row = to_offset(h, parity)
    assert col == h.q
    assert from_offset(col, row, parity) == h


def test_offset_columns_shift():
    """odd-q shoves odd columns down half a hex: (1, 0) is south-east of (0, 0)."""
    assert from_offset(1, 0, "odd") == Hex(1, 0)
    assert from_offset(1, 0, "even") == Hex(1, -1)
    assert to_offset(Hex(-1, 1), "odd") == (-1, 0)  # SW of the origin, odd column down
    assert to_offset(Hex(-1, 0), "odd") == (-1, -1)  # NW
    with pytest.raises(HexError, match="parity"):
        to_offset(ORIGIN, "diagonal")  # type: ignore[arg-type]


def test_offset_rows_are_adjacent():
    """Vertically adjacent offset cells are north/south neighbours."""
    for col in range(-3, 4):
        for parity in ("odd", "even"):
            a = from_offset(col, 2, parity)
            b = from_offset(col, 3, parity)
            assert b - a == DIRECTIONS[3]


# --- bow cone, dead ahead, arc hexes ------------------------------------------------------


def test_bow_cone_three_frontal_hexes():
    """The three frontal neighbours and the rows through the diagonal ones are in the cone."""
    for f in range(6):
        inside = {d for d in range(6) if hexmap.in_bow_cone(ORIGIN, f, DIRECTIONS[d])}
        assert inside == {(f - 1) % 6, f, (f + 1) % 6}
    assert hexmap.in_bow_cone(ORIGIN, 0, Hex(3, -3))  # along the NE row: an edge
    assert hexmap.in_bow_cone(ORIGIN, 0, Hex(1, -4))
    assert not hexmap.in_bow_cone(ORIGIN, 0, Hex(3, -2))  # just aft of the NE row


@given(hexes, facings, hexes)
def test_bow_cone_inside_bow_arc(o, f, t):
    """The 120-degree cone lies inside the 180-degree bow arc and contains the fore sector."""
    if hexmap.in_bow_cone(o, f, t):
        assert in_arc(o, f, t, "bow")
    if in_arc(o, f, t, "fore"):
        assert hexmap.in_bow_cone(o, f, t)


@given(hexes, facings, hexes, st.integers(-6, 6))
def test_bow_cone_turns_with_the_ship(o, f, t, k):
    """Rotating target and facing together keeps cone membership."""
    assert hexmap.in_bow_cone(o, turn(f, k), rotate(t, k, o)) == hexmap.in_bow_cone(o, f, t)


@given(hexes, facings, st.integers(0, 10))
def test_dead_ahead_is_the_facing_row(o, f, n):
    """Hexes n >= 1 steps straight along the facing are dead ahead, nothing else nearby."""
    assert hexmap.dead_ahead(o, f, o + DIRECTIONS[f] * n) == (n > 0)
    assert not hexmap.dead_ahead(o, f, o + DIRECTIONS[(f + 1) % 6] * (n + 1))
    assert hexmap.dead_ahead(o, turn(f, 3), o - DIRECTIONS[f] * (n + 1))


def test_arc_hexes_counts():
    """Within radius 3 (36 hexes around the origin): 'all' 36, fore and port split the rest."""
    assert len(hexmap.arc_hexes(ORIGIN, 0, "all", 3)) == 36
    fore = hexmap.arc_hexes(ORIGIN, 0, "fore", 3, inclusive=False)
    quarters = [hexmap.arc_hexes(ORIGIN, 2, q, 3, inclusive=False) for q in QUARTERS]
    assert sum(len(q) for q in quarters) == 36
    assert Hex(0, -3) in fore
    assert all(in_arc(ORIGIN, 0, h, "fore") for h in fore)
