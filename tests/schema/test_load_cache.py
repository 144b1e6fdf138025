"""A scenario file read again is validated once: the same object while its text is the
same, a fresh one once it changes (a loop of run(path, seed) parses nothing twice)."""

from __future__ import annotations

from pathlib import Path

from fadad_agents.schema import load_scenario
from fadad_agents.schema.limits import Limits
from tests.schema.conftest import ROOT

DUEL = ROOT / "scenarios" / "snorri-vs-brynhild.yaml"


def test_the_same_file_gives_the_same_scenario_object(tmp_path: Path) -> None:
    """Loading one unchanged file twice returns the object validated the first time."""
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL.read_text())
    assert load_scenario(path) is load_scenario(str(path))


def test_an_edited_file_is_read_afresh(tmp_path: Path) -> None:
    """After the file changes, the next load sees the new text (not a stale copy)."""
    path = tmp_path / "duel.yaml"
    text = DUEL.read_text()
    path.write_text(text)
    before = load_scenario(path)
    path.write_text(text.replace("name: Snorri vs Brynhild", "name: Snorri again"))
    after = load_scenario(path)
    assert (before.name, after.name) == ("Snorri vs Brynhild", "Snorri again")


def test_other_limits_or_file_name_load_apart(tmp_path: Path) -> None:
    """The same text under other limits, or under another file name, is its own
    scenario (its limits and the file its messages name differ)."""
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL.read_text())
    base = load_scenario(path)
    assert load_scenario(path, limits=Limits(agents=50)) is not base
    assert load_scenario(DUEL) is not base
    assert load_scenario(DUEL) == base
