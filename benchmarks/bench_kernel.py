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

``5v5 swing`` is the engine's own call of the 5 v 5 melee benchmark (issue 19): Good
swordsmen in heavy leather, no shields, a wound penalty on the defender, on the tracks a
fight passes through; ``rolled initiative`` is one band's initiative roll. Every figure is
this process's CPU time (best of N), so others' load on a shared machine does not count.

Run with ``python -m benchmarks kernel``.
"""

from __future__ import annotations

import random
import time

from benchmarks.harness import ROOT, Row, best_cpu
from fadad_agents.rules.core.actions import roll_initiative
from fadad_agents.rules.core.dice import TABLE_4DF
from fadad_agents.rules.core.wounds import Wound, new_track, record
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal.combat import CombatRules, Fighter, resolve_attack

__all__ = ["BENCHMARKS"]

N = 200_000
SNORRI = Fighter("Snorri", attack=2, defence=2, odm=5, ddm=3, armour=2)
BRYNHILD = Fighter("Brynhild", attack=1, defence=1, odm=5, ddm=2, shield="medium", armour=2)


SWORDSMAN = Fighter("Red0", attack=1, defence=1, odm=3, ddm=2, armour=2, weapon_group=2)
"""A fighter of the 5 v 5 benchmark (``bench_engine._melee_yaml``): Sword Good, broadsword,
heavy leather, no shield."""


def _kernel(n: int) -> float:
    rules = CombatRules.from_options(RulesOptions())
    rng = random.Random(1)
    track = new_track()
    start = time.process_time()
    for _ in range(n):
        resolve_attack(SNORRI, BRYNHILD, track, rng, rules)
    return n / (time.process_time() - start)


def _swing_5v5(n: int) -> float:
    """Seconds of CPU per swing of one swordsman at another, as the engine calls it."""
    rules = CombatRules.from_options(RulesOptions())
    rng = random.Random(1)
    fresh = new_track()
    tracks = (fresh, record(fresh, Wound.SCRATCH), record(fresh, Wound.HURT), fresh)
    start = time.process_time()
    for _ in range(n // len(tracks)):
        for track in tracks:
            resolve_attack(
                SWORDSMAN, SWORDSMAN, track, rng, rules, attacker_penalty=0,
                defender_penalty=-1, defended=True, modifier=0, shield_rank=1, target_bonus=0,
            )  # fmt: skip
    return (time.process_time() - start) / n


def _initiative(n: int) -> float:
    """Seconds of CPU per rolled initiative."""
    rng = random.Random(1)
    start = time.process_time()
    for _ in range(n):
        roll_initiative(0, rng, "rolled")
    return (time.process_time() - start) / n


def _hand_loop(n: int) -> float:
    rng = random.Random(1)
    draw = rng.random
    table = TABLE_4DF
    attack, defence, target, factor = 2, 1, -1, 3
    thresholds = (9, 7, 5, 3, 1)
    start = time.process_time()
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
    return n / (time.process_time() - start)


def bench_attack() -> list[Row]:
    """Opposed attack plus wound, kernel against a hand-written loop; one 5 v 5 swing and
    one initiative roll (CPU time, best of 3)."""
    kernel = max(_kernel(N) for _ in range(3))
    hand = max(_hand_loop(N) for _ in range(3))
    swing = min(_swing_5v5(N) for _ in range(3))
    initiative = min(_initiative(N) for _ in range(3))
    return [
        Row("kernel: resolve_attack + wound", kernel, "attacks/s"),
        Row("kernel: hand-written loop, same dice", hand, "attacks/s"),
        Row("kernel: cost over the hand loop", hand / kernel, "x"),
        Row("kernel: one resolve_attack", 1e6 / kernel, "us"),
        Row("kernel: one 5v5 swing (resolve_attack, the engine's call)", 1e6 * swing, "us"),
        Row("kernel: one rolled initiative", 1e6 * initiative, "us"),
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
