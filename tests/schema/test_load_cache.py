"""A scenario file read again is validated once: the same object while its text is the
same, a fresh one once it changes (a loop of run(path, seed) parses nothing twice); a
settled file (unchanged for a while) is not even read again while its stat is the same."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from fadad_agents.schema import load_scenario, source
from fadad_agents.schema.limits import Limits
from fadad_agents.schema.source import SETTLED_NS
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


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names the loader reads from here on."""
    names: list[str] = []
    real = source.read_source

    def counted(given: str | Path, limits: Limits) -> tuple[str, str]:
        names.append(str(given))
        return real(given, limits)

    monkeypatch.setattr("fadad_agents.schema.loader.read_source", counted)
    return names


def _as_if_later(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock moved on past the settling time: the files written so far are settled
    (their inode's change time, which nothing can set back, is in the past)."""
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() + 10 * SETTLED_NS)


def test_a_settled_file_loaded_again_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file not changed for a while is looked at (one stat), not opened, on its next
    loads: the same scenario object without a read."""
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL.read_text())
    _as_if_later(monkeypatch)
    reads = _reads(monkeypatch)
    first = load_scenario(path)
    assert [load_scenario(path) for _ in range(3)] == [first] * 3
    assert load_scenario(str(path)) is first
    assert reads == [str(path)]


def test_a_settled_file_rewritten_is_read_again_even_with_its_old_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit of the same length, with the file's modification time put back as it was,
    still changes the inode's change time: the next load reads the new text."""
    path = tmp_path / "duel.yaml"
    text = DUEL.read_text()
    path.write_text(text)
    _as_if_later(monkeypatch)
    before = load_scenario(path)
    stamp = os.stat(path)
    edited = text.replace("name: Snorri vs Brynhild", "name: Snorri vs Brynhilx")
    assert len(edited) == len(text)
    assert edited != text
    path.write_text(edited)
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert os.stat(path).st_mtime_ns == stamp.st_mtime_ns
    assert (before.name, load_scenario(path).name) == ("Snorri vs Brynhild", "Snorri vs Brynhilx")


def test_a_file_replaced_under_its_name_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another file renamed over the name (an editor's safe save): another inode."""
    path, other = tmp_path / "duel.yaml", tmp_path / "new.yaml"
    text = DUEL.read_text()
    path.write_text(text)
    other.write_text(text.replace("name: Snorri vs Brynhild", "name: Snorri again"))
    _as_if_later(monkeypatch)
    assert load_scenario(path).name == "Snorri vs Brynhild"
    other.replace(path)
    assert load_scenario(path).name == "Snorri again"


def test_a_file_changed_lately_is_read_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within the settling time a second edit could leave the same times (a coarse file
    system clock): such a file is read on every load (and validated once per text)."""
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL.read_text())
    reads = _reads(monkeypatch)
    first = load_scenario(path)
    assert load_scenario(path) is first
    assert reads == [str(path)] * 2


def test_a_gm_folder_made_beside_a_settled_file_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The GM's ``models/`` folder is looked for on every load: one made beside a settled
    file after its first load gives its catalogue to the next (not the kept scenario)."""
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL.read_text())
    _as_if_later(monkeypatch)
    plain = load_scenario(path)
    (tmp_path / "models" / "weapons").mkdir(parents=True)
    reads = _reads(monkeypatch)
    assert load_scenario(path) is not plain
    assert reads == [str(path)]
