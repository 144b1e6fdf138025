"""Fleets drawn at random play the same battle with every remembered answer or none, and
in another process.

``test_remembered_answers`` checks the ship engine's caches and memos on the shipped
ship scenarios; here on ship battles drawn from a seed: two sides (or three) of one to
three ships of every model in ``models/ships`` (the space wyrm among them), crews and
named characters (player characters or not) aboard, random helm and crew skills,
positions, facings and speeds, random ship policies (maneuver, targeting, reload,
firefighting, boarding, colours, evasion, pursuit), and each ``ship``, ``fire`` and
``sj`` rules option with a choice of values (read from the options' models: an option
added later is drawn too) set at random.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from fadad_agents.engine import build_battle, load, run
from fadad_agents.policies.ships.registry import SHIP_KINDS, SHIP_REGISTRY
from fadad_agents.rules.ships.options import FireOptions, ShipOptions, SjOptions
from tests.engine.conftest import option_choices, played_order
from tests.engine.ships.test_remembered_answers import _forget

ROOT = Path(__file__).resolve().parents[3]
SHIPS = {
    path.stem: yaml.safe_load(path.read_text()) for path in (ROOT / "models/ships").glob("*.yaml")
}
CREWS = sorted(path.stem for path in (ROOT / "models/crews").glob("*.yaml"))
LADDER = ("Poor", "Mediocre", "Fair", "Good", "Great", "Superb")
SEEDS = range(24)


OPTIONS = {
    key: values
    for section, model in (("ship", ShipOptions), ("fire", FireOptions), ("sj", SjOptions))
    for key, (values, _) in option_choices(model, f"{section}.").items()
}
POLICIES = {
    kind: [name for name in SHIP_REGISTRY.names(kind) if name != "land"]  # land: a site
    for kind in SHIP_KINDS
}


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def random_fleets(seed: int) -> str:
    """A ship battle drawn from ``seed``."""
    rng = random.Random(seed)
    rules = [f"{k}: {_text(rng.choice(v))}" for k, v in OPTIONS.items() if rng.random() < 0.15]
    radius = rng.choice((12, 20, 30))
    lines = [
        f"name: random fleets {seed}",
        "rules: {" + ", ".join(rules) + "}",
        f"map: {{kind: hex, radius: {radius}, hex_yards: 50}}",
        "sides:",
    ]
    ships = 0
    for s in range(3 if rng.random() < 0.15 else 2):
        lines.append(f"  - name: Side {s}")
        chosen = {k: rng.choice(v) for k, v in POLICIES.items() if rng.random() < 0.6}
        if rng.random() < 0.5:  # half the sides close in (else rams and shears are rare)
            chosen["maneuver"] = rng.choice(("close_and_ram", "close_and_board", "shear"))
        if chosen:
            named = ", ".join(f"{k}: {{name: {v}}}" for k, v in chosen.items())
            lines.append(f"    policies: {{{named}}}")
        lines.append("    forces:")
        for _ in range(rng.choice((1, 1, 2, 3))):
            ships += 1
            model = rng.choice(sorted(SHIPS))
            spec, name = SHIPS[model], f"Ship{ships}"
            half = radius // 2
            lines += [
                f"      - name: {name}",
                f"        model: ships/{model}",
                f"        helm_skill: {rng.choice(LADDER)}",
                f"        crew_skill: {rng.choice(LADDER)}",
                f"        position: [{rng.randint(-half, half)}, {rng.randint(-half, half)}]",
                f"        facing: {rng.randint(0, 5)}",
                f"        speed: {rng.randint(0, min(2, spec.get('sr') or 0))}",
            ]
            room = int(spec.get("max_crew") or 0) - 1  # one place for a hero
            if room <= 0:  # a creature fighting as a ship: nobody aboard
                continue
            crews = rng.choice((1, 1, 2))
            for c in range(crews):
                count = rng.randint(max(1, room // (3 * crews)), max(1, room // crews))
                lines += [
                    f"      - name: {name} crew {c}",
                    f"        model: crews/{rng.choice(CREWS)}",
                    f"        count: {count}",
                    f"        aboard: {name}",
                ]
            if rng.random() < 0.4:
                lines += [
                    f"      - name: {name} hero",
                    "        model: creatures/human",
                    f"        player: {_text(rng.random() < 0.5)}",
                    f"        skills: {{Helm: {rng.choice(LADDER)}, Sword: {rng.choice(LADDER)}}}",
                    "        attack_skill: Sword",
                    "        weapon: weapons/broadsword",
                    "        armour: armour/leather",
                    f"        aboard: {name}",
                ]
    rounds = rng.choice((20, 60, 150))
    lines.append(f"stop: {{max_rounds: {rounds}, when_side: [destroyed, surrendered]}}")
    return "\n".join(lines) + "\n"


def _log(seed: int) -> Any:
    """The log of the battle of ``seed``, built and played to its end."""
    battle = build_battle(load(random_fleets(seed)), seed, collect=False)
    battle.run_to_end()
    return battle.log


def _played(seed: int) -> tuple[str, list[Any]]:
    log = _log(seed)
    return log.text(), [tuple(e) for e in log]


def test_random_fleets_play_the_same_with_every_remembered_answer_or_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    remembered = {seed: _played(seed) for seed in SEEDS}
    _forget(monkeypatch)
    for seed, played in remembered.items():
        assert _played(seed) == played, f"seed {seed}: {random_fleets(seed)}"


def test_random_fleets_fight_in_every_way_a_ship_fights() -> None:
    """The draws are worth comparing: ships move, fire, ram, shear, grapple and board,
    crews fight on deck, check morale and strike, ships burn, break up and escape."""
    actions = {event.action for seed in SEEDS for event in _log(seed)}
    wanted = {
        "maneuver", "gunnery", "ram", "shear", "grapple", "board", "deck_fight", "attack",
        "ship_morale", "surrender", "fire", "crit", "break_up", "escape", "repair",
    }  # fmt: skip
    assert wanted <= actions, sorted(wanted - actions)


FLEETS = (
    "import sys; from tests.engine.ships.test_random_fleets import _logs; "
    "print(*_logs([int(s) for s in sys.argv[1:]], other_heap=True))"
)


def _logs(seeds: list[int], *, other_heap: bool = False) -> list[str]:
    """The sha256 of each seed's battle through ``run`` (a battle recycled from the seed
    before), and of the next seed's built afresh; with ``other_heap``, last seed first,
    other objects made between battles."""
    logs = {}
    for seed in played_order(seeds, other_heap=other_heap):
        scenario = load(random_fleets(seed))
        text = run(scenario, seed=seed).log.to_jsonl()
        text += build_battle(scenario, seed + 1, collect=False).run_to_end().log.to_jsonl()
        logs[seed] = hashlib.sha256(text.encode()).hexdigest()
    return [logs[seed] for seed in seeds]


def test_random_fleets_play_the_same_battles_in_another_process() -> None:
    """Another hash seed, the battles in the other order, memory laid out otherwise."""
    seeds = list(SEEDS[:12])
    out = subprocess.run(
        [sys.executable, "-c", FLEETS, *map(str, seeds)],
        cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": "4242"},
        capture_output=True, check=True, timeout=300, text=True,
    )  # fmt: skip
    here = _logs(seeds)
    assert out.stdout.split() == here
    assert len(set(here)) == len(seeds)
