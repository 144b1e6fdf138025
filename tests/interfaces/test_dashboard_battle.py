"""BattleDashboard: clicking its widgets plays, rewinds, resets and replays the battle."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from fadad_agents.dashboard import BattleDashboard, SessionError
from fadad_agents.dashboard.battle import SCENARIO_DEFAULT, status_rows
from fadad_agents.dashboard.session import choosable_policies
from fadad_agents.policies import REGISTRY

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
TAVERN = SCENARIOS / "tavern-brawl.yaml"
DUEL = SCENARIOS / "snorri-vs-brynhild.yaml"


def _option(dash: BattleDashboard, stem: str) -> str:
    return next(v for k, v in dash.scenario_picker.options if k == stem)


@pytest.fixture
def dash() -> BattleDashboard:
    return BattleDashboard(TAVERN, seed=7)


def test_starts_at_round_zero_with_map_and_status(dash: BattleDashboard) -> None:
    """A new dashboard shows round 0, a map with every band where it stands (a group's
    block may span several map cells), and no log yet."""
    assert dash.session is not None
    assert dash.session.round == 0
    assert 'data-round="0"' in dash.map.value
    assert dash.map.value.count('class="marker') >= 6  # 3 bands a side in the tavern
    for band in ("Big Hulda", "Dockhand with club", "Bosun Rask", "Deckhand with bottle"):
        assert f"<title>{band}" in dash.map.value
    assert "Big Hulda" in dash.status.value
    assert dash.log.value.count("Round") == 0
    assert dash.seed.value == 7


def test_step_advances_round_redraws_map_and_grows_log(dash: BattleDashboard) -> None:
    """Clicking Step plays one round: the label, map and log all change."""
    before_map = dash.map.value
    dash.step_button.click()
    assert dash.session is not None
    assert dash.session.round == 1
    assert "Round 1" in dash.round_label.value
    assert 'data-round="1"' in dash.map.value
    assert dash.map.value != before_map
    first = len(dash.session.battle.log)
    assert first > 0
    assert dash.log.value.count("Round 1 (0:06)") == first
    dash.step_button.click()
    assert len(dash.session.battle.log) > first
    assert dash.session.commands == ["step", "step"]


def test_reset_restores_round_zero_and_replays_identically(dash: BattleDashboard) -> None:
    """Reset goes back to round 0; the same steps give the byte-identical log again."""
    assert dash.session is not None
    for _ in range(3):
        dash.step_button.click()
    log = dash.session.battle.log.to_jsonl()
    svg = dash.map.value
    dash.reset_button.click()
    assert dash.session.round == 0
    assert len(dash.session.battle.log) == 0
    assert 'data-round="0"' in dash.map.value
    for _ in range(3):
        dash.step_button.click()
    assert dash.session.battle.log.to_jsonl() == log
    assert dash.map.value == svg


def test_back_rewinds_one_round_by_replay(dash: BattleDashboard) -> None:
    """Back replays one round fewer: the log is the prefix the earlier round had."""
    assert dash.session is not None
    dash.step_button.click()
    after_one = dash.session.battle.log.to_jsonl()
    dash.step_button.click()
    dash.back_button.click()
    assert dash.session.round == 1
    assert dash.session.battle.log.to_jsonl() == after_one
    assert dash.session.commands == ["step"]


def test_run_plays_to_the_end_and_disables_step(dash: BattleDashboard) -> None:
    """Run at instant speed ends the battle; Step and Run are then disabled."""
    dash.speed.value = 0.0
    dash.run_button.click()
    assert dash.session is not None
    assert dash.session.finished
    assert dash.step_button.disabled
    assert dash.run_button.disabled
    assert re.search(r" wins? \(|no winner \(", dash.round_label.value)
    assert "The battle ends" in dash.log.value


def test_run_at_a_play_speed_redraws_each_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run with a play speed pauses between rounds and plays them as single steps."""
    dash = BattleDashboard(DUEL, seed=4006)
    pauses: list[float] = []
    monkeypatch.setattr("fadad_agents.dashboard.battle.time.sleep", pauses.append)
    dash.speed.value = 0.1
    dash.run_button.click()
    assert dash.session is not None
    assert dash.session.finished
    assert len(pauses) == dash.session.round
    assert set(dash.session.commands) == {"step"}
    assert set(pauses) == {0.1}


def test_policy_dropdown_replays_the_same_rounds_under_the_new_policy(
    dash: BattleDashboard,
) -> None:
    """Choosing a policy keeps the round and replays it with the new policy (a what-if)."""
    assert dash.session is not None
    dd = dash.policy_dropdowns[(1, "targeting")]
    assert dd.value == SCENARIO_DEFAULT
    offered = {v for _, v in dd.options}
    assert set(choosable_policies("targeting")) <= offered
    assert "rules" not in offered  # needs its rules text: not pickable without parameters
    dash.step_button.click()
    dash.step_button.click()
    dd.value = "strongest"
    assert dash.session.round == 2
    side = dash.session.scenario.sides[1]
    assert side.policies["targeting"].name == "strongest"
    dd.value = SCENARIO_DEFAULT
    assert dash.session.scenario.sides[1].policies["targeting"].name == "weakest"


