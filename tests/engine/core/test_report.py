"""The header and closing tally a GM reads before and after the blow-by-blow."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fadad_agents.cli import app
from fadad_agents.engine import build_battle, load, result_of, run
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.rules.personal.healing import days_to_heal

DUEL = "scenarios/snorri-vs-brynhild.yaml"
BRAWL = "scenarios/tavern-brawl.yaml"


def test_header_names_the_battle_its_forces_and_the_options_changed():
    """The header names scenario and seed, each side's forces with their strength, and
    every rules option the file sets away from its default."""
    result = run(BRAWL, seed=1)
    assert result.header[0] == "Tavern brawl (seed 1)"
    assert result.header[1] == "Dockhands (20): Big Hulda, 15 Dockhand, 4 Dockhand with club"
    assert result.header[-1] == "Rules: wound_track = npc3"


def test_header_says_when_every_option_is_the_default(tmp_path):
    """A scenario without a rules block is played by the defaults, and says so."""
    text = Path(DUEL).read_text(encoding="utf-8")
    text = text.replace("fadad.initiative: static", "fadad.initiative: rolled")
    path = tmp_path / "duel.yaml"
    path.write_text(text, encoding="utf-8")
    assert run(path, seed=1).header[-1] == "Rules: the defaults"


def test_tally_names_who_took_the_loser_out_and_when():
    """In a duel the loser is taken out by the winner in the battle's last round, and the
    winner's wound is stated."""
    result = run(DUEL, seed=1)
    loser, winner = (result.loser, result.winner)
    lines = dict(line.split(": ", 1) for line in result.tally)
    assert lines[loser].endswith(f"taken out by {winner} in round {result.rounds}")
    assert lines[winner].endswith(", standing")


def test_tally_counts_a_groups_fates():
    """A `count: 15` entry is tallied as one line of how many stood, withdrew or fell,
    adding up to the entry's size."""
    result = run(BRAWL, seed=1)
    dockhands = next(x for x in result.tally if x.startswith("Dockhands: "))
    part = next(p for p in dockhands.split("; ") if p.startswith("15 Dockhand: "))
    counts = [int(n.split()[0]) for n in part.removeprefix("15 Dockhand: ").split(", ")]
    assert sum(counts) == 15


def test_result_narrate_reads_header_events_tally_and_summary():
    """`result.narrate()` is one text: header, every event, the tally, the summary."""
    result = run(DUEL, seed=2)
    lines = result.narrate().splitlines()
    assert lines[: len(result.header)] == list(result.header)
    assert lines[-1] == result.summary()
    assert lines[-1 - len(result.tally) : -1] == list(result.tally)
    assert result.log.lines() == lines[len(result.header) : -1 - len(result.tally)]


def test_fadad_run_prints_header_and_tally_unless_quiet():
    """`fadad run` opens with the header and closes with the tally, the healing bill and
    the summary."""
    loud = CliRunner().invoke(app, ["run", DUEL, "--seed", "1"])
    assert loud.exit_code == 0
    out = loud.output.splitlines()
    assert out[0] == "Snorri vs Brynhild (seed 1)"
    assert out[-4].startswith("Snorri: ")
    assert out[-2].startswith("Healing (fadad rules, rest): ")
    quiet = CliRunner().invoke(app, ["run", DUEL, "--seed", "1", "--quiet"])
    assert quiet.output.splitlines() == [out[-1]]


def _with_healing(model: str) -> str:
    text = Path(DUEL).read_text(encoding="utf-8")
    return text.replace("rules:\n", f"rules:\n  healing_model: {model}\n", 1)


@pytest.mark.parametrize("model", ["fadad", "fudge"])
def test_the_healing_bill_rests_each_survivor_by_the_healing_model(model: str) -> None:
    """Issue 18 (C-09): the tally ends with each wounded survivor's days of rest until
    whole, the longest of its wounds' times under the scenario's ``healing_model``."""
    for seed in range(1, 6):
        battle = build_battle(load(_with_healing(model)), seed=seed).run_to_end()
        bill = result_of(battle, report=True).tally[-1]
        parts = []
        for member in (m for side in battle.sides for m in side.members):
            days = max(days_to_heal(member.track, model), default=0)  # type: ignore[arg-type]
            if member.track.level < Wound.DEAD and days:
                label = member.track.level.label
                parts.append(f"{member.name} {days} day{'s' * (days != 1)} ({label})")
        assert parts
        assert bill == f"Healing ({model} rules, rest): " + "; ".join(parts)


def test_fudge_healing_is_quicker_than_fadad_on_the_same_battle() -> None:
    """The same duel rests a Hurt for 14 days under FADAD and 7 under FUDGE (a week a level)."""
    fadad, fudge = (run(_with_healing(m), seed=1).tally[-1] for m in ("fadad", "fudge"))
    assert "Snorri 14 days (Hurt)" in fadad
    assert "Snorri 7 days (Hurt)" in fudge
