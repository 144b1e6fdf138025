"""Arbitrary documents only ever give a ScenarioError, never another exception."""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fadad_agents.schema import (
    Scenario,
    ScenarioError,
    default_catalog,
    dump_scenario,
    load_scenario,
)
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


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


CAT = default_catalog()
ladder_levels = st.one_of(
    st.integers(-6, 8),
    st.sampled_from(["Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb"]),
    st.builds(
        lambda w, n: f"{w}{n:+d}", st.sampled_from(["Good", "Legendary"]), st.integers(-3, 3)
    ),
)
PRINTABLE = st.characters(exclude_categories=("Cc", "Cf", "Cs", "Zl", "Zp"))
"""What a name may hold: no control characters (schema.text)."""
positions = st.tuples(st.integers(-5, 5), st.integers(-5, 5)).map(list)


@st.composite
def forces(draw: st.DrawFn, name: str) -> dict[str, Any]:
    kind = draw(st.sampled_from(["character", "crew", "unit", "ship"]))
    force: dict[str, Any] = {"name": name, "position": draw(positions)}
    if kind == "character":
        skill = draw(st.sampled_from(["Sword", "Axe", "Brawling"]))
        force |= {
            "strength": draw(ladder_levels),
            "skills": {skill: draw(ladder_levels)},
            "attack_skill": skill,
            "count": draw(st.integers(1, 30)),
            "weapon": draw(st.sampled_from(CAT.names("weapons"))),
        }
        if draw(st.booleans()):
            force["armour"] = {"model": draw(st.sampled_from(CAT.names("armour"))),
                               "magic_plus": draw(st.integers(0, 3))}  # fmt: skip
    elif kind == "crew":
        force |= {"model": draw(st.sampled_from(CAT.names("crews"))),
                  "count": draw(st.integers(1, 500)), "skill": draw(ladder_levels)}  # fmt: skip
    elif kind == "unit":
        force |= {"model": draw(st.sampled_from(CAT.names("units"))),
                  "count": draw(st.integers(1, 5000))}  # fmt: skip
    else:
        force |= {"model": draw(st.sampled_from(CAT.names("ships"))),
                  "helm_skill": draw(ladder_levels), "facing": draw(st.integers(0, 5))}  # fmt: skip
    return force


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    sides = []
    for si in range(draw(st.integers(2, 3))):
        n = draw(st.integers(1, 3))
        sides.append(
            {"name": f"Side {si}", "forces": [draw(forces(f"force {si}.{i}")) for i in range(n)]}
        )
    return {
        "name": draw(st.text(PRINTABLE, min_size=1, max_size=20).filter(str.strip)),
        "rules": {"wound_model": draw(st.sampled_from(["fadad", "fudge_numeric"]))},
        "map": {"kind": "hex", "radius": 10},
        "sides": sides,
        "seed": draw(st.none() | st.integers(0, 2**40)),
    }


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_generated_scenarios_round_trip(doc: dict[str, Any]) -> None:
    """Valid generated scenarios load, and load -> dump -> load is the identity."""
    scenario = load_scenario(yaml.safe_dump(doc))
    text = dump_scenario(scenario)
    assert load_scenario(text) == scenario
    assert dump_scenario(load_scenario(text)) == text
