"""Every shipped scenario plays under every value of every rules option, one at a time.

``fae-mixed-melee`` with ``wound_track: dc_attribute`` once crashed with a KeyError: no
test played a shipped scenario under an option value it does not set itself. Here each
scenario of ``scenarios/`` plays at seed 1, its own ``rules:`` plus one option (every
other Literal choice, the flipped bool, a bound and a step for a number), its rounds
capped at :data:`ROUNDS_CAP`. It must end without an exception in a known ending, lose
no more than it had, and give the same log twice; or the schema refuses the value for that
scenario in one clear line (:data:`REFUSED`). An option of a rule system the scenario has
no force of (a ship option in a personal fight) plays too and must change nothing.
"""

from __future__ import annotations

import hashlib
import typing
from collections.abc import Iterator
from functools import cache
from typing import Any, Literal

import annotated_types
import pytest
import yaml

from fadad_agents.engine import BattleResult, run
from fadad_agents.engine.core.ending import Ending
from fadad_agents.rules.options import RulesOptions
from fadad_agents.schema import Scenario, ScenarioError, load_scenario
from tests.engine.conftest import SCENARIOS
from tests.liveness import option_keys

ROUNDS_CAP = 6
"""Rounds each case plays at most: enough for every option to come into play at least once
in most scenarios (first blows, first wounds, first crits), few enough to run the whole
matrix in seconds."""

CHOSEN: dict[str, tuple[Any, ...]] = {
    "move.target_bonus": ((0, 0), (2, 4)),
    "location.severity_thresholds": ((0, 2, 4), (2, 6, 12)),
    "ship.crit_triggers": ((), ("natural_20", "dice_4")),
    "ship.fadad_boxes": ((1, 1, 1, 1, 1), (5, 2, 2, 1, 0)),
    "ship.hand_attack_range_mods": (((100, 0),),),
    "fae.bridge_wound_percent": ((0, 5, 10, 20, 40, 80, 160),),
    "engine.ladder_d20_bonus": ((0, 0), (5, 4)),
    "sj.debris_hull_dice": (("1", "2d6", "3d8+2"),),
    "sj.hull_shot_dice": ("1", "2d6+1"),
    "sj.chop_dice": ("1d4",),
    "knockout_rounds": (1, 3),
}
"""Non-default values of the options whose type gives none by itself (tuples, dice text,
an optional count)."""


PLAYED_BY = {"fae": "fae", "ship": "ship", "fire": "ship", "sj": "ship", "mass": "unit"}
"""The kind of force each rule system's options (by the key's head) play on: in a scenario
without one, such an option must leave the battle as it was."""

REFUSED = {("wound_track", "dc_attribute"): "keeps wound boxes: wound_track dc_attribute"}
"""The option values the schema may refuse for a shipped scenario, and what each refusal
says: a crew or unit keeps wound boxes (``schema/starting.py``), so the scenarios with one
refuse a Damage-Capacity track in ``rules``."""


def _field(key: str) -> tuple[Any, Any]:
    """The option's pydantic field and its default value."""
    section: Any = RulesOptions()
    *heads, name = key.split(".")
    for head in heads:
        section = getattr(section, head)
    return type(section).model_fields[name], getattr(section, name)


def _number_values(field: Any, default: float) -> list[Any]:
    """The lower bound (or half the default over an open bound) and one step up."""
    low = high = None
    for bound in field.metadata:
        if isinstance(bound, annotated_types.Ge):
            low = bound.ge
        elif isinstance(bound, annotated_types.Gt):
            low = default / 2
        elif isinstance(bound, annotated_types.Le):
            high = bound.le
    step = 1 if isinstance(default, int) else default / 2 or 0.25
    up = default + step if high is None or default + step <= high else default - step
    return [v for v in dict.fromkeys((low, up)) if v is not None and v != default]


def option_values(key: str) -> list[Any]:
    """Every value of ``key`` other than its default worth playing."""
    if key in CHOSEN:
        return list(CHOSEN[key])
    field, default = _field(key)
    kind = field.annotation
    if typing.get_origin(kind) is Literal:
        return [v for v in typing.get_args(kind) if v != default]
    if kind is bool:
        return [not default]
    if kind in (int, float):
        return _number_values(field, default)
    raise AssertionError(f"{key}: give its non-default values in CHOSEN ({kind})")


@cache
def _scenario_data(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((SCENARIOS / f"{stem}.yaml").read_text())
    return data


def with_option(stem: str, key: str | None = None, value: Any = None) -> dict[str, Any]:
    """The shipped scenario's fields with ``key: value`` added to its rules, rounds capped."""
    data = dict(_scenario_data(stem))
    data["rules"] = {**(data.get("rules") or {}), **({key: value} if key else {})}
    stop = dict(data.get("stop") or {})
    stop["max_rounds"] = min(stop.get("max_rounds", ROUNDS_CAP), ROUNDS_CAP)
    data["stop"] = stop
    return data


def _cases() -> Iterator[Any]:
    for path in sorted(SCENARIOS.glob("*.yaml")):
        for key in option_keys():
            for value in option_values(key):
                yield pytest.param(path.stem, key, value, id=f"{path.stem}-{key}={value!r}")


def test_every_option_key_has_values_to_play() -> None:
    """Each option offers at least one non-default value, each one its schema accepts."""
    for key in option_keys():
        values = option_values(key)
        assert values, key
        for value in values:
            head, _, name = key.rpartition(".")
            section = {name: value} if not head else {head: {name: value}}
            assert RulesOptions.model_validate(section) != RulesOptions(), (key, value)


@pytest.mark.parametrize(("stem", "key", "value"), list(_cases()))
def test_a_shipped_scenario_plays_under_one_option(stem: str, key: str, value: Any) -> None:
    """It plays to a known ending, loses no more than it had, and replays byte for byte
    (unchanged if no force here plays the option); or the schema refuses it in one line."""
    scenario = _loaded(with_option(stem, key, value))
    if isinstance(scenario, ScenarioError):
        because = REFUSED.get((key, value))
        assert because, scenario.problems
        assert scenario.problems, key
        assert all(because in p and "\n" not in p for p in scenario.problems), scenario.problems
        return
    first = run(scenario, seed=1)
    assert first.ending in set(Ending), first.ending
    for side in first.sides:
        assert 0 <= side.dead <= side.casualties <= side.strength, side
        assert min(side.fighting, side.withdrawn, side.surrendered) >= 0, side
    again = run(scenario, seed=1)
    assert _digest(again) == _digest(first)
    plays_on = PLAYED_BY.get(key.split(".")[0])
    if plays_on and plays_on not in {f.kind for side in scenario.sides for f in side.forces}:
        assert _digest(first) == _own_rules_digest(stem), "another system's option moved it"


@cache
def _own_rules_digest(stem: str) -> str:
    """The log of the scenario under its own rules (rounds capped) at seed 1."""
    return _digest(run(with_option(stem), seed=1))


def _loaded(data: dict[str, Any]) -> Scenario | ScenarioError:
    """The validated scenario, or the schema's refusal of it."""
    try:
        return load_scenario(data)
    except ScenarioError as refused:
        return refused


def _digest(result: BattleResult) -> str:
    """The battle log's fingerprint."""
    return hashlib.sha256(result.log.to_jsonl().encode()).hexdigest()
