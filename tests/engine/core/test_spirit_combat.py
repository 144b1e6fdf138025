"""Spirit combat in a battle (personal-combat.md 8, A-13): a creature only magic harms
takes no harm from a lesser weapon, and from a magic one the weapon's plus + the
attacker's attunement + 4dF (its plus again on a crit) less its Damage Resistance,
never the RD; the log shows it."""

from __future__ import annotations

import pytest

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core.battle import Battle
from fadad_agents.schema import ScenarioError
from tests.engine.conftest import Script, dice, duel_yaml

SAGE = """
      - name: Sage
        reaction_speed: Great
        skills: {Sword: Superb}
        attack_skill: Sword
        traits: {Wisdom: Good}
        attunement: Wisdom
        weapon: {name: Blessed sword, fadad_bonus: 3, magic_plus: 2}
"""
"""A +2 sword and Wisdom Good (+1) as spiritual attunement (EX-PC-10)."""

GHOST = """
      - name: Ghost
        skills: {Touch: Fair, Dodge: Poor}
        attack_skill: Touch
        defence_skill: Dodge
        magic_to_hit: 1
"""
"""Harmed only by +1 weapons or better: Damage Resistance 0."""

HIT = (dice(-2), dice(0), dice(0))
"""Sage Good against the Ghost's dodge Poor: RD 3, no crit; the kernel's damage roll."""
CRIT = (dice(0), dice(0), dice(0))
"""Sage Superb against Poor: RD 5, one crit."""


def spirit_duel(
    draws: tuple[float, ...],
    spirit_roll: int,
    *,
    sage: str = SAGE,
    ghost: str = GHOST,
    rules: str = "",
) -> Battle:
    """The Sage strikes the Ghost once with ``draws`` then a spirit damage roll."""
    text = duel_yaml(
        sage, ghost, rules="fadad.initiative: static, fadad.crit_effects: none" + rules
    )
    battle = build_battle(load(text), seed=5)
    battle.sides[0].members[0].rng = Script(*draws, dice(spirit_roll))
    battle.play_round()
    return battle


def blow(battle: Battle) -> dict[str, object]:
    return dict(battle.log.of("attack")[0].outcome)


def test_ex_pc_10_spirit_damage_is_plus_attunement_and_dice() -> None:
    """EX-PC-10: +2 sword, Wisdom Good, a +1 creature (DR 0), damage roll +1: 2 + 1 + 1 =
    4, Hurt, whatever the RD (3); with one crit +2 more: 6, Very Hurt."""
    plain = spirit_duel(HIT, 1)
    assert (blow(plain)["rd"], blow(plain)["damage"], blow(plain)["wound"]) == (3, 4, "Hurt")
    assert plain.sides[1].members[0].wound == 2
    crit = spirit_duel(CRIT, 1)
    assert (blow(crit)["crits"], blow(crit)["damage"], blow(crit)["wound"]) == (1, 6, "Very Hurt")


def test_magic_to_hit_turns_a_lesser_weapon_aside() -> None:
    """``magic_to_hit``: a +0 sword's hit leaves a +1 creature unharmed (and says so); the
    same blow on a creature any weapon harms wounds it."""
    mundane = SAGE.replace("magic_plus: 2", "magic_plus: 0")
    ghost = spirit_duel(HIT, 1, sage=mundane)
    assert ghost.sides[1].members[0].wound == 0
    assert "taken as unharmed (it needs a +1 weapon)." in ghost.log.text().splitlines()[0]
    man = spirit_duel(HIT, 1, sage=mundane, ghost=GHOST.replace("magic_to_hit: 1", ""))
    assert man.sides[1].members[0].wound > 0


def test_attunement_adds_the_traits_level() -> None:
    """``attunement``: Wisdom Good adds 1 to spirit damage; without an attunement the same
    blow does 3."""
    unattuned = SAGE.replace("        attunement: Wisdom\n", "")
    assert blow(spirit_duel(HIT, 1))["damage"] == 4
    assert blow(spirit_duel(HIT, 1, sage=unattuned))["damage"] == 3


