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


@given(st.integers(ladder.LADDER_MIN, ladder.LADDER_MAX))
def test_label_parse_round_trip(value):
    """parse(label(v)) == v for every value a file may give."""
    assert ladder.parse(ladder.label(value)) == value


@pytest.mark.parametrize("beyond", ["Legendary+17", "Terrible-18", 21, -21, "+99999999999"])
def test_parse_refuses_levels_beyond_the_range(beyond):
    """Levels past Terrible-17..Legendary+16 are refused (issue 20: a hit of RD 10**6 would
    roll its crits one by one), saying the range."""
    with pytest.raises(ladder.LadderError, match=r"beyond the ladder's range \(Terrible-17"):
        ladder.parse(beyond)
