"""Build a :class:`~fadad_agents.engine.fae.battle.FaeBattle` from a scenario with Fae forces.

``engine.build.build_battle`` hands over here when any force is ``kind: fae`` (or
``ruleset: fae``). Fae combatants get a :class:`~fadad_agents.policies.fae.defaults.FaePolicySet`
(shared decisions plus ``fae_action``, ``fae_defence``, ``fae_called_shot``,
``fae_tactics``); FADAD forces beside them are built by the FADAD builder, with the
scenario's Fae decision keys left out of their layers. Agents are numbered in set-up
order across both, so every combatant's dice depend only on (seed, its place); a
rider's mount is a combatant of its own, numbered right after its rider
(:mod:`fadad_agents.agents.fae.mount`).

A mixed scene needs ``rules: {fae.ladder_bridge: true}`` (C-04): without the bridge no
FADAD fighter can strike a Fae one, or the reverse.
"""

from __future__ import annotations

from fadad_agents.agents.core.base import Band
from fadad_agents.agents.fae.character import FaeCharacter
from fadad_agents.agents.fae.mount import mount_up
from fadad_agents.engine.core.build import (
    ForceBuilder,
    UnsupportedForce,
    battle_args,
    foreign_decisions,
)
from fadad_agents.engine.fae.battle import FaeBattle
from fadad_agents.policies.core.policy_set import INDIVIDUAL_DEFAULTS
from fadad_agents.policies.fae.defaults import FAE_KINDS, build_fae_policy_set
from fadad_agents.schema.fae import FaeCharacter as FaeStats
from fadad_agents.schema.scenario import Scenario

__all__ = ["build_fae_battle", "is_fae"]


def is_fae(scenario: Scenario) -> bool:
    """The scenario has at least one Fae Domains force."""
    return any(isinstance(f, FaeStats) for _, f in scenario.forces)


def _without_fae_policies(scenario: Scenario) -> Scenario:
    """The scenario as FADAD forces see it: Fae decision keys dropped from side layers."""
    sides = [
        s.model_copy(
            update={"policies": {k: v for k, v in s.policies.items() if k not in FAE_KINDS}}
        )
        for s in scenario.sides
    ]
    return scenario.model_copy(update={"sides": sides})


def _check_bridge(scenario: Scenario) -> None:
    mixed = [
        (si, fi)
        for si, side in enumerate(scenario.sides)
        for fi, f in enumerate(side.forces)
        if not isinstance(f, FaeStats) and getattr(f, "kind", "") != "ship"
    ]
    if mixed and not scenario.rules.fae.ladder_bridge:
        si, fi = mixed[0]
        raise UnsupportedForce(
            f"sides.{si}.forces.{fi}: a FADAD force in a Fae Domains scene needs the "
            "ladder<->percentile bridge (set rules: {fae.ladder_bridge: true}, C-04)"
        )
    for si, fi in mixed:
        force = scenario.sides[si].forces[fi]
        if getattr(force, "kind", "") in ("crew", "unit"):  # the bridge knows one body only
            raise UnsupportedForce(
                f"sides.{si}.forces.{fi}: a {force.kind} cannot fight in a Fae Domains scene "
                "(the bridge weighs one body's wounds; give the fighters as characters with "
                "count: N)"
            )


def _add_fae(
    battle: FaeBattle, builder: ForceBuilder, scenario: Scenario, si: int, fi: int
) -> None:
    force = scenario.sides[si].forces[fi]
    assert isinstance(force, FaeStats)
    side = scenario.sides[si]
    layers = [
        (f"sides.{si}.policies", side.policies),
        (f"sides.{si}.forces.{fi}.policies", force.policies),
    ]
    policies = build_fae_policy_set(layers, INDIVIDUAL_DEFAULTS, ignore=foreign_decisions())
    band = Band(force.name, si)
    for n in range(force.count):
        i = builder.index
        builder.index += 1
        streams = battle.streams
        member = FaeCharacter(
            battle,
            name=force.name if force.count == 1 else f"{force.name} {n + 1}",
            side=si,
            index=i,
            policies=policies,
            rng=streams.for_index("melee", i),
            targeting_rng=streams.get("targeting"),
            stats=force,
            options=scenario.rules.fae,
            band=band,
        )
        battle.enlist(member)
        if force.mount is not None:  # the mount is a combatant of its own, next in order
            j = builder.index
            builder.index += 1
            battle.enlist(mount_up(member, j, streams.for_index("melee", j)))


def build_fae_battle(
    scenario: Scenario, seed: int | None = None, *, collect: bool = True
) -> FaeBattle:
    """A fresh FaeBattle for ``scenario`` and ``seed`` (see the module docstring).

    Raises:
        PolicyError: an unknown policy or bad parameters (names the scenario field).
        UnsupportedForce: FADAD forces without ``fae.ladder_bridge``.
    """
    _check_bridge(scenario)
    battle = FaeBattle(**battle_args(scenario, seed, collect), obstacles=scenario.map.obstacles)
    fadad_view = _without_fae_policies(scenario)
    builder = ForceBuilder(battle, fadad_view)
    for si, side in enumerate(scenario.sides):
        for fi, force in enumerate(side.forces):
            if isinstance(force, FaeStats):
                _add_fae(battle, builder, scenario, si, fi)
            else:
                builder.add(si, fi, force)
        if not battle.sides[si].members:
            raise UnsupportedForce(f"sides.{si}.forces: side {side.name!r} has no fighters")
    if not battle.mixed:
        battle.log.round_word = "Turn"  # a round is a Fae turn: the narration says so
    return battle
