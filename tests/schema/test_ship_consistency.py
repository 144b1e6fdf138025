"""A ship's numbers agree with each other and with who is aboard (issue 20 point 11).

max_crew is room for the crew, so it is at least min_crew; speed is at most her Ship
Rating; her own side puts no more people aboard than max_crew (a person a ton without
one, as every hull of the catalogue has); ships fight on a hex map.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fadad_agents.schema import ScenarioError, load_scenario

FLEET = Path(__file__).resolve().parents[2] / "scenarios" / "fleet-action.yaml"


def _problems(old: str, new: str) -> list[str]:
    text = FLEET.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(ScenarioError) as info:
        load_scenario(text.replace(old, new, 1))
    return info.value.problems


def test_eighteen_aboard_a_cutter_for_twelve_is_refused_where_they_board() -> None:
    """The issue's cutter: 18 of her side aboard a petrel cutter of max_crew 12."""
    assert _problems(
        "Swallow crew, model: crews/sailors, count: 6",
        "Swallow crew, model: crews/sailors, count: 18",
    ) == [
        "<text>:28 sides[0].forces[6].aboard: 18 of side 'Duchy squadron' aboard 'Swallow' is "
        "more than she carries (at most 12: max_crew)"
    ]


def test_a_ship_without_max_crew_carries_a_person_a_ton() -> None:
    """100,000 pirates on a 30-ton longship are refused, by max_crew or, without one, by
    her tons."""
    crowd = (
        "{name: Carrion crew, model: crews/pirates, count: 30,",
        "{name: Carrion crew, model: crews/pirates, count: 100000,",
    )
    (problem,) = _problems(*crowd)
    assert problem.endswith(
        "100,000 of side 'Raider flotilla' aboard 'Carrion' is more than she carries "
        "(at most 45: max_crew)"
    )
    text = FLEET.read_text(encoding="utf-8").replace(
        "{name: Carrion, model: ships/reaver-longship,",
        "{name: Carrion, model: ships/reaver-longship, max_crew: null,",
    )
    load_scenario(text)  # her 30 pirates fit her 30 tons
    with pytest.raises(ScenarioError) as info:
        load_scenario(text.replace(*crowd))
    assert info.value.problems[0].endswith("(at most 30: a person a ton)")


def test_max_crew_below_min_crew_and_speed_above_sr_are_refused() -> None:
    """max_crew < min_crew and speed > sr are each one line at the field."""
    (crew,) = _problems("model: ships/war-galleon,", "model: ships/war-galleon, max_crew: 5,")
    assert crew.endswith(
        "sides[0].forces[0].max_crew: 5 is below min_crew 20 (a ship needs at least her "
        "minimum crew room)"
    )
    (speed,) = _problems(
        "crew_skill: Good, position: [0, 0], facing: 1, speed: 2}",
        "crew_skill: Good, position: [0, 0], facing: 1, speed: 7}",
    )
    assert speed.endswith(
        "sides[0].forces[0].speed: 7 is above her Ship Rating sr 3 (the most hexes a round "
        "she makes)"
    )


def test_ships_on_open_ground_are_refused() -> None:
    """A map of open ground in yards is no place for ships."""
    assert _problems("  kind: hex\n  radius: 40\n", "  kind: open\n") == [
        "<text>:11 map.kind: 'open' is ground in yards; ships fight on a hex map (kind: hex)"
    ]
