"""Valid but extreme battles play to an end within a time and memory budget (issue 20).

A hypothesis strategy draws scenarios at the edges of what the schema allows: ladder
levels at Terrible-17 and Legendary+16, the largest counts, dice, Damage Capacities,
Fae attributes and wound points, 120-character names of any printable text, every
optional part filled in (weapon overrides, armour, shields, wound boxes, a mount with
its own weapon, ship weapons), and no stop limit or the most rounds the limits allow.
Drawn against small :class:`Limits` so each battle is small enough to play many, every
one must load, play to its end within the rounds its limits allow, keep its head counts
whole, narrate without a control character, and stay within the budget.
"""

from __future__ import annotations

import resource
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fadad_agents.engine import run
from fadad_agents.rules.core.ladder import LADDER_MAX, LADDER_MIN
from fadad_agents.schema import Limits, load_scenario
from fadad_agents.schema.text import CONTROL

LIMITS = Limits(agents=30, rounds=400, work=6_000)
"""Small limits: the largest battle they allow plays in a fraction of a second."""

MEMORY_BUDGET_MB = 600
"""Growth of the process's peak memory a battle may cause, from the peak before it: the
worker's earlier tests may have raised that peak already (in a fresh clone, numba's cache
cold, a worker's peak read 1,295 MiB against 487 at import, and a baseline read at import
failed every example of both tests there)."""

PRINTABLE = st.characters(exclude_categories=("Cc", "Cf", "Cs", "Zl", "Zp"))
LEVELS = st.sampled_from([LADDER_MIN, LADDER_MAX, 0])


def _name(draw: st.DrawFn, index: int, length: int = 120) -> str:
    """A name of ``length`` characters (the longest: 120), unique by its prefix."""
    return f"{index:03d} " + draw(st.text(PRINTABLE, min_size=length - 4, max_size=length - 4))


@st.composite
def _character(draw: st.DrawFn, index: int, room: int) -> dict[str, Any]:
    skill = draw(_name_text())
    return {
        "name": _name(draw, index),
        "count": draw(st.sampled_from([1, max(1, room)])),
        "strength": draw(LEVELS),
        "damage_capacity": draw(LEVELS),
        "reaction_speed": draw(LEVELS),
        "scale": draw(st.sampled_from([-40, 0, 60])),
        "skills": {skill: draw(LEVELS)},
        "attack_skill": skill,
        "weapon": {"model": "weapons/broadsword", "magic_plus": 10, "fadad_bonus": 10},
        "armour": {"model": "armour/plate", "value": 30, "magic_plus": 10},
        "shield": {"model": "shields/large", "magic_plus": 10},
        "wound_boxes": draw(st.sampled_from([[0, 0, 0, 0, 1], [100, 100, 100, 100, 100]])),
    }


def _name_text() -> st.SearchStrategy[str]:
    return st.text(PRINTABLE, min_size=1, max_size=120)


@st.composite
def _bulk(draw: st.DrawFn, index: int, kind: str) -> dict[str, Any]:
    force: dict[str, Any] = {
        "name": _name(draw, index),
        "kind": kind,
        "count": draw(st.sampled_from([1, 1_000_000 if kind == "crew" else 10_000_000])),
        "skill": draw(LEVELS),
        "damage_capacity": draw(LEVELS),
    }
    if kind == "crew":
        force |= {"hit_dice": draw(st.sampled_from([0.01, 40])), "attack_bonus": 30,
                  "max_damage": 200, "armour_class": draw(st.sampled_from([-10, 20]))}  # fmt: skip
    return force


@st.composite
def _fae(draw: st.DrawFn, index: int) -> dict[str, Any]:
    big = draw(st.booleans())
    attribute = 500 if big else 1
    return {
        "name": _name(draw, index, 112),  # the longest a rider of a 'steed' may have
        "ruleset": "fae",
        "attributes": dict.fromkeys(("strength", "agility", "stamina", "luck"), attribute)
        | {"size": 100_000 if big else 1, "reaction": attribute},
        "skills": {"Sword": draw(st.sampled_from([0, 300])), "Dodge": 300},
        "wound_points": draw(st.sampled_from([1, 100_000])),
        "fatigue_points": draw(st.sampled_from([1, 100_000])),
        "weapons": ["fae/greatsword"],
        "armour": "fae/plate-armour",
        "mount": {
            "name": "steed",
            "wound_points": 100_000,
            "fatigue_points": 100_000,
            "weapon": "fae/hooves",
        },
    }


