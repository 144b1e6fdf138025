"""The arcs of a Fae fighter: front, sides and rear by the attacker's direction (3.1)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fadad_agents.rules.fae.arcs import attack_arc, heading_from_degrees, unit
from fadad_agents.rules.fae.checks import FaeError

EAST = (1.0, 0.0)
ORIGIN = (0.0, 0.0, 0.0)


def _from(degrees: float, distance: float = 5.0, up: float = 0.0) -> tuple[float, float, float]:
    r = math.radians(degrees)
    return distance * math.cos(r), distance * math.sin(r), up


@pytest.mark.parametrize(
    ("degrees", "arc"),
    [(0, "front"), (59, "front"), (60, "front"), (61, "side"), (-90, "side"),
     (135, "side"), (136, "rear"), (180, "rear"), (-150, "rear")],
)  # fmt: skip
def test_default_arcs_front_120_rear_90(degrees: float, arc: str) -> None:
    """Within 60 degrees of the facing: front; beyond 135: rear; between: the side."""
    assert attack_arc(EAST, ORIGIN, _from(degrees)) == arc


def test_distance_does_not_change_the_arc() -> None:
    """Dead ahead is the front at 1 yard and at 60 (the seed ties the bonus to direction)."""
    assert {attack_arc(EAST, ORIGIN, _from(10, d)) for d in (1, 60, 500)} == {"front"}
    assert {attack_arc(EAST, ORIGIN, _from(100, d)) for d in (1, 60, 500)} == {"side"}


def test_a_foe_overhead_is_on_the_side() -> None:
    """Straight above is 90 degrees off the facing: the side; a low swoop from ahead is
    still the front."""
    assert attack_arc(EAST, ORIGIN, (0.0, 0.0, 12.0)) == "side"
    assert attack_arc(EAST, ORIGIN, _from(0, 5, 2)) == "front"


def test_widths_are_parameters() -> None:
    """A 60-degree front and 240-degree rear put a foe at 90 degrees in the rear."""
    assert attack_arc(EAST, ORIGIN, _from(90), 60, 240) == "rear"
    assert attack_arc(EAST, ORIGIN, _from(90), 180, 180) == "front"
    with pytest.raises(FaeError):
        attack_arc(EAST, ORIGIN, _from(90), 200, 200)


def test_no_direction_is_the_front() -> None:
    """An attacker at the target's own place (no direction) counts as in front."""
    assert attack_arc(EAST, ORIGIN, ORIGIN) == "front"
    assert unit(0, 0) is None


@given(st.floats(0, 359.9), st.floats(-180, 180))
def test_arcs_turn_with_the_facing(facing: float, off: float) -> None:
    """The arc depends only on the angle between facing and attacker."""
    turned = attack_arc(heading_from_degrees(facing), ORIGIN, _from(facing + off))
    assert turned == attack_arc(EAST, ORIGIN, _from(off))
