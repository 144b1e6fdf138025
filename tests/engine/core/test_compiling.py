"""``fadad compile``: the fast paths compiled now, each battle of it taking the path it is
there for (``engine/compiling.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fadad_agents.agents.core.crowd import kernels
from fadad_agents.engine import compiling
from fadad_agents.engine.personal import melee

ROOT = Path(__file__).resolve().parents[3]


def test_the_groups_hold_every_path_once():
    """The processes that compile at once share the paths out among them, none twice."""
    grouped = [name for group in compiling.GROUPS for name in group]
    assert sorted(grouped) == sorted(compiling.PATHS)


@pytest.mark.parametrize("name", [n for n, (_, whole) in compiling.PATHS.items() if whole])
def test_a_compiled_melee_path_is_played_in_compiled_code(name):
    """Each battle there for the compiled melee is played by it, whole and round by
    round: the code those take is the code compiled."""
    whole, rounds = compiling._compile(name, None)
    assert whole is not None
    assert whole.finished
    assert whole.__dict__[melee._MELEE] is not None  # played whole in compiled code
    assert rounds.__dict__[melee._ROUNDS] is not None  # its rounds too, one at a time
    ground = whole.__dict__[melee._MELEE].ground
    assert (ground is None) == (name == "a melee all in reach")  # open ground, or all in reach


def test_three_crowds_take_pythons_rounds_and_the_crowds_compiled_turns(monkeypatch):
    """Where the compiled melee does not play (three sides on a map), Python's rounds
    play, each big band's turn in the crowd's compiled loop."""
    calls = []
    for name in ("wait_now", "wait_in_ranks"):
        compiled_turn = getattr(kernels, name)

        def spy(*args, _turn=compiled_turn):
            calls.append(len(args))
            return _turn(*args)

        monkeypatch.setattr(kernels, name, spy)
    whole, rounds = compiling._compile("three crowds", None)
    assert whole is None
    assert rounds.round == 2
    assert rounds.__dict__.get(melee._ROUNDS) is None  # (Python's rounds)
    assert len(rounds.sides) == 3
    assert calls  # each big band's turn in compiled code


def _fadad_compile(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from fadad_agents.cli import main; main()", "compile"]
    return subprocess.run(
        [*command, *args], cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


def test_fadad_compile_says_what_it_compiles_and_quiet_says_nothing():
    """``fadad compile`` names each battle it plays on standard error and ends with one
    line; with ``--quiet`` it prints nothing; both exit 0. (Here numba's cache is warm
    once ``make test`` compiled it: a cold one takes a minute or two.)"""
    told = _fadad_compile()
    assert told.returncode == 0, told.stderr
    named = [line.removeprefix("compiling: ") for line in told.stderr.splitlines()]
    assert sorted(named) == sorted(compiling.PATHS)
    assert told.stdout.startswith("fast paths compiled and cached (")
    quiet = _fadad_compile("--quiet")
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stdout == quiet.stderr == ""
