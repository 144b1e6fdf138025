"""`fadad play` and `fadad resume` driven by scripted standard input, one answer a line."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from fadad_agents.cli import app
from tests.table.conftest import DUEL

RUNNER = CliRunner()


def play(*args: str, answers: str) -> tuple[int, str, str]:
    out = RUNNER.invoke(app, ["play", str(DUEL), *args], input=answers)
    return out.exit_code, out.stdout, out.stderr


def test_table_dice_narrate_what_was_entered() -> None:
    """Entered dice decide the swing: Superb against Fair, hit by 3, damage 3+3+0 = 6; then
    Brynhild's all-plus +4 (Good + 4 - 2 Very Hurt = Superb) crits, and her crit is rolled."""
    code, out, err = play("--dice", "all", answers="+1\n-1\n0\n++++\n-4\nquit\n")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Snorri vs Brynhild (seed 4006)"  # the header `run` opens with
    assert lines[lines.index("") + 1 :] == [
        "Round 1 (0:06) Snorri's swing is Superb; Brynhild's block Fair; hit by 3, damage 6: "
        "Very Hurt."
    ]
    assert "Brynhild rolls d5 for critical effect (1 Extra Damage," in err
    assert "stopped at round 1" in err


def test_a_bad_entry_is_refused_in_one_line_and_asked_again() -> None:
    """'7' for a 4dF and 'x' for a choice: one line each saying what is allowed, then the
    same question again; nothing is lost."""
    code, _, err = play(
        "--control", "Snorri", "--dice", "table", answers="x\n\n\n\n\n\n7\n+1\nquit\n"
    )
    assert code == 0
    assert "'x' is not a choice: answer 1-3, the start of a choice's name, or nothing" in err
    assert "'7' is not a roll of 4dF: four faces of +, - and 0 (like +-0+) or the total" in err
    assert err.count("does Snorri fight on? [1]") == 1  # asked again, not re-announced


def test_undo_then_another_answer_plays_the_other_battle() -> None:
    """undo takes back the last die; the next entry replaces it in the narration (Good - 4 =
    Terrible, against Target Mediocre: hit by 4, one crit, its effect rolled: 1)."""
    code, out, err = play("--dice", "all", answers="+1\n-1\nundo\n-4\n1\n0\nquit\n")
    assert code == 0
    assert "undone: dice defence of Brynhild (round 1)" in err
    first = out.splitlines()[out.splitlines().index("") + 1]  # after the header, as `run`
    assert first.startswith(
        "Round 1 (0:06) Snorri's swing is Superb; Brynhild's block Terrible; hit by 4 "
        "(1 crit: Extra Damage)"
    )


def test_save_quit_and_resume_go_on_where_the_session_stopped(tmp_path: Path) -> None:
    """save PATH writes the answers; resume replays them and asks the next question."""
    saved = tmp_path / "duel.json"
    code, out, err = play("--dice", "all", answers=f"+1\n-1\n0\nsave {saved}\nquit\n")
    assert code == 0
    assert f"saved 3 answers to {saved}" in err
    data = json.loads(saved.read_text())
    assert [a["answer"] for a in data["answers"]] == ["+1", "-1", "0"]
    resumed = RUNNER.invoke(app, ["resume", str(saved)], input="quit\n")
    assert resumed.exit_code == 0
    assert resumed.stdout == out  # the replayed battle, narrated to the same point
    assert "Brynhild rolls 4dF for attack" in resumed.stderr


def test_input_ending_at_a_question_stops_with_status_1() -> None:
    """A script that runs out of answers stops at the question, saying so."""
    code, _, err = play("--control", "Snorri", answers="\n")
    assert code == 1
    assert err.rstrip().endswith(
        "fadad play: input ended at round 1 with a question unanswered (save PATH before "
        "quit keeps a session to resume)"
    )


def test_bad_arguments_are_one_line_exit_2(tmp_path: Path) -> None:
    """Unknown control name, dice mode, scenario or session file: one line, exit 2."""
    for args, text in (
        (["play", str(DUEL), "--control", "Nobody"], "fadad play: --control 'Nobody': no side"),
        (["play", str(DUEL), "--dice", "loaded"], "fadad play: dice 'loaded': use one of"),
        (["play", str(tmp_path / "none.yaml")], str(tmp_path / "none.yaml")),
        (["resume", str(tmp_path / "none.json")], "fadad resume: "),
    ):
        out = RUNNER.invoke(app, args, input="")
        assert out.exit_code == 2, args
        assert out.stderr.startswith(text)
        assert len(out.stderr.strip().splitlines()) == 1
        assert "Traceback" not in out.output


def test_help_and_status_answer_nothing() -> None:
    """help lists the commands and status the combatants; the question is asked again."""
    code, _, err = play("--control", "Snorri", answers="help\nstatus\nquit\n")
    assert code == 0
    assert "save PATH" in err
    assert "Brynhild  Brynhild  Undamaged  fighting" in err
