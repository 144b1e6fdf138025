"""The wound options at battle level (wounds-and-healing.md 5, 7, 9; C-10, A-21, A-22,
A-28, A-30): the same seeded duels played under each, every landed blow's damage read as
its rule says."""

from __future__ import annotations

from fadad_agents.engine import build_battle, load
from tests.engine.conftest import duel_yaml, fighter

NUMERIC = "wound_model: fudge_numeric"
MINMIDMAX = "wound_model: fudge_minmidmax"
FREEFORM = "wound_model: fudge_freeform"


def hits(
    rules: str = "", a: str = "", b: str = "", seeds: range = range(1, 4), rounds: int = 4
) -> list[tuple[str, int, int, str]]:
    """(attacker, RD, damage, wound) of every landed blow in seeded duels of ``a`` against
    ``b`` (default a Great against a Good swordsman: broadswords against heavy leather on
    both sides, each one's ODF - DDF +1), crits without effects."""
    text = duel_yaml(
        a or fighter("Ann", skill="Great"),
        b or fighter("Bob"),
        rules="fadad.crit_effects: none" + (f", {rules}" if rules else ""),
        stop=f"max_rounds: {rounds}",
    )
    scenario = load(text)
    found = []
    for seed in seeds:
        battle = build_battle(scenario, seed=seed)
        while not battle.finished:
            battle.play_round()
        for event in battle.log.of("attack"):
            o = dict(event.outcome)
            if o["hit"]:
                found.append((event.actor, o["rd"], o["damage"], o["wound"]))
    return found


def blows(rules: str = "") -> list[tuple[int, int, str]]:
    """(RD, damage, wound) of every landed blow in three seeded duels of the default pair."""
    return [(rd, damage, wound) for _, rd, damage, wound in hits(rules)]


def test_fudge_numeric_damage_is_the_margin_plus_the_factors_without_a_roll() -> None:
    """``wound_model: fudge_numeric`` (section 5): damage = RD + ODF - DDF, no damage roll,
    and an RD-1 hit is a graze; under ``fadad`` a 4dF roll moves the damage."""
    numeric = blows(NUMERIC)
    solid = [(rd, dmg) for rd, dmg, _ in numeric if rd > 1]
    assert solid
    assert all(dmg == rd + 1 for rd, dmg in solid)
    assert any(rd == 1 and (dmg, wound) == (0, "Scratch") for rd, dmg, wound in numeric)
    fadad = blows()
    assert len({dmg - rd for rd, dmg, _ in fadad if rd > 1}) > 1


def test_doubled_rd_doubles_the_margin_in_the_damage() -> None:
    """``fudge.double_rd`` (A-21): damage = 2 x RD + ODF - DDF."""
    solid = [(rd, dmg) for rd, dmg, _ in blows(NUMERIC + ", fudge.double_rd: true") if rd > 1]
    assert solid
    assert all(dmg == 2 * rd + 1 for rd, dmg in solid)


def test_without_the_graze_rule_an_rd_one_hit_is_read_as_damage() -> None:
    """``fudge.graze: false``: a hit by RD 1 is damage RD + ODF - DDF like any other, not a
    graze read on the graze table."""
    grazes = [dmg for rd, dmg, _ in blows(NUMERIC + ", fudge.graze: false") if rd == 1]
    assert grazes
    assert all(dmg == 2 for dmg in grazes)


def test_a_damage_roll_moves_the_fudge_damage() -> None:
    """``fudge.damage_roll: 4dF_unlimited`` (C-10, section 7): a 4dF roll is added to the
    calculated damage, so blows of the same RD do different damage."""
    rolled = blows(NUMERIC + ", fudge.damage_roll: 4dF_unlimited")
    assert len({dmg - rd for rd, dmg, _ in rolled if rd > 1}) > 1


WEAK_KNIFE = fighter("Ann", skill="Superb", extra="        strength: Poor\n").replace(
    "weapons/broadsword", "weapons/knife"
)
"""A Superb knife fighter of Poor Strength: offensive factor -2 + 1 = -1."""
PLATED = fighter("Bob", skill="Poor", extra="        damage_capacity: Good\n").replace(
    "heavy-leather", "plate"
)
"""A Poor fighter of Good Damage Capacity in plate: defensive factor 1 + 4 = 5."""


def test_minus_two_for_a_hopeless_factor_needs_a_better_margin_to_wound() -> None:
    """``fudge.minmidmax_minus2`` (section 9): the knife's total factor is -6, so its die
    bonus is -1, or -2 with the option; a margin of 4 or 5 (+1) then reads the Min die
    (always some damage) without the option and nothing with it."""

    def ann_damage_at_four_or_five(rules: str) -> list[int]:
        found = hits(MINMIDMAX + rules, WEAK_KNIFE, PLATED, range(1, 9), 6)
        return [d for who, rd, d, _ in found if who == "Ann" and rd in (4, 5)]

    plain = ann_damage_at_four_or_five("")
    minus2 = ann_damage_at_four_or_five(", fudge.minmidmax_minus2: true")
    assert plain
    assert minus2
    assert all(d >= 1 for d in plain)
    assert set(minus2) == {0}


