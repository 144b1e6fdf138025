"""One play-through of a scenario, on a recycled battle when the battle is small.

A 5 v 5 fight spends about a third of its time being set up: a Mesa model, an agent per
fighter, bands, rosters, round data. ``run`` and sweeps play the same scenario again and
again, so :func:`play_through` keeps a finished small battle of characters per scenario
and :meth:`~fadad_agents.engine.battle.Battle.reset` starts it again from set-up with the
next seed: new streams, clock, log and round data, every fighter back to its starting
state. A reset battle is the battle ``build_battle`` gives for that seed (a test compares
every attribute, and logs are byte-identical), so replicates share no state; only the
objects are reused.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fadad_agents.engine.battle import Battle
from fadad_agents.engine.build import build_battle, per_scenario, scenario_seed
from fadad_agents.schema.scenario import Scenario

__all__ = ["RECYCLE_MAX_AGENTS", "play_through"]

RECYCLE_MAX_AGENTS = 64
"""Battles with more agents are built afresh: set-up is a small share of their play, and
an idle battle should not hold much memory."""

_IDLE_PER_SCENARIO = 2
"""Finished battles kept per scenario (one per thread playing it at once is plenty)."""

_IDLE: dict[int, tuple[Scenario, list[Battle]]] = {}


def _recyclable(battle: Battle) -> bool:
    """A finished personal battle of at most :data:`RECYCLE_MAX_AGENTS` characters whose
    policies are all stateless (shared policy objects carry nothing between plays)."""
    members = [m for side in battle.sides for m in side.members]
    return (
        battle.finished
        and len(members) <= RECYCLE_MAX_AGENTS
        and battle.resettable
        and all(m.policies.shareable for m in members)
    )


@contextmanager
def play_through(
    scenario: Scenario, seed: int | None = None, *, collect: bool = True
) -> Iterator[Battle]:
    """The battle ``build_battle(scenario, seed, collect=collect)`` gives, for one with-block.

    Keep only what you take from it inside the block (its result, log and round data):
    afterwards the battle is kept for the scenario's next play-through, or disposed.

    Raises:
        the errors of :func:`~fadad_agents.engine.build.build_battle`.
    """
    idle = per_scenario(_IDLE, scenario, list)
    seed = scenario_seed(scenario, seed)
    try:
        battle = idle.pop()
    except IndexError:
        battle = build_battle(scenario, seed, collect=collect)
    else:
        battle.reset(seed, collect=collect)
    done = False
    try:
        yield battle
        done = True
    finally:
        if done and len(idle) < _IDLE_PER_SCENARIO and _recyclable(battle):
            idle.append(battle)
        else:
            battle.dispose()
