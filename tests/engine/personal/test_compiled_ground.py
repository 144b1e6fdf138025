"""The compiled plain melee on open ground plays the battle the engine's Python plays, byte
for byte: fighters who close in on a random foe in reach (the nearest where none is), on
their nearest foe or on a duel's opponent, find their way through the crowd round their
targets, wait in ranks, and strike.

Melees drawn at random (two sides of one to three forces standing apart on open ground,
single fighters and bands, other creatures (other widths and strides), every melee weapon
(other reaches), shields (their sides, by the bearing a move leaves), each gait of closing
in, sticky, random, nearest or duel targeting, crits, player characters, morale, initiative
rolled or static (tied turns: movers first, in an order drawn), the moving Target bonus)
are each played at three seeds with the compiled melee on and off: the same log, events, fighters
(where each stands and faces, at what gait), and result; so are blocks in ranks of 300 a
side, and battles the compiled melee gives back to Python midway (a fighter stepping off
its mirror of the field) or plays again with more room for its events.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from typing import Any

import numba  # noqa: F401  # loaded: the compiled melee plays once numba is
import numpy as np
import pytest

from benchmarks.bench_engine import _melee_yaml, front_yaml
from fadad_agents.agents.core.crowd import occupied
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.personal import melee
from fadad_agents.engine.personal.ground import GAVE_UP, advance
from fadad_agents.engine.personal.onfield import Ground
from fadad_agents.engine.personal.swing import _MOVES, _SIDE, _TARGET, STATE_COLUMNS
from tests.engine.personal.test_compiled_melee import (
    ARMOUR,
    CREATURES,
    SHIELDS,
    TWO_HANDED,
    WEAPONS,
    _ended,
)

LADDER = ("Poor", "Mediocre", "Fair", "Good", "Great", "Superb")


def ground_scenario(seed: int) -> str:
    """Two sides of one to three forces drawn from ``seed``, each force standing on open
    ground, side 0 on the left, side 1 on the right, 3 to 30 yards apart."""
    rng = random.Random(seed)
    rules = ["fadad.initiative: " + ("rolled" if rng.random() < 0.8 else "static")]
    if rng.random() < 0.5:
        rules.append("fadad.crit_effects: " + rng.choice(("none", "non_lethal", "random")))
    if rng.random() < 0.3:
        rules.append(f"move.target_bonus: [{rng.randint(0, 2)}, {rng.randint(0, 3)}]")
    lines = [f"name: ground {seed}", "rules: {" + ", ".join(rules) + "}", "sides:"]
    for s in range(2):
        lines.append(f"  - name: Side {s}")
        policies = []
        if rng.random() < 0.5:
            kinds = ("random", "sticky", "nearest", "duel")
            policies.append(f"targeting: {rng.choice(kinds)}")
        if rng.random() < 0.5:
            gait = rng.choice(("walk", "jog", "run"))
            policies.append(f"movement: {{name: close, params: {{gait: {gait}}}}}")
        if rng.random() < 0.15:
            policies.append("morale: {name: break_at_losses}")
        if policies:
            lines.append("    policies: {" + ", ".join(policies) + "}")
        lines.append("    forces:")
        for f in range(rng.choice((1, 2, 3))):
            lines.append(_force(rng, f"S{s}F{f}", s))
    lines.append(f"stop: {{max_rounds: {rng.choice((5, 40, 200))}}}")
    return "\n".join(lines) + "\n"


def _force(rng: random.Random, name: str, side: int) -> str:
    count = 1 if rng.random() < 0.5 else rng.randint(2, 12)
    weapon = rng.choice(WEAPONS)
    x = rng.randint(0, 10) if side == 0 else rng.randint(13, 40)
    lines = [
        f"      - name: {name}",
        f"        model: creatures/{rng.choice(CREATURES) if rng.random() < 0.3 else 'human'}",
        f"        reaction_speed: {rng.choice(LADDER[1:5])}",
        f"        skills: {{Melee: {rng.choice(LADDER)}, Dodge: {rng.choice(LADDER[:4])}}}",
        "        attack_skill: Melee",
        f"        weapon: weapons/{weapon}",
        f"        armour: armour/{rng.choice(ARMOUR)}",
        f"        count: {count}",
        f"        position: [{x}, {rng.randint(-10, 10)}]",
    ]
    if rng.random() < 0.3 and weapon not in TWO_HANDED:
        lines.append(f"        shield: shields/{rng.choice(SHIELDS)}")
    if count == 1 and rng.random() < 0.15:
        lines.append("        player: true")
    return "\n".join(lines)


def _placed(text: str, seed: int) -> tuple[Any, ...]:
    """:func:`_played`, and where each fighter stands and faces at the end, at what gait,
    with what movement actions."""
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    places = [
        (m.name, m.position, m.bearing, m.gait, m.move_actions, m.placed)
        for side in battle.sides
        for m in side.members
    ]
    return (*_ended(battle), places)


def _both(text: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, bool]:
    """``text`` at ``seed`` played in Python and with the compiled melee; whether the
    compiled melee played it whole."""
    played: list[bool] = []
    real = melee.Melee.play

    def spy(self: Any, battle: Any) -> bool:
        played.append(real(self, battle))
        return played[-1]

    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    python = _placed(text, seed)
    monkeypatch.setattr(melee, "MELEE_COMPILED", True)
    monkeypatch.setattr(melee.Melee, "play", spy)
    compiled = _placed(text, seed)
    monkeypatch.undo()
    return python, compiled, played == [True]


def _same(text: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> bool:
    python, compiled, played = _both(text, seed, monkeypatch)
    assert compiled[0] == python[0], f"seed {seed}: the log reads differently\n{text}"
    assert compiled[1:] == python[1:], f"seed {seed}: events or fighters differ\n{text}"
    return played


@pytest.mark.parametrize("seed", range(30))
def test_drawn_melees_on_open_ground_play_the_same_battle(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A melee on open ground drawn from ``seed``, at three seeds: the same battle either
    way, and the compiled melee plays it."""
    text = ground_scenario(seed)
    for battle_seed in (seed, 1000 + seed, 7):
        assert _same(text, battle_seed, monkeypatch), f"left to Python:\n{text}"


