"""The battle engine: a Mesa model owning a SimPy clock, round drivers and the battle log.

``run(scenario, seed=None) -> BattleResult`` plays one battle to its end::

    >>> from fadad_agents.engine import run            # doctest: +SKIP
    >>> result = run("scenarios/snorri-vs-brynhild.yaml", seed=4006)
    >>> result.winner, result.ending, result.rounds
"""

from __future__ import annotations

from pathlib import Path

# The rule systems' engines register themselves with the core on import.
import fadad_agents.engine.fae
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
from fadad_agents.engine.core.log import BattleLog, LogEvent, clock, narrate
from fadad_agents.engine.core.recycle import play_through
from fadad_agents.engine.core.result import BattleResult, SideResult, result_of
from fadad_agents.engine.core.streams import STREAMS, Streams
from fadad_agents.policies.core.registry import PolicyError
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
    "SideResult",
    "StopRule",
    "Streams",
    "UnsupportedForce",
    "build_battle",
    "clock",
    "load",
    "narrate",
    "play_through",
    "result_of",
    "run",
]


def run(
    scenario: Scenario | str | Path, seed: int | None = None, *, collect: bool = True
) -> BattleResult:
    """Play ``scenario`` (a Scenario, a path or YAML text) to its end.

    Args:
        scenario: what to play.
        seed: battle seed; None uses the scenario's seed, else a fresh one (recorded in
            the result, so every run can be replayed).
        collect: keep one DataCollector row per round (``result.round_data``).

    Raises:
        ScenarioError: the scenario file is invalid (schema).
        PolicyError: an unknown policy name or a bad parameter (names the field).
        UnsupportedForce: a side the engine cannot play yet (ships only).
    """
    model = load(scenario)
    try:
        with play_through(model, seed, collect=collect) as battle:
            return result_of(battle.run_to_end())
    except PolicyError as exc:
        if isinstance(scenario, (str, Path)) and "\n" not in str(scenario):
            raise PolicyError(exc.field, f"{exc.reason} (in {scenario})") from None
        raise