def test_count_slider_changes_the_group_size(dash: BattleDashboard) -> None:
    """The Dockhand head-count slider sets how many dockhands fight."""
    assert dash.session is not None
    slider = dash.sliders[(0, 1, "count")]
    assert slider.value == 15
    slider.value = 5
    assert dash.session.battle.sides[0].initial_strength == 1 + 5 + 4
    assert "Dockhand</td><td>character</td><td>5/5" in dash.status.value


def test_weapon_slider_sets_magic_plus() -> None:
    """A named fighter's weapon slider sets the weapon's magic plus."""
    dash = BattleDashboard(DUEL, seed=4006)
    assert dash.session is not None
    slider = dash.sliders[(0, 0, "magic")]
    assert slider.value == 1  # Snorri's magic sword
    slider.value = 3
    assert dash.session.scenario.sides[0].forces[0].weapon.magic_plus == 3


def test_seed_change_replays_with_the_new_seed(dash: BattleDashboard) -> None:
    """A new seed replays the command log; the same seed again gives the same log."""
    assert dash.session is not None
    dash.step_button.click()
    log7 = dash.session.battle.log.to_jsonl()
    dash.seed.value = 8
    assert dash.session.seed == 8
    assert dash.session.round == 1
    assert dash.session.battle.log.to_jsonl() != log7
    dash.seed.value = 7
    assert dash.session.battle.log.to_jsonl() == log7


def test_scenario_picker_loads_another_scenario(dash: BattleDashboard) -> None:
    """Picking the duel rebuilds the controls and the map for two fighters."""
    dash.step_button.click()
    dash.scenario_picker.value = _option(dash, "snorri-vs-brynhild")
    assert dash.session is not None
    assert dash.session.round == 0
    assert dash.seed.value == 4006  # the scenario's own seed
    assert dash.map.value.count('class="marker') == 2
    assert (0, 0, "magic") in dash.sliders
    assert (0, 1, "count") not in dash.sliders


def test_unplayable_scenario_says_why_and_disables_play(tmp_path: Path) -> None:
    """A scenario the engine refuses (an unknown policy) shows why and disables Step."""
    text = TAVERN.read_text().replace("targeting: nearest", "targeting: no_such_policy")
    (tmp_path / "bad-brawl.yaml").write_text(text)
    (tmp_path / "tavern-brawl.yaml").write_text(TAVERN.read_text())
    dash = BattleDashboard("tavern-brawl", seed=1, scenario_dir=tmp_path)
    dash.scenario_picker.value = _option(dash, "bad-brawl")
    assert dash.session is None
    assert "no_such_policy" in dash.error.value
    assert dash.step_button.disabled
    assert dash.run_button.disabled
    dash.step_button.click()  # a click on a disabled button changes nothing
    assert dash.map.value == ""
    dash.scenario_picker.value = _option(dash, "tavern-brawl")
    assert dash.session is not None
    assert dash.error.value == ""


def test_boarding_action_draws_ships_and_crews_aboard() -> None:
    """Crews aboard a ship are drawn in its hex; the ships are drawn as hulls with facing."""
    dash = BattleDashboard(SCENARIOS / "boarding-action.yaml", seed=3)
    svg = dash.map.value
    assert svg.count('class="ship') == 2
    assert 'data-facing="0"' in svg
    assert 'data-facing="3"' in svg
    assert svg.count('class="marker') == 6
    assert svg.count('class="grapple"') == 1  # the two hulls are lashed together


def test_status_rows_count_heads_per_band(dash: BattleDashboard) -> None:
    """The status table has one row per band with its head count and worst wound."""
    assert dash.session is not None
    rows = {r["name"]: r for r in status_rows(dash.session.battle)}
    assert rows["Dockhand"]["heads"] == rows["Dockhand"]["start"] == 15
    assert rows["Big Hulda"]["wound"] == "Undamaged"
    dash.run_button.click()
    rows = {r["name"]: r for r in status_rows(dash.session.battle)}
    total = sum(r["heads"] for r in rows.values() if r["side"] == 0)
    assert total == dash.session.battle.sides[0].strength


def test_strength_plot_has_a_point_per_round(dash: BattleDashboard) -> None:
    """The strength chart draws one polyline per side with a point per round so far."""
    for _ in range(2):
        dash.step_button.click()
    lines = re.findall(r'<polyline class="series" points="([^"]*)"', dash.strength.value)
    assert len(lines) == 2
    assert all(len(points.split()) == 3 for points in lines)


def test_scenario_by_name_and_unknown_name() -> None:
    """A bare scenario name is looked up in scenarios/; an unknown one lists the known."""
    dash = BattleDashboard("wilbur-vs-dragon", seed=1)
    assert dash.scenario_picker.label == "wilbur-vs-dragon"
    with pytest.raises(SessionError, match="tavern-brawl"):
        BattleDashboard("no-such-battle")


