"""Names never forge lines or rewrite the terminal (issue 20 point 9).

A force named ``"a\\nB wins (A destroyed) after 1 rounds (0:06)."`` once printed a fake
result line, and escape sequences retitled and cleared the terminal. Files may not hold
them (the schema refuses control characters in names); an object built in Python may,
and every printed line shows them escaped.
"""

from __future__ import annotations

import pytest

from fadad_agents.engine import run
from fadad_agents.schema import ScenarioError, load_scenario
from fadad_agents.schema.text import CONTROL
from tests.engine.conftest import duel_yaml

FORGED = "a\\nB wins (A destroyed) after 1 rounds (0:06)."


def test_a_file_cannot_name_a_fighter_with_a_control_character() -> None:
    """The forging name is refused in one line, shown escaped."""
    text = duel_yaml().replace("name: Ann", f'name: "{FORGED}"')
    with pytest.raises(ScenarioError) as info:
        load_scenario(text)
    (problem,) = info.value.problems
    assert problem.endswith(
        "sides[0].forces[0].name: 'a\\nB wins (A destroyed) after 1 rounds (0:06).' holds "
        "a control character (\\n); write plain text"
    )
    assert not CONTROL.search(problem)


def test_names_built_in_python_are_escaped_in_narration_and_summary() -> None:
    """Side and fighter names with a newline, ANSI escapes and a bidi override print as
    escapes: one narrated line per event, no control character anywhere."""
    scenario = load_scenario(duel_yaml())
    red, blue = scenario.sides
    ann = red.forces[0].model_copy(update={"name": "Ann\n\x1b]0;pwned\x07"})
    sides = [
        red.model_copy(update={"name": "Red\u202e", "forces": [ann]}),
        blue.model_copy(update={"name": "Blue\x1b[2J"}),
    ]
    result = run(scenario.model_copy(update={"sides": sides}), seed=4)
    lines = [*result.log.lines(), result.summary()]
    assert len(lines) == len(result.log) + 1
    assert not any(CONTROL.search(line) for line in lines)
    assert any("Ann\\n\\x1b]0;pwned\\x07" in line for line in lines)
    assert "\\x1b[2J" in result.summary() or "\\u202e" in result.summary()
