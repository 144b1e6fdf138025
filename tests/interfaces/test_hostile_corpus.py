"""Valid-looking files that once hung, crashed or lied (issue 20): each is refused in one
line, or played to an end within its bounds.

``tests/interfaces/hostile/`` holds the corpus; ``expected.txt`` holds, for each file,
the one line ``fadad validate`` prints (``file:line field.path: what is wrong (what is
allowed)``; one ending in ``...`` is a prefix: the list of known policies grows), or, for
a file that is valid, ``FILE => `` and a pattern of the summary
``fadad run --quiet`` prints (who wins is the rules' business, not this test's; a battle
stopped by the cap must say so). Every file is refused with exit status 2 and no
traceback, or plays to an end: none hangs (the test's timeout) and none crashes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fadad_agents.cli import app
from fadad_agents.schema.text import CONTROL

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = Path(__file__).parent / "hostile"
FILES = sorted(HOSTILE.glob("*.yaml"))
RUNNER = CliRunner()


def _expected() -> dict[str, str]:
    table: dict[str, str] = {}
    for line in (HOSTILE / "expected.txt").read_text(encoding="utf-8").splitlines():
        name = line.split(" => ")[0] if " => " in line else line.split(":", 1)[0]
        table[name] = line
    return table


def test_the_corpus_holds_sixty_hostile_files_each_with_its_line() -> None:
    """At least 60 files, every one with exactly one expected line."""
    assert len(FILES) >= 60
    assert set(_expected()) == {str(p.relative_to(ROOT)) for p in FILES}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_hostile_file_is_refused_in_one_line_or_played_to_an_end(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """validate refuses it with its line (exit 2), or it validates and plays to its end."""
    monkeypatch.chdir(ROOT)
    rel = str(path.relative_to(ROOT))
    expected = _expected()[rel]
    checked = RUNNER.invoke(app, ["validate", rel])
    assert checked.exception is None or isinstance(checked.exception, SystemExit)
    if " => " not in expected:
        assert (checked.exit_code, checked.stdout) == (2, "")
        (line,) = checked.stderr.splitlines()
        assert line.startswith(expected[:-3]) if expected.endswith("...") else line == expected
        assert not CONTROL.search(line)
        return
    assert (checked.exit_code, checked.stdout) == (0, f"{rel}: ok\n")
    played = RUNNER.invoke(app, ["run", "--quiet", rel])
    assert played.exit_code == 0
    assert re.fullmatch(expected.split(" => ", 1)[1], played.stdout.strip()), played.stdout
