"""OddsDashboard: clicking Run sweeps two policies on common seeds and draws the odds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fadad_agents.dashboard import OddsDashboard
from fadad_agents.dashboard.charts import histogram_svg
from fadad_agents.dashboard.odds import NO_POLICY, policy_grid

RUNS = 12
SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def _tavern() -> OddsDashboard:
    dash = OddsDashboard("tavern-brawl", runs=RUNS, seed=5)
    dash.side.value = 1
    dash.decision.value = "targeting"
    dash.policy_a.value = "weakest"
    dash.policy_b.value = "nearest"
    return dash


@pytest.fixture
def odds() -> OddsDashboard:
    return _tavern()


@pytest.fixture(scope="module")
def ran() -> OddsDashboard:
    """A tavern sweep already run (for tests that only read its results)."""
    dash = _tavern()
    dash.run_button.click()
    return dash


def test_defaults_offer_the_sides_own_policy_first() -> None:
    """Policy A starts as the side's own policy (the Ship's crew target the weakest)."""
    dash = OddsDashboard("tavern-brawl", runs=RUNS)
    assert [label for label, _ in dash.side.options] == ["Dockhands", "Ship's crew"]
    dash.side.value = 1
    assert dash.policy_a.value == "weakest"
    assert dash.policy_b.value not in ("weakest", NO_POLICY)


def test_run_sweeps_both_policies_and_fills_the_progress_bar(odds: OddsDashboard) -> None:
    """Run plays RUNS battles per policy; the bar ends full; one column per policy."""
    assert odds.grid() == policy_grid(1, "targeting", ["weakest", "nearest"])
    odds.run_button.click()
    assert odds.result is not None
    assert len(odds.result.frame) == 2 * RUNS
    assert odds.progress.value == odds.progress.max == 2 * RUNS
    assert len(odds.columns.children) == 2
    titles = [c.value.split("</h4>")[0] for c in odds.columns.children]
    assert titles == ["<h4>targeting = weakest", "<h4>targeting = nearest"]
    assert "12 battles" in odds.summary.value


def test_policies_are_compared_on_common_random_numbers(ran: OddsDashboard) -> None:
    """Both policies play the same replicate seeds."""
    assert ran.result is not None
    frame = ran.result.frame
    seeds = [list(frame[frame["variant"] == v]["seed"]) for v in (0, 1)]
    assert seeds[0] == seeds[1]
    assert len(set(seeds[0])) == RUNS


def test_win_probabilities_have_wilson_intervals(ran: OddsDashboard) -> None:
    """Each side's p lies in its interval; a policy's outcomes add up to its runs."""
    table = ran.win_table()
    assert {row[0] for row in table} == {"targeting = weakest", "targeting = nearest"}
    for _, _, p, low, high in table:
        assert 0.0 <= low <= p <= high <= 1.0
    assert ran.result is not None
    probs = ran.result.win_probabilities()
    assert probs.groupby("variant")["wins"].sum().tolist() == [RUNS, RUNS]


def test_histograms_count_every_battle(ran: OddsDashboard) -> None:
    """The length and loss histograms of each policy hold RUNS battles each."""
    for column in ran.columns.children:
        svgs = column.value.split("<svg")[2:]  # after the interval chart
        assert len(svgs) == 3  # battle length, then each side's losses
        for svg in svgs:
            counts = [int(n) for n in re.findall(r"<rect [^>]*><title>(\d+)</title>", svg)]
            assert sum(counts) == RUNS


def test_same_seed_gives_the_same_odds(odds: OddsDashboard) -> None:
    """Running again with the same seed reproduces the table; another seed changes rows."""
    odds.run_button.click()
    first = odds.win_table()
    assert odds.result is not None
    rows = odds.result.frame["seed"].tolist()
    odds.run_button.click()
    assert odds.win_table() == first
    odds.seed.value = 6
    odds.run_button.click()
    assert odds.result.frame["seed"].tolist() != rows


def test_no_comparison_sweeps_the_scenario_as_written() -> None:
    """Policy B '(scenario's own)' sweeps one variant."""
    dash = OddsDashboard("snorri-vs-brynhild", runs=RUNS)
    dash.policy_b.value = NO_POLICY
    assert dash.grid() is None
    dash.run_button.click()
    assert len(dash.columns.children) == 1
    assert "as written" in dash.columns.children[0].value
    assert dash.progress.value == RUNS


