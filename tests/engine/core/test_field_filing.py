"""How the field files its fighters in its square indexes
(:mod:`fadad_agents.agents.core.field.squares`). A move re-files a fighter only in the
squares it leaves and enters: every square must then list exactly the fighters a plain
filing of everyone lists (the occupancy squares and buckets in the same order; an
elbow-room square, whose order is part of no answer, those who stand in it first). A
reset battle standing in one melee files its fighters only when first asked
(``Field.place_later``): every look-up, move and removal must then answer exactly as on a
field where each was added at once. These fields keep the index, not the mirror in
arrays a field placed once numba is loaded keeps instead (``squares.MIRRORED``: tested
in ``test_compiled_search``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fadad_agents.agents.core.field import (
    ELBOW_ROOM,
    HALO_MOST,
    HALO_SPAN,
    HALO_YARDS,
    SPOT_YARDS,
    Field,
    halo_key,
    squares,
)


@pytest.fixture(autouse=True, scope="module")
def _index_kept() -> Any:
    """Every field here keeps the elbow-room index, whether numba is loaded or not."""
    mirrored, squares.MIRRORED = squares.MIRRORED, False
    yield
    squares.MIRRORED = mirrored


YARDS = st.floats(-6.0, 6.0, allow_nan=False)


@dataclass(eq=False)
class _Fighter:
    unique_id: int
    side: int
    position: tuple[float, float]
    radius: float = 0.5


def _fields(spots: list[tuple[int, float, float]]) -> list[tuple[Field, list[_Fighter]]]:
    """The same fighters (each field its own) on a field that added each at once and on one
    filing them late."""
    now, later = Field(2), Field(2)
    mine = [_Fighter(i, side, (x, y)) for i, (side, x, y) in enumerate(spots)]
    theirs = [_Fighter(i, side, (x, y)) for i, (side, x, y) in enumerate(spots)]
    for fighter in mine:
        now.add(fighter)
    for fighter in theirs:  # the widest fighter is known, as from the battle's set-up
        later.add(fighter)
    later.clear()
    later.place_later(theirs)
    return [(now, mine), (later, theirs)]


QUESTIONS = {
    "within": lambda field, probe, x, y: [
        [f.unique_id for f in field.within(side, x, y, 2.5)] for side in (0, 1)
    ],
    "blocker": lambda field, probe, x, y: getattr(field.blocker(probe, x, y), "unique_id", None),
    "neighbours": lambda field, probe, x, y: [f.unique_id for f in field.neighbours(probe, x, y)],
    "elbow_index": lambda field, probe, x, y: [
        f.unique_id for f in (field.elbow_index(probe) or {}).get(halo_key(x, y), ())
    ],
    "nearest": lambda field, probe, x, y: [
        getattr(field.nearest(side, x, y), "unique_id", None) for side in (0, 1)
    ],
}
"""Each look-up, as the first question a field is asked (the one that files it)."""

SPOTS = st.lists(st.tuples(st.integers(0, 1), YARDS, YARDS), min_size=1, max_size=12)


@settings(max_examples=60, deadline=None)
@given(SPOTS, st.data())
def test_a_field_filed_late_answers_as_one_filed_at_once(spots, data) -> None:
    """Each look-up, asked first after some fighters left, and again after one moved, gives
    the same fighters in the same order whether the field filed them at once or only when
    first asked."""
    gone = data.draw(st.sets(st.sampled_from(range(len(spots)))))
    x, y = data.draw(YARDS), data.draw(YARDS)
    probe = _Fighter(-1, 0, (x, y))
    for ask in QUESTIONS.values():
        answers = []
        for field, fighters in _fields(spots):
            for i in sorted(gone):
                field.remove(fighters[i])
            seen = [ask(field, probe, x, y)]
            staying = [f for i, f in enumerate(fighters) if i not in gone]
            if staying:
                field.move(staying[0], x, y)
                seen.append(ask(field, probe, -x, -y))
            answers.append(seen)
        assert answers[1] == answers[0]


RADII = st.sampled_from([0.25, 0.5, 0.75])


class _PlainSquares:
    """The indexes as the rules of filing state them, re-filed in full at every move: a
    fighter is listed in its spot's square last, in each elbow-room square its elbow room
    (round two of the widest) reaches first where it stands, last elsewhere, and in its
    side's bucket last when it enters it."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.widest = 0.0
        self.order: list[_Fighter] = []  # in the order they were last filed
        self.buckets: dict[tuple[int, int, int], list[_Fighter]] = {}

    def file(self, fighter: _Fighter) -> None:
        self.order.append(fighter)
        x, y = fighter.position
        key = (fighter.side, int(x // self.cell), int(y // self.cell))
        self.buckets.setdefault(key, []).append(fighter)

    def unfile(self, fighter: _Fighter, bucket_too: bool) -> None:
        self.order.remove(fighter)
        if bucket_too:
            x, y = fighter.position
            self.buckets[(fighter.side, int(x // self.cell), int(y // self.cell))].remove(fighter)

    def spots(self) -> dict[tuple[int, int], list[int]]:
        found: dict[tuple[int, int], list[int]] = {}
        for f in self.order:
            x, y = f.position
            found.setdefault((int(x // SPOT_YARDS), int(y // SPOT_YARDS)), []).append(f.unique_id)
        return found

    def halo(self) -> dict[float, tuple[set[int], set[int]]]:
        """Each elbow-room square's fighters: those who stand in it, and the others."""
        reach = 2 * self.widest * ELBOW_ROOM * (1 + 1e-9) + 1e-9
        found: dict[float, tuple[set[int], set[int]]] = {}
        for f in self.order:
            x, y = f.position
            own = halo_key(x, y)
            for i in range(int((x - reach) // HALO_YARDS), int((x + reach) // HALO_YARDS) + 1):
                for j in range(int((y - reach) // HALO_YARDS), int((y + reach) // HALO_YARDS) + 1):
                    key = i * HALO_SPAN + j
                    found.setdefault(key, (set(), set()))[key != own].add(f.unique_id)
        return found


def _listed(table: dict[Any, list[Any]]) -> dict[Any, list[int]]:
    return {key: [f.unique_id for f in found] for key, found in table.items() if found}


def _standing_first(table: dict[float, list[Any]]) -> dict[float, tuple[set[int], set[int]]]:
    """Each elbow-room square's fighters (each listed once): the first ones, who stand in
    it, and the others."""
    split = {}
    for key, found in table.items():
        if found:
            first = 0
            while first < len(found) and halo_key(*found[first].position) == key:
                first += 1
            ids = [f.unique_id for f in found]
            assert len(set(ids)) == len(ids)
            split[key] = (set(ids[:first]), set(ids[first:]))
    return split


STEPS = st.lists(
    st.tuples(st.sampled_from(["move", "remove"]), st.integers(0, 11), YARDS, YARDS),
    max_size=30,
)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 1), YARDS, YARDS, RADII), min_size=1, max_size=12),
    STEPS,
    st.booleans(),
)
def test_every_square_lists_whom_a_plain_filing_lists_in_the_same_order(
    spots, steps, giant
) -> None:
    """After fighters of two sides come, move (small steps and long ones) and leave, each
    side's buckets list the fighters a plain filing of everyone lists, in the same order;
    so does each square of the occupancy index, kept with a fighter wider than
    ``HALO_MOST`` on the field (``giant``), else each square of the elbow-room index lists
    the same fighters, those who stand in it first."""
    field = Field(2)
    plain = _PlainSquares(field.cell)
    if giant:
        spots = [*spots, (0, 0.0, 0.0, HALO_MOST + 0.5)]
    fighters = [_Fighter(i, side, (x, y), r) for i, (side, x, y, r) in enumerate(spots)]
    for fighter in sorted(fighters, key=lambda f: -f.radius):  # the widest first: filed once
        field.add(fighter)
        plain.widest = max(plain.widest, fighter.radius)
        plain.file(fighter)
    standing = list(fighters)
    for what, pick, x, y in steps:
        if not standing:
            break
        fighter = standing[pick % len(standing)]
        if what == "remove":
            field.remove(fighter)
            plain.unfile(fighter, bucket_too=True)
            standing.remove(fighter)
            continue
        ox, oy = fighter.position
        x, y = (ox + x / 10, oy + y / 10) if pick % 2 else (x, y)  # a step, or a long move
        old = (int(ox // field.cell), int(oy // field.cell))
        moved_bucket = old != (int(x // field.cell), int(y // field.cell))
        plain.unfile(fighter, bucket_too=moved_bucket)
        field.move(fighter, x, y)
        plain.order.append(fighter)
        if moved_bucket:
            plain.buckets.setdefault((fighter.side, *field._key(x, y)), []).append(fighter)
    if giant:
        assert field._halo is None
        assert _listed(field._spots) == plain.spots()
    else:
        assert not _listed(field._spots)
        assert field._halo is not None
        assert _standing_first(field._halo) == plain.halo()
    buckets = {
        (side, *key): found for side in (0, 1) for key, found in field._buckets[side].items()
    }
    assert _listed(buckets) == _listed(plain.buckets)


def test_a_giant_coming_files_everyone_in_the_occupancy_index() -> None:
    """A fighter wider than ``HALO_MOST`` joining gives up the elbow-room index: everyone
    already there is filed in the occupancy index, where a spot's check then looks."""
    field = Field(2)
    men = [_Fighter(i, i % 2, (i * 0.8, -i * 0.3)) for i in range(8)]
    for man in men:
        field.add(man)
    probe = _Fighter(-1, 0, (0.0, 0.0))
    taken = [field.crowded(probe, *man.position) for man in men]
    field.add(_Fighter(99, 0, (40.0, 40.0), HALO_MOST + 0.5))
    assert field._halo is None
    assert sorted(f.unique_id for found in field._spots.values() for f in found) == [
        *range(8),
        99,
    ]
    assert [field.crowded(probe, *man.position) for man in men] == taken
