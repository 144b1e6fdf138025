"""Small arms and spells against hulls through the engine (SJ 4.2, 8, 8.1; EX-SJ-06; FADAD
ships 5.3)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from scipy.stats import chisquare

from fadad_agents.agents.ships.ship import Ship
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.hull_attacks import (
    cast_spells,
    chop_hull,
    hand_attack_hit_chance,
    hand_attack_target,
    hull_shots,
    hull_volley,
    roll_hand_attack,
)
from fadad_agents.engine.ships.turn import missile_fire
from fadad_agents.hexmap import distance
from fadad_agents.rules.core.dice import fudge_distribution
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.ships.combat import hull_points_from_spot_damage
from tests.engine.conftest import SCENARIOS, WIZARD, FixedDice

DUEL = (SCENARIOS / "ship-duel.yaml").read_text()
MARA = "        aboard: Saltwind\n      - name: Saltwind crew\n"


def _duel(text: str, seed: int = 1) -> ShipBattle:
    battle = build_battle(load(text), seed, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle


def _with(extra: str, small_arms: str = "crew", spells: str = "hull") -> str:
    """The duel with ``extra`` forces on Saltwind and her gunnery policy's parameters."""
    assert MARA in DUEL
    text = DUEL.replace(
        MARA, "        aboard: Saltwind\n" + extra + "      - name: Saltwind crew\n"
    )
    params = f"{{small_arms: {small_arms}, spells: {spells}}}"
    return text.replace(
        "          targeting: {name: nearest_ship}",
        f"          targeting: {{name: nearest_ship, params: {params}}}",
    )


ARCHERS = """      - name: Saltwind archers
        model: crews/sailors
        count: 20
        role: marines
        max_damage: 6
        weapon: weapons/bow
        aboard: Saltwind
"""


def _events(battle: ShipBattle, action: str) -> list:
    return [e for e in battle.log if e.action == action]


def test_ex_sj_06_a_30_point_fireball_does_3_hull_points_and_starts_a_fire() -> None:
    """EX-SJ-06: a 30-point fireball on a ship = 3 hull points, and a fire."""
    battle = _duel(_with(WIZARD))
    salt, gannet = battle.ships
    cast_spells(battle, salt)
    spell = _events(battle, "spell")[0]
    assert spell.target == "Red Gannet"
    assert dict(spell.outcome)["hull"] == 3
    assert gannet.hull_damage == 3
    assert len(gannet.fire_list) == 1
    cast_spells(battle, salt)  # one use only
    assert len(_events(battle, "spell")) == 1


def test_spells_hold_when_the_policy_says_so() -> None:
    """``spells: hold``: the wizard keeps his fireball."""
    battle = _duel(_with(WIZARD, spells="hold"))
    cast_spells(battle, battle.ships[0])
    assert not _events(battle, "spell")


def test_a_short_range_spell_needs_the_ships_within_150_ft() -> None:
    """SJ 8.1: a spell reaches 150 ft a hex; the reaver 8+ hexes off is out of reach."""
    battle = _duel(_with(WIZARD.replace("range_ft: 2000", "range_ft: 150")))
    cast_spells(battle, battle.ships[0])
    assert not _events(battle, "spell")


def test_ex_sj_06_twenty_arrows_for_60_points_scattered_do_nothing() -> None:
    """EX-SJ-06: 20 arrows doing 60 points scattered over the side = 0 hull points."""
    battle = _duel(_with(ARCHERS, small_arms="hull"))
    gannet = battle.ships[1]
    archers = next(m for m in battle.people if m.name == "Saltwind archers")
    battle.hull_rng = FixedDice(0.99)  # every d20 a 20: all 20 hit
    hull_volley(battle, archers, gannet)
    volley = dict(_events(battle, "hull_volley")[0].outcome)
    assert (volley["hits"], volley["points"], volley["hull"]) == (20, 60, 0)
    assert gannet.hull_damage == 0


def test_archers_aim_at_the_hull_only_when_the_policy_says_so() -> None:
    """Across a shared hex the archers shoot crew by default, the hull with ``small_arms: hull``."""
    for aim, action in (("crew", "volley"), ("hull", "hull_volley")):
        battle = _duel(_with(ARCHERS, small_arms=aim))
        salt, gannet = battle.ships
        battle.place(gannet, salt.hex, gannet.facing)
        missile_fire(battle, salt, gannet)
        shots = [e for e in battle.log if e.actor == "Saltwind archers"]
        assert shots
        assert {e.action for e in shots} == {action}