def test_a_good_situational_roll_adds_levels_to_the_gms_freeform_wound() -> None:
    """``fudge.situational_levels`` (A-30, section 5.3): the hidden 4dF roll's +3/+4
    (4/81 and 1/81) add one or two levels to the GM's wound, never past Near Death;
    without the option each margin gives the one wound the GM judges (here the numeric
    reading without a roll: RD 1 a graze, else RD + 1 on the track). With it, how many
    wounds are raised by one and by two agrees with those chances within 3 standard
    errors."""
    judged = {1: "Scratch", 2: "Hurt", 3: "Hurt", 4: "Very Hurt", 5: "Very Hurt"}
    judged |= {6: "Incapacitated", 7: "Incapacitated", 8: "Near Death", 9: "Near Death"}
    seeds = range(1, 301)
    off = hits(FREEFORM + ", fudge.situational_levels: false", seeds=seeds, rounds=6)
    assert off
    assert all(w == judged[rd] for _, rd, _, w in off)
    on = hits(FREEFORM, seeds=seeds, rounds=6)
    levels = ["Scratch", "Hurt", "Very Hurt", "Incapacitated", "Near Death"]
    room = [len(levels) - 1 - levels.index(judged[rd]) for _, rd, _, _ in on]
    raised = [levels.index(w) - levels.index(judged[rd]) for _, rd, _, w in on]
    assert all(0 <= r <= min(2, left) for r, left in zip(raised, room, strict=True))
    # Each wound's chance of ending one and two levels up, the cap at Near Death included.
    chances = [
        (4 / 81 + (1 / 81 if left == 1 else 0), 1 / 81 if left >= 2 else 0.0)
        for left in room
        if left
    ]
    for by, observed in ((1, raised.count(1)), (2, raised.count(2))):
        p = [c[by - 1] for c in chances]
        expected, variance = sum(p), sum(q * (1 - q) for q in p)
        assert abs(observed - expected) <= 3 * variance**0.5, (by, observed, expected)


def test_scale_advantage_raises_a_graze_by_one_level_per_step() -> None:
    """``fudge.graze_scale_step`` (A-22, section 5.4): Ann (Scale 3) grazes Bob for a
    Scratch when a level needs 5 points of Scale advantage, for a Hurt when it needs 3;
    Bob, at a Scale disadvantage, grazes her for nothing either way."""
    big = fighter("Ann", extra="        scale: 3\n")
    for step, ann_grazes in (("", {"Scratch"}), (", fudge.graze_scale_step: 3", {"Hurt"})):
        grazes = hits(NUMERIC + step, big, fighter("Bob"), range(1, 9), 6)
        assert {w for who, rd, _, w in grazes if who == "Ann" and rd == 1} == ann_grazes
        assert {w for who, rd, _, w in grazes if who == "Bob" and rd == 1} == {"Undamaged"}


STRONG = fighter("Ann", skill="Superb", extra="        strength: Great\n").replace(
    "weapons/broadsword", "weapons/greatsword"
)
"""A Superb greatswordsman of Great Strength: offensive factor 2 + 4 = 6."""
UNARMOURED = fighter("Bob", skill="Poor").replace("heavy-leather", "none")


def minmidmax_reading(rules: str) -> dict[int, set[str]]:
    """The wounds Ann's Min-Mid-Max damage numbers were read as, by damage number."""
    read: dict[int, set[str]] = {}
    for who, rd, damage, wound in hits(MINMIDMAX + rules, STRONG, UNARMOURED, range(1, 25), 6):
        if who == "Ann" and rd > 1:
            read.setdefault(damage, set()).add(wound)
    return read


def test_the_epic_track_incapacitates_at_six() -> None:
    """``fudge.minmidmax_epic`` (A-28, section 9): damage 6 is Very Hurt and 7 or 8
    Incapacitated on the standard track; on the epic track 6 is Incapacitated and 7 and
    more Near Death."""
    standard, epic = minmidmax_reading(""), minmidmax_reading(", fudge.minmidmax_epic: true")
    assert (standard[6], standard[7], standard[8]) == ({"Very Hurt"}, *[{"Incapacitated"}] * 2)
    assert (epic[6], epic[7], epic[8]) == ({"Incapacitated"}, *[{"Near Death"}] * 2)
    assert standard[5] == epic[5] == {"Very Hurt"}


def test_a_result_above_nine_kills_only_with_the_option() -> None:
    """``fudge.minmidmax_kill_above_9`` (section 9): a Min-Mid-Max result above 9 stays
    Near Death, or kills outright with the option; 9 is Near Death either way."""
    plain, kills = minmidmax_reading(""), minmidmax_reading(", fudge.minmidmax_kill_above_9: true")
    above = [d for d in plain if d > 9]
    assert above
    assert all(plain[d] == {"Near Death"} for d in above)
    assert [d for d in kills if d > 9]
    assert all(kills[d] == {"Dead"} for d in kills if d > 9)
    assert plain[9] == kills[9] == {"Near Death"}


def test_a_damage_roll_when_scale_alone_blocks_the_scratch() -> None:
    """``fudge.scale_damage_roll`` (C-10, section 7 Scale note): against a Scale 3 foe
    Ann's margin of 2 calculates to 0 damage (a Scratch but for the Scale); without damage
    rolls that is no damage; with the option a limited 4dF roll may make it a Scratch."""
    giant = fighter("Bob", extra="        scale: 3\n")
    for rules, done in (("", {0}), (", fudge.scale_damage_roll: true", {0, 1})):
        found = hits(NUMERIC + rules, b=giant, seeds=range(1, 9), rounds=6)
        assert {d for who, rd, d, _ in found if who == "Ann" and rd == 2} == done
