"""What a file may be before it is parsed, and what YAML may build (issue 20 point 8, 12).

Regular files only (a named pipe once hung `validate`, /dev/zero ran out of memory), no
larger than ``Limits.file_bytes``; plain YAML data only; a one-line string is a path.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from fadad_agents.engine import run
from fadad_agents.schema import Limits, ScenarioError, load_scenario
from fadad_agents.schema import source as source_module
from tests.engine.conftest import duel_yaml


def _problem(source: object, limits: Limits | None = None) -> str:
    with pytest.raises(ScenarioError) as info:
        load_scenario(source, limits=limits)  # type: ignore[arg-type]
    (problem,) = info.value.problems
    return problem


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_refused_without_reading_it(tmp_path: Path) -> None:
    """A pipe nobody writes to is refused at once (opened non-blocking, never read)."""
    pipe = tmp_path / "scenario.yaml"
    os.mkfifo(pipe)
    assert _problem(pipe) == (
        f"{pipe}:1 (file): is a device, pipe or socket, not a regular file (give a .yaml file)"
    )


def test_a_device_and_a_folder_are_refused(tmp_path: Path) -> None:
    """/dev/zero (endless) and a folder are not scenario files."""
    if Path("/dev/zero").exists():
        assert "/dev/zero:1 (file): is a device, pipe or socket" in _problem(Path("/dev/zero"))
    assert (
        _problem(tmp_path)
        == f"{tmp_path}:1 (file): is a folder, not a regular file (give a .yaml file)"
    )


def test_a_file_over_the_size_limit_is_refused_before_parsing(tmp_path: Path) -> None:
    """The size is checked before a byte is parsed; the runner may raise the limit."""
    big = tmp_path / "big.yaml"
    text = duel_yaml() + "#" + "x" * 5000 + "\n"
    big.write_text(text)
    small = Limits(file_bytes=1000)
    assert _problem(big, small) == (
        f"{big}:1 (file): is {len(text):,} bytes, more than the limit of 1,000 (scenarios are "
        "kilobytes; raise it knowingly with --limit file_bytes=N or Limits(file_bytes=N))"
    )
    assert _problem(text, small).startswith("<text>:1 (file): is ")
    assert load_scenario(big).name == "test battle"


def test_a_file_grown_since_its_size_was_read_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file is read by the size it reports, and on to the end if it has grown since
    (never cut short), still within the limit."""
    path = tmp_path / "grown.yaml"
    text = duel_yaml() + "#" + "x" * 3000 + "\n"
    path.write_text(text)
    real = os.fstat

    def smaller(fd: int) -> os.stat_result:
        info = list(real(fd))
        info[6] = 10  # st_size: what the file held when it was looked at
        return os.stat_result(info)

    monkeypatch.setattr(source_module.os, "fstat", smaller)
    limits = Limits(file_bytes=len(text))
    assert source_module.read_source(path, limits) == (text, str(path))
    assert "more than the limit" in _problem(path, Limits(file_bytes=len(text) - 1))


@pytest.mark.parametrize(
    ("value", "tag"),
    [
        ("!!binary aGVsbG8=", "binary"),
        ("!!set {a, b}", "set"),
        ("!!timestamp 2024-01-01", "timestamp"),
    ],
)
def test_tags_that_build_other_objects_are_refused(value: str, tag: str) -> None:
    """!!binary, !!set and !!timestamp are refused as every other tag is."""
    problem = _problem(duel_yaml().replace("name: test battle", f"name: {value}"))
    assert problem == (
        f"<text>:2 (yaml): could not determine a constructor for the tag "
        f"'tag:yaml.org,2002:{tag}' (plain YAML only; tags are not allowed)"
    )


def test_a_bare_date_is_text() -> None:
    """`name: 2024-05-01` is the text 2024-05-01, not a date object."""
    assert load_scenario(duel_yaml().replace("name: test battle", "name: 2024-05-01")).name == (
        "2024-05-01"
    )


def test_a_one_line_string_is_a_path_and_a_mapping_is_a_scenario() -> None:
    """run("x.bin") reads a file (it once parsed the name as YAML); a dict plays."""
    assert _problem("x.bin") == "x.bin:1 (file): cannot read (No such file or directory)"
    data = yaml.safe_load(duel_yaml())
    assert run(data, seed=3).log.to_jsonl() == run(duel_yaml(), seed=3).log.to_jsonl()
    assert _problem({**data, "sides": 5}).startswith("<mapping>:1 sides: 5 is not a list")
    assert (
        _problem(42) == "<int>:1 (document): not a scenario (give a path, YAML text or a mapping)"
    )


def test_syntax_errors_read_the_same_with_or_without_libyaml() -> None:
    """The C parser's syntax errors are worded by the pure-Python one."""
    broken = "name: x\nsides:\n  - name: A\n   forces: []\n"
    with pytest.raises(ScenarioError) as fast:
        source_module.parse_yaml(broken, "f.yaml")
    with pytest.raises(ScenarioError) as pure:
        source_module._parse(source_module._PureMarkedLoader, broken, "f.yaml")
    assert fast.value.problems == pure.value.problems
    assert (
        yaml.__with_libyaml__ is False or source_module.MarkedLoader.__mro__[2] is yaml.CSafeLoader
    )
