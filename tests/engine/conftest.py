"""Shared scenario text for the engine tests."""

from __future__ import annotations

import random
import typing
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from fadad_agents.agents.fae.character import FaeCharacter
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.fae.battle import FaeBattle
from fadad_agents.rules.options import RulesOptions

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def fighter(name: str, *, skill: str = "Good", policies: str = "", extra: str = "") -> str:
    """One character entry (YAML, indented for a side's forces list)."""
    text = f"""
      - name: {name}
        skills: {{Sword: {skill}}}
        attack_skill: Sword
        weapon: weapons/broadsword
        armour: armour/heavy-leather
{extra}"""
    if policies:
        text += f"        policies: {policies}\n"
    return text


def duel_yaml(
    a: str = "", b: str = "", *, rules: str = "", stop: str = "", a_pol: str = "", b_pol: str = ""
) -> str:
    """Two sides; ``a`` and ``b`` are forces text (default one fighter each)."""
    a = a or fighter("Ann")
    b = b or fighter("Bob")
    return f"""
name: test battle
rules: {{{rules}}}
sides:
  - name: Red
    policies: {{{a_pol}}}
    forces:{a}
  - name: Blue
    policies: {{{b_pol}}}
    forces:{b}
stop: {{{stop}}}
"""


@pytest.fixture
def scenarios_dir() -> Path:
    return SCENARIOS


WIZARD = """      - name: Magister Orlen
        skills: {Staff: Fair}
        attack_skill: Staff
        weapon: weapons/quarterstaff
        aboard: Saltwind
        spells:
          - {name: fireball, damage: "30", range_ft: 2000, ignites: true, uses: 1}
"""
"""A spellcaster with one 30-point fireball, aboard Saltwind (the ship duel's merchant)."""


class FixedDice(random.Random):
    """A stream that always rolls the same fraction."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def fae_scene(red: str, blue: str, *, name: str, rules: str = "{}", rounds: int = 6) -> str:
    """A Fae Domains scenario of two sides, Red and Blue (forces text as for ``fighter``)."""
    return f"""
name: {name}
ruleset: fae
rules: {rules}
sides:
  - name: Red
    forces:{red}
  - name: Blue
    forces:{blue}
stop: {{max_rounds: {rounds}}}
"""


def fae_battles(
    red: str, blue: str, seeds: range, *, rules: str = "{}", rounds: int = 6
) -> Iterator[FaeBattle]:
    """The Fae scene of ``red`` against ``blue`` (forces text), played to its end on each
    of ``seeds`` in turn."""
    scenario = load(fae_scene(red, blue, name="fae test", rules=rules, rounds=rounds))
    for seed in seeds:
        battle = build_battle(scenario, seed=seed)
        assert isinstance(battle, FaeBattle)
        battle.run_to_end()
        yield battle


def fix_reactions(monkeypatch: pytest.MonkeyPatch, margins: dict[str, int | None]) -> None:
    """Replace each Fae fighter's Reaction margin by ``margins[name]`` (None = a botch),
    after the real roll is made and logged as usual."""
    real = FaeCharacter.reaction_test

    def fixed(self: FaeCharacter, arena: object) -> int | None:
        real(self, arena)  # type: ignore[arg-type]
        self.margin = margins[self.name]
        return self.margin

    monkeypatch.setattr(FaeCharacter, "reaction_test", fixed)


class Script(random.Random):
    """A stream that returns the given fractions in order, then a seeded stream's."""

    def __init__(self, *values: float) -> None:
        super().__init__(7)
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0) if self.values else super().random()


def dice(total: int) -> float:
    """The fraction a stream returns for a 4dF roll of ``total`` (see ``Script``)."""
    from fadad_agents.rules.core.dice import TABLE_4DF

    return (TABLE_4DF.index(total) + 0.5) / 81


def option_choices(
    model: type[BaseModel], prefix: str = "", skip: Collection[str] = ()
) -> dict[str, tuple[tuple[Any, ...], Any]]:
    """Each rules option of ``model`` with a choice of values (its literals and switches;
    the numbers are left out), with its default, keyed as a scenario's ``rules`` keys it
    (``prefix`` before the names), the options of its sections included but those named in
    ``skip``. Read from the options' models: an option added later is found too."""
    out: dict[str, tuple[tuple[Any, ...], Any]] = {}
    for name, field in model.model_fields.items():
        kind, key = field.annotation, f"{prefix}{name}"
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            if name not in skip:
                out.update(option_choices(kind, f"{key}.", skip))
        elif typing.get_origin(kind) is typing.Literal:
            out[key] = typing.get_args(kind), field.default
        elif kind is bool:
            out[key] = (True, False), field.default
    return out


NOT_PERSONAL = ("ship", "fire", "sj", "fae", "mass")
"""The sections of the rules options for other kinds of battle than a personal fight."""


def personal_options(*apart: str) -> dict[str, tuple[Any, ...]]:
    """Each personal rules option with a choice of values (:func:`option_choices`) and its
    values other than its default, as a scenario writes them (switches ``true``/``false``);
    not the options named in ``apart``, which a test draws on its own."""
    return {
        key: tuple(str(v).lower() if isinstance(v, bool) else v for v in values if v != default)
        for key, (values, default) in option_choices(RulesOptions, skip=NOT_PERSONAL).items()
        if key not in apart
    }


def played_order(seeds: Sequence[int], *, other_heap: bool = False) -> Iterator[int]:
    """``seeds`` in order; with ``other_heap``, last first, other objects made (and held
    till the last) before each, so that what a battle builds lies elsewhere in memory than
    in a process that plays them in order."""
    if not other_heap:
        yield from seeds
        return
    held: list[list[object]] = []
    for seed in reversed(seeds):
        held.append([object() for _ in range(1 + 997 * seed % 3001)])
        yield seed


@pytest.fixture
def python_melee(monkeypatch: pytest.MonkeyPatch) -> None:
    """Battles played round by round in Python, never whole by the compiled plain melee
    (``engine.personal.melee.MELEE_COMPILED`` off): for the tests that compare Python's own
    shortcuts on a map (crowds, searches, declares), which the compiled melee would skip
    by playing such a battle whole (its own comparison: ``tests/engine/personal/
    test_compiled_ground.py``)."""
    from fadad_agents.engine.personal import melee

    monkeypatch.setattr(melee, "MELEE_COMPILED", False)


@pytest.fixture(autouse=True)
def _set_ups_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's battles set up afresh by the compiled melee (``melee._TEMPLATES`` empty
    as it begins): none shares a set-up with another test's, whatever they patched."""
    from collections import OrderedDict

    from fadad_agents.engine.personal import melee

    monkeypatch.setattr(melee, "_TEMPLATES", OrderedDict())
