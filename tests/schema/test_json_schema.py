"""`fadad schema`: the JSON Schema editors use accepts every shipped scenario as written.

Checked with fastjsonschema (present in dev installs through nbmake -> nbformat).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import fastjsonschema
import pytest
import yaml

from fadad_agents.schema import scenario_json_schema
from tests.schema.conftest import BROKEN, SCENARIOS

SCHEMA: dict[str, Any] = json.loads(scenario_json_schema())
# use_default=False: fastjsonschema would otherwise write defaults into the data while
# trying each branch of a union.
VALIDATE = fastjsonschema.compile(SCHEMA, use_default=False)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_shipped_scenarios_match_the_json_schema(path: Path) -> None:
    """Shorthands (catalogue names, policy names, ladder labels, dotted rules) are allowed."""
    VALIDATE(yaml.safe_load(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    "name",
    ["01-ladder-typo", "03-unknown-field-typo", "08-unknown-kind", "10-facing-out-of-range"],
)
def test_editor_flags_broken_files(name: str) -> None:
    """The schema alone already rejects misspelt levels, unknown keys and bad values."""
    with pytest.raises(fastjsonschema.JsonSchemaException):
        VALIDATE(yaml.safe_load((BROKEN / f"{name}.yaml").read_text(encoding="utf-8")))


def test_ladder_pattern_accepts_every_label() -> None:
    """The ladder string pattern accepts labels, offsets and signed numbers, not typos."""
    pattern = re.compile(
        SCHEMA["$defs"]["Unit"]["anyOf"][1]["properties"]["skill"]["anyOf"][1]["pattern"]
    )
    for text in ["Great", "great", "Good-2", "Legendary+1", "Terrible-3", "+2", "-1"]:
        assert pattern.match(text), text
    for text in ["Grate", "Great!", "2x"]:
        assert not pattern.match(text), text
