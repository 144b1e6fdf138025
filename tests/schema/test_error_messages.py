"""Every problem is one line: `file:line field.path: what is wrong (what is allowed)`.

The corpus in ``tests/schema/broken/`` holds broken files; ``expected.txt`` holds, for each,
the exact line it must produce (the line starts with the file's repo-relative path).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fadad_agents.schema import ScenarioError, load_scenario, validate_path
from tests.schema.conftest import BROKEN, ROOT

BROKEN_FILES = sorted(BROKEN.glob("*.yaml"))
LINE = re.compile(r"^\S+\.yaml:\d+ \S.*: .+$")


def _expected() -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for line in (BROKEN / "expected.txt").read_text(encoding="utf-8").splitlines():
        table.setdefault(line.split(":", 1)[0], []).append(line)
    return table


def test_corpus_has_at_least_thirty_files_all_expected() -> None:
    """Issue 3: at least 30 broken files, each with its expected message."""
    assert len(BROKEN_FILES) >= 30
    expected = _expected()
    names = {str(p.relative_to(ROOT)) for p in BROKEN_FILES}
    assert names == set(expected)


@pytest.mark.parametrize("path", BROKEN_FILES, ids=lambda p: p.stem)
def test_broken_file_gives_its_exact_message(path: Path, in_repo: Path) -> None:
    """The broken file produces exactly its expected line(s), one per problem."""
    rel = path.relative_to(in_repo)
    problems = validate_path(rel)
    assert problems == _expected()[str(rel)]
    for problem in problems:
        assert "\n" not in problem
        assert LINE.match(problem), problem


def test_issue_example_message(in_repo: Path) -> None:
    """The issue's example: a misspelt ladder level names file, line, path and the ladder."""
    with pytest.raises(ScenarioError) as info:
        load_scenario("tests/schema/broken/01-ladder-typo.yaml")
    assert info.value.problems == [
        "tests/schema/broken/01-ladder-typo.yaml:14 sides[0].forces[2].skill: "
        "'Grate' is not a ladder level (Terrible..Legendary+N)"
    ]
    assert isinstance(info.value, ValueError)


def test_several_problems_are_all_reported_in_line_order() -> None:
    """Independent problems each get their own line, sorted by line."""
    text = """name: Two problems
sides:
  - name: A
    forces:
      - {name: a, facing: 9}
  - name: B
    forces:
      - {name: b, strength: Grate}
"""
    with pytest.raises(ScenarioError) as info:
        load_scenario(text)
    assert info.value.problems == [
        "<text>:5 sides[0].forces[0].facing: 9 is too large (maximum 5)",
        "<text>:8 sides[1].forces[0].strength: 'Grate' is not a ladder level "
        "(Terrible..Legendary+N)",
    ]


def test_unknown_rules_option_lists_the_allowed_keys() -> None:
    """A misspelt dotted rules key points at its line and suggests the right key."""
    text = (
        "name: x\nrules:\n  fadad.initiativ: static\n"
        "sides: [{name: a, forces: [{name: a}]}, {name: b, forces: [{name: b}]}]\n"
    )
    with pytest.raises(ScenarioError) as info:
        load_scenario(text)
    (problem,) = info.value.problems
    assert problem.startswith(
        "<text>:3 rules.fadad.initiativ: 'initiativ' is not a field of FadadOptions (allowed: "
    )
    assert "did you mean 'initiative'" in problem


def test_every_unknown_key_and_other_problem_is_reported() -> None:
    """Unknown keys do not hide each other nor the other problems of the same entry."""
    text = """name: x
sides:
  - name: A
    forces:
      - name: a
        strenght: Great
        skils: {Sword: Good}
        facing: 8
  - name: B
    forces: [{name: b}]
"""
    with pytest.raises(ScenarioError) as info:
        load_scenario(text)
    problems = info.value.problems
    assert [p.split(":", 2)[1].split(" ")[0] for p in problems] == ["6", "7", "8"]
    assert problems[0].endswith("did you mean 'strength'?")
    assert problems[1].endswith("did you mean 'skills'?")
    assert problems[2] == "<text>:8 sides[0].forces[0].facing: 8 is too large (maximum 5)"


def test_missing_file_is_a_one_line_error() -> None:
    """A path that cannot be read is reported, not raised as OSError."""
    assert validate_path("no/such/scenario.yaml") == [
        "no/such/scenario.yaml:1 (file): cannot read (No such file or directory)"
    ]


def test_catalogue_file_errors_use_the_entry_schema(tmp_path: Path) -> None:
    """A file under models/<kind>/ is checked as that kind of entry."""
    bad = tmp_path / "models" / "weapons" / "twig.yaml"
    bad.parent.mkdir(parents=True)
    bad.write_text("name: Twig\nfadad_bonus: lots\n")
    assert validate_path(bad) == [
        f"{bad}:2 fadad_bonus: 'lots' is not a whole number (expected a whole number)"
    ]


def test_all_cross_reference_problems_are_reported() -> None:
    """Duplicate names, dangling references and off-map positions: one line each."""
    text = """name: many refs
map: {kind: hex, radius: 3}
sides:
  - name: A
    forces:
      - {name: a, aboard: Nope, position: [9, 9]}
      - {name: a}
  - name: A
    forces:
      - {name: u, kind: unit, count: 5, leader: Bob}
"""
    with pytest.raises(ScenarioError) as info:
        load_scenario(text)
    assert info.value.problems == [
        "<text>:6 sides[0].forces[0].aboard: 'Nope' is not a ship in this scenario (ships: none)",
        "<text>:6 sides[0].forces[0].position: [9, 9] is off the hex map (radius 3: "
        "max(|q|, |r|, |q + r|) must be <= radius)",
        "<text>:7 sides[0].forces[1].name: 'a' is already used by sides[0].forces[0] "
        "(names must be unique; use count: N for identical fighters)",
        "<text>:8 sides[1].name: 'A' names two sides (names must be unique)",
        "<text>:10 sides[1].forces[0].leader: 'Bob' is not a character in this scenario "
        "(characters: a)",
    ]