def test_ex_sj_06_an_axe_chopping_one_spot_makes_hull_points() -> None:
    """EX-SJ-06: 10 points to one spot = 1 hull point; the spot's total carries over."""
    battle = _duel(_with("", small_arms="hull"))
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    battle.lash(salt, gannet)
    mara = next(m for m in battle.people if m.name == "Captain Mara Vell")
    battle.hull_rng = FixedDice(0.99)  # d8 = 8 a blow
    per_blow = 8 + mara.fighter.odm
    spot = 0
    for _ in range(3):
        chop_hull(battle, salt, gannet)
        spot += per_blow
    chops = [e for e in _events(battle, "hull_chop") if e.actor == "Captain Mara Vell"]
    assert len(chops) == 3
    assert dict(chops[-1].outcome)["spot"] == spot
    assert sum(dict(e.outcome)["hull"] for e in chops) == spot // 10
    assert gannet.hull_damage == hull_points_from_spot_damage([spot])


def test_no_chopping_unless_grappled_alongside() -> None:
    """One spot can only be chopped in contact: ships merely sharing a hex are too far."""
    battle = _duel(_with("", small_arms="hull"))
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    chop_hull(battle, salt, gannet)
    assert not _events(battle, "hull_chop")


def test_spells_fly_in_a_played_battle_and_read_like_a_report() -> None:
    """The moonlet scenario: the wizard's spells hit the wyrm, narrated with hull points."""
    text = (SCENARIOS / "wyrm-at-the-moonlet.yaml").read_text()
    battle = _duel(text, 11)
    battle.run_to_end()
    assert _events(battle, "spell")
    assert "Magister Orlen casts fireball at Space wyrm for " in battle.log.text()


BOWMAN = """      - name: Wren the Bowman
        skills: {Bow: Great}
        attack_skill: Bow
        weapon: weapons/bow
        aboard: Saltwind
"""


def test_a_single_arrow_makes_a_hull_point_only_at_10_points() -> None:
    """EX-SJ-06: one arrow at one spot; a hull point only if its points reach 10."""
    battle = _duel(_with(BOWMAN, small_arms="hull"))
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    battle.hull_rng = FixedDice(0.99)  # d20 = 20 hits; 1d6 = 6
    missile_fire(battle, salt, gannet)
    shot = next(e for e in _events(battle, "hull_shot") if e.actor == "Wren the Bowman")
    wren = next(m for m in battle.people if m.name == "Wren the Bowman")
    points = 6 + max(0, wren.fighter.odm)
    assert dict(shot.outcome)["points"] == points
    assert dict(shot.outcome)["hull"] == points // 10
    assert gannet.hull_damage == points // 10


def test_no_single_shots_at_the_hull_by_default() -> None:
    """The default ``small_arms: crew`` keeps the bowman's shafts off the planking."""
    battle = _duel(_with(BOWMAN))
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    missile_fire(battle, salt, gannet)
    assert not _events(battle, "hull_shot")


def test_under_fadad_levels_a_spell_is_a_damage_number_of_half_its_hull_points() -> None:
    """FADAD levels: a 30-point fireball's 3 hull points are damage number 1 (HullLoss reading)."""
    text = _with(WIZARD).replace(
        "  ship.damage_model: sj_hull_points\n  ship.crit_table: sj_d20\n",
        "  ship.damage_model: fadad_levels\n  ship.crit_table: fadad_6dF\n",
    )
    assert "fadad_levels" in text
    battle = _duel(text)
    gannet = battle.ships[1]
    cast_spells(battle, battle.ships[0])
    assert dict(_events(battle, "spell")[0].outcome)["hull"] == 3
    hit = next(e for e in _events(battle, "ship_damage") if e.actor == "Red Gannet")
    assert dict(hit.outcome)["damage"] == 1
    assert gannet.fadad_damage == 1


# --- FADAD: hand weapons and spells against ships (ships-fadad.md 5.3) -------------------
# No EX-SHF example covers section 5.3 (EX-SHF-01..06: MS, artillery, Target floor, ram,
# wildfire, repairs); a hit's points at one spot are EX-SJ-06's.

