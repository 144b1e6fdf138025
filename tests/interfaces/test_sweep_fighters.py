"""Per-fighter odds: how often each named character goes down, dies, and by whose hand."""

from pathlib import Path

import pytest

from fadad_agents.analysis import fighter_odds, sweep
from fadad_agents.analysis.replicates import fighter_names
from fadad_agents.schema.loader import load_scenario

DUEL = "scenarios/snorri-vs-brynhild.yaml"
BRAWL = "scenarios/tavern-brawl.yaml"


@pytest.fixture(scope="module")
def duel():
    return sweep(DUEL, 300, 3, progress=False)


def test_named_individuals_get_columns_and_groups_do_not():
    """Characters of count 1 are fighters; a `count: 15` group is not."""
    names = fighter_names(load_scenario(Path(BRAWL).read_text(encoding="utf-8")))
    assert names == ["Big Hulda", "Bosun Rask"]


def test_a_duellist_goes_down_exactly_when_the_other_wins(duel):
    """In a duel to the end, Snorri is down in exactly the battles Brynhild wins."""
    frame = duel.frame
    assert (frame["Snorri.down"] == (frame["winner"] == "Brynhild")).all()
    assert (frame["Brynhild.down"] == (frame["winner"] == "Snorri")).all()


def test_the_hand_that_took_a_duellist_out_is_the_other(duel):
    """Every take-out in a duel names the opponent; nobody standing has a taker."""
    frame = duel.frame
    down = frame[frame["Snorri.down"]]
    assert (down["Snorri.taken_out_by"] == "Brynhild").all()
    assert frame.loc[~frame["Snorri.down"], "Snorri.taken_out_by"].isna().all()


def test_fighter_columns_are_conserved(duel):
    """Killed implies down, a fighter is never active longer than the battle, and the
    wound level of a fighter down is Incapacitated or worse."""
    frame = duel.frame
    for name in ("Snorri", "Brynhild"):
        assert not (frame[f"{name}.killed"] & ~frame[f"{name}.down"]).any()
        assert (frame[f"{name}.rounds_active"] <= frame["rounds"]).all()
        assert (frame.loc[frame[f"{name}.down"], f"{name}.wound_level"] >= 4).all()
        assert (frame[f"{name}.down"].astype(int) <= frame[f"{name}.casualties"]).all()


def test_fighter_odds_match_the_win_odds_of_a_duel(duel):
    """Brynhild's chance to go down equals Snorri's chance to win, interval and all."""
    odds = fighter_odds(duel.frame).set_index("fighter")
    wins = duel.win_probabilities().set_index("side")
    assert odds.loc["Brynhild", "down"] == pytest.approx(wins.loc["Snorri", "p"])
    assert odds.loc["Brynhild", "down_low"] == pytest.approx(wins.loc["Snorri", "low"])
    assert odds.loc["Brynhild", "by"] == "Snorri"


def test_summary_states_each_fighters_odds(duel):
    """The summary has a line `Snorri: down N% (low–high), dead ...` per fighter."""
    text = duel.summary()
    line = next(x for x in text.splitlines() if x.startswith("Snorri: down "))
    assert "dead " in line
    assert "Brynhild" in line


def test_fighter_columns_survive_the_results_directory(tmp_path):
    """Written to Parquet and read back, the fighter columns keep their values."""
    from fadad_agents.analysis import read_results

    result = sweep(DUEL, 20, 1, progress=False, out=tmp_path / "r.parquet")
    back = read_results(tmp_path / "r.parquet")
    for column in ("Snorri.down", "Snorri.taken_out_by", "Brynhild.rounds_active"):
        assert back[column].tolist() == result.frame[column].tolist()


def test_a_brawler_taken_out_among_simultaneous_blows_has_a_hand():
    """In a brawl, tied bands strike together and their take-outs follow all their blows;
    every fighter taken out by a blow still names who struck it."""
    frame = sweep(BRAWL, 60, 3, progress=False).frame
    for name in ("Big Hulda", "Bosun Rask"):
        down = frame[frame[f"{name}.down"]]
        assert len(down) > 0
        assert down[f"{name}.taken_out_by"].notna().all()


def test_a_battle_played_again_gives_the_columns_of_the_names_asked():
    """fighter_row keeps a battle's named members between plays (a recycled battle): a
    later call with other names gives those names' columns, and the same values as a
    battle built afresh for the same seed."""
    from fadad_agents.analysis.replicates import fighter_row
    from fadad_agents.engine.core.build import build_battle

    scenario = load_scenario(Path(BRAWL).read_text(encoding="utf-8"))
    battle = build_battle(scenario, 5, collect=False).run_to_end()
    both = fighter_row(battle, frozenset({"Big Hulda", "Bosun Rask"}))
    assert fighter_row(battle, frozenset({"Big Hulda"})) == {
        k: v for k, v in both.items() if k.startswith("Big Hulda.")
    }
    names = frozenset(fighter_names(scenario))
    fighter_row(battle, names)
    battle.reset(6, collect=False)
    battle.run_to_end()
    fresh = build_battle(scenario, 6, collect=False).run_to_end()
    assert fighter_row(battle, names) == fighter_row(fresh, names)
