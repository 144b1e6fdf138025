"""The exact odds of a duel (``fadad_agents.analysis.exact``) against the whole engine's
Monte Carlo: for every configuration each side's chance to win agrees within 3 standard
errors of 10,000 replicates (issue 15, item 7)."""

from __future__ import annotations

import gc
import math

import pytest

from fadad_agents.analysis import sweep
from fadad_agents.analysis.exact import duel_odds, out_of_reach
from fadad_agents.engine import load
from tests.engine.conftest import SCENARIOS, duel_yaml

REPLICATES = 10_000
NO_CRITS = "fadad.crit_effects: none"
SHIELD = "        shield: shields/medium\n"
PLAYER = "        player: true\n        ite_points: 1\n"

CONFIGS: dict[str, tuple[str, str, str, int]] = {
    # name: (Red's extra, Blue's extra, rules, round limit)
    "identical fighters, rolled initiative": ("", "", NO_CRITS, 30),
    "a skill difference": (
        "skill: Great",
        "",
        NO_CRITS + ", fadad.initiative: static",
        30,
    ),
    "a shield against armour": (SHIELD, "armour: chain-mail", NO_CRITS, 30),
    "FUDGE numeric wounds": ("", "", NO_CRITS + ", wound_model: fudge_numeric", 30),
    "FUDGE min-mid-max wounds": ("", "", NO_CRITS + ", wound_model: fudge_minmidmax", 30),
    "the moderately cinematic track": (
        "",
        "",
        NO_CRITS + ", wound_track: moderately_cinematic",
        30,
    ),
    "PC-death options and an Ité point": (
        PLAYER,
        "",
        NO_CRITS + ", pc_death.max_three_levels: true, pc_death.no_near_death_unless_incap: true",
        30,
    ),
    "non-lethal crit effects": ("", "", "", 30),
    "all crit effects": ("", "skill: Great", "fadad.crit_effects: random", 30),
    "knockouts that wear off": (
        "",
        "skill: Great",
        "fadad.crit_effects: random, knockout_rounds: 2",
        30,
    ),
    "three actions a round": ("", "", NO_CRITS + ", fadad.actions_per_round: 3", 30),
}


def swordsman(name: str, extra: str) -> str:
    """A Good swordsman in heavy leather; ``extra`` is YAML lines, or ``skill: LEVEL`` or
    ``armour: MODEL`` to change those."""
    skill, armour = "Good", "heavy-leather"
    if extra.startswith("skill: "):
        skill, extra = extra.removeprefix("skill: "), ""
    elif extra.startswith("armour: "):
        armour, extra = extra.removeprefix("armour: "), ""
    return f"""
      - name: {name}
        skills: {{Sword: {skill}, Shield: Good}}
        attack_skill: Sword
        weapon: weapons/broadsword
        armour: armour/{armour}
{extra}"""


def duel(red: str, blue: str, rules: str, rounds: int) -> str:
    """Ann (Red) against Bob (Blue), side by side."""
    return duel_yaml(
        swordsman("Ann", red), swordsman("Bob", blue), rules=rules, stop=f"max_rounds: {rounds}"
    )


@pytest.mark.parametrize("config", list(CONFIGS), ids=list(CONFIGS))
def test_monte_carlo_agrees_with_the_exact_odds(config: str) -> None:
    """The engine's win frequencies over 10,000 duels lie within 3 standard errors of the
    exact chances, for each side."""
    scenario = load(duel(*CONFIGS[config]))
    exact = duel_odds(scenario)
    assert math.isclose(sum(exact.wins) + exact.mutual + exact.unfinished, 1.0, abs_tol=1e-9), (
        "the chain lost probability"
    )
    winners = sweep(scenario, REPLICATES, 15, backend="serial", progress=False).frame["winner"]
    for side, p in zip(exact.sides, exact.wins, strict=True):
        freq = float((winners == side).mean())
        se = math.sqrt(p * (1 - p) / REPLICATES)
        assert abs(freq - p) <= 3 * se, f"{side}: Monte Carlo {freq:.4f}, exact {p:.4f}"


def test_identical_duellists_have_identical_chances() -> None:
    """Symmetry: two identical fighters with rolled initiative win equally often, exactly."""
    exact = duel_odds(load(duel("", "", NO_CRITS, 30)))
    assert exact.wins[0] == pytest.approx(exact.wins[1], rel=1e-9)
    assert exact.wins[0] > 0.01


@pytest.mark.parametrize("enabled", [True, False])
def test_a_solve_leaves_the_collector_as_it_found_it(enabled: bool) -> None:
    """The solve pauses Python's garbage collector (its memos are acyclic); a caller's
    collector is on again after it, and one the caller had turned off stays off."""
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        duel_odds(load(duel("", "", NO_CRITS, 2)))
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_what_is_not_a_duel_is_said_in_one_line() -> None:
    """Groups, ships and fighters that start apart are out of the solver's reach, each
    with its reason."""
    assert out_of_reach(SCENARIOS / "snorri-vs-brynhild.yaml") is None
    assert "groups" in (out_of_reach(SCENARIOS / "tavern-brawl.yaml") or "")
    assert "ShipBattle" in (out_of_reach(SCENARIOS / "ship-duel.yaml") or "")
    assert "apart" in (out_of_reach(SCENARIOS / "wilbur-vs-dragon.yaml") or "")