FADAD_RULES = "  ship.damage_model: fadad_levels\n  ship.crit_table: fadad_6dF\n"

POOR_BOWMAN = """      - name: Odo the Unsteady
        skills: {Bow: Poor}
        attack_skill: Bow
        weapon: weapons/bow
        aboard: Saltwind
"""


def _fadad(text: str, **flat: str) -> str:
    """``text`` under the FADAD ship rules, with extra ``rules`` lines."""
    old = "  ship.damage_model: sj_hull_points\n  ship.crit_table: sj_d20\n"
    assert old in text
    extra = "".join(f"  {k}: {v}\n" for k, v in flat.items())
    return text.replace(old, FADAD_RULES + extra)


def _alongside(battle: ShipBattle, grappled: bool = False) -> tuple[Ship, Ship]:
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    if grappled:
        battle.lash(salt, gannet)
    return salt, gannet


def _shots(battle: ShipBattle, who: str) -> list:
    return [e for e in _events(battle, "hull_shot") if e.actor == who]


def _hits(skill: int, target: int, *, exceed: bool = True) -> Fraction:
    """P(skill + 4dF beats ``target``): by at least 1 (exceed, the default target mode)."""
    need = target - skill + (1 if exceed else 0)
    return sum((p for d, p in fudge_distribution(4) if d >= need), Fraction(0))


def test_fadad_shot_is_skill_plus_4df_against_target_minus_4_plus_range() -> None:
    """FADAD 5.3: every logged shot is skill + 4dF vs Target -4 + the range modifier."""
    battle = _duel(_fadad(_with(BOWMAN, small_arms="hull")), 5)
    salt, gannet = _alongside(battle)
    wren = next(m for m in battle.people if m.name == "Wren the Bowman")
    steps = battle.options.ship.hand_attack_range_mods
    for _ in range(30):
        hull_shots(battle, salt, gannet)
    shots = _shots(battle, "Wren the Bowman")
    assert len(shots) == 30
    for shot in shots:
        d, m, o = dict(shot.dice), dict(shot.modifiers), dict(shot.outcome)
        assert set(d) == {"4dF"}
        assert -4 <= d["4dF"] <= 4
        assert m["skill"] == wren.fighter.attack == 2
        assert m["yards"] == 25  # half a 50-yard hex
        assert (m["target"], m["range_mod"]) == hand_attack_target(25, steps) == (-4, 0)
        rd = m["skill"] + m["wounds"] + d["4dF"] - m["target"]
        assert o["rd"] == rd
        assert o["result"] == ("hit" if rd >= 1 else "miss")
    assert {dict(s.outcome)["result"] for s in shots} == {"hit"}  # Great (+2) vs -4 needs -5


