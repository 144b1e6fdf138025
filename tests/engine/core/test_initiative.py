"""Fair initiative (personal-combat.md 1.2): ties go to the higher trait, then the tied
bands act simultaneously, every blow of the turn landing before any of its effects."""

from __future__ import annotations

import random

from fadad_agents.engine import build_battle, load, run
from fadad_agents.engine.core.battle import Battle
from fadad_agents.engine.core.turns import SharedTurn, TurnOrder
from fadad_agents.rules.core.dice import TABLE_4DF
from tests.engine.conftest import FixedDice, duel_yaml, fighter


class ScriptedDice(random.Random):
    """A stream whose 4dF rolls are the given totals, in order."""

    def __init__(self, *totals: int) -> None:
        super().__init__(0)
        self.values = [(TABLE_4DF.index(t) + 0.5) / 81 for t in totals]

    def random(self) -> float:
        return self.values.pop(0)


BRUTE = """        strength: Great
        skills: {Sword: Superb, Dodge: Poor}
        attack_skill: Sword
        defence_skill: Dodge
        weapon: weapons/greatsword
        armour: null
"""
"""Hits whenever the dice agree (Superb against Poor) and fells a man in one blow."""


def _brutes(rules: str = "fadad.initiative: static") -> Battle:
    text = duel_yaml(
        fighter("Ann", extra=BRUTE + "        reaction_speed: Good\n"),
        fighter("Bob", extra=BRUTE + "        reaction_speed: Good\n"),
        rules=rules,
    )
    text = text.replace(
        "        skills: {Sword: Good}\n        attack_skill: Sword\n"
        "        weapon: weapons/broadsword\n        armour: armour/heavy-leather\n",
        "",
    )
    battle = build_battle(load(text), seed=1)
    for side in battle.sides:
        side.members[0].rng = FixedDice(0.5)  # every die 0: RD 5, damage 5 + 6 = 11
    return battle


def test_a_tied_roll_goes_to_the_higher_trait() -> None:
    """Initiative Good -1 ties Fair +0: the Good fighter acts first, alone."""
    text = duel_yaml(
        fighter("Ann", extra="        reaction_speed: Fair\n"),
        fighter("Bob", extra="        reaction_speed: Good\n"),
        rules="fadad.initiative: rolled",
    )
    battle = build_battle(load(text), seed=1)
    battle._init_rng = ScriptedDice(0, -1)  # Ann (set-up first) 0 + 0, Bob 1 - 1
    turns = battle.initiative_turns()
    assert [([m.name for m in t], type(t) is SharedTurn) for t in turns] == [
        (["Bob"], False),
        (["Ann"], False),
    ]


def test_a_round_led_by_a_roll_of_minus_one_is_played() -> None:
    """Mediocre reaction speed (-1) + 0 heads the round like any other roll, alone or tied;
    a duel of Mediocre fighters plays to its end whatever they roll (it used to stop
    with an IndexError whenever -1 led the round)."""
    text = duel_yaml(
        fighter("Ann", extra="        reaction_speed: Mediocre\n"),
        fighter("Bob", extra="        reaction_speed: Mediocre\n"),
        rules="fadad.initiative: rolled",
    )
    scenario = load(text)
    battle = build_battle(scenario, seed=1)
    for dice, turns in (
        ((0, -1), [(["Ann"], False), (["Bob"], False)]),
        ((0, 0), [(["Ann", "Bob"], True)]),
    ):
        battle._init_rng = ScriptedDice(*dice)
        found = battle.initiative_turns()
        assert [([m.name for m in t], type(t) is SharedTurn) for t in found] == turns
    for seed in range(12):
        assert run(scenario, seed=seed).ending in ("destroyed", "mutual")


