"""Holds in Fae battles (fae-domains.md section 4): basic, limb and submission holds, what
the held fighter may still do, breaking free with the better of Strength and Unarmed, and
a reversal that lets the former target seize a hold with its next action."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fadad_agents.agents.fae.moves import approach
from fadad_agents.engine import LogEvent, build_battle, load
from fadad_agents.engine.fae.battle import FaeBattle
from fadad_agents.rules.fae.checks import modified_chance
from tests.engine.conftest import fae_battles, fae_scene


def _fae(name: str, x: int, policies: str = "{}", extra: str = "", attrs: str = "") -> str:
    return f"""
      - name: {name}
        attributes: {{agility: 60, luck: 50, reaction: 60{attrs or ", strength: 60"}}}
        skills: {{Sword: 60, Dodge: 40, Unarmed: 70}}
        wound_points: 400
        fatigue_points: 400
        weapons: [fae/longsword, fae/shortsword]
        position: [{x}, 0]
        policies: {policies}
{extra}"""


def _wrestler(hold: str, limb: str = "arm") -> str:
    return f"{{fae_action: {{name: wrestler, params: {{hold: {hold}, limb: {limb}}}}}}}"


def _battles(
    red: str, blue: str, seeds: range = range(10), rules: str = "{}"
) -> Iterator[FaeBattle]:
    return fae_battles(red, blue, seeds, rules=rules, rounds=8)


def _while_held(battle: FaeBattle, name: str) -> list[LogEvent]:
    """``name``'s own events between a hold seized on it and its end."""
    held, out = False, []
    for e in battle.log.events:
        if e.action == "hold" and e.target == name:
            held = e.result in ("held", "reverses the hold", "squeezes")
        elif e.action == "break_hold" and e.actor == name and e.result != "held":
            held = False
        elif held and e.actor == name:
            out.append(e)
    return out


CID = _fae("Cid", 2)
"""A second foe whose blows the held fighter may (or may not) defend against."""


def test_a_basic_hold_leaves_the_target_its_actions() -> None:
    """Held in a basic hold, a fighter strikes and defends as usual (issue 21: in 200 duels
    the held fighter only ever tried to break free)."""
    acts = [
        e.action
        for b in _battles(_fae("Ann", 0, _wrestler("basic")) + CID, _fae("Bob", 1))
        for e in _while_held(b, "Bob")
    ]
    assert "fae_attack" in acts
    assert {"dodge", "block"} & set(acts)
    assert "break_hold" not in acts  # the plain fighter fights on rather than struggle


def test_a_submission_hold_leaves_nothing_but_breaking_free() -> None:
    """Held in a submission hold, a fighter neither strikes nor defends: it struggles."""
    acts = {
        e.action
        for b in _battles(_fae("Ann", 0, _wrestler("submission")) + CID, _fae("Bob", 1))
        for e in _while_held(b, "Bob")
    }
    assert "break_hold" in acts
    assert not acts & {"fae_attack", "dodge", "block", "acrobatic_dodge"}


def test_a_limb_hold_on_the_weapon_arm_leaves_the_other_hand() -> None:
    """The held arm cannot be used: the fighter strikes with the spare shortsword in the
    other hand, at the offhand -10% (never with the longsword)."""
    held = [
        e
        for b in _battles(_fae("Ann", 0, _wrestler("limb")), _fae("Bob", 1))
        for e in _while_held(b, "Bob")
        if e.action == "fae_attack"
    ]
    assert held
    assert {dict(e.outcome)["weapon"] for e in held} == {"Shortsword"}
    assert {dict(e.modifiers)["situation"] for e in held} <= {-10, 5, 10}  # flank aside


def test_a_leg_hold_halves_movement_but_not_running() -> None:
    """A held leg halves the Move Rates; running stays allowed (only halved)."""
    scenario = load(
        fae_scene(_fae("Ann", 0, _wrestler("limb", "leg")), _fae("Bob", 1), name="leg", rounds=8)
    )
    for seed in range(10):
        battle = build_battle(scenario, seed=seed)
        bob = next(m for m in battle.fae_members if m.name == "Bob")
        while not battle.finished and bob.held_by is None:
            battle.step()
        if bob.held_by is not None:
            assert (bob.walk_mr, bob.run_mr) == (5, 15)
            assert bob.can_run
            return
    pytest.fail("no leg hold seized in 10 battles")


