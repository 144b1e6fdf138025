"""Any sequence of valid answers leaves a consistent battle (hypothesis).

Whatever the GM chooses and rolls: no wound box is filled below zero or past its track,
no hull or head count goes negative, and a fighter taken out of the fight never attacks
again; the battle ends."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fadad_agents.table import Answer, Decision, Question, Roll, TableSession, show_roll
from tests.table.conftest import SCENARIOS, every_side

SMALL = ["snorri-vs-brynhild", "wilbur-vs-dragon", "field-battle", "ship-duel", "fae-duel"]


def _any_roll(question: Roll, pick: int) -> str:
    """A legal entry for the roll, chosen by ``pick``."""
    die = question.die
    if die.faces == 0:
        return show_roll(die, pick % (2 * die.number + 1) - die.number)
    rolls = [1 + (pick // die.faces**i) % die.faces for i in range(die.number)]
    return " ".join(str(r) for r in rolls)


def _check(session: TableSession) -> None:
    battle = session.battle
    left_at: dict[str, int] = {}
    for i, event in enumerate(battle.log.events):
        if event.action in ("out", "withdraw", "surrender"):
            left_at.setdefault(event.actor, i)
        if event.action == "attack" and event.actor in left_at:
            raise AssertionError(f"{event.actor} attacks after leaving the fight: {event}")
    for side in battle.sides:
        for agent in side.members:
            track: Any = getattr(agent, "track", None)
            if hasattr(track, "filled"):  # a wound track's boxes
                assert all(0 <= f <= b for f, b in zip(track.filled, track.boxes, strict=True))
            elif track is not None:  # Fae Domains Wound and Fatigue totals
                assert track.wounds >= 0
                assert track.fatigue >= 0
            assert agent.headcount >= 0
            if getattr(agent, "kind", "") == "ship":
                assert 0.0 <= agent.hull_fraction <= 1.0


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(SMALL),
    st.integers(0, 2**16),
    st.lists(st.integers(0, 2**20), min_size=1, max_size=300),
)
@example("field-battle", 0, [0, 10061])  # a unit's course held at a lone fighter, in bulk
def test_any_valid_answers_leave_a_consistent_battle(
    name: str, seed: int, picks: list[int]
) -> None:
    """Any choices and rolls for every side: the invariants hold and the battle ends.

    The answers are drawn before the battle (hypothesis cannot draw inside a SimPy run)
    and taken in turn, again from the first when they run out."""
    path = SCENARIOS / f"{name}.yaml"
    session = TableSession(path, seed=seed, control=every_side(path, seed), dice="all")
    taken = iter(picks * 10_000)

    def ask(question: Question) -> Answer:
        pick = next(taken)
        if isinstance(question, Decision):
            return question.parse(str(1 + pick % len(question.choices)))
        assert isinstance(question, Roll)
        return question.parse(_any_roll(question, pick))

    result = session.play(ask)
    _check(session)
    assert result.ending != "unfinished"
