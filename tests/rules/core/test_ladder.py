"""The trait ladder: labels, parsing and open-endedness (dice-and-ladder.md section 1)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fadad_agents.rules.core import ladder


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (-4, "Terrible-1"),
        (-3, "Terrible"),
        (-2, "Poor"),
        (-1, "Mediocre"),
        (0, "Fair"),
        (1, "Good"),
        (2, "Great"),
        (3, "Superb"),
        (4, "Legendary"),
        (5, "Legendary+1"),
        (-6, "Terrible-3"),
    ],
)
def test_labels(value, text):
    """Each ladder value has the seeds' label; the ladder is open-ended both ways."""
    assert ladder.label(value) == text
    assert ladder.parse(text) == value


def test_parse_offsets_and_numbers():
    """'Great-2' is Fair; signed numbers and case-insensitive names parse."""
    assert ladder.parse("Great-2") == 0
    assert ladder.parse("good+1") == 2
    assert ladder.parse("+3") == 3
    assert ladder.parse("-1") == -1
    assert ladder.parse("Abysmal") == -4
    assert ladder.describe(2) == "Great (+2)"


@pytest.mark.parametrize("bad", ["Grate", "", "Great+", "++1", True])
def test_parse_rejects(bad):
    """Text that is no ladder level is refused with a message naming the ladder."""
    with pytest.raises(ladder.LadderError, match="not a ladder level"):
        ladder.parse(bad)


@given(st.integers(-50, 50))
def test_label_parse_round_trip(value):
    """parse(label(v)) == v for every value."""
    assert ladder.parse(ladder.label(value)) == value
