"""A reset battle standing in one melee files its fighters in the field's look-up indexes
only when first asked (``Field.place_later``): every look-up, move and removal must then
answer exactly as on a field where each was added at once."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from fadad_agents.agents.core.field import HALO_YARDS, Field

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
        f.unique_id
        for f in (field.elbow_index(probe) or {}).get(
            (int(x // HALO_YARDS), int(y // HALO_YARDS)), ()
        )
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
