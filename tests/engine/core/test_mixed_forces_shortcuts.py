"""Mixed forces play the same battle through every shortcut as through none.

The engine's speed comes from shortcuts that must change nothing a battle shows: a band's
turn played in arrays (``crowd.waiting``), declares and plans made together, the field
mirrored in arrays, remembered searches and answers. Each has its own test on bands of
identical swordsmen; here they are checked together on forces drawn at random from what a
scenario may hold: several bands and single fighters a side, two or three sides, other
creatures, spears and two-handed weapons, shields, bows and slings, player characters,
walled fields, targeting, stance, movement, aim, attack and retreat policies, crit effects
and every personal rules option with a choice of values. Each battle is played twice on the
same seed, with every shortcut on (a band's turn in arrays from 8 members, not 256, so that
small bands use it) and with every one off: the same log, byte for byte, and the same
fighters at the end.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from typing import Any

import pytest

import fadad_agents.agents
import fadad_agents.engine
from fadad_agents.agents.core.crowd import kernels, waiting
from fadad_agents.rules.core import wounds
from tests.engine.conftest import personal_options
from tests.engine.core.test_ranks_in_arrays import _played
from tests.engine.ships.test_remembered_answers import _caches

SHORTCUTS: dict[str, tuple[str, ...]] = {
    "fadad_agents.agents.core.character": ("ASK_ONCE",),
    "fadad_agents.agents.core.moving": ("STEP",),
    "fadad_agents.agents.core.ranks": ("REMEMBER_BLOCKED", "COMPILED_PLACES"),
    "fadad_agents.agents.core.plain.round": ("PLAIN_ROUNDS",),
    "fadad_agents.agents.core.field.squares": ("MIRRORED",),
    "fadad_agents.agents.core.field.ground": ("NEAREST_FROM_CROWD",),
    "fadad_agents.agents.core.crowd.ahead": ("LOOK_AHEAD",),
    "fadad_agents.agents.core.crowd.declaring": (
        "DECLARE_TOGETHER",
        "PLAN_TOGETHER",
        "SETTLE_TOGETHER",
        "SETTLE_AT_END",
        "ROUTES_INLINED",
        "TARGETS_WITH_PLANS",
    ),
    "fadad_agents.agents.core.crowd.nearest": ("NEAREST_DIRECT", "NEAREST_SEEDED"),
    "fadad_agents.agents.core.crowd.occupied": ("REMEMBERED",),
    "fadad_agents.agents.core.crowd.plans": ("ROWS_COMPILED",),
    "fadad_agents.agents.core.crowd.runs": ("MOVES_INLINED",),
    "fadad_agents.agents.core.crowd.waiting": (
        "RANKS_IN_ARRAYS",
        "ASK_LAST_BLOCKER",
        "MOVERS_WITH_ATTACKS",
        "WAIT_DIRECT",
    ),
    "fadad_agents.agents.core.crowd.filing": ("FALLEN_UNFILED",),
    "fadad_agents.engine.personal.melee": ("MELEE_COMPILED",),
    "fadad_agents.engine.core.space": (
        "NEAREST_FIRST",
        "TOUCHING_IN_MIRROR",
        "TOUCHING_AT_ONCE",
        "REACH_OR_NEAREST",
        "NEAREST_IN_MIRROR",
    ),
}
"""Every switch of a shortcut that plays a personal battle otherwise than the plain way
(each True as shipped; the tests that introduced them compare each one alone)."""

NOT_SHORTCUTS = {"LOAD_WHEN_PAID", "TYPE_CHECKING"}
"""Upper-case flags of the agents and the engine that choose no path of a battle (when
numba is loaded; typing's)."""

SEEDS = range(24)

WEAPONS = (
    "broadsword", "spear-two-handed", "spear-one-handed", "dagger", "greatsword", "mace",
    "quarterstaff", "axe", "shortsword", "poleaxe", "club",
)  # fmt: skip
TWO_HANDED = {"spear-two-handed", "greatsword", "quarterstaff", "poleaxe"}
MISSILES = ("bow", "sling", "light-crossbow", "throwing-dagger")
ARMOUR = ("heavy-leather", "leather", "chain-mail", "none", "scale-mail", "plate")
SHIELDS = (None, None, "small", "medium", "large", "buckler")
CREATURES = ("orc", "goblin", "dwarf", "elf", "hobbit", "ogre")
LADDER = ("Poor", "Mediocre", "Fair", "Good", "Great")
POLICIES = {
    "targeting": ("random", "nearest", "weakest", "strongest", "focus_fire"),
    "stance": ("parry", "dodge", "all_out_attack", "defend_when_hurt"),
    "movement": ("hold", "guard", "kite"),
    "aim": ("called", "stun", "pull_punches", "weapon_arm_when_ahead"),
    "multi_attack": ("all_in", "single"),
    "retreat": ("at_wound_level", "wounded", "side_losses"),
}


OPTIONS = {
    **personal_options("fadad.initiative", "fadad.crit_effects"),  # those two drawn apart
    "fadad.actions_per_round": (1, 3),
    "fadad.knockdown_penalty": (0, 2),
    "engine.max_on_one": (1, 2, 4),
    "knockout_rounds": (1, 3),
    "location.minimum_margin_cap_scale": (1, 5),
}
"""The rules options a battle may set (each one time in eight): every personal option with
a choice of values, and some numbers."""


def _force(rng: random.Random, name: str, place: tuple[int, int] | None, own: bool) -> str:
    """One force: a band (or one fighter) of a kind, kit and skill drawn at random;
    ``own``: its side may give it policies of its own."""
    count = rng.choice((1, 1, 5, 20, 60, 100, 150)) if rng.random() < 0.8 else rng.randint(2, 40)
    shoots = rng.random() < 0.12
    weapon = rng.choice(MISSILES if shoots else WEAPONS)
    skill = "Bow" if shoots else "Melee"
    kind = rng.choice(CREATURES) if rng.random() < 0.3 else "human"
    lines = [
        f"      - name: {name}",
        f"        model: creatures/{kind}",
        f"        reaction_speed: {rng.choice(LADDER[1:])}",
        f"        skills: {{{skill}: {rng.choice(LADDER[2:])}, Dodge: Fair}}",
        f"        attack_skill: {skill}",
        f"        weapon: weapons/{weapon}",
        f"        armour: armour/{rng.choice(ARMOUR)}",
        f"        count: {count}",
    ]
    shield = rng.choice(SHIELDS)
    if shield and not shoots and weapon not in TWO_HANDED:
        lines.append(f"        shield: shields/{shield}")
    if place is not None:
        lines.append(f"        position: [{place[0]}, {place[1]}]")
    if count == 1 and rng.random() < 0.3:
        lines.append("        player: true")
    policies = [
        f"{kind}: {{name: {rng.choice(names)}}}"
        for kind, names in POLICIES.items()
        if own and rng.random() < 0.2
    ]
    if policies:
        lines.append("        policies: {" + ", ".join(policies) + "}")
    return "\n".join(lines)


def mixed_forces(seed: int) -> str:
    """A scenario of forces drawn from ``seed``: two sides (or three), each of one to three
    forces, most placed near the others' (some in contact), on open ground or a walled
    field, with random rules options."""
    rng = random.Random(seed)
    rules = ["fadad.initiative: " + rng.choice(("rolled", "rolled", "static"))]
    if rng.random() < 0.5:
        rules.append("fadad.crit_effects: " + rng.choice(("random", "non_lethal")))
    rules += [
        f"{key}: {rng.choice(values)}" for key, values in OPTIONS.items() if rng.random() < 0.12
    ]
    lines = [f"name: mixed forces {seed}", "rules: {" + ", ".join(rules) + "}"]
    walls = None
    if rng.random() < 0.3:
        walls = rng.choice((14, 30, 60)), rng.choice((8, 20, 40))
        lines.append(f"map: {{kind: open, width: {walls[0]}, height: {walls[1]}}}")
    lines.append("sides:")
    sides = 3 if rng.random() < 0.15 else 2
    for s in range(sides):
        own = rng.random() < 0.5  # else every force of the side plain
        lines.append(f"  - name: Side {s}")
        if rng.random() < 0.3:
            morale = rng.choice(("none", "break_at_losses", "casualties"))
            lines.append(f"    policies: {{morale: {{name: {morale}}}}}")
        lines.append("    forces:")
        front = (0, rng.choice((0, 2, 6, 12, 25)), rng.choice((-10, 15)))[s]
        for f in range(rng.choice((1, 1, 2, 3))):
            x, y = front + rng.randint(-3, 3), rng.randint(-8, 8)
            if walls is not None:  # within the walls
                x = min(max(x + walls[0] // 3, 0), walls[0])
                y = min(max(y + walls[1] // 2, 0), walls[1])
            place = (x, y) if rng.random() < 0.85 else None  # None: the side's own spot
            lines.append(_force(rng, f"S{s}F{f}", place, own))
    lines.append(f"stop: {{max_rounds: {rng.choice((10, 30, 200))}}}")
    return "\n".join(lines) + "\n"


def _switch_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every shortcut of :data:`SHORTCUTS` off, for the test's length."""
    for name, switches in SHORTCUTS.items():
        module = importlib.import_module(name)
        for switch in switches:
            monkeypatch.setattr(module, switch, False)


def test_every_shortcut_is_switched_here() -> None:
    """The switches of the agents' and the engine's modules (their upper-case names set
    True or False) are all listed here, so that a shortcut added later is checked with
    the others."""
    found: dict[str, tuple[str, ...]] = {}
    for package in (fadad_agents.agents, fadad_agents.engine):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            names = [
                k
                for k, v in vars(module).items()
                if k.isupper() and isinstance(v, bool) and k not in NOT_SHORTCUTS
            ]
            if names:
                found[info.name] = tuple(names)
    assert found == SHORTCUTS


@pytest.mark.parametrize("seed", SEEDS)
def test_mixed_forces_play_the_same_battle_with_every_shortcut_or_none(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forces drawn from ``seed``, played to the end on that seed: the same log and the
    same fighters at the end with every shortcut on, and with every one off."""
    text = mixed_forces(seed)
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    fast = _played(text, seed)
    _switch_off(monkeypatch)
    plain = _played(text, seed)
    assert fast[0] == plain[0], f"seed {seed}: the log reads differently\n{text}"
    assert fast[1:] == plain[1:], f"seed {seed}: events or final states differ\n{text}"


def test_mixed_forces_play_the_same_battle_with_every_remembered_answer_or_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Forces drawn from 8 seeds, every shortcut on: the same battles with the package's
    remembered answers (its ``functools`` caches: places round a target, a ring's turns,
    kit and effects read once, dice tables; and the wound tracks' memo of blows already
    landed on a track) as with none of them."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    remembered = [_played(mixed_forces(seed), seed) for seed in SEEDS[:8]]
    for module, name, cached in _caches():
        monkeypatch.setattr(module, name, cached.__wrapped__)
    monkeypatch.setattr(wounds, "_RECORDED", _Forgetful())
    forgotten = [_played(mixed_forces(seed), seed) for seed in SEEDS[:8]]
    assert forgotten == remembered


class _Forgetful(dict[Any, Any]):
    """A memo that keeps nothing."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def test_most_mixed_battles_play_band_turns_in_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above proves something: most of its battles play band turns in the
    compiled loop, and most last more than a round."""
    calls = 0
    wait = kernels.wait_now

    def counted(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        return wait(*args)

    monkeypatch.setattr(kernels, "wait_now", counted)
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    in_arrays = long = 0
    for seed in SEEDS:
        before = calls
        log = _played(mixed_forces(seed), seed)[0]
        in_arrays += calls > before
        long += "\nRound 2 (" in log
    assert in_arrays >= 0.75 * len(SEEDS)
    assert long >= 0.75 * len(SEEDS)


def test_a_broken_shortcut_plays_another_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail: arrays never told where a fighter moved in Python (a
    broken catch-up) play some of these battles otherwise."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    right = [_played(mixed_forces(seed), seed) for seed in SEEDS[:8]]
    monkeypatch.setattr(waiting._Crowd, "after", lambda self, member, kernels: False)
    monkeypatch.setattr(waiting._Crowd, "catch_up", lambda self, kernels: None)
    wrong = [_played(mixed_forces(seed), seed) for seed in SEEDS[:8]]
    assert sum(a != b for a, b in zip(right, wrong, strict=True)) >= 2
