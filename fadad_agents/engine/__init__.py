"""The battle engine: a Mesa model owning a SimPy clock, round drivers and the battle log.

``run(scenario, seed=None) -> BattleResult`` plays one battle to its end::

    >>> from fadad_agents.engine import run            # doctest: +SKIP
    >>> result = run("scenarios/snorri-vs-brynhild.yaml", seed=4006)
    >>> result.winner, result.ending, result.rounds
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import Any

# The rule systems' engines register themselves with the core on import.
import fadad_agents.engine.fae
import fadad_agents.engine.personal
import fadad_agents.engine.ships  # noqa: F401
from fadad_agents.engine.core.battle import (
    PERSONAL_ROUND_SECONDS,
    Battle,
    BattleStateError,
    Ending,
    Phase,
    StopRule,
)
from fadad_agents.engine.core.build import UnsupportedForce, build_battle, load
from fadad_agents.engine.core.check import BUILD_ERRORS, check_playable, scenario_problem
from fadad_agents.engine.core.log import BattleLog, LogEvent, clock, narrate
from fadad_agents.engine.core.recycle import play_through
from fadad_agents.engine.core.result import BattleResult, SideResult, replays_its_log, result_of
from fadad_agents.engine.core.streams import STREAMS, Streams, spawn_states
from fadad_agents.engine.progress import shown
from fadad_agents.policies.core.registry import PolicyError
from fadad_agents.schema.limits import Limits
from fadad_agents.schema.loader import ScenarioError
from fadad_agents.schema.scenario import Scenario

__all__ = [
    "PERSONAL_ROUND_SECONDS",
    "STREAMS",
    "Battle",
    "BattleLog",
    "BattleResult",
    "BattleStateError",
    "Ending",
    "LogEvent",
    "Phase",
    "PolicyError",
    "ScenarioError",
    "SideResult",
    "StopRule",
    "Streams",
    "UnsupportedForce",
    "build_battle",
    "check_playable",
    "clock",
    "load",
    "narrate",
    "play_through",
    "result_of",
    "run",
    "spawn_states",
]


def run(
    scenario: Scenario | str | Path | Mapping[str, Any],
    seed: int | None = None,
    *,
    collect: bool = False,
    limits: Limits | None = None,
    progress: bool = False,
) -> BattleResult:
    """Play ``scenario`` (a Scenario, a path, YAML text or a mapping) to its end.

    Args:
        scenario: what to play.
        seed: battle seed; None uses the scenario's seed, else a fresh one (recorded in
            the result, so every run can be replayed).
        collect: keep the battle's record as it plays: one DataCollector row per round
            (``result.round_data``), the header and the closing tally. By default none
            of it is kept, and the first read of any of them plays the battle again from
            its scenario and seed with collection on (the same battle, byte for byte, so
            the same record), once. Collect what will be read anyway (``fadad run``
            prints the header and tally): it then costs no second play.
        limits: how large a battle the file may describe (default
            :data:`~fadad_agents.schema.limits.DEFAULT_LIMITS`; a Scenario object was
            checked against its own when it was made).
        progress: show the battle's round and how many still fight on standard error
            (a tqdm bar, :mod:`~fadad_agents.engine.progress`) once it has played a
            second; the same battle either way.

    Raises:
        ScenarioError: anything wrong with the scenario, from the schema to an unknown
            policy or a force no engine plays; ``problems`` holds one
            ``file:line field.path: what is wrong (what is allowed)`` line each.
    """
    model = load(scenario, limits)
    try:
        with play_through(model, seed, collect=collect) as battle:
            if not collect and replays_its_log(battle):
                battle.log.keeps = False  # its result plays it again for a log: none kept
            with shown(battle) if progress else nullcontext():
                battle.run_to_end()
            if collect:
                return result_of(battle, report=True)
            replay = partial(run, model, battle.seed, collect=True)
            return result_of(battle, replay=replay)
    except BUILD_ERRORS as exc:
        raise scenario_problem(model, exc) from None