def test_the_drawn_melees_move_and_fight() -> None:
    """The comparison above proves something: fighters move (walk, jog and run), most
    battles last past their first rounds, some fighters carry shields and stand as player
    characters, tied turns (movers first), fighters targeting their nearest foe and
    duellists come up."""
    gaits: set[str] = set()
    long = tied = nearest = duels = 0
    for seed in range(30):
        battle = build_battle(load(ground_scenario(seed)), seed, collect=False)
        battle.run_to_end()
        gaits |= {e.outcome[0][1] for e in battle.log if e.action == "move"}
        long += battle.round > 3
        tied += "fadad.initiative: static" in ground_scenario(seed)
        nearest += "targeting: nearest" in ground_scenario(seed)
        duels += "targeting: duel" in ground_scenario(seed)
    assert gaits == {"walk", "jog", "run"}
    assert long >= 10
    assert tied >= 3
    assert nearest >= 3
    assert duels >= 3


@pytest.mark.parametrize("seed", [1, 2])
def test_blocks_in_ranks_play_the_same_battle(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two blocks of 300 formed in ranks: those behind wait, search their way and retarget
    by their nearest foe; the same battle either way, hundreds of moves made."""
    text = _melee_yaml(300, bands=True)
    assert _same(text, seed, monkeypatch)
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    assert sum(e.action == "move" for e in battle.log) > 500


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_blocks_closing_on_their_nearest_foes_play_the_same_battle(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two blocks of 60 twelve yards apart, each fighter closing on its nearest foe
    (``targeting: nearest``, searched afresh as they move: no draw): the same battle in
    compiled code as in Python, and not the battle of random targets in reach."""
    text = _melee_yaml(60, bands=True, gap=12).replace(
        "forces:", "policies: {targeting: nearest}\n    forces:"
    )
    assert text.count("targeting: nearest") == 2
    assert _same(text, seed, monkeypatch)
    assert _placed(text, seed)[0] != _placed(_melee_yaml(60, bands=True, gap=12), seed)[0]


@pytest.mark.parametrize("seed", [1, 2])
def test_duellists_on_open_ground_play_the_same_battle(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 20 twelve yards apart, each fighter fighting a duel (``targeting:
    duel``: its nearest foe once, then that one alone): the same battle in compiled code
    as in Python, each fighter left remembering the same opponent."""
    text = _melee_yaml(20, bands=True, gap=12).replace(
        "forces:", "policies: {targeting: duel}\n    forces:"
    )
    assert _same(text, seed, monkeypatch)
    duels = []
    for compiled in (False, True):
        monkeypatch.setattr(melee, "MELEE_COMPILED", compiled)
        battle = build_battle(load(text), seed, collect=False)
        battle.run_to_end()
        fighters = [m for side in battle.sides for m in side.members]
        duels.append({m.name: m.memory["duel"].name for m in fighters if "duel" in m.memory})
    assert duels[0] == duels[1]
    assert len(duels[0]) >= 20


def test_a_mirror_is_as_wide_and_as_deep_as_its_crowd_needs() -> None:
    """The field's mirror in arrays holds a front a mile and a half wide and a few yards
    deep: its grid 16 yards and more past everyone each way, half the crowd's spread
    across and half its spread along (a grid as deep as it is wide, a square of 5,300
    yards, held some 20 million squares: too many, and Python played such a battle at four
    times the cost an agent-round)."""
    battle = build_battle(load(front_yaml(5, 2, 660.0)), 1, collect=False)
    members = [m for side in battle.sides for m in side.members]
    mirror = occupied.Occupied.made(members, battle.field.widest)
    assert mirror is not None
    x0, y0, side, columns, rows = mirror.grid[:5]
    xs, ys = [m.position[0] for m in members], [m.position[1] for m in members]
    along = max(ys) - min(ys)
    assert x0 == pytest.approx(min(xs) - 16)
    assert y0 == pytest.approx(min(ys) - along / 2)
    assert columns * side >= max(xs) - min(xs) + 32
    assert rows * side >= 2 * along
    assert (2 * along / side) ** 2 > occupied.MOST_SQUARES  # a square grid: none


@pytest.mark.parametrize("seed", [1, 2])
def test_bands_along_a_wide_front_play_the_same_battle(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight bands of 12 a side along a front 1,050 yards wide, each side's three yards from
    the other's, each band closing on the other side's: the compiled melee plays it whole
    (its mirror as wide as the front, a few dozen yards deep), the same battle as Python's."""
    text = front_yaml(8, 12, 150.0)
    assert _same(text, seed, monkeypatch)


@pytest.mark.parametrize(("ranks", "seed"), [(1, 1), (3, 2)])
def test_lines_of_ranks_play_the_same_battle(
    ranks: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 300 a yard apart formed 1 and 3 ranks deep (``Character.ranks``): the
    compiled melee plays them whole, the same battle as Python's."""
    assert _same(_melee_yaml(300, bands=True, gap=1, ranks=ranks), seed, monkeypatch)


def test_a_move_off_the_mirror_gives_the_battle_back() -> None:
    """A mover whose way ends off the field's mirror in arrays (its grid made round where
    everyone stood as the play began, 16 yards and more each way) cannot be moved there:
    :func:`~fadad_agents.engine.personal.ground.advance` answers ``GAVE_UP``, nothing
    moved (here its target stands off the grid, the grid made round the mover alone)."""
    text = _melee_yaml(1, bands=False, gap=40)
    battle = build_battle(load(text), 1, collect=False)
    members = [m for side in battle.sides for m in side.members]
    mover, target = members
    mirror = occupied.Occupied.made([mover], mover.radius)
    assert occupied._square(*target.position, mirror.grid) == -1  # off the grid
    ground = Ground(battle, members, sorted({m.radius for m in members}))
    pos = np.array([(*m.position, m.bearing, m.radius, m.reach, float(m.stride)) for m in members])
    s = np.zeros((2, STATE_COLUMNS), dtype=np.int64)
    s[0, _TARGET], s[0, _MOVES], s[1, _SIDE], s[1, _TARGET] = 1, 2, 1, -1
    filing = np.zeros((len(mirror.filing), 3), dtype=np.int64)
    counters = np.zeros(64, dtype=np.int64)
    counters[2] = counters[3] = 1
    events = np.zeros((8, 25), dtype=np.int64)
    events[0, 0] = 1
    bounds = np.zeros((2, 4), dtype=np.int64)
    places = np.zeros((2, 8), dtype=np.int64)
    before = pos.copy()
    found = advance(0, s, pos, ground.geo, mirror.floats, mirror.ints, filing, bounds,
                    counters, ground.rings, places, 1, events, np.zeros((8, 5)))  # fmt: skip
    assert found == GAVE_UP
    assert (pos == before).all()
    assert events[0, 0] == 1  # no move logged


def test_a_battle_given_back_plays_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """A play the kernel gives back (``GAVE_UP``) is played in Python from its start: the
    same battle as without the compiled melee."""
    text = ground_scenario(3)
    python, _, _ = _both(text, 3, monkeypatch)
    plays = melee.Melee.play

    def giving_up(self: Any, battle: Any) -> bool:
        kernel = self.kernel
        self.kernel = _GivesUp(kernel)
        try:
            return plays(self, battle)
        finally:
            self.kernel = kernel

    monkeypatch.setattr(melee.Melee, "play", giving_up)
    assert _placed(text, 3) == python


class _GivesUp:
    """The kernel's module, its ``play`` and ``play_on_ground`` giving every battle back."""

    def __init__(self, kernel: Any) -> None:
        self.FULL, self.GAVE_UP = kernel.FULL, kernel.GAVE_UP

    def play(self, *_: Any) -> int:
        return int(self.GAVE_UP)

    play_on_ground = play


def test_a_battle_played_again_with_room_for_more_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A play whose events outgrow the room made for them is played again with twice as
    much (its moves too): the same battle."""
    text = _melee_yaml(100, bands=True)
    python, _, _ = _both(text, 5, monkeypatch)
    real = melee.Melee._room
    made: list[int] = []

    def small(self: Any, events: int, tracks: int) -> None:
        made.append(events)
        real(self, 64 if len(made) == 1 else events, tracks)

    monkeypatch.setattr(melee.Melee, "_room", small)
    monkeypatch.setattr(melee, "_TEMPLATES", OrderedDict())  # set up afresh
    assert _placed(text, 5) == python
    assert len(made) > 2


APART = """
name: apart
rules: {fadad.initiative: static}
sides:
  - name: Red
    forces:
      - {name: Red, reaction_speed: Good, skills: {Sword: Good}, attack_skill: Sword,
         weapon: weapons/broadsword, armour: armour/heavy-leather, count: 10, position: [0, 0]}
  - name: Blue
    forces:
      - {name: Blue, reaction_speed: Fair, skills: {Sword: Good}, attack_skill: Sword,
         weapon: weapons/broadsword, armour: armour/heavy-leather, count: 10, position: [12, 0]}
"""
"""Two bands of 10, 12 yards apart on open ground, Red the quicker: initiative static, so
no turn is ever tied."""


def test_a_battle_on_open_ground_played_again_with_room_for_more_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On open ground too, a play whose events outgrow their room in a band's own turn (no
    turn tied: :data:`APART`) is played again with twice as much: the same battle, played
    in compiled code (Red's first turn, ten moves, fills the first room of eight)."""
    real = melee.Melee._room
    made: list[int] = []

    def small(self: Any, events: int, tracks: int) -> None:
        made.append(events)
        real(self, 8 if len(made) == 1 else events, tracks)

    monkeypatch.setattr(melee.Melee, "_room", small)
    monkeypatch.setattr(melee, "_TEMPLATES", OrderedDict())  # set up afresh
    python, compiled, played = _both(APART, 3, monkeypatch)
    assert played
    assert compiled == python
    assert made[:2] == [melee.ROOM_FOR_EVENTS * 20 + 4096, 16]


@pytest.mark.parametrize(
    "text", [ground_scenario(5), _melee_yaml(5, bands=False), _melee_yaml(40, bands=True)]
)
def test_battles_built_again_share_one_set_up(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Battles built again from one scenario (a ``run()`` loop over seeds) are set up once
    (``melee._TEMPLATES``: the arrays and tables shared, each battle's own objects its
    own), and each plays the battle Python plays; another scenario is set up again (here
    its fighters named otherwise)."""
    made: list[Any] = []
    real = melee.Melee.__init__

    def counted(self: Any, *args: Any) -> None:
        made.append(self)
        real(self, *args)

    monkeypatch.setattr(melee.Melee, "__init__", counted)
    monkeypatch.setattr(melee, "_TEMPLATES", OrderedDict())  # none kept from other tests
    other = text.replace("name: S0F0", "name: T0F0").replace("name: Red", "name: Scarlet")
    assert other != text
    for scenario in (load(text), load(other)):
        for seed in range(3):
            monkeypatch.setattr(melee, "MELEE_COMPILED", False)
            python = build_battle(scenario, seed, collect=False)
            python.run_to_end()
            monkeypatch.setattr(melee, "MELEE_COMPILED", True)
            compiled = build_battle(scenario, seed, collect=False)
            compiled.run_to_end()
            assert compiled.__dict__[melee._MELEE] is not None
            assert _ended(compiled) == _ended(python), seed
    assert len(made) == 2


def test_a_set_up_shared_with_another_thread_plays_there_with_its_own_scratch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Battles built from one scenario share one set-up (``melee._TEMPLATES``), and with it
    the scratch a play fills (events, tracks, streams) in the thread that made it; a
    battle played in another thread (a Dask worker's threads: 2026-12-06, a sweep's rows
    written from another thread's events) makes its own, and plays the same battle."""
    monkeypatch.setattr(melee, "_TEMPLATES", OrderedDict())  # none kept from other tests
    scenario = load(_melee_yaml(5, bands=False))
    build_battle(scenario, 1, collect=False).run_to_end()
    (template,) = melee._TEMPLATES.values()
    theirs: dict[str, Any] = {}

    def other_thread() -> None:
        battle = build_battle(scenario, 2, collect=False)
        battle.run_to_end()
        theirs["melee"], theirs["log"] = battle.__dict__[melee._MELEE], battle.log.text()

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    mine = build_battle(scenario, 2, collect=False)
    mine.run_to_end()
    assert theirs["log"] == mine.log.text()
    for scratch in ("events", "tracks", "effects", "streams"):
        assert getattr(theirs["melee"], scratch) is not getattr(template, scratch), scratch
        assert getattr(mine.__dict__[melee._MELEE], scratch) is getattr(template, scratch), scratch
