"""Arbitrary documents only ever give a ScenarioError, never another exception."""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fadad_agents.schema import Scenario, ScenarioError, dump_scenario, load_scenario
from tests.schema.conftest import ROOT

FIELD_NAMES = [
    "name", "sides", "forces", "kind", "model", "count", "skill", "skills", "weapon",
    "armour", "shield", "rules", "map", "stop", "seed", "position", "facing", "aboard",
    "policies", "params", "strength", "wound_boxes", "range_mods", "leader", "tons",
    "fadad.initiative", "wound_model", "attack_skill", "magic_plus", "weapons",
]  # fmt: skip
REFS = [
    "weapons/broadsword", "ships/war-galleon", "crews/pirates", "units/archers",
    "creatures/dragon", "weapons/nope", "big-weapons/bombard", "tables/unit-damage",
]  # fmt: skip

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(["Great", "Good-2", "+3", "Legendary+2", "X", "crew", "ship", *REFS]),
)
keys = st.one_of(st.sampled_from(FIELD_NAMES), st.text(max_size=8), st.integers(-3, 3))
documents = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(keys, children, max_size=6),
    ),
    max_leaves=30,
)

VALID = yaml.safe_load((ROOT / "scenarios" / "ship-duel.yaml").read_text())


def _load(doc: Any) -> None:
    try:
        text = yaml.safe_dump(doc)
    except yaml.YAMLError:
        return
    problems = _problems(text)
    if problems is None:
        result = load_scenario(text)
        assert isinstance(result, Scenario)
        assert load_scenario(dump_scenario(result)) == result
    else:
        assert problems
        assert all("\n" not in p and p.startswith("<text>:") for p in problems)


def _problems(text: str) -> list[str] | None:
    """The ScenarioError lines of ``text``, or None if it loads (other errors propagate)."""
    try:
        load_scenario(text)
    except ScenarioError as exc:
        return exc.problems
    return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_random_documents_only_raise_scenario_error(doc: Any) -> None:
    """Any YAML document either loads or raises ScenarioError."""
    _load(doc)


def _replace(doc: Any, path: list[int], value: Any) -> Any:
    """Replace the node reached by walking ``path`` (indices modulo each container)."""
    if not path or not isinstance(doc, dict | list) or not doc:
        return value
    if isinstance(doc, dict):
        key = list(doc)[path[0] % len(doc)]
        return {**doc, key: _replace(doc[key], path[1:], value)}
    i = path[0] % len(doc)
    return [*doc[:i], _replace(doc[i], path[1:], value), *doc[i + 1 :]]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 20), max_size=7), documents)
def test_mutated_scenarios_only_raise_scenario_error(path: list[int], value: Any) -> None:
    """A valid scenario with one node replaced by junk loads or raises ScenarioError."""
    _load(_replace(VALID, path, value))


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=80))
def test_random_text_only_raises_scenario_error(text: str) -> None:
    """Arbitrary text (broken YAML included) loads or raises ScenarioError."""
    problems = _problems(text + "\n")
    assert problems is None or problems