def test_unplayable_scenario_shows_the_reason(tmp_path: Path) -> None:
    """A scenario with an unknown policy: the message says why, nothing is raised."""
    text = (SCENARIOS / "tavern-brawl.yaml").read_text()
    bad = tmp_path / "bad-brawl.yaml"
    bad.write_text(text.replace("targeting: nearest", "targeting: no_such_policy"))
    dash = OddsDashboard(bad, runs=RUNS)
    dash.policy_b.value = NO_POLICY  # as written (a grid would replace the bad policy)
    assert dash.run() is None
    assert "no_such_policy" in dash.message.value
    assert dash.columns.children == ()


def test_histogram_of_whole_numbers_has_a_bar_per_value() -> None:
    """Few distinct whole numbers get one bar each, labelled by the extreme values."""
    svg = histogram_svg([3, 4, 4, 6], title="t", xlabel="rounds")
    counts = [int(n) for n in re.findall(r"<title>(\d+)</title>", svg)]
    assert counts == [1, 2, 0, 1]
    assert ">3</text>" in svg
    assert ">6</text>" in svg


def test_ship_duel_compares_maneuver_policies() -> None:
    """For a ship scenario the decisions include maneuver; two maneuvers are swept."""
    dash = OddsDashboard("ship-duel", runs=4, seed=3)
    assert "maneuver" in dash.decision.options
    assert "fae_action" not in dash.decision.options
    dash.side.value = 1
    dash.decision.value = "maneuver"
    assert dash.policy_a.value == "close_and_ram"  # the Reavers' own
    dash.policy_b.value = "stand_off"
    dash.run_button.click()
    assert [r[0] for r in dash.win_table()][::2] == [
        "maneuver = close_and_ram",
        "maneuver = stand_off",
    ]
    assert dash.progress.value == 8


def test_it_starts_with_enough_runs_for_two_points() -> None:
    """The default run count gives a 95% interval of about +/-2 points at p = 1/2."""
    from fadad_agents.analysis import wilson_interval
    from fadad_agents.dashboard.odds import RUNS_FOR_TWO_POINTS

    dash = OddsDashboard("snorri-vs-brynhild")
    assert dash.runs.value == RUNS_FOR_TWO_POINTS
    low, high = wilson_interval(RUNS_FOR_TWO_POINTS // 2, RUNS_FOR_TWO_POINTS)
    assert high - low < 0.04


def test_any_field_can_be_compared_with_its_paired_difference() -> None:
    """Vary a field (Snorri's sword against a club): both variants play the same seeds and
    the difference B - A is stated with its interval and a verdict."""
    dash = OddsDashboard("snorri-vs-brynhild", runs=40, seed=3)
    dash.vary.value = "field"
    assert dash._field_box.layout.display is None
    assert dash._policy_box.layout.display == "none"
    dash.path.value = "sides[0].forces[0].weapon"
    dash.value_a.value = "weapons/broadsword"
    dash.value_b.value = "weapons/club"
    dash.run_button.click()
    assert dash.result is not None
    assert len(dash.result.frame) == 80
    assert "variant 1 - variant 0, paired on the same 40 battles" in dash.difference.value
    assert re.search(r"Snorri wins: \d+% -&gt; \d+%", dash.difference.value)
    assert dash.summary.value.count("Snorri vs Brynhild: 40 battles") == 2


def test_a_bad_field_path_is_shown_not_raised() -> None:
    """A path the scenario does not have is a message under the controls."""
    dash = OddsDashboard("snorri-vs-brynhild", runs=5)
    dash.vary.value = "field"
    dash.path.value = "sides[0].forces[0].wepon"
    dash.value_a.value = "weapons/club"
    dash.value_b.value = "weapons/axe"
    assert dash.run() is None
    assert "wepon" in dash.message.value
    assert "did you mean" in dash.message.value


def test_the_exact_odds_of_a_duel_stand_beside_the_estimate(tmp_path: Path) -> None:
    """With "Exact odds" ticked, a duel's exact chances are shown beside the Monte Carlo
    estimate; a scenario that is no duel says why in one line."""
    duel = tmp_path / "duel.yaml"
    duel.write_text(
        (SCENARIOS / "snorri-vs-brynhild.yaml")
        .read_text()
        .replace(
            "fadad.actions_per_round: 2", "fadad.actions_per_round: 2\n  fadad.crit_effects: none"
        )
        .replace("max_rounds: 30", "max_rounds: 5")
    )
    dash = OddsDashboard(duel, runs=RUNS)
    dash.policy_b.value = NO_POLICY
    dash.exact.value = True
    dash.run_button.click()
    assert "Monte Carlo (95% interval)   exact" in dash.exact_odds.value
    assert re.search(r"Snorri +\d\.\d{4} \(.*\) +0\.\d{4}", dash.exact_odds.value)
    tavern = _tavern()
    tavern.exact.value = True
    tavern.run_button.click()
    assert "not solved: each side must be one character" in tavern.exact_odds.value