def test_choosable_policies_need_no_parameters() -> None:
    """Dropdowns offer every registered policy except those with required parameters."""
    names = choosable_policies("targeting")
    assert {"nearest", "weakest", "random"} <= set(names)
    assert set(names) == set(REGISTRY.names("targeting")) - {"rules"}


def test_ship_duel_moves_ships_and_charts_hulls() -> None:
    """In the ship duel Step moves the ships; the status notes hulls; hulls are charted."""
    dash = BattleDashboard(SCENARIOS / "ship-duel.yaml", seed=77)
    assert dash.session is not None
    assert dash.map.value.count('class="ship') == 2
    assert "hull 100%" in dash.status.value
    assert "Hull left" in dash.strength.value
    before = [
        (m.name, m.position, m.facing)
        for s in dash.session.battle.sides
        for m in s.members
        if m.kind == "ship"
    ]
    for _ in range(3):
        dash.step_button.click()
    after = [
        (m.name, m.position, m.facing)
        for s in dash.session.battle.sides
        for m in s.members
        if m.kind == "ship"
    ]
    assert after != before
    lines = re.findall(r'<polyline class="series" points="([^"]*)"', dash.strength.value)
    assert len(lines) == 4  # head count and hull, a line per side each


def test_finished_ship_battle_names_the_winner() -> None:
    """The round label quotes the battle's end event (ship battles log repairs after it)."""
    dash = BattleDashboard(SCENARIOS / "ship-duel.yaml", seed=1)
    dash.run_button.click()
    assert dash.session is not None
    end = dash.session.battle.log.of("end")[-1]
    assert str(end.result) in dash.round_label.value.replace("&#x27;", "'")


def test_ship_scenarios_offer_maneuver_and_shared_targeting() -> None:
    """With ships, sides get a maneuver dropdown; targeting offers names guns and crews share."""
    dash = BattleDashboard(SCENARIOS / "fleet-action.yaml", seed=1)
    assert dash.session is not None
    maneuver = dash.policy_dropdowns[(0, "maneuver")]
    assert maneuver.options[0][0] == "(scenario: line_ahead)"
    targeting = {v for _, v in dash.policy_dropdowns[(0, "targeting")].options}
    assert "nearest_ship" in targeting
    assert "weakest" not in targeting  # a personal-only name the guns would refuse
    dash.step_button.click()
    maneuver.value = "flee"
    assert dash.error.value == ""
    assert dash.session.round == 1
    assert dash.session.scenario.sides[0].policies["maneuver"].name == "flee"


def test_the_log_reads_top_down() -> None:
    """The newest event is at the bottom of the log, the oldest at the top."""
    dash = BattleDashboard("snorri-vs-brynhild", seed=1)
    for _ in range(3):
        dash.step_button.click()
    rounds = [int(x) for x in re.findall(r"^Round (\d+) ", dash.log.value, re.MULTILINE)]
    assert rounds == sorted(rounds)
    assert rounds[-1] == 3


def test_any_scenario_file_opens_from_a_path(tmp_path: Path) -> None:
    """A file outside the scenarios folder, typed in the Open box, joins the picker and
    plays."""
    mine = tmp_path / "my-duel.yaml"
    mine.write_text(
        (Path("scenarios") / "snorri-vs-brynhild.yaml")
        .read_text(encoding="utf-8")
        .replace("name: Snorri vs Brynhild", "name: My duel"),
        encoding="utf-8",
    )
    dash = BattleDashboard("snorri-vs-brynhild", seed=1)
    dash.open_path.value = str(mine)
    assert dash.scenario_picker.value == str(mine.resolve())
    assert dash.session is not None
    assert dash.session.scenario.name == "My duel"


def test_an_uploaded_scenario_opens() -> None:
    """A file uploaded through the picker is opened like a path."""
    data = (Path("scenarios") / "tavern-brawl.yaml").read_bytes()
    dash = BattleDashboard("snorri-vs-brynhild", seed=1)
    dash.upload.value = (
        {"name": "brawl.yaml", "type": "", "size": len(data), "content": memoryview(data),
         "last_modified": datetime.now(UTC)},
    )  # fmt: skip
    assert dash.session is not None
    assert dash.session.scenario.name == "Tavern brawl"
    assert dash.scenario_picker.label == "brawl"


def test_a_missing_file_is_one_error_line() -> None:
    """A path that is not a file says so and keeps the battle shown."""
    dash = BattleDashboard("snorri-vs-brynhild", seed=1)
    dash.open_path.value = "no/such/battle.yaml"
    assert "no such file" in dash.error.value
    assert dash.session is not None


def test_arcs_of_offers_the_ships_only_when_there_are_ships() -> None:
    """The Arcs-of chooser lists the scenario's ships, and hides without ships."""
    ships = BattleDashboard("ship-duel", seed=1)
    assert list(ships.selected_ship.options)[1:] == ["Saltwind", "Red Gannet"]
    ships.selected_ship.value = "Saltwind"
    assert '<g class="arc"' in ships.map.value
    duel = BattleDashboard("snorri-vs-brynhild", seed=1)
    assert duel.selected_ship.layout.display == "none"
