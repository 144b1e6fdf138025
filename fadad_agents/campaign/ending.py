"""A finished battle's end state: every character's wounds, Ité points, shots and lasting
crit effects, every crew's and unit's heads, every ship's damage (:mod:`.ships`).

:func:`end_state` reads any finished :class:`~fadad_agents.engine.Battle` (one ``run``
played, or a table session's); :func:`play_for_state` plays a scenario and returns both
its result and its end state. Fae Domains combatants are not carried (their scenes keep
no wound track between fights).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fadad_agents.agents.core.base import Status
from fadad_agents.agents.core.character import Character
from fadad_agents.agents.core.groups import Crew, Group
from fadad_agents.campaign.ships import ship_state
from fadad_agents.campaign.state import CharacterState, EndState, GroupState
from fadad_agents.engine import BattleResult, load, play_through, result_of
from fadad_agents.engine.core.build import UnsupportedForce
from fadad_agents.engine.core.check import BUILD_ERRORS, scenario_problem
from fadad_agents.rules.personal.dc_track import DcTrack
from fadad_agents.schema.limits import Limits
from fadad_agents.schema.scenario import Scenario
from fadad_agents.schema.starting import mark_text

__all__ = ["HEALING_TRAITS", "end_state", "fate_of", "play_for_state"]

HEALING_TRAITS = ("Health", "Constitution", "Healing")
"""Traits read, in order, as a character's healing attribute (FADAD 4.7: 14 - its value
days a level; PROPOSED which trait), else 0."""


def fate_of(member: Any) -> str:
    """How a combatant left the battle (:data:`~fadad_agents.campaign.state.Fate`)."""
    if member.status is Status.OUT and isinstance(member, Character) and member.track.dead:
        return "dead"
    return str(member.status)


def _marks(track: Any) -> list[str]:
    return [mark_text(box, severity) for box, severity in track.marks]


def _character(member: Character, side: str, scenario: Scenario) -> CharacterState:
    force = scenario.sides[member.side].forces[member.force_index]
    if isinstance(member.track, DcTrack):
        raise UnsupportedForce(
            f"sides.{member.side}.forces.{member.force_index}: '{member.name}' records wounds "
            "on its Damage Capacity (wound_track dc_attribute), which an aftermath cannot "
            "carry to the next battle; play it with wound boxes for a campaign"
        )
    traits = getattr(force, "traits", {})
    healing = next((traits[t] for t in HEALING_TRAITS if t in traits), 0)
    found = member.conditions
    effects = [f"weapon arm {found.arm}"] if found is not None and found.arm != "none" else []
    wounds = _marks(member.track)
    missile = member.missile
    return CharacterState(
        name=member.name,
        force=force.name,
        side=side,
        fate=fate_of(member),
        wounds=wounds,
        wounds_after_battle=wounds,
        boxes=member.track.boxes,
        track=member.track.kind,
        healing=max(-10, min(10, healing)),
        ite_points=member.ite_points,
        shots_left=None if missile is None or missile.left is None else missile.left,
        effects=effects,
    )


def _group(member: Group, side: str) -> GroupState:
    left = member.count if member.status is not Status.OUT else 0
    return GroupState(
        name=member.name,
        side=side,
        kind="crew" if isinstance(member, Crew) else "unit",
        fate=fate_of(member),
        count_start=member.start_count,
        count=left,
    )


def end_state(battle: Any, scenario: Scenario) -> EndState:
    """Everyone's state at the end of ``battle``, a battle of ``scenario``."""
    characters, groups, ships = [], [], []
    for roster in battle.sides:
        for member in roster.members:
            if isinstance(member, Character):
                characters.append(_character(member, roster.name, scenario))
            elif isinstance(member, Group):
                groups.append(_group(member, roster.name))
            else:
                found = ship_state(member, roster.name, battle)
                if found is not None:
                    ships.append(found)
    names = [s.name for s in battle.sides]
    options = battle.options
    return EndState(
        scenario=battle.name,
        seed=battle.seed,
        winner=None if battle.winner is None else names[battle.winner],
        ending=str(battle.ending) if battle.ending is not None else "unfinished",
        rounds=battle.round,
        healing_model=options.healing_model,
        ship_damage_model=options.ship.damage_model,
        repair_workers_per_ton=options.ship.repair_workers_per_ton,
        characters=characters,
        groups=groups,
        ships=ships,
    )


def play_for_state(
    scenario: Scenario | str | Path, seed: int | None = None, *, limits: Limits | None = None
) -> tuple[BattleResult, EndState]:
    """Play ``scenario`` as ``fadad_agents.run`` does; its result and its end state."""
    model = load(scenario, limits)
    try:
        with play_through(model, seed) as battle:
            battle.run_to_end()
            return result_of(battle, report=True), end_state(battle, model)
    except BUILD_ERRORS as exc:
        raise scenario_problem(model, exc) from None
