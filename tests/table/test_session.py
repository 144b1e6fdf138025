"""TableSession: questions for controlled fighters, answers, undo, auto, replay checks."""

from __future__ import annotations

import pytest

from fadad_agents.engine import run
from fadad_agents.table import (
    AnswerError,
    Decision,
    Roll,
    SessionError,
    SessionMismatch,
    TableSession,
)
from tests.table.conftest import DUEL, answer_all


def test_nobody_controlled_plays_the_battle_run_plays() -> None:
    """A session controlling nobody asks nothing and ends as run() does."""
    session = TableSession(DUEL, seed=3)
    assert session.replay() is None
    assert session.result.log.to_jsonl() == run(DUEL, seed=3).log.to_jsonl()


def test_a_controlled_fighter_is_offered_its_decisions_with_the_policy_default() -> None:
    """Each decision lists the legal choices, numbered, the policy's own marked default."""
    session = TableSession(DUEL, seed=1, control=["Snorri"])
    question = session.replay()
    assert isinstance(question, Decision)
    assert (question.who, question.kind, question.round) == ("Snorri", "retreat", 1)
    assert question.labels == ["fight on", "withdraw", "surrender"]
    assert question.default_index == 0
    assert question.lines()[1] == " *1. fight on"
    question = session.answer("")
    assert isinstance(question, Decision)
    assert question.kind == "targeting"
    assert question.labels == ["attack Brynhild (Undamaged)", "no attack this round"]


def test_answers_change_the_battle_as_chosen() -> None:
    """All-out defence chosen every round: Snorri never swings (the log has no attack by him)."""
    session = TableSession(DUEL, seed=1, control=["Snorri"])
    question = session.replay()
    while question is not None:
        entry = "all-out" if isinstance(question, Decision) and question.kind == "stance" else ""
        question = session.answer(entry)
    attackers = {e.actor for e in session.result.log.of("attack")}
    assert attackers == {"Brynhild"}
    stances = [a for a in session.answers if a.ask == "stance"]
    assert stances
    assert all(a.text == "2" for a in stances)


def test_blank_answers_replay_the_run_battle_byte_for_byte() -> None:
    """Every question answered blank, table dice on: the log run() writes, to the byte."""
    session = TableSession(DUEL, seed=2, control=["Snorri", "Brynhild"], dice="all")
    assert answer_all(session) > 20
    assert session.result.log.to_jsonl() == run(DUEL, seed=2).log.to_jsonl()
    assert session.result.summary() == run(DUEL, seed=2).summary()


def test_a_wrong_entry_is_refused_and_changes_nothing() -> None:
    """A bad entry raises AnswerError saying what is allowed; the pending question stays."""
    session = TableSession(DUEL, seed=1, control=["Snorri"])
    question = session.replay()
    with pytest.raises(AnswerError, match=r"answer 1-3"):
        session.answer("7")
    assert session.pending == question
    assert session.answers == []


def test_undo_takes_back_the_last_answer() -> None:
    """Undo pops one answer and replays to the question it answered."""
    session = TableSession(DUEL, seed=1, control=["Snorri"])
    first = session.replay()
    second = session.answer("1")
    assert first is not None
    assert second is not None
    again = session.undo()
    assert again is not None
    assert again.lines() == first.lines()
    assert session.answers == []
    after = session.answer("1")
    assert after is not None
    assert after.lines() == second.lines()
    with pytest.raises(SessionError, match="nothing to undo"):
        TableSession(DUEL, seed=1, control=["Snorri"]).undo()


def test_auto_hands_the_round_to_the_policies_and_undo_takes_it_back() -> None:
    """auto answers the rest of the round by default; the next question is in round 2; one
    undo takes back every answer auto gave."""
    session = TableSession(DUEL, seed=1, control=["Snorri"], dice="table")
    first = session.replay()
    nxt = session.auto()
    assert first is not None
    assert nxt is not None
    assert nxt.round == 2
    assert all(a.auto for a in session.answers)
    assert len(session.answers) > 3
    again = session.undo()
    assert again is not None
    assert again.lines() == first.lines()
    assert session.answers == []


def test_table_dice_ask_each_roll_of_the_controlled_and_use_the_entry() -> None:
    """With table dice the controlled fighter's rolls are asked in table notation and the
    entered die is the one narrated (Snorri Great + 1 = Superb)."""
    session = TableSession(DUEL, seed=1, dice="all")
    roll = session.replay()
    assert isinstance(roll, Roll)
    assert (roll.who, roll.purpose, str(roll.die)) == (
        "Snorri",
        "attack",
        "4dF",
    )
    session.answer("+0-+")  # Snorri's attack: +1
    session.answer("-1")  # Brynhild's block
    session.answer("0")  # Snorri's damage: RD 3 + factor 3 + 0
    line = session.battle.log.lines()[0]
    assert line == (
        "Round 1 (0:06) Snorri's swing is Superb; Brynhild's block Fair; hit by 3, damage 6: "
        "Very Hurt."
    )


def test_unknown_control_name_is_one_clear_error() -> None:
    """A name the scenario does not have: SessionError listing the names it has."""
    with pytest.raises(SessionError, match=r"'Snori'.*Snorri, Brynhild"):
        TableSession(DUEL, control=["Snori"])
    with pytest.raises(SessionError, match="dice 'some'"):
        TableSession(DUEL, dice="some")  # type: ignore[arg-type]


def test_a_kept_answer_that_does_not_fit_is_a_mismatch() -> None:
    """Replaying answers given for another seed stops with SessionMismatch, not a guess."""
    session = TableSession(DUEL, seed=1, control=["Snorri"], dice="table")
    answer_all(session)
    other = TableSession(DUEL, seed=2, control=["Snorri"], dice="table", answers=session.answers)
    with pytest.raises(SessionMismatch, match="does not fit"):
        other.replay()


def test_every_decision_kind_of_the_shipped_engines_is_asked() -> None:
    """No personal, ship or Fae decision of a controlled agent is left to its policy."""
    for name in ("boarding-action", "fae-mounted-charge", "tavern-brawl"):
        path = DUEL.with_name(f"{name}.yaml")
        sides = [s.name for s in TableSession(path, seed=1).battle.sides]
        session = TableSession(path, seed=1, control=sides)
        session.replay()
        assert session.left_to_policies == [], name
