"""Fae actions on the engine: stun, called shots, dual weapons, throwing, water, blocks
wearing shields and simultaneous blows (sections 2-8)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from fadad_agents.agents.fae.character import FaeCharacter
from fadad_agents.engine import LogEvent
from fadad_agents.engine.fae.battle import FaeBattle
from tests.engine.conftest import fae_battles


def _fighter(name: str, x: int, policies: str = "{}", extra: str = "") -> str:
    return f"""
      - name: {name}
        attributes: {{strength: 60, agility: 60, luck: 50, reaction: 60}}
        skills: {{Sword: 70, Dodge: 40, Shield: 60, Unarmed: 60, Acrobatics: 80,
                  Thrown Weapons: 70, Swim: 40}}
        wound_points: 60
        fatigue_points: 60
        weapons: [fae/longsword, fae/shortsword]
        position: [{x}, 0]
        policies: {policies}
{extra}"""


def _battles(a: str, b: str, seeds: range = range(12), rules: str = "{}") -> Iterator[FaeBattle]:
    return fae_battles(a, b, seeds, rules=rules, rounds=12)


def _events(battles: Iterator[FaeBattle], action: str) -> list[tuple[FaeBattle, LogEvent]]:
    return [(b, e) for b in battles for e in b.log.events if e.action == action]


def test_stun_attacks_fill_fatigue_not_wounds() -> None:
    """Attacking to stun (C-24): damage goes to Fatigue; above Fatigue Points unconscious."""
    stun = "{fae_called_shot: {name: none, params: {stun: true}}, fae_defence: none}"
    knocked = 0
    for battle in _battles(_fighter("Ann", 0, stun), _fighter("Bob", 1, stun)):
        for m in battle.fae_members:
            assert isinstance(m, FaeCharacter)
            assert m.health.wounds == 0
            knocked += m.health.unconscious
        assert all(e.result == "unconscious" for e in battle.log.events if e.action == "out")
    assert knocked


def test_stun_with_an_edge_costs_ten_percent() -> None:
    """Slashing weapons strike with the flat to stun: -10% on the attack test (3.3)."""
    plain = _events(_battles(_fighter("Ann", 0), _fighter("Bob", 1), range(3)), "fae_attack")
    stun = "{fae_called_shot: {name: none, params: {stun: true}}}"
    flat = _events(_battles(_fighter("Ann", 0, stun), _fighter("Bob", 1), range(3)), "fae_attack")
    mcs_plain = {dict(e.modifiers)["mcs"] for _, e in plain if e.actor == "Ann"}
    mcs_flat = {dict(e.modifiers)["mcs"] for _, e in flat if e.actor == "Ann"}
    assert mcs_plain
    assert mcs_flat
    assert {m - 10 for m in mcs_plain} == mcs_flat


def test_called_head_shots_kill_outright_or_not_at_all() -> None:
    """Head shots: -20% to hit, +20 margin; more than half WP in one shot is death (7)."""
    head = "{fae_called_shot: {name: special, params: {shot: head, min_chance: 1}}}"
    found = _events(_battles(_fighter("Ann", 0, head), _fighter("Bob", 1)), "called_shot")
    assert found
    for battle, e in found:
        assert e.result == "dead"
        bob = next(m for m in battle.fae_members if m.name == "Bob")
        assert not bob.fighting


def test_dual_weapons_halve_each_skill() -> None:
    """Two readied weapons: an attack with each, each skill divided by two (3.3)."""
    dual = "{fae_action: {name: fighter, params: {dual: true}}}"
    single = _events(_battles(_fighter("Ann", 0), _fighter("Bob", 1), range(2)), "fae_attack")
    both = _events(_battles(_fighter("Ann", 0, dual), _fighter("Bob", 1), range(2)), "fae_attack")
    full = {dict(e.modifiers)["mcs"] for _, e in single if e.actor == "Ann"}
    halved = {dict(e.modifiers)["mcs"] for _, e in both if e.actor == "Ann"}
    assert max(halved) == max(full) - 35  # Sword 70 -> 35 each
    weapons = {dict(e.outcome).get("weapon") for _, e in both if e.actor == "Ann"}
    assert weapons >= {"Longsword", "Shortsword"}


def test_thrown_knives_leave_the_hand() -> None:
    """A thrown weapon is gone after the throw; the next one must be readied (3.4)."""
    thrower = """
      - name: Kit
        attributes: {strength: 60, agility: 60, luck: 50, reaction: 60}
        skills: {Thrown Weapons: 70, Sword: 50}
        wound_points: 60
        fatigue_points: 60
        weapons: [fae/throwing-knife, fae/throwing-knife, fae/dagger]
        position: [0, 0]
        policies: {fae_action: {name: archer, params: {aim: 0}}}
