"""Both critical tables drive one set of effect handlers, with durations (C-03, C-01)."""

from __future__ import annotations

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.damage import apply_effect, hull_hit
from fadad_agents.rules.ships import effects as fx
from fadad_agents.rules.ships.crits import SjCrit
from fadad_agents.rules.ships.fadad_crits import FadadCrit
from fadad_agents.rules.ships.movement import ManeuverClass
from tests.engine.conftest import SCENARIOS


def _duel() -> ShipBattle:
    battle = build_battle(load(SCENARIOS / "ship-duel.yaml"), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle


def _crit_names(text: str, seeds: int) -> set[str]:
    names: set[str] = set()
    for seed in range(seeds):
        battle = build_battle(load(text), seed, collect=False)
        battle.run_to_end()
        names |= {str(e.result) for e in battle.log if e.action == "crit"}
    return names


def test_each_table_names_its_own_results() -> None:
    """The fleet action rolls the 6dF table; switched to sj_d20 it rolls the d20 table."""
    fleet = (SCENARIOS / "fleet-action.yaml").read_text()
    fadad = _crit_names(fleet, 8)
    assert fadad
    assert fadad <= {str(c).replace("_", " ") for c in FadadCrit}
    d20 = _crit_names(fleet.replace("ship.crit_table: fadad_6dF", "ship.crit_table: sj_d20"), 8)
    assert d20
    assert d20 <= {c.value for c in SjCrit}


def test_sr_loss_lasts_its_rounds_in_seconds() -> None:
    """A d20 SR loss of 7 six-second rounds ends 42 s later (durations carry their round)."""
    text = (SCENARIOS / "ship-duel.yaml").read_text()
    for old in ("{name: flee}", "{name: close_and_ram}"):
        text = text.replace(old, "{name: hold}")
    text = text.replace("{name: strike_colours, params: {hull_fraction: 0.25}}", "fight_to_the_end")
    battle = build_battle(load(text), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    gannet = battle.ships[1]
    apply_effect(battle, gannet, fx.SpeedLoss(sr=1, rounds=7, round_seconds=6))
    assert gannet.sr == 2
    for _ in range(7):
        battle.step()
        assert gannet.timed("sr_loss") == 1
    assert battle.env.now == 42
    battle.step()
    assert gannet.timed("sr_loss") == 0
    assert any(e.action == "recover" and e.result == "sr_loss ends" for e in battle.log)


def test_maneuver_loss_helm_shock_holed_and_shaken() -> None:
    """Class loss lowers MC; a failed shock save kills the helm (SR 0); holed and shaken mark."""
    battle = _duel()
    gannet = battle.ships[1]
    apply_effect(battle, gannet, fx.ManeuverLoss(classes=1, rounds=3, round_seconds=6))
    assert gannet.mc == ManeuverClass.POOR
    apply_effect(battle, gannet, fx.HullHoled())
    apply_effect(battle, gannet, fx.Shaken(fx.Check("dexterity", 10, "d20")))
    assert gannet.holed
    assert gannet.shaken_round == battle.round
    apply_effect(battle, gannet, fx.HelmShock(fx.Check("will", 99, "d20"), coma_days=2))
    assert gannet.helm_out
    assert gannet.sr == 0


def test_deck_crew_and_weapon_hits_take_crew_and_guns() -> None:
    """Deck crew hits kill crewmen (and re-man the guns); weapon hits disable a mount."""
    battle = _duel()
    gannet = battle.ships[1]
    before = battle.crew_heads_home(gannet)
    apply_effect(
        battle, gannet, fx.DeckCrew(damage=20, bystander_save=fx.Check("fortitude", 99, "d20"))
    )
    assert battle.crew_heads_home(gannet) == before - 3
    apply_effect(battle, gannet, fx.WeaponDamaged())
    assert sum(t.disabled for t in gannet.teams) == 1


def test_fire_effect_and_hull_loss() -> None:
    """A crit fire starts at 0; Loss of 10 hull points is hull damage."""
    battle = _duel()
    salt = battle.ships[0]
    apply_effect(battle, salt, fx.Fire(0))
    assert [f.value for f in salt.fire_list] == [0]
    apply_effect(battle, salt, fx.HullLoss(10))
    assert salt.hull_damage == 10


def test_ex_sj_13_half_hull_crossing_rolls_a_crit() -> None:
    """EX-SJ-13: a 30-hp ship at 14 damage takes 2 more: past half, an immediate crit."""
    battle = _duel()
    gannet = battle.ships[1]  # reaver longship, 30 hull points
    gannet.hull_damage = 14
    hull_hit(battle, gannet, 2, source="test")
    assert [e.action for e in battle.log].count("crit") == 1


def test_breaking_up_at_zero_hull_leaves_debris() -> None:
    """SJ 7.1: 0 hull points: the ship and all aboard are lost; debris in its hex and around."""
    battle = _duel()
    salt = battle.ships[0]
    hull_hit(battle, salt, 999, source="test")
    assert not salt.fighting
    assert salt.hex in battle.debris
    assert len(battle.debris) == 7
    assert all(not m.fighting for m in battle.people if battle.deck_of(m) is salt)
