"""How a blow is recorded on the wound track at battle level (wounds-and-healing.md 6.2,
6.3; A-24, A-25): the same seeded fights played under each recording option, every blow
landing where its rule says."""

from __future__ import annotations

from collections import Counter

import pytest

from fadad_agents.campaign import play_for_state
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core.report import healing_lines
from fadad_agents.schema import ScenarioError
from tests.engine.conftest import Script, dice, duel_yaml, fighter

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


DC = ", wound_track: dc_attribute"
TOUGH_BOB = fighter("Bob", extra="        damage_capacity: Good\n")
"""Bob of Good Damage Capacity (+1), against Ann's Fair."""

LADDER = ["Terrible-1", "Terrible", "Poor", "Mediocre", "Fair", "Good", "Great"]


def test_on_the_damage_capacity_track_each_blow_costs_a_level() -> None:
    """``wound_track: dc_attribute`` (section 6.4): every blow worse than a Scratch lowers
    the victim's Damage Capacity one level whatever its severity, every third Scratch one
    level; Mediocre is Hurt, Poor and Terrible Very Hurt, below Terrible out of the fight;
    each blow is narrated with the DC it leaves, and a fighter is out only below Terrible."""
    text = duel_yaml(
        fighter("Ann", skill="Great"), TOUGH_BOB, rules="fadad.crit_effects: none" + DC
    )
    scenario = load(text)
    levels = {"Mediocre": "Hurt", "Poor": "Very Hurt", "Terrible": "Very Hurt"}
    checked = 0
    for seed in range(1, 7):
        battle = build_battle(scenario, seed=seed)
        battle.run_to_end()
        dc = {"Ann": "Fair", "Bob": "Good"}
        scratches = {"Ann": 0, "Bob": 0}
        for event in battle.log.of("attack"):
            o = dict(event.outcome)
            if not o["hit"] or o["wound"] == "Undamaged":
                continue
            victim = event.target
            lost = 1 if o["wound"] != "Scratch" else 0
            if not lost:
                scratches[victim] += 1
                lost, scratches[victim] = divmod(scratches[victim], 3)
            dc[victim] = LADDER[max(LADDER.index(dc[victim]) - lost, 0)]
            assert o["dc"].startswith(f"{dc[victim]} (")  # narrated: "<DC> (<level>)"
            if dc[victim] in levels:
                assert o["dc"] == f"{dc[victim]} ({levels[dc[victim]]})"
            checked += 1
        out = [e.actor for e in battle.log.of("out")]
        for name in out:
            assert LADDER.index(dc[name]) == 0  # below Terrible: Incapacitated
    assert checked > 10


def first_blow_on_bob(rules: str) -> dict[str, object]:
    """Ann's first swing at Bob (she acts first): Great +2 against Good 0, a margin of 3,
    and a damage roll of 0."""
    ann = fighter("Ann", skill="Great", extra="        reaction_speed: Great\n")
    text = duel_yaml(ann, TOUGH_BOB, rules="fadad.initiative: static, " + rules)
    battle = build_battle(load(text), seed=1)
    battle.sides[0].members[0].rng = Script(dice(2), dice(0), dice(0))
    battle.play_round()
    return dict(next(e for e in battle.log.of("attack") if e.actor == "Ann").outcome)


def test_on_the_damage_capacity_track_it_is_no_damage_factor() -> None:
    """Section 6.4: with Damage Capacity as the track it no longer soaks a blow: Ann's
    same swing at Bob (Good DC, +1) does one more damage, and is recorded as his DC
    dropping to Fair, no penalty yet, instead of a Hurt box."""
    standard = first_blow_on_bob("fadad.crit_effects: none")
    on_dc = first_blow_on_bob("fadad.crit_effects: none" + DC)
    assert on_dc["damage"] == standard["damage"] + 1
    assert standard["wound"] == on_dc["wound"] == "Hurt"
    assert on_dc["dc"] == "Fair (Scratch)"
    assert "dc" not in standard


def test_what_the_damage_capacity_track_cannot_hold_is_refused() -> None:
    """Crews and units keep wound boxes, and a DC track has no boxes to mark: a file
    asking for either is refused in one line naming the force."""
    crew = """
      - {kind: crew, name: Deckhands, count: 5, skill: Fair}"""
    with pytest.raises(ScenarioError) as info:
        load(duel_yaml(fighter("Ann"), crew, rules="wound_track: dc_attribute"))
    (problem,) = info.value.problems
    assert problem.endswith(
        "sides[1].forces[0]: the crew 'Deckhands' keeps wound boxes: wound_track dc_attribute "
        "(wounds-and-healing.md 6.4) is a character's; set it on each character's wound_track "
        "instead of in rules"
    )
    hurt = fighter("Ann", extra="        wound_track: dc_attribute\n        wounds: [Hurt]\n")
    with pytest.raises(ScenarioError) as info:
        load(duel_yaml(hurt, fighter("Bob")))
    (problem,) = info.value.problems
    assert "'Ann' records wounds on its Damage Capacity" in problem


def test_a_lost_dc_level_heals_as_a_hurt_and_no_aftermath_carries_it() -> None:
    """PROPOSED healing of the DC track (sections 6.4, 13.2): the DC climbs back one level
    per FADAD interval (14 days), so the healing bill counts the levels lost; a campaign
    aftermath, which writes box marks, refuses it in one line."""
    text = duel_yaml(fighter("Ann", skill="Great"), TOUGH_BOB, rules="wound_track: dc_attribute")
    scenario = load(text)
    battle = build_battle(scenario, seed=1)
    battle.run_to_end()
    ann = battle.sides[0].members[0].track
    lost = ann.undamaged - ann.current
    assert lost >= 1
    assert f"Ann {14 * lost} days" in healing_lines(battle)[0]
    with pytest.raises(ScenarioError, match="an aftermath cannot carry"):
        play_for_state(scenario, 1)
