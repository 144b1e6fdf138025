"""Wound marks written between battles: names read back to levels, marks put on a track
exactly where they were written."""

import pytest

from fadad_agents.rules.core.wound_marks import level_of, with_marks
from fadad_agents.rules.core.wounds import Wound, WoundTrackError, new_track, record


def test_level_names_read_in_any_case_and_spacing():
    """'Very Hurt', 'very_hurt' and 'VERYHURT' are level 3; an unknown name lists them."""
    assert {level_of(n) for n in ("Very Hurt", "very_hurt", "VERYHURT")} == {3}
    with pytest.raises(WoundTrackError, match="allowed: Scratch, Hurt, Very Hurt"):
        level_of("Grazed")


def test_marks_rebuild_the_track_a_battle_left():
    """Marks taken from a recorded track rebuild that very track (boxes, fills, order)."""
    track = new_track("standard")
    for wound in (Wound.HURT, Wound.HURT, Wound.SCRATCH, Wound.HURT):
        track = record(track, wound)
    assert with_marks(new_track("standard"), track.marks) == track


def test_more_marks_than_boxes_are_refused():
    """Two marks on the single Very Hurt box: refused, naming the level and its boxes."""
    with pytest.raises(WoundTrackError, match="2 marks at Very Hurt, but the track has 1 box"):
        with_marks(new_track("standard"), [(3, 3), (3, 3)])