def test_potential_gives_an_unarmed_touch_its_plus() -> None:
    """``potential``: unarmed, Potential 7 carries +2 (floor 7/3) and harms a +2 creature;
    Potential 5 carries +1 and does not."""
    monk = SAGE.replace(
        "        weapon: {name: Blessed sword, fadad_bonus: 3, magic_plus: 2}\n", ""
    )
    wraith = GHOST.replace("magic_to_hit: 1", "magic_to_hit: 2")
    strong = spirit_duel(HIT, 1, sage=monk + "        potential: 7\n", ghost=wraith)
    weak = spirit_duel(HIT, 1, sage=monk + "        potential: 5\n", ghost=wraith)
    assert blow(strong)["damage"] == 2 + 1 + 1 - 1  # plus, Wisdom, dice, DR 1
    assert weak.sides[1].members[0].wound == 0


def test_spirit_crit_plus_counts_the_plus_once_or_per_crit() -> None:
    """``fadad.spirit_crit_plus`` (A-13): two crits add the +2 once (damage 6) by default,
    twice (8) per crit."""
    two_crits = (dice(4), dice(0), dice(0))  # Superb +4 against Poor: RD 9, two crits
    once = spirit_duel(two_crits, 1)
    per = spirit_duel(two_crits, 1, rules=", fadad.spirit_crit_plus: per_crit")
    assert blow(once)["crits"] == 2
    assert (blow(once)["damage"], blow(per)["damage"]) == (6, 8)


def test_spirit_negative_cap_limits_a_negative_base() -> None:
    """``fadad.spirit_negative_cap`` (A-13): a +1 weapon in a Poor-spirited hand (base
    1 - 2 - 0 = -1) rolling +4 does at most 1 by default, 3 without the cap."""
    dull = SAGE.replace("magic_plus: 2", "magic_plus: 1").replace("Wisdom: Good", "Wisdom: Poor")
    capped = spirit_duel(HIT, 4, sage=dull)
    free = spirit_duel(HIT, 4, sage=dull, rules=", fadad.spirit_negative_cap: false")
    assert (blow(capped)["damage"], blow(free)["damage"]) == (1, 3)


def test_an_attunement_must_name_a_trait() -> None:
    """A stat block's attunement names one of its traits, or loading says which."""
    with pytest.raises(ScenarioError, match="'Faith' is not one of this fighter's traits"):
        load(duel_yaml(SAGE.replace("attunement: Wisdom", "attunement: Faith"), GHOST))


def test_the_catalogue_ghost_needs_a_magic_weapon() -> None:
    """``creatures/ghost`` (models/): a +1 creature; the Sage's +2 sword wounds it, the
    same blow with a plain sword does not."""
    ghost = "\n      - model: creatures/ghost\n        policies: {}\n"
    magic = spirit_duel(CRIT, 1, ghost=ghost)  # Superb against its dodge Good: RD 2
    plain = spirit_duel(CRIT, 1, ghost=ghost, sage=SAGE.replace("magic_plus: 2", "magic_plus: 0"))
    assert magic.sides[1].members[0].wound > 0
    assert plain.sides[1].members[0].wound == 0


def test_an_arrow_is_spirit_combat_too() -> None:
    """A plain arrow leaves the Ghost unharmed (it needs a +1 weapon) where the same
    draws with a +1 bow harm it by the spirit damage, not the RD (section 8): RD 4 is a
    crit, so plus 1 + attunement 0 + 4dF 0 + the plus again = 2 (DR 0)."""

    def shot(weapon: str) -> tuple[str, int]:
        text = f"""map: {{kind: open, width: 100, height: 20}}
name: arrows at a ghost
rules: {{fadad.initiative: static, fadad.crit_effects: none}}
sides:
  - name: Red
    forces:
      - name: Sage
        skills: {{Bow: Great}}
        attack_skill: Bow
        weapon: {weapon}
        policies: {{movement: hold}}
        position: [10, 10]
  - name: Blue
    forces:
      - name: Ghost
        skills: {{Touch: Fair, Dodge: Poor}}
        attack_skill: Touch
        defence_skill: Dodge
        magic_to_hit: 1
        policies: {{movement: hold, targeting: stay_back}}
        position: [30, 10]
"""
        battle = build_battle(load(text), seed=5)
        battle.sides[0].members[0].rng = Script(dice(0), dice(0), dice(0), dice(0))
        battle.play_round()
        line = next(x for x in battle.log.text().splitlines() if " shoots at " in x)
        return line, battle.sides[1].members[0].wound

    plain, plain_wound = shot("weapons/bow")
    magic, magic_wound = shot("{model: weapons/bow, magic_plus: 1}")
    assert plain.endswith("taken as unharmed (it needs a +1 weapon).")
    assert plain_wound == 0
    assert "hit by 4, damage 2: Scratch." in magic
    assert magic_wound == 1