def test_bands_tied_on_roll_and_trait_share_a_turn() -> None:
    """Equal initiative and equal trait: one shared turn (set-up order inside it)."""
    text = duel_yaml(rules="fadad.initiative: static")
    battle = build_battle(load(text), seed=1)
    turns = battle.initiative_turns()
    assert [([m.name for m in t], type(t) is SharedTurn) for t in turns] == [(["Ann", "Bob"], True)]


def test_in_a_shared_turn_both_blows_land_before_either_fells() -> None:
    """Two fighters who each fell the other with one blow, tied: both strike, both fall
    (a mutual end), and the second strikes unhurt although the first blow landed."""
    battle = _brutes()
    battle.run_to_end()
    attacks = battle.log.of("attack")
    assert [(e.actor, e.result) for e in attacks] == [("Ann", "Near Death"), ("Bob", "Near Death")]
    assert dict(attacks[1].modifiers)["attacker_penalty"] == 0
    assert [e.action for e in battle.log if e.action in ("attack", "out")] == [
        "attack",
        "attack",
        "out",
        "out",
    ]
    assert (battle.ending, battle.winner, battle.round) == ("mutual", None, 1)


def test_the_higher_trait_strikes_first_and_alone() -> None:
    """The same two fighters, one with the better reaction speed: only he strikes."""
    battle = _brutes()
    battle.sides[1].members[0].reaction = 2
    battle.run_to_end()
    assert [e.actor for e in battle.log.of("attack")] == ["Bob"]
    assert battle.winner == 1


CREWS = """
name: crews
rules: {fadad.initiative: static}
sides:
  - name: Red
    policies: {morale: none}
    forces:
      - {name: Reds, kind: crew, count: 10, skill: Fair}
  - name: Blue
    policies: {morale: none}
    forces:
      - {name: Blues, kind: crew, count: 10, skill: Fair}
"""


def test_a_crew_struck_in_a_shared_turn_strikes_back_with_every_member() -> None:
    """Rapid resolution in a shared turn: the second crew rolls a d20 for each member
    who stood when the turn began, though the first crew's volley felled them all."""
    battle = build_battle(load(CREWS), seed=1)
    for side in battle.sides:
        side.members[0].rng = FixedDice(0.99)  # every d20 a 20: every die hits
    battle.run_to_end()
    volleys = battle.log.of("volley")
    assert [(e.actor, dict(e.dice)["d20s"], dict(e.outcome)["casualties"]) for e in volleys] == [
        ("Reds", 10, 10),
        ("Blues", 10, 10),
    ]
    assert battle.ending == "mutual"


UNITS = """
name: units
rules: {fadad.initiative: static}
sides:
  - name: Red
    policies: {morale: none}
    forces:
      - {name: Red foot, kind: unit, count: 20, skill: Great, defence_skill: Fair,
         weapon: weapons/broadsword}
  - name: Blue
    policies: {morale: none}
    forces:
      - {name: Blue foot, kind: unit, count: 20, skill: Great, defence_skill: Fair,
         weapon: weapons/broadsword}
"""


def test_a_unit_hurt_in_a_shared_turn_strikes_without_the_wound_penalty() -> None:
    """FADAD units in a shared turn: the second unit's attack carries no penalty for the
    wound the first unit's attack gave it in the same turn."""
    battle = build_battle(load(UNITS), seed=1)
    for side in battle.sides:
        side.members[0].rng = FixedDice(0.5)  # every die 0: RD 2, damage 2 + 3 = 5
    battle.play_round()
    battle.play_round()
    volleys = [(e.round, e.actor, dict(e.modifiers)["penalty"]) for e in battle.log.of("volley")]
    assert volleys[:4] == [
        (1, "Red foot", 0),
        (1, "Blue foot", 0),
        (2, "Red foot", -2),
        (2, "Blue foot", -2),
    ]


