"""How a blow is recorded on the wound track at battle level (wounds-and-healing.md 6.2,
6.3; A-24, A-25): the same seeded fights played under each recording option, every blow
landing where its rule says."""

from __future__ import annotations

from collections import Counter

from fadad_agents.engine import build_battle, load
from tests.engine.conftest import duel_yaml, fighter

GRAZING = "wound_model: fudge_numeric, fadad.crit_effects: none"
"""Numeric damage without a roll: Bob's broadsword against a coat of plates is a factor of
0, so his margins of 1 and 2 are Scratches (a graze, and damage 2)."""


def scratched(marks: str, rules: str = "") -> list[str]:
    """Ann's state after Bob's first landed blow, when it is a Scratch ("" when her level
    stays), over twelve seeded duels in which she starts with ``marks`` on her track."""
    ann = fighter("Ann", extra=f"        wounds: [{marks}]\n").replace(
        "heavy-leather", "coat-of-plates"
    )
    text = duel_yaml(ann, fighter("Bob", skill="Great"), rules=GRAZING + rules)
    scenario = load(text)
    after = []
    for seed in range(1, 13):
        battle = build_battle(scenario, seed=seed)
        battle.run_to_end()
        landed = [line for line in battle.log.lines() if "Bob's swing" in line and "hit by" in line]
        if landed and ": Scratch" in landed[0]:
            now = landed[0].rstrip(".").rpartition(", now ")
            after.append(now[2] if now[1] else "")
    return after


def test_a_scratch_cap_keeps_scratches_below_incapacitated() -> None:
    """``scratch_cap`` (section 6.3, EX-WND-09): Ann's Scratch, Hurt and Very Hurt boxes
    are full, so a Scratch overflows to Incapacitated; with the cap it leaves her Very
    Hurt, and she fights on."""
    full = "Scratch, Scratch, Scratch, Hurt, Very Hurt"
    plain = scratched(full)
    assert plain
    assert set(plain) == {"Incapacitated"}
    capped = scratched(full, ", scratch_cap: true")
    assert len(capped) == len(plain)
    assert set(capped) == {"Very Hurt"}


def test_the_wound_track_option_sets_the_boxes() -> None:
    """``wound_track`` (section 6.2, A-25): with three Scratches marked, Ann's next
    Scratch makes her Hurt on the standard track (3 Scratch boxes) and stays a Scratch on
    the moderately cinematic one (4)."""
    standard = scratched("Scratch, Scratch, Scratch")
    assert standard
    assert set(standard) == {"Hurt"}
    cinematic = scratched("Scratch, Scratch, Scratch", ", wound_track: moderately_cinematic")
    assert set(cinematic) == {""}


GANG = fighter("Ann", skill="Great", extra="        count: 3\n        strength: Great\n").replace(
    "weapons/broadsword", "weapons/greatsword"
)
"""Three strong greatswords, all as quick as Bob: with static initiative everyone acts in
the same simultaneous turn, so their blows of a round all land on Bob's track."""


def bobs_end(rules: str = "") -> Counter[str]:
    """Bob's final state over twelve seeded fights against the gang."""
    bob = fighter("Bob", skill="Fair").replace("heavy-leather", "none")
    text = duel_yaml(GANG, bob, rules="fadad.initiative: static, fadad.crit_effects: none" + rules)
    scenario = load(text)
    ends: Counter[str] = Counter()
    for seed in range(1, 13):
        battle = build_battle(scenario, seed=seed)
        battle.run_to_end()
        ends[battle.sides[1].members[0].track.level.label] += 1
    return ends


def test_overflow_past_near_death_kills_or_is_absorbed() -> None:
    """``overflow_past_near_death`` (A-24, section 6.3): when a second blow of the same
    turn finds Bob's Near Death box full, it kills him (``dead``); with
    ``stay_near_death`` he stays Near Death (no blow here can be Dead by itself)."""
    dead = bobs_end()
    assert dead["Dead"] > 0
    assert bobs_end(", overflow_past_near_death: stay_near_death") == Counter({"Near Death": 12})