def test_the_kind_of_hold_sets_the_seizing_test() -> None:
    """Seizing: Unarmed at 0 (basic), fae.limb_hold_modifier (-20) or
    fae.submission_hold_modifier (-40), both options."""
    unarmed = modified_chance(70, attribute=60, luck=50)
    expected = {"basic": unarmed, "limb": unarmed - 20, "submission": unarmed - 40}
    for kind, mcs in expected.items():
        seized = [
            dict(e.modifiers)["mcs"]
            for b in _battles(_fae("Ann", 0, _wrestler(kind)), _fae("Bob", 1), range(2))
            for e in b.log.events
            if e.action == "hold" and e.actor == "Ann" and e.result in ("held", "miss")
        ]
        assert set(seized) == {mcs}, kind
    rules = "{fae.limb_hold_modifier: -5, fae.submission_hold_modifier: 0}"
    for kind, mcs in (("limb", unarmed - 5), ("submission", unarmed)):
        seized = [
            dict(e.modifiers)["mcs"]
            for b in _battles(_fae("Ann", 0, _wrestler(kind)), _fae("Bob", 1), range(2), rules)
            for e in b.log.events
            if e.action == "hold" and e.actor == "Ann" and e.result in ("held", "miss")
        ]
        assert set(seized) == {mcs}, kind


def test_breaking_free_takes_the_better_of_strength_and_unarmed() -> None:
    """Bob has no Unarmed skill but Strength 90: he struggles on Strength (90 + Luck 5);
    the holder tests Unarmed (its better) at +10."""
    strong = _fae("Bob", 1, _wrestler("basic"), attrs=", strength: 90").replace(
        "Unarmed: 70", "Unarmed: 0"
    )
    breaks = [
        e
        for b in _battles(_fae("Ann", 0, _wrestler("submission")), strong)
        for e in b.log.events
        if e.action == "break_hold" and e.actor == "Bob"
    ]
    assert breaks
    assert {dict(e.modifiers)["mcs"] for e in breaks} == {90 + 5}
    assert {dict(e.modifiers)["holder_mcs"] for e in breaks} == {70 + 6 + 5 + 10}


def test_a_reversal_lets_the_target_seize_a_hold_with_its_next_action() -> None:
    """Twice the holder's margin reverses the hold: the hold is broken at once, and the
    former target's next action seizes a hold on its holder without a test (the seed: "may
    begin a hold on the attacker with his next action")."""
    seen = 0
    for battle in _battles(
        _fae("Ann", 0, _wrestler("submission")), _fae("Bob", 1, _wrestler("basic")), range(30)
    ):
        events = battle.log.events
        for i, e in enumerate(events):
            if e.action == "break_hold" and e.result == "reversed":
                after = [x for x in events[i + 1 :] if x.actor == e.actor]
                own = ("dodge", "block", "reaction_test")
                nxt = next((x for x in after if x.action not in own), None)
                if nxt is not None and nxt.action == "hold":
                    assert nxt.result in ("reverses the hold", "miss")
                    assert nxt.dice == ()
                    assert nxt is not after[0] or after[0].action == "hold"
                    seen += 1
    assert seen


class _Spot:
    """A place to move toward."""

    def __init__(self, x: float, y: float) -> None:
        self.xy, self.name, self.altitude = (x, y), "the ford", 0


def test_a_held_fighter_drags_its_holder_or_is_pinned() -> None:
    """Held, Bob moves toward Cid dragging Ann along; a holder heavier than Bob can lift
    (3 x Size lb > 4 x Strength lb: Size 150 against Strength 60) pins him where he is."""
    cid = _fae("Cid", -40, "{fae_action: passive}")
    away = _Spot(60.0, 0.0)
    for size, dragged in ((60, True), (150, False)):
        ann = _fae("Ann", 0, _wrestler("basic"), attrs=f", strength: 60, size: {size}")
        scenario = load(fae_scene(cid + ann, _fae("Bob", 1), name="drag", rounds=8))
        battle = build_battle(scenario, seed=1)
        ann_, bob = (next(m for m in battle.fae_members if m.name == n) for n in ("Ann", "Bob"))
        while not battle.finished and bob.held_by is None:
            battle.step()
        assert bob.held_by is ann_
        start = bob.xy
        approach(bob, away, 10, battle, "move")
        assert (bob.xy != start) is dragged
        assert ann_.xy == (bob.xy if dragged else ann_.xy)
        assert bob.held_by is ann_
        last = battle.log.events[-1]
        assert ("pinned_by" in dict(last.outcome)) is not dragged
