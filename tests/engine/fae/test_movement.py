"""Moving and charging in Fae battles: the free walk once a turn and never with a Move
(2.1, 2.2), a charge only right after the run (3.3), a mount's kick no charge of its own,
an aim kept through a wait (2.2), and a crash from the height the dive began at (6)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.fae.battle import FaeBattle
from fadad_agents.policies import REGISTRY
from tests.engine.conftest import SCENARIOS, fae_battles, fix_reactions


def _fae(name: str, x: int, policies: str = "{}", extra: str = "", skills: str = "") -> str:
    return f"""
      - name: {name}
        attributes: {{strength: 60, agility: 60, luck: 50, reaction: 90}}
        skills: {{Sword: 60, Dodge: 40{skills}}}
        wound_points: 500
        fatigue_points: 500
        weapons: [fae/longsword]
        position: [{x}, 0]
        policies: {policies}
{extra}"""


def _battles(red: str, blue: str, seeds: range, rules: str = "{}") -> Iterator[FaeBattle]:
    return fae_battles(red, blue, seeds, rules=rules)


def test_the_free_walk_is_taken_once_a_turn_and_never_with_a_move() -> None:
    """Bob dodges away from every blow; Ann follows. She walks at most once a turn and
    never walks and Moves in one turn (issue 21: the walk was taken again and again)."""
    dodger = _fae("Bob", 3, "{fae_action: passive, fae_defence: dodge}", skills=", Dodge: 95")
    dodger = dodger.replace("Dodge: 40, Dodge: 95", "Dodge: 95")
    walks = 0
    for battle in _battles(_fae("Ann", 0), dodger, range(12)):
        moves: dict[int, list[str]] = defaultdict(list)
        for e in battle.log.events:
            if e.actor == "Ann" and e.action in ("walk", "move"):
                moves[dict(e.outcome)["turn"]].append(e.action)
        for kinds in moves.values():
            assert kinds.count("walk") <= 1
            assert not ("walk" in kinds and "move" in kinds)
        walks += sum(k.count("walk") for k in moves.values())
    assert walks


def test_a_charge_is_the_blow_right_after_the_run() -> None:
    """A fighter who runs in, then aims, strikes with no charge bonus: base damage is the
    longsword's 80 (issue 21: the bonus outlived any action between); one who strikes right
    after the run (a free walk aside) charges: + half its Size."""
    aimer = "{fae_action: {name: archer, params: {aim: 1}}}"
    blows = [
        dict(e.modifiers)["base"]
        for b in _battles(_fae("Ann", 0, aimer), _fae("Bob", 25, "{fae_action: passive}"), range(4))
        for e in b.log.events
        if e.action == "fae_attack" and e.actor == "Ann" and "base" in dict(e.modifiers)
    ]
    assert blows
    assert set(blows) == {80}
    runner = [
        dict(e.modifiers)["base"]
        for b in _battles(
            _fae("Ann", 0, "{fae_action: charger}"),
            _fae("Bob", 40, "{fae_action: passive}"),
            range(4),
        )
        for e in b.log.events
        if e.action == "fae_attack" and e.actor == "Ann" and "base" in dict(e.modifiers)
    ]
    assert 80 + 25 in runner  # a charge straight after the run: + half Size 50


def test_a_mounts_kick_is_no_charge_of_its_own() -> None:
    """The mounted charge puts the mount's Size in the rider's blow; the destrier's hooves
    strike at their own base damage (issue 21: they got a charge bonus too)."""
    scenario = load(Path(SCENARIOS) / "fae-mounted-charge.yaml")
    kicks = set()
    for seed in range(6):
        battle = build_battle(scenario, seed=seed)
        battle.run_to_end()
        kicks |= {
            dict(e.modifiers)["base"]
            for e in battle.log.events
            if e.action == "fae_attack" and "destrier" in e.actor and "base" in dict(e.modifiers)
        }
    hooves = next(m for m in battle.fae_members if "destrier" in m.name).weapon.base_damage
    assert kicks == {hooves}


class _AimWaitShoot:
    """Aim once, wait once, then shoot (a test policy)."""

    def choose_action(self, actor: object, target: object, battle: object) -> str:
        plan = actor.memory.setdefault("plan", ["take_aim", "wait"])  # type: ignore[attr-defined]
        return plan.pop(0) if plan else "attack"


def test_a_wait_keeps_the_aim(monkeypatch: pytest.MonkeyPatch) -> None:
    """Holding one's action keeps the aim (2.2: lost only on actions other than aiming,
    attacking or holding): the shot after aim, wait carries +5%."""
    REGISTRY.register("fae_action", "test_aim_wait_shoot", _AimWaitShoot, replace=True)
    fix_reactions(monkeypatch, {"Kit": 90, "Bob": 0})
    archer = (
        _fae("Kit", 0, "{fae_action: test_aim_wait_shoot}")
        .replace("fae/longsword", "fae/shortbow")
        .replace("Sword: 60", "Bow: 60")
    )
    shots = [
        dict(e.modifiers)["aim"]
        for b in _battles(archer, _fae("Bob", 10, "{fae_action: passive}"), range(2))
        for e in b.log.events
        if e.action == "fae_attack" and e.actor == "Kit"
    ]
    assert shots[0] == 5


def test_a_crash_falls_from_where_the_dive_began() -> None:
    """A failed level-out in crash mode falls the dive's whole height: 12 yd onto a foe on
    the ground, base damage 10 + 10 a yard (issue 21: always a fall from 0 yd), and
    fae.fall_damage_per_yard sets the rate."""
    flyer = (
        "        fly_mr: 30\n        altitude: 12\n"
        "        policies: {fae_tactics: {name: swoop, params: {altitude: 12}}}\n"
    )
    kite = _fae("Kite", 0, extra=flyer).replace("        policies: {}\n", "")
    kite = kite.replace("agility: 60, luck: 50", "agility: 1, luck: 1")
    for per_yard in (10, 3):
        rules = f"{{fae.dive_failed_level_out: crash, fae.fall_damage_per_yard: {per_yard}}}"
        falls = [
            (dict(e.outcome)["yards"], e.result)
            for b in _battles(kite, _fae("Bob", 10), range(8), rules)
            for e in b.log.events
            if e.action == "fall"
        ]
        assert falls
        assert {(y, r) for y, r in falls} == {(12, 10 + per_yard * 12)}
