"""The bridge's wound points never overflow (issue 20 point 4).

``fae.bridge_wound_points x 1.5 ** (Damage Capacity + Mass Scale)`` once raised an
OverflowError for a Damage Capacity of a million; files are bounded now, and the power
is taken within +-200 levels whatever it is given.
"""

from __future__ import annotations

from fadad_agents.agents.fae.bridge import fadad_wound_points


def test_wound_points_of_any_damage_capacity_are_a_finite_whole_number() -> None:
    """Far past any bound, the wound points stay finite and ordered."""
    huge, tiny = fadad_wound_points(1_000_000, 60), fadad_wound_points(-1_000_000, -40)
    assert isinstance(huge, int)
    assert huge == fadad_wound_points(200, 0) > fadad_wound_points(20 + 80, 0)
    assert tiny == 1
    assert fadad_wound_points(0, 0) == 40  # the default base, unchanged
