"""A scenario's odds do not depend on the order of its sides in the file.

Each case plays a shipped scenario as written and with its sides listed the other way
round (``analysis.sweep``), and holds each side's win probability (and the chance of no
winner) in the two orders within 3 standard errors of each other (a two-proportion z).
The two orders play different replicate seeds: on the same seeds the swapped battle hands
each side the other's dice streams (streams follow the place in the file), so the two
estimates would move against each other and the z would overstate their difference.

Before ties on initiative were made fair (personal-combat.md 1.2) the first-listed side
struck first in every tie: these cases failed, the tavern brawl's Dockhands winning 76%
listed first and 66% listed second (z = 7.2) and Wilbur 14% and 11% (z = 3.2).

Add a case: one line in the list of your rule system, ``Case("scenario-stem", runs)``,
with 2,000 replicates where ties decide blows (rolled initiative, groups, shared turns)
and fewer where they cannot (a static order without equal traits).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import pytest

from fadad_agents.analysis import NO_WINNER, sweep
from fadad_agents.engine import load
from fadad_agents.schema.scenario import Scenario
from tests.engine.conftest import SCENARIOS


class Case(NamedTuple):
    """A shipped scenario and the replicates to play in each order."""

    scenario: str
    runs: int


PERSONAL = [
    Case("tavern-brawl", 2000),  # rolled initiative, bands and crews: ties every round
    Case("field-battle", 2000),  # FADAD unit bands on one roll a side
    Case("wilbur-vs-dragon", 2000),  # rolled initiative, equal reactions
    Case("snorri-vs-brynhild", 300),  # static order, Snorri's better reaction: no ties
    Case("goblin-ambush", 300),  # rolled initiative, bands: ties; slower (30 ms a battle)
]
SHIPS = [
    Case("boarding-action", 600),  # deck melee every round: rolled initiative, crews
    Case("ship-duel", 200),  # side initiative rerolls its ties; deck fights after
    Case("wyrm-at-the-moonlet", 60),  # one-sided (the wyrm wins ~95%): few replicates
    Case("fleet-action", 30),  # 1-minute rounds, slow: the sharp deck check is in
    # tests/engine/ships/test_deck_initiative.py (two identical crews, 600 battles)
]
FAE = [  # ties act simultaneously, in an order drawn by lot (fae-domains.md section 2)
    Case("fae-duel", 2000),  # one on one: equal margins at count 0 every few turns
    Case("fae-mixed-melee", 2000),  # Fae turns beside FADAD rounds
    # The two group scenes are slower (10 ms a battle): 500 each way here, while
    # tests/engine/fae/test_turn_order.py pins the tie rule itself on 1,000 twin duels.
    Case("fae-aerial-skirmish", 500),
    Case("fae-mounted-charge", 500),
]

SEEDS = (20_251, 20_252)
"""Root seeds of the sweeps as written and swapped (independent replicates)."""


def swapped(scenario: Scenario) -> Scenario:
    """The same scenario with its sides listed in the opposite order."""
    return scenario.model_copy(update={"sides": scenario.sides[::-1]})


def win_rates(scenario: Scenario, runs: int, seed: int) -> dict[str, float]:
    """Each side's share of wins (and of no winner) over ``runs`` replicates."""
    frame = sweep(scenario, runs, seed, progress=False).frame
    counts = frame["winner"].fillna(NO_WINNER).value_counts()
    names = [side.name for side in scenario.sides] + [NO_WINNER]
    return {name: int(counts.get(name, 0)) / runs for name in names}


def z_score(p: float, q: float, runs: int) -> float:
    """Two-proportion z of shares ``p`` and ``q`` of ``runs`` each (0 when both are 0 or 1)."""
    se = math.sqrt((p * (1 - p) + q * (1 - q)) / runs)
    return 0.0 if se == 0 else (p - q) / se


def _cases() -> list[object]:
    return [
        pytest.param(c, id=c.scenario, marks=[pytest.mark.slow] if c.runs >= 1000 else [])
        for c in PERSONAL + SHIPS + FAE
    ]


@pytest.mark.parametrize("case", _cases())
def test_swapping_the_sides_mirrors_the_odds(case: Case) -> None:
    """Every side wins as often listed first as listed last (|z| <= 3)."""
    scenario = load(SCENARIOS / f"{case.scenario}.yaml")
    as_written = win_rates(scenario, case.runs, SEEDS[0])
    reversed_ = win_rates(swapped(scenario), case.runs, SEEDS[1])
    z = {name: z_score(p, reversed_[name], case.runs) for name, p in as_written.items()}
    assert all(abs(v) <= 3 for v in z.values()), (as_written, reversed_, z)


def test_the_z_score_tells_a_real_difference() -> None:
    """The check can fail: 76% against 70% of 1,000 is z = 3.0; equal shares are 0."""
    assert z_score(0.76, 0.70, 1000) == pytest.approx(3.03, abs=0.01)
    assert z_score(1.0, 1.0, 10) == 0.0
