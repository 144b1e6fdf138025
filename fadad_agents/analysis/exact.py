"""Exact odds of a one-on-one personal duel, from the kernel's exact distributions.

A duel is a Markov chain over the two duellists' states between rounds: each one's wound
track, Ité points left and crit conditions (prone, disarmed, staggered, unconscious, the
weapon arm's state). One round is played exactly as the engine plays it
(:mod:`fadad_agents.engine.core.battle`): both declare (crit debts paid, a retreat or an
all-out defence by their policies, the action budget split), initiative is rolled (a
tie goes to the higher trait, then the two share a simultaneous turn), each attack's
outcome is the kernel's exact distribution (:func:`~fadad_agents.rules.personal.combat.
attack_results`: opposed 4dF, Target and shields, crits and their effects, damage dice
under every wound model, the wound recorded under the PC-death options), an Ité point is
spent by the duellist's Ité policy, and the crit effects apply as
:mod:`fadad_agents.agents.core.conditions` applies them. A round factors into one-strike
kernels over one duellist's turns (:mod:`~fadad_agents.analysis.duel_chain`), and the
chain runs forward over pairs of declared turns as sparse matrices
(:mod:`~fadad_agents.analysis.duel_matrix`), without pruning: a duel with every crit effect
solves to 30 rounds in about a second.

:func:`duel_odds` returns :class:`DuelOdds`: each side's chance to win, the chance both go
down in the same round, the chance of no result within the limit, and the distribution of
the round the duel ends in. :func:`out_of_reach` says in one line why a scenario is not a
duel this solver can play (groups, more fighters, ships, Fae, missile weapons, fighters
that start apart, policies whose choices are not fixed by the duellist's wounds).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fadad_agents.agents.core import moving
from fadad_agents.agents.core.character import Character
from fadad_agents.analysis.duel_chain import DuelChain, Duellist
from fadad_agents.analysis.duel_matrix import DuelOdds, solve
from fadad_agents.analysis.summary import NO_WINNER
from fadad_agents.engine.core.battle import PERSONAL_ROUND_SECONDS, Battle
from fadad_agents.engine.core.build import build_battle, load
from fadad_agents.engine.core.clock import collector_paused
from fadad_agents.policies.core.defaults import (
    AllOutDefenceWhenHurt,
    KeepPoints,
    SaveFromDeath,
    SaveFromDeathOnly,
    StayBack,
    WoundRetreat,
)
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.schema.scenario import Scenario

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["DuelOdds", "OutOfReach", "beside_monte_carlo", "duel_odds", "out_of_reach"]


class OutOfReach(ValueError):
    """The scenario is not a duel the exact solver can play (the message says why)."""


def out_of_reach(scenario: Scenario | str | Path) -> str | None:
    """Why the scenario is not a duel :func:`duel_odds` can solve, or None."""
    try:
        _duellists(load(scenario))
    except OutOfReach as exc:
        return str(exc)
    return None


def duel_odds(scenario: Scenario | str | Path) -> DuelOdds:
    """The exact odds of a one-on-one duel (see the module's docstring).

    Raises:
        OutOfReach: the scenario is not such a duel (one line saying why).
    """
    loaded = load(scenario)
    battle, duellists = _duellists(loaded)
    # The solve makes a few hundred thousand small tuples (states, turns, their keys)
    # and no cycles: with the collector on, its scans of the growing memos were ~40% of
    # the solve (0.88 against 0.54 s, crit effects on).
    with collector_paused():
        odds = solve(DuelChain(battle.options, duellists), _round_limit(loaded))
    a, b = (side.name for side in loaded.sides)
    return dataclasses.replace(odds, sides=(a, b))


def _round_limit(scenario: Scenario) -> int:
    stop = scenario.stop
    limits = [stop.max_rounds] if stop.max_rounds is not None else []
    if stop.max_seconds is not None:
        limits.append(math.ceil(stop.max_seconds / PERSONAL_ROUND_SECONDS))
    if not limits:
        raise OutOfReach("the duel has no round limit (stop.max_rounds or max_seconds)")
    return min(limits)


def _duellists(scenario: Scenario) -> tuple[Battle, tuple[Duellist, Duellist]]:
    if len(scenario.sides) != 2:
        raise OutOfReach(f"{len(scenario.sides)} sides: a duel has two")
    battle = build_battle(scenario, 0, collect=False)
    if type(battle) is not Battle:
        raise OutOfReach(f"a {type(battle).__name__} is not a personal duel")
    members = [side.members for side in battle.sides]
    if any(len(m) != 1 or not isinstance(m[0], Character) for m in members):
        raise OutOfReach("each side must be one character (count 1): groups are not duels")
    a, b = (m[0] for m in members)
    if not moving.touches(a, b):
        raise OutOfReach("the duellists start apart: closing in is movement, not solved")
    return battle, (_duellist(a), _duellist(b))


def _duellist(member: Character) -> Duellist:
    name, pol = member.name, member.policies
    if member.missile is not None:
        raise OutOfReach(f"{name} fights with a missile weapon: shooting is not solved")
    if member.checks_morale:
        raise OutOfReach(f"{name} checks morale (a lone NPC's morale policy): not solved")
    if isinstance(pol.targeting, StayBack):
        raise OutOfReach(f"{name} stays back: no duel")
    if not pol.closes:
        raise OutOfReach(f"{name}'s movement policy does not stand and fight: not solved")
    if not pol.attack_count:
        raise OutOfReach(f"{name}'s multi-attack policy is not a fixed count: not solved")
    retreat_at = None
    if not pol.holds:
        if not isinstance(pol.retreat, WoundRetreat):
            raise OutOfReach(f"{name}'s retreat policy is not a wound level: not solved")
        retreat_at = pol.retreat.level
    defend_at = None
    if not pol.always_attacks:
        if not isinstance(pol.stance, AllOutDefenceWhenHurt):
            raise OutOfReach(f"{name}'s stance policy is not a wound level: not solved")
        defend_at = pol.stance.level
    return Duellist(
        name=name,
        armed=member.armed,
        bare=member.bare,
        reaction=member.reaction,
        protection=member.protection,
        spends=_ite_policy(name, pol.ite_points),
        retreat_at=retreat_at,
        defend_at=defend_at,
        attacks=pol.attack_count,
        start_track=member.start_track,
        start_ite=member.start_ite_points,
    )


def _ite_policy(name: str, policy: Any) -> Callable[[int], bool]:
    if isinstance(policy, SaveFromDeath):
        return lambda blow: True
    if isinstance(policy, SaveFromDeathOnly):
        return lambda blow: blow >= Wound.DEAD
    if isinstance(policy, KeepPoints):
        return lambda blow: False
    raise OutOfReach(f"{name}'s Ité policy {type(policy).__name__} is not solved")


def beside_monte_carlo(exact: DuelOdds, monte_carlo: pd.DataFrame) -> str:
    """A table of each outcome's Monte Carlo estimate (``win_probabilities`` of a sweep:
    p and its interval) beside its exact chance, for ``fadad odds --exact``."""
    estimates = {row.side: row for row in monte_carlo.itertuples()}
    outcomes = [*zip(exact.sides, exact.wins, strict=True)]
    outcomes.append((NO_WINNER, exact.mutual + exact.unfinished))
    width = max(len(name) for name, _ in outcomes)
    lines = [f"{'outcome':<{width}}  Monte Carlo (95% interval)   exact"]
    for name, p in outcomes:
        row = estimates.get(name)
        mc = f"{row.p:.4f} ({row.low:.4f}-{row.high:.4f})" if row is not None else "0"
        lines.append(f"{name:<{width}}  {mc:<27}  {p:.4f}")
    lines.append(exact.summary())
    return "\n".join(lines) + "\n"
