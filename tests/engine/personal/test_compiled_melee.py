"""The compiled plain melee plays the battle the engine's Python plays, byte for byte.

A battle of plain fighters in one melee (``fadad_agents.engine.personal``) is played whole in
compiled code once numba is loaded. Here melees drawn at random (one to three forces a
side, single fighters and now and then a band, other creatures and Scales, every melee
weapon and armour, now and then a shield, a player character (Ité points, a policy for
them) or policies of a side's own, crits none, non-lethal or random, and every personal
rules option with a choice of values) are each played at three seeds with the compiled
melee on and off: the same log, the same events, the same fighters at the end and the
same result; so are melees of many player characters under the PC-death options, and
melees where sides check morale. Those it cannot play (an Ité or morale policy of a GM's
own, another rule of a swing, a field where not all touch ...) play in Python either way;
most of those drawn here it plays.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import subprocess
import sys
from collections import Counter, OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numba  # noqa: F401  # loaded: the compiled melee plays once numba is
import pytest

from benchmarks.bench_engine import _melee_yaml
from benchmarks.bench_party import FUDGE_PARTY, PARTY
from fadad_agents.agents.core.plain import round as plain_round
from fadad_agents.analysis import sweep
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core.result import result_of
from fadad_agents.engine.personal import melee as melee
from fadad_agents.policies.core.defaults import (
    DuelTargeting,
    FixedTargeting,
    NearestTargeting,
    StayBack,
    StrongestTargeting,
    WeakestTargeting,
)
from fadad_agents.policies.core.registry import REGISTRY
from tests.engine.conftest import personal_options

WEAPONS = (
    "broadsword", "spear-two-handed", "spear-one-handed", "dagger", "greatsword", "mace",
    "quarterstaff", "axe", "shortsword", "poleaxe", "club",
)  # fmt: skip
TWO_HANDED = {"spear-two-handed", "greatsword", "quarterstaff", "poleaxe"}
SHIELDS = ("buckler", "small", "medium", "large")
ARMOUR = ("heavy-leather", "leather", "chain-mail", "none", "scale-mail", "plate")
CREATURES = ("orc", "goblin", "dwarf", "elf", "hobbit", "ogre")
BIG = ("ogre", "troll", "giant")
"""Creatures of Mass Scale 3 to 8, whom a scale-piercing weapon pierces (``piercing``)."""
LADDER = ("Poor", "Mediocre", "Fair", "Good", "Great", "Superb")
ITE_POLICIES = ("save_from_death", "save_from_death_only", "keep")
AIMS = (
    "nearest", "first", "random", "sticky", "weakest", "strongest",
    "{name: weakest, params: {reach: 2}}", "{name: strongest, params: {reach: 1}}",
    "{name: weakest, params: {reach: 1}}", "{name: strongest, params: {reach: 2}}", "duel",
    "stay_back",
)  # fmt: skip
"""Targeting policies a side may take (``aims``): the compiled melee plays each (a reach
below the foes' number weighs up foes drawn at random)."""
MORALE_POLICIES = (
    "{name: break_at_losses}",
    "{name: break_at_losses, params: {fraction: 0.3, on_break: surrender}}",
    "{name: casualties}",
    "{name: casualties, params: {at: '20%, 40%, 60%', on_break: surrender}}",
    "{name: casualties, params: {on_break: surrender}}",
    "{name: sj_crew_morale}",
    "{name: unit_morale}",
    "{name: none}",
)
OPTIONS = {
    **personal_options("fadad.initiative", "fadad.crit_effects"),  # those two drawn apart
    "fadad.actions_per_round": (1, 3),
    "fadad.knockdown_penalty": (0, 2),
    "knockout_rounds": (1, 3),
    "location.minimum_margin_cap_scale": (1, 5),
}
"""The rules options a melee may set (each about one time in sixteen)."""
WOUND_MODELS = ("fudge_numeric", "fudge_minmidmax", "fudge_freeform")
DAMAGE_ROLLS = ("none", "1dF_factor", "1dF_level", "parity", "4dF_limited", "4dF_unlimited")
FUDGE = {k: v for k, v in OPTIONS.items() if k.startswith("fudge.")}
"""Anna's damage options a FUDGE melee may set (``wounds``), weapon groups among them."""

SEEDS = range(40)


def _force(
    rng: random.Random, name: str, players: float, bands: float, placed: float, piercing: float
) -> str:
    count = 1 if rng.random() < 1 - bands else rng.randint(2, 4)
    kind = rng.choice(CREATURES) if rng.random() < 0.3 else "human"
    if piercing and rng.random() < piercing:
        kind = rng.choice(BIG)
    weapon = rng.choice(WEAPONS)
    kit = f"weapons/{weapon}"
    if piercing and rng.random() < piercing:
        kit = f"{{model: weapons/{weapon}, scale_piercing: {rng.choice(('halve', 'ignore'))}}}"
    lines = [
        f"      - name: {name}",
        f"        model: creatures/{kind}",
        f"        reaction_speed: {rng.choice(LADDER[1:5])}",
        f"        skills: {{Melee: {rng.choice(LADDER)}, Dodge: {rng.choice(LADDER[:4])}}}",
        "        attack_skill: Melee",
        f"        weapon: {kit}",
        f"        armour: armour/{rng.choice(ARMOUR)}",
        f"        count: {count}",
    ]
    if rng.random() < 0.3:
        lines.append(f"        traits: {{Morale: {rng.choice(LADDER)}}}")
    if rng.random() < 0.2 and weapon not in TWO_HANDED:
        lines.append(f"        shield: shields/{rng.choice(SHIELDS)}")
    if count == 1 and rng.random() < players:
        lines.append("        player: true")
        if rng.random() < 0.8:
            lines.append(f"        ite_points: {rng.randint(1, 3)}")
        if rng.random() < 0.4:
            lines.append(f"        policies: {{ite_points: {rng.choice(ITE_POLICIES)}}}")
    if placed and rng.random() < placed:  # by its side's place in the melee (9.5 or 10.5, 10)
        x = rng.choice((9, 10) if name[1] == "0" else (10, 11))
        lines.append(f"        position: [{x}, {rng.choice((9, 10, 11))}]")
    return "\n".join(lines)


def melee_scenario(
    seed: int,
    players: float = 0.1,
    protections: float = 0.06,
    morale: float = 0.1,
    bands: float = 0.1,
    aims: float = 0.0,
    placed: float = 0.0,
    wounds: float = 0.0,
    sizes: float = 0.0,
    piercing: float = 0.0,
    more_sides: float = 0.0,
    ruled: float = 0.0,
) -> str:
    """Two sides of one to three forces drawn from ``seed``, in one melee; a force a band
    one time in ``1 / bands``, a single fighter a player character one time in
    ``1 / players``, each PC-death option set one time in ``1 / protections`` (each other
    option about one time in sixteen), a side's morale policy one time in ``1 / morale``,
    its targeting policy (nearest, first, random or sticky) one time in ``1 / aims``; a
    force placed one time in ``1 / placed`` (on a map of 20 by 20 yards, a yard or so from
    the middle, where the melee stands; most such melees still all touch); a wound model
    drawn one time in ``1 / wounds`` (FUDGE's four times in five), with a damage roll and
    Anna's other damage options, weapon groups among them, each one time in three, and the
    Target a gate one time in four; weapon sizes compared one time in ``1 / sizes``; a
    force a big creature (Scale 3 to 8) one time in ``1 / piercing`` and its weapon one
    that halves or ignores Mass Scale as often, ``scale_piercing_min_rd`` drawn then; three
    or four sides one time in ``1 / more_sides``; a side's targeting rules drawn
    (:func:`_targeting_rules`) one time in ``1 / ruled``."""
    rng = random.Random(seed)
    rules = ["fadad.initiative: " + ("rolled" if rng.random() < 0.9 else "static")]
    if rng.random() < 0.5:
        rules.append("fadad.crit_effects: " + rng.choice(("none", "non_lethal", "random")))
    rules += [
        f"{k}: {rng.choice(v)}"
        for k, v in OPTIONS.items()
        if rng.random() < (protections if k.startswith("pc_death.") else 0.06)
    ]
    if wounds and rng.random() < wounds:
        drawn = dict(rule.split(": ", 1) for rule in rules)
        drawn["wound_model"] = rng.choice(("fudge_numeric", *WOUND_MODELS, "fadad"))
        drawn["fudge.damage_roll"] = rng.choice(DAMAGE_ROLLS)
        drawn.update((k, str(rng.choice(v))) for k, v in FUDGE.items() if rng.random() < 1 / 3)
        if rng.random() < 0.25:
            drawn["fadad.target_mode"] = "target_gate_gte"
        rules = [f"{k}: {v}" for k, v in drawn.items()]
    if sizes and rng.random() < sizes:
        rules = [r for r in rules if not r.startswith("fadad.weapon_size_comparison:")]
        rules.append("fadad.weapon_size_comparison: true")
    if piercing:
        rules = [r for r in rules if not r.startswith("scale_piercing_min_rd:")]
        rules.append(f"scale_piercing_min_rd: {rng.randint(1, 5)}")
    lines = [f"name: melee {seed}", "rules: {" + ", ".join(rules) + "}", "sides:"]
    if placed:
        lines[2:2] = ["map: {kind: open, width: 20, height: 20}"]
    count = 2
    if more_sides and rng.random() < more_sides:
        count = rng.choice((3, 4))
    for s in range(count):
        lines.append(f"  - name: Side {s}")
        policies = []
        if rng.random() < morale:
            policies.append(f"morale: {rng.choice(MORALE_POLICIES)}")
        elif rng.random() < 0.05:
            policies.append("targeting: {name: weakest}")
        if aims and rng.random() < aims and "targeting" not in "".join(policies):
            policies.append(f"targeting: {rng.choice(AIMS)}")
        if ruled and rng.random() < ruled and "targeting" not in "".join(policies):
            policies.append(
                f"targeting: {{name: rules, params: {{rules: '{_targeting_rules(rng)}'}}}}"
            )
        if policies:
            lines.append("    policies: {" + ", ".join(policies) + "}")
        lines.append("    forces:")
        forces = range(rng.choice((1, 2, 3)))
        lines += [_force(rng, f"S{s}F{f}", players, bands, placed, piercing) for f in forces]
    lines.append(f"stop: {{max_rounds: {rng.choice((3, 30, 200))}}}")
    return "\n".join(lines) + "\n"


RULE_TERMS = {
    "wound": ("Scratch", "Hurt", "Very Hurt", "Incapacitated"),
    "round": ("1", "2", "3", "5"),
    "side": ("30%", "50%", "75%", "100%"),
    "losses": ("0", "50%"),
    "foes": ("1", "2", "3", "5"),
    "friends": ("1", "2", "4"),
}
"""What a drawn targeting rule compares (``policies.core.rules``), and values to compare
with."""


def _targeting_rules(rng: random.Random) -> str:
    """One to three rules (``condition -> choice``), each of one or two comparisons or
    ``outnumbered``, with every operator and choice, and now and then an ``else``."""
    rules = []
    for _ in range(rng.randint(1, 3)):
        terms = []
        for _ in range(rng.choice((1, 1, 2))):
            if rng.random() < 0.15:
                terms.append("outnumbered")
                continue
            quantity = rng.choice(list(RULE_TERMS))
            op = rng.choice((">=", "<=", "==", "!=", ">", "<"))
            terms.append(f"{quantity} {op} {rng.choice(RULE_TERMS[quantity])}")
        choice = rng.choice(("weakest", "strongest", "random", "sticky", "first"))
        rules.append(f"{' and '.join(terms)} -> {choice}")
    if rng.random() < 0.5:
        rules.append(f"else -> {rng.choice(('weakest', 'strongest', 'random', 'first'))}")
    return "; ".join(rules)


def _remembered(memory: dict[str, Any]) -> dict[str, Any]:
    """What a fighter's or band's policies remember that outlasts the battle: a duellist's
    opponent (by name), the morale thresholds crossed."""
    return {
        key: getattr(value, "name", value)
        for key, value in memory.items()
        if key in ("duel", "morale_thresholds")
    }


def _played(text: str, seed: int) -> tuple[Any, ...]:
    """A battle to its end: its log as read, its events, its fighters, its result."""
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    return _ended(battle)


def _ended(battle: Any) -> tuple[Any, ...]:
    """:func:`_played`'s reading of ``battle``, played to its end."""
    states = [
        (m.name, m.status, m.track, m.conditions, m.target and m.target.name, m.fighter,
         m.attacks_planned, m.defences_left, _remembered(m.memory),
         m.band and _remembered(m.band.memory))
        for side in battle.sides
        for m in side.members
    ]  # fmt: skip
    sides = [([m.name for m in s.active], [m.name for m in s.downed]) for s in battle.sides]
    r = result_of(battle, report=True)
    outcome = (
        r.winner, r.ending, r.loser, r.rounds, r.duration, r.sides, r.stop_note, r.header,
        r.tally, battle.log.takedowns(),
    )  # fmt: skip
    return battle.log.text(), [tuple(e) for e in battle.log], states, sides, outcome


def _both(text: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, bool]:
    """The battle played in Python and with the compiled melee; whether it played it."""
    played = []
    real = melee.Melee.play

    def spy(self: Any, battle: Any) -> bool:
        played.append(real(self, battle))
        return played[-1]

    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    python = _played(text, seed)
    monkeypatch.setattr(melee, "MELEE_COMPILED", True)
    monkeypatch.setattr(melee.Melee, "play", spy)
    compiled = _played(text, seed)
    return python, compiled, any(played)


def _same_battle(text: str, seeds: Sequence[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """``text`` at each of ``seeds``: the same log, events, fighters and result played
    compiled or in Python."""
    for battle_seed in seeds:
        python, compiled, _ = _both(text, battle_seed, monkeypatch)
        assert compiled[0] == python[0], f"seed {battle_seed}: the log reads differently\n{text}"
        assert compiled[1:] == python[1:], f"seed {battle_seed}: events or fighters differ\n{text}"


@pytest.mark.parametrize("seed", SEEDS)
def test_drawn_melees_play_the_same_battle_compiled_or_in_python(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A melee drawn from ``seed``, played at three seeds: the same battle either way."""
    text = melee_scenario(seed)
    _same_battle(text, (seed, 1000 + seed, 7), monkeypatch)


def test_most_drawn_melees_are_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above proves something: the compiled melee plays most of its
    battles (28 of 40 at their first seed), and at least a third of them are compiled and
    last more than two rounds (14: a duel often ends at the first blow that lands)."""
    compiled = long = 0
    for seed in SEEDS:
        python, _, played = _both(melee_scenario(seed), seed, monkeypatch)
        compiled += played
        long += played and python[4][3] > 2
    assert compiled >= 0.6 * len(SEEDS)
    assert long >= len(SEEDS) / 3


def _compiled_logs(texts: list[str], seeds: range, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The logs of the battles the compiled melee played of each scenario of ``texts``
    at its seed of ``seeds`` and at 7 (the battles the comparisons play)."""
    played: list[bool] = []
    real = melee.Melee.play

    def spy(self: Any, battle: Any) -> bool:
        played.append(real(self, battle))
        return played[-1]

    monkeypatch.setattr(melee.Melee, "play", spy)
    logs = []
    for text, seed in zip(texts, seeds, strict=True):
        for battle_seed in (seed, 7):
            played.clear()
            log = _played(text, battle_seed)[0]
            if any(played):
                logs.append(log)
    return logs


PC_SEEDS = range(500, 530)


@pytest.mark.parametrize("seed", PC_SEEDS)
def test_player_characters_play_the_same_battle(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A melee of many player characters, the PC-death options often set, Ité points
    spent as each policy spends them: the same battle either way, at two seeds."""
    text = melee_scenario(seed, players=0.6, protections=0.3)
    _same_battle(text, (seed, 7), monkeypatch)


def test_player_characters_are_compiled_with_their_protections(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The comparison above proves something: the compiled melee plays most of those
    battles, and in them player characters spend Ité points and take blows capped by
    the PC-death options (each logged)."""
    texts = [melee_scenario(seed, players=0.6, protections=0.3) for seed in PC_SEEDS]
    logs = _compiled_logs(texts, PC_SEEDS, monkeypatch)
    compiled = len(logs)
    spent = sum(log.count("spends an Ité point") for log in logs)
    capped = sum(log.count(", taken as ") for log in logs)
    assert compiled >= 0.6 * 2 * len(texts)
    assert spent >= 2
    assert capped >= 5


MORALE_SEEDS = range(600, 630)
MORALE_WORDS = ("holds", "breaks", "withdraws", "surrenders")


@pytest.mark.parametrize("seed", MORALE_SEEDS)
def test_melees_that_check_morale_play_the_same_battle(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A melee whose sides mostly check morale (every shipped policy, withdrawing or
    surrendering, bands and lone fighters, morale traits drawn): the same battle either
    way, at two seeds."""
    text = melee_scenario(seed, players=0.2, morale=0.8, bands=0.5)
    _same_battle(text, (seed, 7), monkeypatch)


def test_morale_is_checked_in_the_compiled_melee(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above proves something: the compiled melee plays most of those
    battles, and in them bands and lone fighters check morale, hold, break, withdraw and
    surrender (each logged)."""
    texts = [melee_scenario(seed, players=0.2, morale=0.8, bands=0.5) for seed in MORALE_SEEDS]
    logs = _compiled_logs(texts, MORALE_SEEDS, monkeypatch)
    compiled = len(logs)
    seen = {word: sum(log.count(f" {word}") for log in logs) for word in MORALE_WORDS}
    assert compiled >= 0.6 * 2 * len(texts)
    assert all(count >= 3 for count in seen.values()), seen


AIM_SEEDS = range(700, 760)


def _aimed(seed: int) -> str:
    return melee_scenario(seed, aims=0.8, placed=0.3)


@pytest.mark.parametrize("seed", AIM_SEEDS)
def test_targeting_policies_play_the_same_battle(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A melee whose sides often target the nearest foe, the first, a random one, the most
    or least wounded (of every foe, or of a few drawn), its fighters now and then placed on
    the map a yard or two apart (nearer foes and farther ones, ties among those at one
    spot): the same battle either way, at two seeds."""
    text = _aimed(seed)
    _same_battle(text, (seed, 7), monkeypatch)


def test_every_targeting_policy_is_compiled() -> None:
    """The comparison above proves something: the compiled melee can play many of those
    battles (a field where not all touch is left to Python), among them battles where a
    fighter targeting the nearest has foes at different distances, where a side takes the
    first foe, where it weighs up the most or least wounded, where it weighs up fewer than
    the foes, drawn at random, where fighters take a duel, and where they stay back."""
    played = 0
    seen: Counter[str] = Counter()
    for seed in AIM_SEEDS:
        battle = build_battle(load(_aimed(seed)), seed, collect=False)
        if melee._eligible(battle) is None:
            continue
        played += 1
        members = [m for side in battle.sides for m in side.members]
        kinds = set()
        for m in members:
            foes = [foe for foe in members if foe.side != m.side]
            policy = m.policies.targeting
            if isinstance(policy, (NearestTargeting, DuelTargeting)):
                if len({math.dist(m.position, foe.position) for foe in foes}) > 1:
                    kinds.add("nearest, foes at different distances")
                if type(policy) is DuelTargeting:
                    kinds.add("a duel")
            elif type(policy) is StayBack:
                kinds.add("staying back")
            elif type(policy) is FixedTargeting:
                kinds.add("first")
            elif isinstance(policy, (WeakestTargeting, StrongestTargeting)):
                kinds.add("most or least wounded")
                if policy.reach < len(foes):
                    kinds.add("weighed among foes drawn")
        seen.update(kinds)
    assert played >= len(AIM_SEEDS) / 2
    assert len(seen) == 6, seen
    assert min(seen.values()) >= 3, seen


WOUND_SEEDS = range(800, 850)


def _wounded(seed: int) -> str:
    return melee_scenario(seed, players=0.2, wounds=0.9)


@pytest.mark.parametrize("seed", WOUND_SEEDS)
def test_fudge_wound_models_play_the_same_battle(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A melee under a FUDGE wound model (numeric with each damage roll, Min-Mid-Max,
    freeform) or FADAD's, Anna's other damage options (weapon groups among them) and the
    Target a gate now and then: the same battle either way, at two seeds."""
    text = _wounded(seed)
    _same_battle(text, (seed, 7), monkeypatch)


def test_every_wound_model_and_damage_roll_is_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above proves something: the compiled melee plays most of those
    battles, among them some under each FUDGE wound model, each damage roll of FUDGE
    numeric, weapon groups and the Target as a gate; and they wound (blows land)."""
    seen: Counter[str] = Counter()
    texts = [_wounded(seed) for seed in WOUND_SEEDS]
    for seed, text in zip(WOUND_SEEDS, texts, strict=True):
        battle = build_battle(load(text), seed, collect=False)
        if melee._eligible(battle) is None:
            continue
        rules = battle.combat_rules
        seen[rules.damage.wound_model] += 1
        if rules.damage.wound_model == "fudge_numeric":
            seen[rules.damage.damage_roll] += 1
        seen[rules.target_mode] += 1
        seen["weapon groups"] += rules.damage.weapon_groups
    assert all(seen[model] >= 4 for model in WOUND_MODELS), seen
    assert seen["weapon groups"] >= 4, seen
    assert all(seen[roll] >= 1 for roll in DAMAGE_ROLLS), seen
    assert seen["target_gate_gte"] >= 4, seen
    logs = _compiled_logs(texts, WOUND_SEEDS, monkeypatch)
    assert len(logs) >= 0.6 * 2 * len(texts)
    assert sum(log.count(", damage ") for log in logs) >= 100


SIZE_SEEDS = range(900, 940)


def _sized(seed: int) -> str:
    return melee_scenario(seed, sizes=0.8, piercing=0.3, wounds=0.3)


@pytest.mark.parametrize("seed", SIZE_SEEDS)
def test_weapon_sizes_and_scale_piercing_play_the_same_battle(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A melee whose rules mostly compare weapon and shield sizes (``fadad.weapon_size_
    comparison``), some of its fighters big creatures (Scale 3 to 8) and some weapons
    halving or ignoring Mass Scale from a drawn ``scale_piercing_min_rd``: the same battle
    either way, at two seeds."""
    text = _sized(seed)
    _same_battle(text, (seed, 7), monkeypatch)


@pytest.mark.parametrize(
    ("what", "place", "wrong"),
    [("sizes compared", "SIZES", 0), ("the RD a piercing weapon needs", "PIERCE_RD", 100)],
)
def test_weapon_sizes_and_scale_piercing_change_compiled_battles(
    what: str, place: str, wrong: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The comparison above proves something: most of those battles are compiled, and a
    kernel that reads the rules without ``what`` plays some of them otherwise."""
    from fadad_agents.engine.personal import codes

    texts = [_sized(seed) for seed in SIZE_SEEDS]
    assert sum(melee._eligible(build_battle(load(t), 0, collect=False)) is not None
               for t in texts) >= 0.6 * len(texts)  # fmt: skip
    right = [_log_hashes(t, (seed,)) for t, seed in zip(texts, SIZE_SEEDS, strict=True)]
    rules_row = melee.rules_row

    def without(battle: Any) -> Any:
        row = rules_row(battle)
        row[getattr(codes, place)] = wrong
        return row

    monkeypatch.setattr(melee, "rules_row", without)
    monkeypatch.setattr(melee, "_TEMPLATES", OrderedDict())  # set up afresh
    played = [_log_hashes(t, (seed,)) for t, seed in zip(texts, SIZE_SEEDS, strict=True)]
    assert sum(a != b for a, b in zip(right, played, strict=True)) >= 3, what


CALLED = """name: called
rules: {wound_model: fudge_numeric, fudge.damage_roll: 1dF_level, fudge.weapon_groups: true,
        fadad.crit_effects: random}
sides:
  - name: Knives
    forces:
      - {name: Knife, skills: {Melee: Superb}, attack_skill: Melee, weapon: weapons/dagger,
         count: 3}
  - name: Ogres
    forces:
      - {name: Ogre, model: creatures/ogre, skills: {Melee: Poor}, attack_skill: Melee,
         weapon: weapons/club, armour: armour/plate, count: 2}
stop: {max_rounds: 30}
"""
"""Knives on ogres in plate under FUDGE numeric wounds with weapon groups: hits whose
damage number is below 0, crits drawn, a Called Location among them."""


def test_a_called_location_on_a_hit_below_zero_damage_leaves_the_arm_as_python_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Called Location on a hit whose damage number is below 0 (a dagger's on plate,
    FUDGE numeric) leaves the weapon arm as it was, as ``aims.part_state`` reads it; the
    kernel once read such a number from the end of its table (Incapacitated), at most of
    these seeds. The same battles at 15 seeds, and the case shows something: arms hit
    with damage below 0 and left as they were."""
    _same_battle(CALLED, range(15), monkeypatch)
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    lines = [line for seed in range(15) for line in _played(CALLED, seed)[0].splitlines()]
    called = [k for k, line in enumerate(lines) if "weapon arm (none)" in line]
    assert any(", damage -" in lines[k - 1] for k in called)


SIDES_SEEDS = range(1000, 1040)


def _sided(seed: int) -> str:
    return melee_scenario(seed, more_sides=0.8, aims=0.5, morale=0.3, bands=0.2)


@pytest.mark.parametrize("seed", SIDES_SEEDS)
def test_three_or_four_sides_play_the_same_battle(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A melee of mostly three or four sides (each side's foes every other side's
    fighters, in the sides' order; targeting policies, morale and bands drawn): the same
    battle either way, at two seeds."""
    text = _sided(seed)
    _same_battle(text, (seed, 7), monkeypatch)


def _at(name: str, x: int, y: int) -> str:
    return (
        f"      - {{name: {name}, skills: {{Sword: Good}}, attack_skill: Sword,"
        f" weapon: weapons/broadsword, position: [{x}, {y}]}}\n"
    )


NEAREST_OF_THREE = (
    "name: nearest of three\nrules: {fadad.initiative: rolled, fadad.crit_effects: random}\n"
    "map: {kind: open, width: 20, height: 20}\nsides:\n"
    "  - name: Red\n    policies: {targeting: nearest}\n    forces:\n"
    + _at("Red0", 10, 10) + _at("Red1", 11, 11)
    + "  - name: Blue\n    policies: {targeting: duel}\n    forces:\n" + _at("Blue0", 11, 10)
    + "  - name: Green\n    policies: {targeting: nearest}\n    forces:\n" + _at("Green0", 10, 11)
)  # fmt: skip
"""Three sides on a 2 by 2 yard square, all touching: each Red has a Blue and a Green a
yard away (the nearest of two sides tied: the first side's, as ``Space.nearest_foe``
compares them), the Blue duellist two Reds a yard away (tied: the lower ``unique_id``)
and the Green one further."""


def test_the_nearest_of_three_sides_is_taken_as_python_takes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fighters of three sides targeting the nearest (and a duellist) are compiled and
    take the foe Python takes, at 40 seeds; the sides' order on a tie matters (a kernel
    ordering the sides the other way plays some of them otherwise)."""
    from fadad_agents.engine.personal import tables

    assert melee._eligible(build_battle(load(NEAREST_OF_THREE), 0, collect=False)) is not None
    _same_battle(NEAREST_OF_THREE, range(40), monkeypatch)
    right = _log_hashes(NEAREST_OF_THREE, range(40))
    keys = tables._foe_keys

    def backwards(members: Any, i: int, many: bool) -> Any:
        return {j: (k[0], -k[1], *k[2:]) for j, k in keys(members, i, many).items()}

    monkeypatch.setattr(tables, "_foe_keys", backwards)
    monkeypatch.setattr(melee, "_TEMPLATES", OrderedDict())  # set up afresh
    wrong = _log_hashes(NEAREST_OF_THREE, range(40))
    assert sum(a != b for a, b in zip(right, wrong, strict=True)) >= 3


def test_a_nearest_foe_floating_point_could_part_is_left_to_python() -> None:
    """Of more than two sides, the kernel takes each fighter's foes in one order, by their
    distance (``math.dist``) as ``Space.nearest_foe`` compares sides; ``Field.nearest``
    finds each side's nearest by the square of the distance. Two foes of one side whose
    squares and distances disagree by a hair (found by search) part the orders, so
    ``tables.nearest_in_order`` leaves the battle to Python; on different sides, or at
    whole-yard places, they agree."""
    from types import SimpleNamespace

    from fadad_agents.engine.personal import tables

    def fighter(uid: int, side: int, x: float, y: float) -> Any:
        return SimpleNamespace(
            unique_id=uid, side=side, position=(x, y),
            policies=SimpleNamespace(targeting=NearestTargeting()),
        )  # fmt: skip

    me = fighter(0, 0, 10.0, 10.0)
    a, b = (8.798969267078599, 9.367046525835507), (11.329390175229642, 9.724633546194312)
    assert (a[0] - 10) ** 2 + (a[1] - 10) ** 2 < (b[0] - 10) ** 2 + (b[1] - 10) ** 2
    assert math.dist(a, (10, 10)) > math.dist(b, (10, 10))
    third = fighter(3, 2, 10.0, 11.0)
    assert not tables.nearest_in_order([me, fighter(1, 1, *a), fighter(2, 1, *b), third])
    assert tables.nearest_in_order([me, fighter(1, 1, *a), fighter(2, 2, *b), third])
    assert tables.nearest_in_order([me, fighter(1, 1, 11, 10), fighter(2, 1, 9, 10), third])


def test_melees_of_more_sides_are_compiled_and_cross_sides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The comparison above proves something: the compiled melee plays most of those
    battles of three or four sides, and in them fighters of one side strike fighters of
    two others."""
    texts = [_sided(seed) for seed in SIDES_SEEDS]
    many = [t for t in texts if "Side 2" in t]
    assert len(many) >= 0.6 * len(texts)
    compiled = crossed = 0
    for seed, text in zip(SIDES_SEEDS, texts, strict=True):
        if text not in many:
            continue
        python, _, played = _both(text, seed, monkeypatch)
        compiled += played
        struck: dict[str, set[str]] = {}
        for event in python[1]:  # (time, round, actor, action, target, ...): names S<side>F..
            if event[3] == "attack":
                struck.setdefault(event[2], set()).add(event[4][1])
        crossed += played and any(len(sides) >= 2 for sides in struck.values())
    assert compiled >= 0.5 * len(many)
    assert crossed >= 5


RULED_SEEDS = range(1100, 1140)


def _ruled(seed: int) -> str:
    return melee_scenario(seed, ruled=0.8, more_sides=0.3, morale=0.2, bands=0.2)


@pytest.mark.parametrize("seed", RULED_SEEDS)
def test_targeting_rules_play_the_same_battle(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A melee whose sides mostly target by a GM's rules (``targeting: {name: rules}``:
    one to three rules comparing the fighter's wound, the round, its side's share still
    fighting, its losses, its foes and friends, or whether it is outnumbered, with every
    operator, each choosing the most or least wounded, a random foe, the current one or
    the first): the same battle either way, at two seeds."""
    text = _ruled(seed)
    _same_battle(text, (seed, 7), monkeypatch)


def test_targeting_rules_are_compiled_and_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above proves something: the compiled melee plays most of those
    battles, their rules comparing every quantity; and a kernel that reads each rule's
    comparison the other way round (``>=`` as ``<``) plays some of them otherwise."""
    from fadad_agents.policies.core.rules import RulesTargeting

    texts = [_ruled(seed) for seed in RULED_SEEDS]
    compiled = 0
    quantities: set[str] = set()
    for seed, text in zip(RULED_SEEDS, texts, strict=True):
        battle = build_battle(load(text), seed, collect=False)
        if melee._eligible(battle) is None:
            continue
        compiled += 1
        for m in battle.agents:
            if type(m.policies.targeting) is RulesTargeting:
                quantities.update(t[0] for r in m.policies.targeting.rules for t in r.terms)
    assert compiled >= 0.6 * len(texts)
    assert quantities == {*RULE_TERMS, "outnumbered"}, quantities
    right = [_log_hashes(t, (seed,)) for t, seed in zip(texts, RULED_SEEDS, strict=True)]
    ruled_rows = melee.ruled_rows

    def backwards(members: Any) -> Any:
        ruled, worth, which = ruled_rows(members)
        ops = ruled[:, :, 3::2]
        ops[ops >= 0] = 5 - ops[ops >= 0]  # >= and <, <= and >, == and != swapped
        return ruled, worth, which

    monkeypatch.setattr(melee, "ruled_rows", backwards)
    monkeypatch.setattr(melee, "_TEMPLATES", OrderedDict())  # set up afresh
    played = [_log_hashes(t, (seed,)) for t, seed in zip(texts, RULED_SEEDS, strict=True)]
    assert sum(a != b for a, b in zip(right, played, strict=True)) >= 3


def test_the_tables_name_each_targeting_policy_by_the_kernels_code() -> None:
    """``tables.CHOOSES`` and ``tables.RULE_CHOICES`` (read without loading numba) give
    each policy and each targeting rule's choice the code the kernel's ``_new_target``
    tests for."""
    from fadad_agents.engine.personal import swing, tables
    from fadad_agents.policies.core.rules import RulesTargeting

    assert {
        FixedTargeting: swing.FIRST,
        NearestTargeting: swing.NEAREST,
        WeakestTargeting: swing.WEAKEST,
        StrongestTargeting: swing.STRONGEST,
        DuelTargeting: swing.DUEL,
        StayBack: swing.STAY_BACK,
        RulesTargeting: swing.RULES,
    } == tables.CHOOSES
    assert swing.RANDOM not in tables.CHOOSES.values()
    assert tables.RULE_CHOICES == {
        "random": swing.RANDOM, "first": swing.FIRST, "weakest": swing.WEAKEST,
        "strongest": swing.STRONGEST, "sticky": swing.STICKY,
    }  # fmt: skip


def test_the_codes_name_every_quantity_operator_and_choice_a_rule_may_use() -> None:
    """Every quantity, operator and choice a targeting rule may be written with has its
    code in the compiled melee's rows (``codes.QUANTITIES``, ``codes.OPERATORS``,
    ``tables.RULE_CHOICES``): a quantity added to the rules alone would fail the melee's
    set-up (``tables.ruled_rows``) rather than play in Python."""
    from fadad_agents.engine.personal import codes, tables
    from fadad_agents.policies.core import rules
    from fadad_agents.policies.core.rules import RulesTargeting

    assert set(codes.QUANTITIES) == {*rules._QUANTITIES, "outnumbered"}
    assert set(codes.OPERATORS) == set(rules._OPS)
    assert set(tables.RULE_CHOICES) == set(RulesTargeting("else -> random").selectors)


def test_the_shipped_duel_is_compiled_and_the_same_battle_at_100_seeds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``scenarios/snorri-vs-brynhild.yaml`` (two player characters placed a yard apart,
    each targeting the nearest foe) is played by the compiled melee: the same log at 100
    seeds as in Python."""
    text = (ROOT / "scenarios" / "snorri-vs-brynhild.yaml").read_text(encoding="utf-8")
    assert melee._eligible(build_battle(load(text), 0, collect=False)) is not None
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    python = _log_hashes(text, range(100))
    monkeypatch.setattr(melee, "MELEE_COMPILED", True)
    assert _log_hashes(text, range(100)) == python


def _crowd(mine: list[tuple[str, int]], theirs: list[tuple[str, int]], rules: str = "") -> str:
    """A melee of forces ``(name, count)`` a side: swordsmen in leather, rolled
    initiative, every Good (ties: tied turns)."""

    def force(name: str, count: int) -> str:
        return (
            f"      - {{name: {name}, reaction_speed: Fair, skills: {{Sword: Good}},"
            f" attack_skill: Sword, weapon: weapons/broadsword, armour: armour/leather,"
            f" count: {count}}}\n"
        )

    sides = "".join(
        f"  - name: Side {k}\n    forces:\n" + "".join(force(*f) for f in forces)
        for k, forces in enumerate((mine, theirs))
    )
    return f"name: crowd\nrules: {{fadad.initiative: rolled{rules}}}\nsides:\n{sides}"


CROWDED = {
    "a band of three on two, one of a band on one": _crowd(
        [("Band", 3)], [("B0", 1), ("B1", 1)], ", engine.max_on_one: 1"
    ),
    "bands tied, one of a band on one": _crowd(
        [("Reds", 3), ("Red", 1)], [("Blues", 2), ("Blue", 1)], ", engine.max_on_one: 1"
    ),
    "five on two at a doorway": _crowd([(f"A{k}", 1) for k in range(5)], [("B0", 1), ("B1", 1)])
    + "map: {kind: open, max_attackers: 2}\n",
}
"""Melees in which places round a defender run out: no more than ``engine.max_on_one`` of
one band, or the map's ``max_attackers``, on one foe. Places are counted round each
defender round by round, and one turned away takes the first foe with one left
(``room.another_in_reach``) or strikes nobody."""


@pytest.mark.parametrize("case", list(CROWDED))
def test_crowded_melees_play_the_same_battle(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Places round a defender counted as Python counts them: the same battles at ten
    seeds, where Python turns attackers to another foe for want of room."""
    turned = 0
    another = plain_round.another_in_reach

    def counted(actor: Any, arena: Any) -> Any:
        nonlocal turned
        turned += 1
        return another(actor, arena)

    monkeypatch.setattr(plain_round, "another_in_reach", counted)
    compiled = 0
    for seed in range(10):
        python, played, was = _both(CROWDED[case], seed, monkeypatch)
        assert played == python, f"seed {seed}"
        compiled += was
    assert compiled == 10
    assert turned > 0, "nobody was turned away: the case shows nothing"


def _log_hashes(text: str, seeds: Sequence[int]) -> list[str]:
    """Each battle's log, as read and as events, hashed."""
    out = []
    for seed in seeds:
        battle = build_battle(load(text), seed, collect=False)
        battle.run_to_end()
        log = battle.log.text() + repr([tuple(e) for e in battle.log])
        out.append(hashlib.sha256(log.encode()).hexdigest())
    return out


def test_the_benchmark_melee_is_the_same_battle_at_300_seeds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The 5 v 5 of ``make bench`` (Good swordsmen in heavy leather, non-lethal crits):
    the same log at 300 seeds, compiled or not."""
    text = _melee_yaml(5, bands=False)
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    python = _log_hashes(text, range(300))
    monkeypatch.setattr(melee, "MELEE_COMPILED", True)
    assert _log_hashes(text, range(300)) == python


@pytest.mark.parametrize("text", [PARTY, FUDGE_PARTY], ids=["FADAD", "Min-Mid-Max, groups"])
def test_the_party_of_the_benchmark_is_the_same_battle_at_200_seeds(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bench_party``'s fight at the table (four player characters with Ité points, five
    orcs who break at half losses), and again under Min-Mid-Max wounds with weapon groups,
    which the compiled melee plays: the same log at 200 seeds, compiled or not."""
    assert melee._eligible(build_battle(load(text), 0, collect=False)) is not None
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    python = _log_hashes(text, range(200))
    monkeypatch.setattr(melee, "MELEE_COMPILED", True)
    assert _log_hashes(text, range(200)) == python


def test_a_sweep_reads_the_same_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sweep of 300 replicates (a recycled battle reset for each): the same frame."""
    path = tmp_path / "fight.yaml"
    path.write_text(_melee_yaml(5, bands=False), encoding="utf-8")
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    python = sweep(path, 300, 11, progress=False).frame
    monkeypatch.setattr(melee, "MELEE_COMPILED", True)
    compiled = sweep(path, 300, 11, progress=False).frame
    assert compiled.equals(python)
    assert python["Red0.down"].any()
    assert not python["Red0.down"].all()


def test_a_broken_kernel_plays_another_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparisons can fail: a kernel told a knockdown costs one more than the rules
    say plays some of the 5 v 5 battles otherwise."""
    text = _melee_yaml(5, bands=False)
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    python = _log_hashes(text, range(40))
    monkeypatch.setattr(melee, "MELEE_COMPILED", True)
    rules_row = melee.rules_row

    def wrong(battle: Any) -> Any:
        row = rules_row(battle)
        row[4] += 1  # the knockdown penalty
        return row

    monkeypatch.setattr(melee, "rules_row", wrong)
    monkeypatch.setattr(melee, "_TEMPLATES", OrderedDict())  # set up afresh
    compiled = _log_hashes(text, range(40))
    assert sum(a != b for a, b in zip(python, compiled, strict=True)) >= 3


class _EveryOther:
    """An Ité policy of a GM's own: spends a point on every other deadly blow."""

    def __init__(self) -> None:
        self.asked = 0

    def spend(self, actor: Any, blow: int, battle: Any) -> bool:
        self.asked += 1
        return self.asked % 2 == 0


class _AtFirstBlood:
    """A morale policy of a GM's own: checks once its side has lost anyone, surrenders."""

    def check_reason(self, actor: Any, battle: Any) -> str | None:
        return "first blood" if battle.side_fraction(actor.side) < 1.0 else None

    def on_break(self, actor: Any, battle: Any) -> str:
        return "surrender"


class _Last:
    """A targeting policy of a GM's own: the last foe standing in the list."""

    def choose_target(self, actor: Any, battle: Any, rng: Any) -> Any:
        foes = battle.foes(actor.side)
        return foes[-1] if foes else None


LEFT_TO_PYTHON = {
    "an Ité policy of a GM's own": (
        "        count: 1\n",
        "        count: 1\n        player: true\n        ite_points: 2\n"
        "        policies: {ite_points: test_every_other}\n",
        1,
    ),
    "three sides, fighting on past a side's rout": (
        "stop: {max_rounds: 1000}",
        "  - name: Green\n    forces:\n      - {name: Green, skills: {Sword: Good},"
        " attack_skill: Sword, weapon: weapons/broadsword}\n"
        "stop: {max_rounds: 1000, when_side: [destroyed]}",
        1,
    ),
    "a morale policy of a GM's own": (
        "  - name: Blue\n",
        "  - name: Blue\n    policies: {morale: test_at_first_blood}\n",
        1,
    ),
    "apart on a map with edges": (
        "  - name: Blue\n    forces:\n      - name: Blue0\n        reaction_speed: Fair\n",
        "  - name: Blue\n    forces:\n      - name: Blue0\n        position: [30, 0]\n"
        "        reaction_speed: Fair\n",
        1,
    ),
    "apart on a map, holding the line": (
        "  - name: Blue\n    forces:\n      - name: Blue0\n        reaction_speed: Fair\n",
        "  - name: Blue\n    policies: {movement: hold}\n    forces:\n      - name: Blue0\n"
        "        position: [30, 0]\n        reaction_speed: Fair\n",
        1,
    ),
    "apart on a map, each closing on the most wounded": (
        "  - name: Blue\n    forces:\n      - name: Blue0\n        reaction_speed: Fair\n",
        "  - name: Blue\n    policies: {targeting: weakest}\n    forces:\n      - name: Blue0\n"
        "        position: [30, 0]\n        reaction_speed: Fair\n",
        1,
    ),
    "a targeting policy of a GM's own": (
        "  - name: Blue\n",
        "  - name: Blue\n    policies: {targeting: test_last}\n",
        1,
    ),
}


@pytest.mark.parametrize("case", list(LEFT_TO_PYTHON))
def test_what_the_compiled_melee_leaves_to_python(case: str) -> None:
    """A battle it cannot play as Python would (an Ité, morale or targeting policy it does
    not know, other rules of a swing; on a field where not all touch, one with edges, a
    side that does not close in or picks the most wounded) plays in Python."""
    REGISTRY.register("ite_points", "test_every_other", _EveryOther, replace=True)
    REGISTRY.register("morale", "test_at_first_blood", _AtFirstBlood, replace=True)
    REGISTRY.register("targeting", "test_last", _Last, replace=True)
    old, new, count = LEFT_TO_PYTHON[case]
    text = _melee_yaml(5, bands=False).replace(old, new, count)
    assert text != _melee_yaml(5, bands=False)
    if "edges" in case:
        text = text.replace("stop:", "map: {kind: open, width: 60, height: 40}\nstop:")
    battle = build_battle(load(text), 1, collect=False)
    assert not melee.play(battle)
    assert battle.round == 0
    assert not battle.log.raw


def test_round_data_and_rounds_one_at_a_time_are_not_played_whole() -> None:
    """A battle collecting round data, or one a round of which is played already, is not
    played whole in compiled code: its rounds are played one at a time (in compiled code
    too: ``test_compiled_rounds``)."""
    text = _melee_yaml(5, bands=False)
    collecting = build_battle(load(text), 1, collect=True)
    assert not melee.play(collecting)
    stepped = build_battle(load(text), 1, collect=False)
    stepped.play_round()
    assert stepped.round == 1
    assert not melee.play(stepped)
    whole = build_battle(load(text), 1, collect=False)
    assert melee.play(whole)
    assert whole.finished


ROOT = Path(__file__).resolve().parents[3]

AS_PYTHON_BATTLES = (
    (_melee_yaml(5, bands=False), range(3)),
    (CROWDED["five on two at a doorway"], range(3)),
    (PARTY, (0, 3, 8)),  # morale checked; an Ité point spent and a blow capped; a band breaks
)
"""Battles the kernel plays as Python, and their seeds."""

AS_PYTHON = """
import hashlib, numba
from benchmarks.bench_engine import _melee_yaml
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.personal import melee as melee
from tests.engine.personal.test_compiled_melee import AS_PYTHON_BATTLES
played = []
for text, seeds in AS_PYTHON_BATTLES:
    for seed in seeds:
        battle = build_battle(load(text), seed, collect=False)
        assert melee.play(battle)
        log = battle.log.text() + repr([tuple(e) for e in battle.log])
        played.append(hashlib.sha256(log.encode()).hexdigest())
print(" ".join(played))
"""


def test_the_kernel_as_python_plays_the_same_battles(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's debugging switch ``NUMBA_DISABLE_JIT=1`` leaves the kernel the Python it is
    written in: it plays the battles the engine's Python plays (and the compiled code
    does), so the kernel can be stepped through in a debugger."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", AS_PYTHON], cwd=ROOT, capture_output=True, text=True,
        check=True, env=env,
    )  # fmt: skip
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    python = [h for text, seeds in AS_PYTHON_BATTLES for h in _log_hashes(text, seeds)]
    assert done.stdout.split() == python


LOOP = """
import hashlib, json, sys
from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.field import compiled
from fadad_agents.engine import load, run

compiled.LOAD_AFTER = 400
compiled.LOAD_WHEN_PAID = {when_paid}
scenario = load(_melee_yaml(5, bands=False))
out = {{"logs": [], "loaded": [], "counted": []}}
for seed in range(60):
    log = run(scenario, seed=seed).log
    text = log.text() + repr([tuple(e) for e in log])
    out["logs"].append(hashlib.sha256(text.encode()).hexdigest())
    out["loaded"].append("numba" in sys.modules)
    out["counted"].append(compiled.counted())
print(json.dumps(out))
"""


def _loop(when_paid: bool) -> dict[str, Any]:
    """A ``run()`` loop of 60 5 v 5 fights in a fresh process, numba loaded once 400
    agent-rounds are counted (or never)."""
    code = LOOP.format(when_paid=when_paid)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_a_run_loop_of_melees_loads_numba_once_paid_and_plays_the_same_battles() -> None:
    """Whole melees played in Python count toward loading numba, a quarter an agent-round
    (``compiled.MELEE_SHARE``): a ``run()`` loop loads it once they reach the count, plays
    the rest compiled, and every battle is the one a process that never loads it plays."""
    paid, never = _loop(True), _loop(False)
    first = paid["loaded"].index(True)
    assert 5 < first < 40
    assert all(paid["loaded"][first:])
    assert paid["counted"][first - 1] < 400 <= paid["counted"][first]
    assert not any(never["loaded"])
    assert paid["logs"] == never["logs"]


LETHAL = {
    "knocked out of the fight": _melee_yaml(5, bands=False).replace(
        "rolled}", "rolled, fadad.crit_effects: random}"
    ),
    "knocked out for two rounds, tied turns": _melee_yaml(5, bands=False).replace(
        "rolled}", "static, fadad.crit_effects: random, knockout_rounds: 2}"
    ),
    "Min-Mid-Max, daggers on ogres in plate": (
        "name: daggers and ogres\n"
        "rules: {fadad.crit_effects: random, wound_model: fudge_minmidmax,"
        " fudge.minmidmax_minus2: true}\n"
        "sides:\n"
        "  - name: Knives\n    forces:\n"
        "      - {name: Knife, skills: {Knife: Superb, Dodge: Good}, attack_skill: Knife,"
        " weapon: weapons/dagger, count: 4}\n"
        "  - name: Ogres\n    forces:\n"
        "      - {name: Ogre, model: creatures/ogre, skills: {Club: Poor}, armour: armour/plate,"
        " count: 2}\n"
    ),
}
"""Lethal crits (``fadad.crit_effects: random``): a Weak Spot's armour left out, Vitals'
wound levels recorded after, a Knockout out of the fight or unconscious for its rounds;
under Min-Mid-Max, whether a hit rolls its 3d6 is found before a Weak Spot leaves the
armour out (``damage_kind`` reads the factor with it: a dagger on an ogre in plate,
factor -8, rolls no dice at RD 4 or 5, where with the armour left out, -4, it would)."""


@pytest.mark.parametrize("case", list(LETHAL))
def test_lethal_crits_play_the_same_battle(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every crit effect, the lethal ones too, as Python plays it: the same battles at 40
    seeds, in which each effect lands."""
    text = LETHAL[case]
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    python = _log_hashes(text, range(40))
    seen = "".join(_played(text, seed)[0] for seed in range(40))
    monkeypatch.setattr(melee, "MELEE_COMPILED", True)
    assert melee.play(build_battle(load(text), 1, collect=False))  # played compiled
    assert _log_hashes(text, range(40)) == python
    for effect in ("Weak Spot", "Vitals", "Knockout", "knocked out"):
        assert effect in seen, effect
    if "two rounds" in case:
        assert "comes to" in seen


GATED = {
    "five on five": _melee_yaml(5, bands=False).replace(
        "rolled}", "rolled, fadad.target_mode: target_gate_gte}"
    ),
    "men on hobbits, whose Target is Poor": (
        "name: men and hobbits\n"
        "rules: {fadad.target_mode: target_gate_gte}\n"
        "sides:\n"
        "  - name: Men\n    forces:\n"
        "      - {name: Man, skills: {Sword: Fair}, attack_skill: Sword,"
        " weapon: weapons/shortsword, count: 3}\n"
        "  - name: Hobbits\n    forces:\n"
        "      - {name: Hobbit, model: creatures/hobbit, skills: {Knife: Good, Dodge: Terrible},"
        " attack_skill: Knife, defence_skill: Dodge, weapon: weapons/dagger, count: 4}\n"
    ),
}
"""Melees under ``fadad.target_mode: target_gate_gte`` (the Target a minimum rolled degree:
an undefended swing hits at RD 0, a defended one needs RD 1 and the Target)."""


@pytest.mark.parametrize("case", list(GATED))
def test_the_target_as_a_gate_plays_the_same_battle(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same battles at 40 seeds compiled as in Python, RD 0 hits among them (and,
    among men on hobbits, swings winning the opposed roll but short of the Target)."""
    text = GATED[case]
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    python = _log_hashes(text, range(40))
    played = [_played(text, seed) for seed in range(40)]
    monkeypatch.setattr(melee, "MELEE_COMPILED", True)
    assert melee.play(build_battle(load(text), 1, collect=False))  # played compiled
    assert _log_hashes(text, range(40)) == python
    assert any("hit by 0" in log for log, *_ in played)
    swings = [dict(e[7]) for _, events, *_ in played for e in events if e[3] == "attack"]
    short = [o for o in swings if o["defended"] and o["defence"] < o["attack"] < o["target_level"]]
    assert short or "hobbits" not in case
    assert not any(o["hit"] for o in short)


SHIELDED = {
    "every one with a shield": _melee_yaml(5, bands=False).replace(
        "        count: 1\n", "        count: 1\n        shield: shields/medium\n"
    ),
    "shields large and small, tied turns, random crits": _melee_yaml(4, bands=False)
    .replace("rolled}", "static, fadad.crit_effects: random}")
    .replace("        count: 1\n", "        count: 1\n        shield: SHIELD\n")
    .replace("SHIELD", "shields/large", 3)
    .replace("SHIELD", "shields/buckler", 2)
    .replace("        shield: SHIELD\n", ""),
}
"""Shields: the Target and the attacker's shield modifier by the pair (``exchange``), the
rank of each attacker on a defender's shield side this round (``shields.shield_rank``,
from where each stands), a shield dropped (Disarm) or kept."""


@pytest.mark.parametrize("case", list(SHIELDED))
def test_shields_play_the_same_battle(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Shields as Python plays them: the same battles at 40 seeds, compiled, with
    attackers second and later on a shield's side."""
    text = SHIELDED[case]
    ranks: list[int] = []
    rank = plain_round.shield_rank

    def counted(defender: Any, attacker: Any, round_: int) -> int:
        ranks.append(rank(defender, attacker, round_))
        return ranks[-1]

    monkeypatch.setattr(plain_round, "shield_rank", counted)
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    python = _log_hashes(text, range(40))
    assert max(ranks) >= 3
    monkeypatch.setattr(melee, "MELEE_COMPILED", True)
    assert melee.play(build_battle(load(text), 1, collect=False))  # played compiled
    assert _log_hashes(text, range(40)) == python


def test_a_battle_longer_than_its_room_is_played_again_in_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A battle whose events or wound tracks fill the kernel's arrays is played again from
    its start, its streams seeded again, in arrays twice as large, until it fits: the same
    battle as Python's (here from room for four events and a few tracks)."""
    text = _melee_yaml(5, bands=False)
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    python = _log_hashes(text, range(10))
    monkeypatch.setattr(melee, "MELEE_COMPILED", True)
    sizes: list[tuple[int, int]] = []
    room = melee.Melee._room

    def small(self: Any, events: int, tracks: int) -> None:
        if not sizes:
            events, tracks = 4, len(self.members) + 3
        sizes.append((events, tracks))
        room(self, events, tracks)

    monkeypatch.setattr(melee.Melee, "_room", small)
    monkeypatch.setattr(melee, "_TEMPLATES", OrderedDict())  # set up afresh
    assert _log_hashes(text, range(10)) == python
    assert sizes[1] == (8, 2 * sizes[0][1]), "never played again in more room"
