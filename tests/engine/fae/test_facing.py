"""Facing in Fae battles: blindside (+15) and rear (+20) bonuses by where the attacker stands
against the way the target faces (fae-domains.md 3.1; fae.facing, fae.front_arc,
fae.rear_arc). A fighter faces the foe it acts against or the way it moves; at the start,
its stat block's ``facing`` or its nearest foe."""

from __future__ import annotations

import pytest

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.fae.battle import FaeBattle
from tests.engine.conftest import fae_scene, fix_reactions

PASSIVE = "{fae_action: passive, fae_defence: none}"
STRIKER = "{fae_defence: none, fae_called_shot: none}"


def _fae(name: str, x: float, y: float, policies: str = STRIKER, extra: str = "") -> str:
    return f"""
      - name: {name}
        attributes: {{reaction: 60, luck: 50}}
        skills: {{Sword: 60, Bow: 60}}
        wound_points: 900
        fatigue_points: 900
        weapons: [fae/longsword]
        position: [{x}, {y}]
        policies: {policies}
{extra}"""


def _flanks(
    monkeypatch: pytest.MonkeyPatch, red: str, blue: str, margins: dict[str, int], rules: str = "{}"
) -> dict[str, int]:
    """Each attacker's blindside/rear bonus on its first blow of turn 1."""
    fix_reactions(monkeypatch, margins)
    battle = build_battle(load(fae_scene(red, blue, name="facing", rules=rules, rounds=1)), 1)
    assert isinstance(battle, FaeBattle)
    battle.step()
    out: dict[str, int] = {}
    for e in battle.log.events:
        if e.action == "fae_attack":
            out.setdefault(e.actor, dict(e.modifiers)["flank"])
    return out


def _ring(bob: str = "") -> tuple[str, str]:
    """Bob at the origin facing east (+x); Ann ahead, Dee beside, Cid behind him."""
    red = _fae("Bob", 0, 0, PASSIVE, bob or "        facing: 0\n")
    blue = _fae("Ann", 1, 0) + _fae("Dee", 0, 1) + _fae("Cid", -1, 0)
    return red, blue


RING = {"Ann": 80, "Dee": 79, "Cid": 78, "Bob": 0}


def test_front_side_and_rear(monkeypatch: pytest.MonkeyPatch) -> None:
    """The foe ahead gets nothing, the one beside +15, the one behind +20."""
    assert _flanks(monkeypatch, *_ring(), RING) == {"Ann": 0, "Dee": 15, "Cid": 20}


def test_vision_traits_see_the_sides_or_all_around(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wide-angle vision: no blindside (the rear still +20); all-around vision: neither."""
    wide = _ring("        facing: 0\n        vision: wide_angle\n")
    assert _flanks(monkeypatch, *wide, RING) == {"Ann": 0, "Dee": 0, "Cid": 20}
    every = _ring("        facing: 0\n        vision: all_around\n")
    assert _flanks(monkeypatch, *every, RING) == {"Ann": 0, "Dee": 0, "Cid": 0}


def test_arc_widths_are_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """fae.front_arc 60 and fae.rear_arc 240 put the foe beside in the rear; fae.facing
    false drops every flank bonus."""
    narrow = "{fae.front_arc: 60, fae.rear_arc: 240}"
    assert _flanks(monkeypatch, *_ring(), RING, narrow) == {"Ann": 0, "Dee": 20, "Cid": 20}
    off = "{fae.facing: false}"
    assert _flanks(monkeypatch, *_ring(), RING, off) == {"Ann": 0, "Dee": 0, "Cid": 0}


def test_a_foe_ahead_gets_no_blindside_though_not_the_one_faced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pixie faces the goblin it goes for; an archer standing further along the same
    line shoots it from the front: no +15 (issue 21: every foe but the one faced got it)."""
    pixie = _fae("Pip", 0, 0, PASSIVE)
    goblins = _fae("Hob", 2, 0, PASSIVE) + _fae(
        "Gob", 30, 3, "{fae_action: {name: archer, params: {aim: 0}}}"
    ).replace("fae/longsword", "fae/shortbow")
    flanks = _flanks(monkeypatch, pixie, goblins, {"Pip": 80, "Hob": 0, "Gob": 60})
    assert flanks == {"Gob": 0}


def test_start_facing_from_the_stat_block_or_the_nearest_foe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bob given facing 180 (west) is struck from behind by Ann to the east before he acts;
    with no facing he starts facing Ann, his nearest foe."""
    away = _fae("Bob", 0, 0, PASSIVE, "        facing: 180\n")
    ann = _fae("Ann", 1, 0)
    assert _flanks(monkeypatch, away, ann, {"Ann": 80, "Bob": 0}) == {"Ann": 20}
    plain = _fae("Bob", 0, 0, PASSIVE)
    assert _flanks(monkeypatch, plain, ann, {"Ann": 80, "Bob": 0}) == {"Ann": 0}


def test_a_fighter_turns_to_the_foe_it_acts_against(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob facing west acts first (he only waits, but turns to his foe): Ann's blow that
    follows comes from his front."""
    away = _fae("Bob", 0, 0, PASSIVE, "        facing: 180\n")
    ann = _fae("Ann", 1, 0)
    assert _flanks(monkeypatch, away, ann, {"Ann": 40, "Bob": 80}) == {"Ann": 0}
