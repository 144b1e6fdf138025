"""What the schema cannot check alone: whether an engine can play a valid scenario.

The schema sits below the policy registry and the engines, so an unknown policy, a bad
policy parameter or a force no engine plays (a FADAD fighter in a Fae scene without the
ladder bridge) surface when a battle is built. :func:`check_playable` builds the battle
once with one fighter per entry (a ``count: 100000`` costs nothing to check), and
:func:`scenario_problem` words what it finds as the loader words its problems, so
``validate``, ``run``, ``sweep`` and the Python API all raise the one
:class:`~fadad_agents.schema.loader.ScenarioError` with ``file:line field: what``.
"""

from __future__ import annotations

from typing import Any

from fadad_agents.engine.core.build import UnsupportedForce, build_battle, per_scenario
from fadad_agents.policies.core.registry import PolicyError
from fadad_agents.schema.loader import ScenarioError, problem_at
from fadad_agents.schema.scenario import Scenario

__all__ = ["BUILD_ERRORS", "check_playable", "scenario_problem"]

BUILD_ERRORS = (PolicyError, UnsupportedForce)
"""What building a battle of a valid scenario may raise (each names a scenario field)."""


def scenario_problem(scenario: Scenario, exc: PolicyError | UnsupportedForce) -> ScenarioError:
    """``exc`` as a :class:`ScenarioError` line at the field it names."""
    if isinstance(exc, PolicyError):
        field, reason = exc.field, exc.reason
    else:  # "sides.0.forces.2: <reason>"
        field, _, reason = str(exc).partition(": ")
    return ScenarioError([problem_at(scenario, field, reason)])


def _single(force: Any) -> Any:
    count = getattr(force, "count", 1)
    return force if count == 1 else force.model_copy(update={"count": 1})


_CHECKED: dict[int, tuple[Scenario, list[bool]]] = {}
"""Scenario objects found playable (a sweep checks its scenario each time it starts)."""


def check_playable(scenario: Scenario) -> None:
    """Build (not play) ``scenario`` with one member per entry, so its policies and
    forces are checked in bounded time and memory; raises :class:`ScenarioError`.
    A scenario object found playable is not built again (scenarios are frozen)."""
    checked = per_scenario(_CHECKED, scenario, list)
    if checked:
        return
    sides = [
        side.model_copy(update={"forces": [_single(f) for f in side.forces]})
        for side in scenario.sides
    ]
    sample = scenario.model_copy(update={"sides": sides})
    try:
        build_battle(sample, 0, collect=False).dispose()
    except BUILD_ERRORS as exc:
        raise scenario_problem(scenario, exc) from None
    checked.append(True)
