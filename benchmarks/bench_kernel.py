"""Kernel benchmark (issue 2): one opposed attack plus wound resolution, per second.

``kernel`` is :func:`fadad_agents.rules.personal.combat.resolve_attack` on Snorri vs Brynhild
(EX-PC-01 stats), recording the wound on a fresh standard track. ``hand loop`` is the
least a program can do for the same fight: two 4dF table draws, the comparison with the
defender's Target, a 4dF damage roll with the FADAD negative cap, the threshold lookup and
one box fill, all inline. Their ratio is the price of the kernel's generality (options,
crits, every wound model, frozen results for the log).

``exact duel`` is one exact solve of a duel's odds (issue 15: under 1 s for 30 rounds):
without crit effects, with every crit effect, and the shipped Snorri-Brynhild duel
(non-lethal crit effects, static initiative).

Run with ``python -m benchmarks kernel``.
"""

from __future__ import annotations

import random
import time

from benchmarks.harness import ROOT, Row, best_cpu
from fadad_agents.rules.core.dice import TABLE_4DF
from fadad_agents.rules.core.wounds import new_track
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal.combat import CombatRules, Fighter, resolve_attack

__all__ = ["BENCHMARKS"]

N = 200_000
SNORRI = Fighter("Snorri", attack=2, defence=2, odm=5, ddm=3, armour=2)
BRYNHILD = Fighter("Brynhild", attack=1, defence=1, odm=5, ddm=2, shield="medium", armour=2)


def _kernel(n: int) -> float:
    rules = CombatRules.from_options(RulesOptions())
    rng = random.Random(1)
    track = new_track()
    start = time.perf_counter()
    for _ in range(n):
        resolve_attack(SNORRI, BRYNHILD, track, rng, rules)
    return n / (time.perf_counter() - start)


def _hand_loop(n: int) -> float:
    rng = random.Random(1)
    draw = rng.random
    table = TABLE_4DF
    attack, defence, target, factor = 2, 1, -1, 3
    thresholds = (9, 7, 5, 3, 1)
    start = time.perf_counter()
    for _ in range(n):
        boxes = [0, 0, 0, 0, 0]
        a = attack + table[int(draw() * 81)]
        d = defence + table[int(draw() * 81)]
        rd = a - (d if d > target else target)
        if rd >= 1:
            base = rd + factor
            dmg = base + table[int(draw() * 81)]
            if base < 0 and dmg > 1:
                dmg = 1
            for i, t in enumerate(thresholds):
                if dmg >= t:
                    boxes[4 - i] += 1
                    break
    return n / (time.perf_counter() - start)


def bench_attack() -> list[Row]:
    """Opposed attack plus wound, kernel against a hand-written loop (best of 3)."""
    kernel = max(_kernel(N) for _ in range(3))
    hand = max(_hand_loop(N) for _ in range(3))
    return [
        Row("kernel: resolve_attack + wound", kernel, "attacks/s"),
        Row("kernel: hand-written loop, same dice", hand, "attacks/s"),
        Row("kernel: cost over the hand loop", hand / kernel, "x"),
        Row("kernel: one resolve_attack", 1e6 / kernel, "us"),
    ]


DUEL = """
name: exact duel
rules: {fadad.crit_effects: none}
sides:
  - name: Red
    forces:
      - {name: Ann, skills: {Sword: Good}, attack_skill: Sword, weapon: weapons/broadsword,
         armour: armour/heavy-leather}
  - name: Blue
    forces:
      - {name: Bob, skills: {Sword: Good}, attack_skill: Sword, weapon: weapons/broadsword,
         armour: armour/heavy-leather}
stop: {max_rounds: 30}
"""
"""Two Good swordsmen in heavy leather, rolled initiative, crits without effects."""


def bench_exact_duel() -> list[Row]:
    """One exact duel solve (fadad_agents.analysis.exact) to a 30-round limit, CPU time
    (best of 3, the scenario already loaded; nothing is cached from one solve to the
    next)."""
    from fadad_agents.analysis.exact import duel_odds
    from fadad_agents.engine import load

    rows = []
    for name, scenario in (
        ("exact duel odds, 30 rounds, one solve", load(DUEL)),
        (
            "exact duel odds, 30 rounds, crit effects on, one solve",
            load(DUEL.replace("crit_effects: none", "crit_effects: random")),
        ),
        (
            "exact duel odds, snorri-vs-brynhild, one solve",
            load(ROOT / "scenarios" / "snorri-vs-brynhild.yaml"),
        ),
    ):
        seconds = best_cpu(lambda scenario=scenario: duel_odds(scenario), 3)
        rows.append(Row(name, seconds, "s", "< 1", seconds < 1))
    return rows


BENCHMARKS = [bench_attack, bench_exact_duel]
