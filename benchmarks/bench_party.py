"""Fights at the table (issue 19): the odds a game master asks for mid-session.

Four player characters (Ité points, the PC-death options on) against five orcs who break
at half losses, all in one melee (and again under Min-Mid-Max wounds with weapon groups),
and the shipped duel of Snorri and Brynhild (two player characters a yard apart, each
targeting the nearest), through a serial ``sweep``: in
Python, and with numba loaded, where the compiled melee plays each battle whole
(:mod:`~fadad_agents.engine.personal`), the same battles either way. No target: they show
what the compiled melee gives fights with player characters, morale and targets of their
choosing (the 5 v 5 of :mod:`~benchmarks.bench_paths` has none). Each in a process of its
own; CPU time, the best of passes of the same replicates.

Run with ``python -m benchmarks party``.
"""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks.harness import ROOT, Row, quick
from fadad_agents.agents.core.field import compiled
from fadad_agents.analysis import sweep
from fadad_agents.engine import load
from fadad_agents.engine.personal import melee

__all__ = ["BENCHMARKS", "FUDGE_PARTY", "PARTY"]

PARTY = """
name: the party against the orcs
rules: {fadad.initiative: rolled, pc_death.max_three_levels: true}
sides:
  - name: Party
    forces:
      - {name: Ser Aldric, player: true, ite_points: 2, reaction_speed: Good,
         skills: {Sword: Great, Shield: Good}, attack_skill: Sword, weapon: weapons/broadsword,
         armour: armour/chain-mail, shield: shields/medium}
      - {name: Mirelle, player: true, ite_points: 2, reaction_speed: Great,
         skills: {Dagger: Good, Dodge: Great}, attack_skill: Dagger, weapon: weapons/dagger,
         armour: armour/leather}
      - {name: Brother Oswin, player: true, ite_points: 2, reaction_speed: Fair,
         skills: {Mace: Good, Shield: Fair}, attack_skill: Mace, weapon: weapons/mace,
         armour: armour/scale-mail, shield: shields/small}
      - {name: Tamsin, player: true, ite_points: 1, reaction_speed: Good,
         skills: {Spear: Good, Dodge: Fair}, attack_skill: Spear,
         weapon: weapons/spear-two-handed, armour: armour/heavy-leather,
         policies: {ite_points: save_from_death_only}}
  - name: Orcs
    policies: {morale: {name: break_at_losses, params: {fraction: 0.5}}}
    forces:
      - {name: Orc, model: creatures/orc, count: 5, reaction_speed: Fair,
         skills: {Axe: Fair, Dodge: Mediocre}, attack_skill: Axe, weapon: weapons/axe,
         armour: armour/heavy-leather, traits: {Morale: Fair}}
stop: {max_rounds: 100}
"""


DUEL = ROOT / "scenarios" / "snorri-vs-brynhild.yaml"
"""The shipped personal duel (personal-combat.md EX-PC-01 .. 05)."""


def _rate(runs: int, source: str | Path = PARTY) -> float:
    """Battles a CPU-second through a serial sweep of ``runs`` of ``source`` (the party's
    fight unless told; the best of passes of the same replicates, after a warm-up)."""
    scenario = load(source)
    sweep(scenario, 50, 1, progress=False)  # warm-up: set-up, caches, compiled code read
    best = float("inf")
    for _ in range(quick(3, 1)):
        start = time.process_time()
        sweep(scenario, runs, 0, progress=False)
        best = min(best, time.process_time() - start)
    return runs / best


def bench_party_python() -> list[Row]:
    """The party's odds in Python (the compiled melee off)."""
    melee.MELEE_COMPILED = False
    return [Row("party v orcs sweep, Python", _rate(quick(1000, 300)), "battles/s")]


def bench_party_compiled() -> list[Row]:
    """The party's odds with numba loaded: each battle played whole in compiled code."""
    compiled.load()
    return [Row("party v orcs sweep, compiled melee", _rate(quick(1000, 300)), "battles/s")]


def bench_duel_python() -> list[Row]:
    """The shipped duel's odds in Python (the compiled melee off)."""
    melee.MELEE_COMPILED = False
    return [Row("Snorri v Brynhild sweep, Python", _rate(quick(2000, 500), DUEL), "battles/s")]


def bench_duel_compiled() -> list[Row]:
    """The shipped duel's odds with numba loaded: each duel played whole in compiled code."""
    compiled.load()
    rate = _rate(quick(2000, 500), DUEL)
    return [Row("Snorri v Brynhild sweep, compiled melee", rate, "battles/s")]


FUDGE_PARTY = PARTY.replace(
    "rules: {", "rules: {wound_model: fudge_minmidmax, fudge.weapon_groups: true, "
)
"""The party's fight under Anna's FUDGE options: Min-Mid-Max wounds (3d6 read by the
damage factor) and weapon and armour groups (as many replicates as the party's: with 300,
the compiled row read 1,738 and 2,566 in two runs)."""


def bench_fudge_python() -> list[Row]:
    """The party's odds under FUDGE wounds in Python (the compiled melee off)."""
    melee.MELEE_COMPILED = False
    rate = _rate(quick(1000, 300), FUDGE_PARTY)
    return [Row("party v orcs, Min-Mid-Max, Python", rate, "battles/s")]


def bench_fudge_compiled() -> list[Row]:
    """The party's odds under FUDGE wounds, each battle played whole in compiled code."""
    compiled.load()
    rate = _rate(quick(1000, 300), FUDGE_PARTY)
    return [Row("party v orcs, Min-Mid-Max, compiled melee", rate, "battles/s")]


BENCHMARKS = [
    bench_party_python, bench_party_compiled, bench_duel_python, bench_duel_compiled,
    bench_fudge_python, bench_fudge_compiled,
]  # fmt: skip