@st.composite
def personal_battles(draw: st.DrawFn) -> dict[str, Any]:
    """Two or three sides of characters, crews and units, or of Fae combatants and
    characters (through the bridge: crews and units do not fight in a Fae scene)."""
    kinds = draw(st.sampled_from([["character", "crew", "unit"], ["character", "fae"]]))
    sides, index = [], 0
    for si in range(draw(st.integers(2, 3))):
        forces = []
        for _ in range(draw(st.integers(1, 2))):
            kind = draw(st.sampled_from(kinds))
            index += 1
            if kind == "character":
                forces.append(draw(_character(index, room=LIMITS.agents // 8)))
            elif kind == "fae":
                forces.append(draw(_fae(index)))
            else:
                forces.append(draw(_bulk(index, kind)))
        sides.append({"name": f"side {si} " + draw(_name_text())[:100], "forces": forces})
    return {
        "name": draw(st.text(PRINTABLE, min_size=120, max_size=120)),
        "description": draw(st.text(PRINTABLE, max_size=200)),
        "rules": {"fae.ladder_bridge": True, "fae.size_bridge": True},
        "sides": sides,
        "stop": {"max_rounds": None},
    }


@st.composite
def ship_battles(draw: st.DrawFn) -> dict[str, Any]:
    """Two hulls at the largest sizes and dice, crewed to their room."""
    sides = []
    for si in range(2):
        ship = {
            "name": f"ship {si}",
            "model": "ships/war-galleon",
            "position": [si, 0],
            "tons": draw(st.sampled_from([1, 1_000_000])),
            "hull_points": draw(st.sampled_from([1, 100_000])),
            "armour_class": draw(st.sampled_from([-10, 30])),
            "max_crew": 100_000,
            "ram": "piercing",
            "ram_dice": "100d100+1000",
            "helm_skill": draw(LEVELS),
            "weapons": [{"model": "big-weapons/ballista-medium", "sj_hull_damage": "100d100+1000"}],
        }
        crew = {
            "name": f"crew {si}",
            "model": "crews/sailors",
            "count": 100_000,
            "aboard": f"ship {si}",
        }
        sides.append({"name": f"side {si}", "forces": [ship, crew]})
    return {"name": "extreme ships", "map": {"kind": "hex", "radius": 10_000}, "sides": sides,
            "stop": {"max_rounds": None}}  # fmt: skip


def _play(data: dict[str, Any], seed: int) -> None:
    """Play ``data`` at ``seed`` to its end within its round cap and the memory budget."""
    before = _peak_mb()
    scenario = load_scenario(yaml.safe_dump(data, allow_unicode=True), limits=LIMITS)
    assert scenario.agents <= LIMITS.agents
    result = run(scenario, seed=seed, collect=False)
    cap = scenario.round_cap or scenario.stop.max_rounds
    assert cap is not None
    assert result.rounds <= cap
    assert result.ending in ("destroyed", "routed", "surrendered", "mutual", "stopped")
    for side in result.sides:
        assert 0 <= side.casualties <= side.strength
    assert not any(CONTROL.search(line) for line in result.log.lines())
    assert _peak_mb() - before < MEMORY_BUDGET_MB


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


BUDGET = settings(
    max_examples=15,
    deadline=30_000,  # a hang guard (milliseconds): each battle plays in far less
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@BUDGET
@given(personal_battles(), st.integers(0, 2**32))
def test_extreme_personal_battles_play_to_an_end_within_budget(
    data: dict[str, Any], seed: int
) -> None:
    """Characters, crews, units and Fae at their bounds, without a stop limit, end."""
    _play(data, seed)


@BUDGET
@given(ship_battles(), st.integers(0, 2**32))
def test_extreme_ship_battles_play_to_an_end_within_budget(data: dict[str, Any], seed: int) -> None:
    """Hulls of a million tons, 100d100+1000 dice, 100,000 aboard each, end."""
    _play(data, seed)
