"""Properties of battles on the field, for any starting positions (hypothesis): no fighter
moves farther in a round than its actions allow, no melee blow without contact, no shot
beyond Extreme range, no more melee attackers on one defender in a round than fit round
it, no two fighters in one place (personal-combat.md 5, 6)."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fadad_agents.agents.core.field import ELBOW_ROOM
from fadad_agents.engine import build_battle, load
from fadad_agents.rules.personal.movement import movement_allowance

CONTACT = 2.0
"""Two Scale 0 fighters with 1-yard weapons touch at 0.5 + 1 + 0.5 yards."""
EXTREME = 16.0
"""The archer's Extreme range: twice her weapon's long range of 8 yards."""
LOGGED = 0.02
"""How far a distance measured between two logged places may stray from the logged yards:
the log rounds each coordinate and the yards to 0.01 (0.005 * 2 * sqrt(2) + 0.005)."""

spots = st.tuples(st.integers(0, 60), st.integers(0, 60))


def _scenario(red: list[tuple[int, int]], blue: list[tuple[int, int]], gait: str) -> str:
    def forces(prefix: str, places: list[tuple[int, int]]) -> str:
        return "".join(
            f"""
      - name: {prefix}{i}
        skills: {{Sword: Good}}
        attack_skill: Sword
        weapon: weapons/broadsword
        policies: {{movement: {{name: close, params: {{gait: {gait}}}}}}}
        position: [{x}, {y}]"""
            for i, (x, y) in enumerate(places)
        )

    archer = """
      - name: Archer
        skills: {Bow: Good}
        attack_skill: Bow
        weapon: {model: weapons/bow, range_yards: [2, 4, 6, 8], ammunition: null}
        policies: {movement: hold}
        position: [30, 30]"""
    return f"""
name: property battle
map: {{kind: open, width: 60, height: 60}}
sides:
  - name: Red
    forces:{forces("Red", red)}{archer}
  - name: Blue
    forces:{forces("Blue", blue)}
stop: {{max_rounds: 8}}
"""


def _replay(battle: Any) -> tuple[list[str], dict[tuple[int, str], set[str]]]:
    """Walk the log with every fighter's position; return the broken rules found and
    the melee attackers of each defender per round."""
    where = {m.name: m.start_position for s in battle.sides for m in s.members}
    broken: list[str] = []
    attackers: dict[tuple[int, str], set[str]] = defaultdict(set)
    for e in battle.log:
        out = dict(e.outcome)
        if e.action == "move":
            actions = dict(e.modifiers)["actions"]
            if out["yards"] > movement_allowance(actions) + 0.01:
                broken.append(f"{e.actor} moved {out['yards']} yd on {actions} actions")
            if math.dist(where[e.actor], out["from"]) > 0.01:
                broken.append(f"{e.actor} moved from where it was not")
            where[e.actor] = out["to"]
        elif e.action == "shoot":
            gap = math.dist(where[e.actor], where[e.target])
            if gap > EXTREME + LOGGED or abs(gap - out["yards"]) > LOGGED:
                broken.append(f"{e.actor} shot {e.target} at {gap:.2f} yd")
        elif e.action == "attack":
            gap = math.dist(where[e.actor], where[e.target])
            if gap > CONTACT + 0.02:
                broken.append(f"{e.actor} struck {e.target} from {gap:.2f} yd")
            attackers[(e.round, e.target)].add(e.actor)
    return broken, attackers


def _too_close(battle: Any) -> list[tuple[str, str]]:
    """Pairs of fighters still on the field standing closer than ELBOW_ROOM of their radii
    together (no two fighters in one place)."""
    standing = [m for side in battle.sides for m in side.members if m.placed and m.fighting]
    return [
        (a.name, b.name)
        for i, a in enumerate(standing)
        for b in standing[i + 1 :]
        if math.dist(a.position, b.position) < (a.radius + b.radius) * ELBOW_ROOM - 1e-9
    ]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    red=st.lists(spots, min_size=1, max_size=4),
    blue=st.lists(spots, min_size=1, max_size=8),
    gait=st.sampled_from(["walk", "jog", "run"]),
    seed=st.integers(0, 1000),
)
# A shot logged at 15.99 yd whose places, rounded in the log, are 15.98 yd apart.
@example(red=[(0, 0), (25, 21)], blue=[(0, 0), (0, 0), (0, 32)], gait="walk", seed=0)
def test_moves_blows_and_crowding_keep_to_the_rules(
    red: list[tuple[int, int]], blue: list[tuple[int, int]], gait: str, seed: int
) -> None:
    """Moves within the actions spent, blows only in contact, shots within Extreme range,
    at most six on one man, no two fighters in one place after any round (even two given
    the same starting spot)."""
    battle = build_battle(load(_scenario(red, blue, gait)), seed, collect=False)
    while not battle.finished:
        battle.play_round()
        assert _too_close(battle) == []
    broken, attackers = _replay(battle)
    assert broken == []
    assert all(len(a) <= 6 for a in attackers.values())
    most = movement_allowance({"walk": 0, "jog": 1, "run": 2}[gait])
    assert all(dict(e.outcome)["yards"] <= most + 0.01 for e in battle.log if e.action == "move")
