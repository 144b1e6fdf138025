"""When a battle is over: the verdict from the side rosters and the stop rule."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from fadad_agents.agents.core.base import SideRoster, Status
from fadad_agents.engine import Battle, build_battle, load
from fadad_agents.engine.core.ending import Ending, StopRule, end_summary, side_out_kind, verdict
from tests.engine.conftest import SCENARIOS


def _side(index: int, *statuses: Status) -> SideRoster:
    """A roster whose members (one head each) stand in ``statuses``; those out are among
    its downed, as the battle's take_out leaves them."""
    roster = SideRoster(index, f"S{index}")
    for status in statuses:
        member = SimpleNamespace(status=status, headcount=1, initial_headcount=1)
        roster.add(member)  # type: ignore[arg-type]
        if status is not Status.FIGHTING:
            roster.deactivate(member)  # type: ignore[arg-type]
        if status is Status.OUT:
            roster.downed.append(member)  # type: ignore[arg-type]
    return roster


F, OUT, FLED, GAVE_UP = Status.FIGHTING, Status.OUT, Status.WITHDRAWN, Status.SURRENDERED


def test_a_side_out_is_surrendered_routed_or_destroyed() -> None:
    """More gave up than fled: surrendered; anyone fled: routed; else destroyed."""
    assert side_out_kind(_side(0, GAVE_UP, GAVE_UP, FLED)) is Ending.SURRENDERED
    assert side_out_kind(_side(0, GAVE_UP, FLED, FLED)) is Ending.ROUTED
    assert side_out_kind(_side(0, OUT, OUT)) is Ending.DESTROYED
    assert side_out_kind(_side(0, OUT, FLED)) is Ending.ROUTED  # not every one downed
    assert side_out_kind(_side(0, GAVE_UP, OUT)) is Ending.SURRENDERED


def test_the_last_side_standing_wins() -> None:
    assert verdict([_side(0, F, OUT), _side(1, OUT, OUT)], StopRule(), 3, 18) == (
        Ending.DESTROYED,
        0,
        1,
    )


def test_every_side_out_at_once_is_mutual() -> None:
    assert verdict([_side(0, OUT), _side(1, OUT)], StopRule(), 3, 18) == (
        Ending.MUTUAL,
        None,
        None,
    )


def test_a_side_out_in_a_way_the_scenario_does_not_count_plays_on() -> None:
    """With three sides and ``when_side: [destroyed]``, a routed side does not end it."""
    sides = [_side(0, F), _side(1, F), _side(2, FLED)]
    assert verdict(sides, StopRule(when_side=["destroyed"]), 3, 18) is None
    assert verdict(sides, StopRule(), 3, 18) == (Ending.ROUTED, None, 2)


def test_the_stop_rule_ends_it_by_rounds_or_seconds() -> None:
    sides = [_side(0, F), _side(1, F)]
    assert verdict(sides, StopRule(max_rounds=5), 4, 24) is None
    assert verdict(sides, StopRule(max_rounds=5), 5, 30) == (Ending.STOPPED, None, None)
    assert verdict(sides, StopRule(None, max_seconds=60), 9, 60) == (Ending.STOPPED, None, None)


def test_end_summary_reads_who_won_and_how() -> None:
    """The end line names the winner and the loser's fate, or says why nobody won."""
    names = ["Snorri", "Brynhild"]
    assert end_summary(names, Ending.DESTROYED, 0, 1) == "Snorri wins (Brynhild destroyed)"
    assert end_summary(names, Ending.MUTUAL, None, None) == (
        "no winner (mutual: every side was out in the same round)"
    )
    assert end_summary(names, Ending.STOPPED, None, None).startswith(
        "no winner (stopped: the scenario's round or time limit came"
    )


def test_a_side_with_a_plural_name_wins_in_the_plural() -> None:
    """`Pirates win`, `Ship's crew wins`: the verb agrees with the side's name."""
    names = ["Pirates", "Ship's crew"]
    assert end_summary(names, Ending.ROUTED, 0, 1) == "Pirates win (Ship's crew routed)"
    assert end_summary(names, Ending.SURRENDERED, 1, 0) == "Ship's crew wins (Pirates surrendered)"


@pytest.mark.parametrize(
    ("scenario", "stop"),
    [
        ("snorri-vs-brynhild.yaml", None),
        ("tavern-brawl.yaml", None),
        ("goblin-ambush.yaml", None),
        ("tavern-brawl.yaml", StopRule(max_rounds=2)),
        ("snorri-vs-brynhild.yaml", StopRule(None, max_seconds=12)),
    ],
)
def test_a_battle_ends_when_the_verdict_says_so(
    scenario: str, stop: StopRule | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Battle._check_end answers most rounds (both sides fighting, no limit reached)
    without the verdict: each round, over exactly when the verdict says so."""
    check_end = Battle._check_end
    answers: list[bool] = []

    def checked(battle: Battle) -> bool:
        expected = verdict(battle.sides, battle.stop, battle.round, battle.env.now)
        over = check_end(battle)
        assert over is (expected is not None)
        assert (battle.ending, battle.winner, battle.out_side) == (expected or (None,) * 3)
        answers.append(over)
        return over

    monkeypatch.setattr(Battle, "_check_end", checked)
    for seed in (1, 2, 3):
        battle = build_battle(load(SCENARIOS / scenario), seed)
        if stop is not None:
            battle.stop = stop
        battle.run_to_end()
    assert answers.count(True) == 3  # each battle ended once
    assert len(answers) > 3