def test_static_initiative_orders_by_the_trait_alone() -> None:
    """``fadad.initiative``: static, the Good fighter acts first every round; rolled, the
    Fair one sometimes wins the roll (A-05)."""
    firsts = {}
    for mode in ("static", "rolled"):
        text = duel_yaml(
            fighter("Ann", extra="        reaction_speed: Good\n"),
            fighter("Bob", extra="        reaction_speed: Fair\n"),
            rules=f"fadad.initiative: {mode}",
        )
        battle = build_battle(load(text), seed=2)
        firsts[mode] = {battle.initiative_turns()[0][0].name for _ in range(30)}
    assert firsts == {"static": {"Ann"}, "rolled": {"Ann", "Bob"}}


def test_the_faster_reaction_speed_acts_first() -> None:
    """Creature.reaction_speed (1.2): under static initiative the fighter with the better
    trait acts first; swap the traits and the other does."""
    for ann, bob, first in (("Good", "Fair", "Ann"), ("Fair", "Good", "Bob")):
        text = duel_yaml(
            fighter("Ann", extra=f"        reaction_speed: {ann}\n"),
            fighter("Bob", extra=f"        reaction_speed: {bob}\n"),
            rules="fadad.initiative: static",
        )
        battle = build_battle(load(text), seed=2)
        assert battle.initiative_turns()[0][0].name == first


class _Member:
    """What the turn order reads of a band member."""

    def __init__(self, uid: int, reaction: int) -> None:
        self.unique_id, self.reaction, self.name, self.fighting = uid, reaction, f"m{uid}", True


def _kernel_turns(bands: list[list[_Member]], rng: random.Random) -> list[tuple[list[int], bool]]:
    """The turns by the kernel's total order itself: one roll per band with someone
    fighting (its first fighting member's), sorted by (-initiative, -trait, unique_id),
    bands tied on roll and trait sharing a turn."""
    keyed = []
    for band in bands:
        active = [m for m in band if m.fighting]
        if active:
            lead = active[0]
            initiative = lead.reaction + TABLE_4DF[int(rng.random() * 81)]
            keyed.append((-initiative, -lead.reaction, lead.unique_id, active))
    keyed.sort(key=lambda k: k[:3])
    turns: list[tuple[list[int], bool]] = []
    for k, (initiative, trait, _, active) in enumerate(keyed):
        ids = [m.unique_id for m in active]
        if k and keyed[k - 1][:2] == (initiative, trait):
            turns[-1] = (turns[-1][0] + ids, True)
        else:
            turns.append((ids, False))
    return turns


def test_the_turn_order_kept_round_after_round_is_the_kernels() -> None:
    """A battle's :class:`TurnOrder` (members' places worked out once, one int key a band)
    gives the turns the kernel's (-initiative, -trait, unique_id) order gives, round after
    round, for bands of one and of several, mixed traits, and leads falling between rounds;
    every other case only bands of one (the order's one comprehension of the draws)."""
    picker = random.Random(7)
    by_id: set[bool] = set()
    for case in range(90):
        # ids scattered (places by rank) or, as Mesa's, a few small ints (places by id)
        uid = iter(picker.sample(range(1000) if case % 3 else range(50), 40))
        sizes = (1,) if case % 2 else (1, 1, 3)
        bands = [
            [
                _Member(next(uid), picker.choice((-1, 0, 0, 1, 2)))
                for _ in range(picker.choice(sizes))
            ]
            for _ in range(picker.randint(1, 10))
        ]
        order = TurnOrder(bands)
        assert (order._singles is not None) == all(len(band) == 1 for band in bands)
        by_id.add(order._place is None)
        ours, theirs = random.Random(case), random.Random(case)
        for _ in range(8):
            found = [
                ([m.unique_id for m in t], type(t) is SharedTurn)
                for t in order.roll(ours, "rolled")
            ]
            assert found == _kernel_turns(bands, theirs)
            for band in bands:
                for member in band:
                    if picker.random() < 0.15:
                        member.fighting = False
    assert by_id == {True, False}  # places by id and by rank both held to the kernel's
