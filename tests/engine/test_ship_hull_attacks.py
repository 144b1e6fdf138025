"""Small arms and spells against hulls through the engine (SJ 4.2, 8, 8.1; EX-SJ-06)."""

from __future__ import annotations

import random

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ship_battle import ShipBattle
from fadad_agents.engine.ship_hull_attacks import cast_spells, chop_hull, hull_volley
from fadad_agents.rules.sj_combat import hull_points_from_spot_damage
from tests.engine.conftest import SCENARIOS

DUEL = (SCENARIOS / "ship-duel.yaml").read_text()
MARA = "        aboard: Saltwind\n      - name: Saltwind crew\n"


class _Dice(random.Random):
    """A stream that always rolls the same fraction."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


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


WIZARD = """      - name: Magister Orlen
        skills: {Staff: Fair}
        attack_skill: Staff
        weapon: weapons/quarterstaff
        aboard: Saltwind
        spells:
          - {name: fireball, damage: "30", range_ft: 2000, ignites: true, uses: 1}
"""

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
    battle.hull_rng = _Dice(0.99)  # every d20 a 20: all 20 hit
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
        battle.missile_fire(salt, gannet)
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
    battle.hull_rng = _Dice(0.99)  # d8 = 8 a blow
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
    battle.hull_rng = _Dice(0.99)  # d20 = 20 hits; 1d6 = 6
    battle.missile_fire(salt, gannet)
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
    battle.missile_fire(salt, gannet)
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