"""
    battles = list(_battles(thrower, _fighter("Bob", 8, "{fae_action: passive}"), range(3)))
    for battle in battles:
        throws = [e for e in battle.log.events if e.actor == "Kit" and e.action == "fae_attack"]
        knives = [e for e in throws if dict(e.outcome).get("weapon") == "Throwing knife"]
        assert len(knives) <= 2
        assert any(e.action == "ready_weapon" and e.actor == "Kit" for e in battle.log.events)


def test_underwater_melee_uses_half_the_skill() -> None:
    """Underwater, melee attacks use half the skill (section 6)."""
    dry = _events(_battles(_fighter("Ann", 0), _fighter("Bob", 1), range(2)), "fae_attack")
    wet_a = _fighter("Ann", 0, extra="        underwater: true\n")
    wet = _events(_battles(wet_a, _fighter("Bob", 1), range(2)), "fae_attack")
    high_dry = max(dict(e.modifiers)["mcs"] for _, e in dry if e.actor == "Ann")
    high_wet = max(dict(e.modifiers)["mcs"] for _, e in wet if e.actor == "Ann")
    assert high_wet == high_dry - 35


def test_blocks_wear_the_shield_down() -> None:
    """A block adds margin% x DR to armour; a blow above the shield's DR wears it (A-67)."""
    shield = "        shield: fae/buckler\n"
    block = "{fae_defence: block}"
    big = "{}"
    worn = blocks = 0
    for battle in _battles(_fighter("Ann", 0, big), _fighter("Bob", 1, block, shield)):
        bob = next(m for m in battle.fae_members if m.name == "Bob")
        blocked = [e for e in battle.log.events if e.action == "block" and e.actor == "Bob"]
        hits = [
            dict(e.outcome)
            for e in battle.log.events
            if e.action == "fae_attack"
            and e.target == "Bob"
            and dict(e.outcome).get("defence") == "block"
        ]
        assert bob.shield_dr <= 20
        if any(h["damage"] > 20 for h in hits):
            assert bob.shield_dr < 20
        if blocked:
            assert all(dict(e.outcome)["item_dr"] <= 20 for e in blocked)
        blocks += len(blocked)
        worn += bob.shield_dr < 20
    assert blocks
    assert worn


def test_equal_margins_and_reactions_strike_simultaneously() -> None:
    """Same margin and same Reaction: both blows land before either falls (mutual kills
    possible, section 2)."""
    brutal = "        wound_points: 1\n"
    a = _fighter("Ann", 0, "{fae_defence: none}").replace("        wound_points: 60\n", brutal)
    b = _fighter("Bob", 1, "{fae_defence: none}").replace("        wound_points: 60\n", brutal)
    endings = set()
    for battle in _battles(a, b, range(30)):
        first = [e for e in battle.log.events if e.action == "reaction_test"][:2]
        same = first[0].result == first[1].result and first[0].result != "botch"
        if same and battle.ending == "mutual":
            endings.add("mutual")
        if battle.ending == "mutual":
            assert all(not m.fighting for m in battle.fae_members)
    assert "mutual" in endings


class _Caster:
    """Casts ``spark`` at every count."""

    def choose_action(self, actor: object, target: object, battle: object) -> str:
        return "cast_spell:spark"


def test_spells_are_a_hook_policies_can_use() -> None:
    """Cast spell is a full action whose effect is a registered hook (Magic: not in seed)."""
    from fadad_agents.agents.fae.actions import SPELLS, register_spell
    from fadad_agents.policies import REGISTRY

    REGISTRY.register("fae_action", "test_caster", _Caster, replace=True)
    register_spell("spark", lambda caster, target, arena: f"sparks at {target.name}")
    try:
        caster = "{fae_action: test_caster}"
        found = _events(_battles(_fighter("Ann", 0, caster), _fighter("Bob", 1), range(2)),
                        "cast_spell")  # fmt: skip
        assert found
        assert all(e.result == "sparks at Bob" for _, e in found)
        for (b1, e1), (b2, e2) in itertools.pairwise(found):  # a full action: 50 apart
            if b1 is b2 and dict(e1.outcome)["turn"] == dict(e2.outcome)["turn"]:
                assert dict(e1.modifiers)["count"] - dict(e2.modifiers)["count"] == 50
    finally:
        SPELLS.pop("spark", None)


def test_melee_reach_is_an_option() -> None:
    """``fae.melee_reach`` sets how far a melee weapon hits (PROPOSED, issue 7)."""
    far = _fighter("Ann", 0), _fighter("Bob", 4, "{fae_action: passive}")
    near = next(iter(_battles(*far, range(1), "{fae.melee_reach: 5}")))
    moves = [e for e in near.log.events if e.actor == "Ann" and e.action in ("move", "run", "walk")]
    assert not moves  # 4 yd away is within a 5-yd reach: Ann attacks at once
    short = next(iter(_battles(*far, range(1))))
    assert any(e.actor == "Ann" and e.action in ("move", "run", "walk") for e in short.log.events)


def test_kneeling_archers_and_blinded_fighters() -> None:
    """Kneeling gives +5% with missiles; blindness (or darkness) -60% (3.1)."""
    archer = """
      - name: Kit
        attributes: {agility: 60, luck: 50, reaction: 60}
        skills: {Bow: 60}
        wound_points: 60
        fatigue_points: 60
        weapons: [fae/shortbow]
        position: [0, 0]
        policies: {fae_action: {name: archer, params: {aim: 0, kneel: true}}}
"""
    target = _fighter("Bob", 10, "{fae_action: passive}")
    found = _events(_battles(archer, target, range(2)), "fae_attack")
    assert {dict(e.modifiers)["situation"] for _, e in found} == {5}
    kneel = _events(_battles(archer, target, range(1)), "change_position")
    assert kneel[0][1].result == "kneels"
    blind = _fighter("Ann", 0, extra="        blinded: true\n")
    found = _events(_battles(blind, _fighter("Bob", 1), range(2)), "fae_attack")
    assert {dict(e.modifiers)["situation"] for _, e in found if e.actor == "Ann"} == {-60}