def test_fadad_shot_pinned_on_a_fixed_stream() -> None:
    """FADAD 5.3: Poor (-2) with 4dF -4 at Target -4 misses; +4 hits by 6 for 1d6 = 6 + ODM."""
    battle = _duel(_fadad(_with(POOR_BOWMAN, small_arms="hull")))
    salt, gannet = _alongside(battle)
    odo = next(m for m in battle.people if m.name == "Odo the Unsteady")
    battle.hull_rng = FixedDice(0.0)  # 4dF = -4
    hull_shots(battle, salt, gannet)
    battle.hull_rng = FixedDice(0.99)  # 4dF = +4, 1d6 = 6
    hull_shots(battle, salt, gannet)
    miss, hit = _shots(battle, "Odo the Unsteady")
    assert dict(miss.dice) == {"4dF": -4}
    assert dict(miss.outcome) == {"result": "miss", "rd": -2, "points": 0, "hull": 0}
    points = 6 + max(0, odo.fighter.odm)
    assert dict(hit.outcome) == {"result": "hit", "rd": 6, "points": points, "hull": points // 10}
    assert dict(hit.modifiers)["target"] == -4


def test_a_close_shot_is_easier_than_a_far_one() -> None:
    """FADAD 5.3: alongside (0 yd) Target -6, a shared hex -4, farther higher still."""
    steps = RulesOptions().ship.hand_attack_range_mods
    targets = [hand_attack_target(y, steps)[0] for y in (0, 10, 25, 100, 500, 1500, 9000)]
    assert targets == [-6, -6, -4, -3, -1, 1, 1]
    for grappled, target in ((True, -6), (False, -4)):
        battle = _duel(_fadad(_with(POOR_BOWMAN, small_arms="hull")))
        salt, gannet = _alongside(battle, grappled)
        hull_shots(battle, salt, gannet)
        assert dict(_shots(battle, "Odo the Unsteady")[0].modifiers)["target"] == target
    close, far = _hits(-2, -6), _hits(-2, -4)
    assert (close, far) == (Fraction(80, 81), Fraction(66, 81))  # 4dF >= -3 / >= -1
    assert hand_attack_hit_chance(-2, -6, "effective_opposition") == close
    assert hand_attack_hit_chance(-2, -4, "effective_opposition") == far


def test_the_range_option_changes_the_target() -> None:
    """``ship.hand_attack_range_mods``: one step of +3 makes every hull Target -1."""
    text = _fadad(
        _with(POOR_BOWMAN, small_arms="hull"), **{"ship.hand_attack_range_mods": "[[5000, 3]]"}
    )
    battle = _duel(text)
    salt, gannet = _alongside(battle)
    hull_shots(battle, salt, gannet)
    m = dict(_shots(battle, "Odo the Unsteady")[0].modifiers)
    assert (m["target"], m["range_mod"], m["yards"]) == (-1, 3, 25)


def test_the_shared_hex_fraction_sets_the_range_inside_a_hex() -> None:
    """``ship.hand_attack_shared_hex_fraction``: 1 = a whole 50-yard hex, Target -4."""
    text = _fadad(
        _with(POOR_BOWMAN, small_arms="hull"),
        **{"ship.hand_attack_shared_hex_fraction": "0.1"},
    )
    battle = _duel(text)
    salt, gannet = _alongside(battle)
    hull_shots(battle, salt, gannet)
    m = dict(_shots(battle, "Odo the Unsteady")[0].modifiers)
    assert (m["yards"], m["target"]) == (5, -6)


def test_the_range_steps_must_increase() -> None:
    """A step list whose yards do not increase is refused with the field and a fix."""
    with pytest.raises(ValueError, match=r"hand_attack_range_mods.*strictly increasing"):
        RulesOptions.from_flat({"ship.hand_attack_range_mods": [[50, 0], [10, -2]]})


def test_target_mode_gate_lets_a_roll_equal_to_the_target_hit() -> None:
    """A-07: ``fadad.target_mode = target_gate_gte`` hits on RD 0, the default does not."""
    for mode, result in (("effective_opposition", "miss"), ("target_gate_gte", "hit")):
        text = _fadad(_with(POOR_BOWMAN, small_arms="hull"), **{"fadad.target_mode": mode})
        battle = _duel(text)
        salt, gannet = _alongside(battle, grappled=True)  # Target -6
        battle.hull_rng = FixedDice(0.0)  # Poor -2 + 4dF -4 = -6
        hull_shots(battle, salt, gannet)
        shot = _shots(battle, "Odo the Unsteady")[0]
        assert (dict(shot.outcome)["rd"], shot.result) == (0, result)
    assert hand_attack_hit_chance(-2, -6, "target_gate_gte") == _hits(-2, -6, exceed=False) == 1


def test_fadad_hand_attack_sampler_matches_its_exact_chance() -> None:
    """Hits of :func:`roll_hand_attack` follow ``hand_attack_hit_chance`` (chi-square)."""
    battle = _duel(_fadad(_with(POOR_BOWMAN, small_arms="hull")), 3)
    salt, gannet = _alongside(battle)
    odo = next(m for m in battle.people if m.name == "Odo the Unsteady")
    n = 4000
    hits = sum(roll_hand_attack(battle, odo, salt, gannet).hit for _ in range(n))
    p = hand_attack_hit_chance(-2, -4, "effective_opposition")
    assert p == _hits(-2, -4)
    expected = [n * float(p), n * float(1 - p)]
    assert chisquare([hits, n - hits], expected).pvalue > 1e-4


def test_fadad_spell_rolls_against_the_hull_target() -> None:
    """FADAD 5.3: a spell rolls skill + 4dF vs Target -4 + range; a miss spends it."""
    for mods, result in (("[[99999, -8]]", "cast"), ("[[99999, 8]]", "miss")):
        text = _fadad(_with(WIZARD), **{"ship.hand_attack_range_mods": mods})
        battle = _duel(text)
        salt, gannet = battle.ships
        cast_spells(battle, salt)
        cast_spells(battle, salt)  # one use only, hit or miss
        (spell,) = _events(battle, "spell")
        d, m, o = dict(spell.dice), dict(spell.modifiers), dict(spell.outcome)
        assert spell.result == result
        assert m["target"] == -4 + m["range_mod"]
        assert m["yards"] == 50 * distance(salt.hex, gannet.hex)
        assert o["rd"] == m["skill"] + m["wounds"] + d["4dF"] - m["target"]
        assert o["hull"] == (3 if result == "cast" else 0)  # EX-SJ-06: 30 points = 3
        assert gannet.fadad_damage == (1 if result == "cast" else 0)


def test_fadad_hull_rolls_are_narrated_with_dice_target_and_range() -> None:
    """The report gives the rolled degree, 4dF, the Target and the range modifier."""
    battle = _duel(_fadad(_with(POOR_BOWMAN, small_arms="hull")))
    salt, gannet = _alongside(battle)
    battle.hull_rng = FixedDice(0.0)
    hull_shots(battle, salt, gannet)
    assert battle.log.lines(1) == [
        "Round 0 (0:00) Odo the Unsteady shoots at Red Gannet's side: Terrible-3 (-6) on 4dF "
        "-4 against Target Terrible-1 (-4) (range +0 at 25 yd); a miss."
    ]


def test_spelljammer_shots_and_spells_ignore_the_fadad_options() -> None:
    """Under the d20 rules the hand-attack options change nothing: d20 vs AC, no-roll spells."""
    logs = []
    for extra in ("", "  ship.hand_attack_range_mods: [[10, 8]]\n"):
        text = _with(WIZARD + BOWMAN, small_arms="hull")
        text = text.replace(
            "  fire.sj_firefighting: true\n", "  fire.sj_firefighting: true\n" + extra
        )
        assert extra in text
        battle = _duel(text, 4)
        salt, gannet = _alongside(battle)
        cast_spells(battle, salt)
        for _ in range(5):
            hull_shots(battle, salt, gannet)
        logs.append(battle.log.to_jsonl())
    assert logs[0] == logs[1]
    shots = _shots(battle, "Wren the Bowman")
    assert len(shots) == 5
    for shot in shots:
        assert set(dict(shot.dice)) == {"d20"}
        assert set(dict(shot.modifiers)) == {"bonus", "ac"}
    (spell,) = _events(battle, "spell")
    assert dict(spell.dice) == {"damage": 30}  # sj.spell_attack automatic: no attack roll
    assert spell.result == "cast"


def test_a_d20_spell_miss_is_narrated() -> None:
    """``sj.spell_attack = d20_vs_ac``: a natural 1 misses, spends the spell, reads as a miss."""
    text = _with(WIZARD).replace(
        "  fire.sj_firefighting: true\n",
        "  fire.sj_firefighting: true\n  sj.spell_attack: d20_vs_ac\n",
    )
    battle = _duel(text)
    battle.hull_rng = FixedDice(0.0)  # d20 = 1
    cast_spells(battle, battle.ships[0])
    (spell,) = _events(battle, "spell")
    assert (spell.result, dict(spell.dice)) == ("miss", {"d20": 1})
    assert battle.log.lines(1) == [
        "Round 0 (0:00) Magister Orlen casts a spell at Red Gannet; it goes wide of her hull."
    ]


@pytest.mark.parametrize(("hex_yards", "reaches"), [(50, True), (500, False)])
def test_a_spell_reaches_by_the_maps_hexes(hex_yards: int, reaches: bool) -> None:
    """A 2,000-ft fireball reaches a ship 2 hexes off on 150-ft hexes (SJ 8.1), but not on
    500-yard FADAD hexes (3,000 ft): spell range counts the map's own hexes."""
    text = _with(WIZARD).replace("  hex_yards: 50\n", f"  hex_yards: {hex_yards}\n")
    battle = _duel(text)
    assert battle.hex_yards == hex_yards
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex.neighbour(0).neighbour(0), gannet.facing)
    assert distance(salt.hex, gannet.hex) == 2
    cast_spells(battle, salt)
    assert bool(_events(battle, "spell")) is reaches
