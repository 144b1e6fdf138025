"""One play-through of a scenario, on a recycled battle when the battle is small.

A 5 v 5 fight spends about a third of its time being set up: a Mesa model, an agent per
fighter, bands, rosters, round data. ``run`` and sweeps play the same scenario again and
again, so :func:`play_through` keeps a finished small battle per scenario (personal or
with ships) and :meth:`~fadad_agents.engine.core.battle.Battle.reset` starts it again from
set-up with the next seed: streams re-seeded, the clock rewound, a new log and round data,
every agent back to its starting state. A reset battle is the battle ``build_battle`` gives
for that seed (a test compares every attribute, and logs are byte-identical), so
replicates share no state; only the objects are reused.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from fadad_agents.engine.core.battle import Battle
from fadad_agents.engine.core.build import build_battle, per_scenario, scenario_seed
from fadad_agents.schema.scenario import Scenario

__all__ = ["RECYCLE_MAX_AGENTS", "play_through"]

RECYCLE_MAX_AGENTS = 64
"""Battles with more agents are built afresh: set-up is a small share of their play, and
an idle battle should not hold much memory."""

_IDLE_PER_SCENARIO = 2
"""Finished battles kept per scenario (one per thread playing it at once is plenty)."""


class _Idle:
    """A scenario's finished battles, and whether its battles can be recycled at all."""

    __slots__ = ("battles", "recyclable")

    def __init__(self) -> None:
        self.battles: list[Battle] = []
        self.recyclable: bool | None = None  # decided by the first battle given back


_IDLE: dict[int, tuple[Scenario, _Idle]] = {}


def _recyclable(battle: Battle) -> bool:
    """A battle of at most :data:`RECYCLE_MAX_AGENTS` agents that can be reset (personal,
    or with ships) whose policies are all stateless (shared policy objects carry nothing
    between plays): the same for every battle of one scenario."""
    members = [m for side in battle.sides for m in side.members]
    return (
        len(members) <= RECYCLE_MAX_AGENTS
        and battle.resettable
        and all(m.policies.shareable for m in members)
    )


class _PlayThrough:
    """The with-block of :func:`play_through`: a battle in, kept or disposed on the way out."""

    __slots__ = ("battle", "idle")

    def __init__(self, scenario: Scenario, seed: int | None, collect: bool) -> None:
        self.idle = idle = per_scenario(_IDLE, scenario, _Idle)
        seed = scenario_seed(scenario, seed)
        try:
            self.battle = idle.battles.pop()  # atomic: threads never share a battle
        except IndexError:
            self.battle = build_battle(scenario, seed, collect=collect)
        else:
            self.battle.reset(seed, collect=collect)

    def __enter__(self) -> Battle:
        return self.battle

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        battle, idle = self.battle, self.idle
        if idle.recyclable is None and battle.steps == 0:
            idle.recyclable = _recyclable(battle)
        # Kept: a battle played to its end without error, never stepped by Mesa's clock.
        if (
            kind is None
            and idle.recyclable
            and battle.finished
            and battle.steps == 0
            and len(idle.battles) < _IDLE_PER_SCENARIO
        ):
            battle.release_log()
            idle.battles.append(battle)
        else:
            battle.dispose()


def play_through(
    scenario: Scenario, seed: int | None = None, *, collect: bool = True
) -> AbstractContextManager[Battle]:
    """The battle ``build_battle(scenario, seed, collect=collect)`` gives, for one with-block.

    Keep only what you take from it inside the block (its result, log and round data):
    afterwards the battle is kept for the scenario's next play-through, or disposed.

    Raises:
        the errors of :func:`~fadad_agents.engine.core.build.build_battle`.
    """
    return _PlayThrough(scenario, seed, collect)
