"""Both critical tables drive one set of effect handlers, with durations (C-03, C-01)."""

from __future__ import annotations

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.close import ram
from fadad_agents.engine.ships.damage import apply_effect, hull_hit, roll_crits
from fadad_agents.engine.ships.deck import deck_round, fallen
from fadad_agents.engine.ships.hull_attacks import cast_spells
from fadad_agents.rules.ships import effects as fx
from fadad_agents.rules.ships.crits import SjCrit
from fadad_agents.rules.ships.fadad_crits import FadadCrit
from fadad_agents.rules.ships.movement import ManeuverClass
from tests.engine.conftest import SCENARIOS, WIZARD, FixedDice


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


# --- Ship Shaken: who falls (SJ 5) ----------------------------------------------------------

SHAKEN = fx.Shaken(fx.Check("dexterity", 10, "d20"), npc_fall_pct=40)


def test_a_shaken_deck_throws_npcs_off_their_feet_four_times_in_ten() -> None:
    """SJ 5: NPCs fall on a flat 40%: over many shakes about 40% of the merchant's crew
    goes down, and those down strike no blow that round."""
    fell = heads = 0
    for seed in range(40):
        battle = build_battle(load(SCENARIOS / "ship-duel.yaml"), seed, collect=False)
        assert isinstance(battle, ShipBattle)
        salt = battle.ships[0]
        crew = next(m for m in battle.people if m.name == "Saltwind crew")
        apply_effect(battle, salt, SHAKEN, "test")
        fell += crew.down
        heads += crew.count
        assert crew.strikers == crew.count - crew.down
    assert abs(fell / heads - 0.4) < 3 * (0.24 / heads) ** 0.5


def test_a_player_character_keeps_his_feet_by_a_dexterity_check() -> None:
    """sj.shaken_dexterity_dc: the merchant's captain (a PC, Dexterity Fair: d20 + 3) rolls
    an 11: he keeps his feet against DC 10 and falls against DC 20 (a piercing ram's
    Ship Shaken), losing his blows that round."""
    for dc, falls in ((10, False), (20, True)):
        text = (SCENARIOS / "ship-duel.yaml").read_text()
        text = text.replace("rules:\n", f"rules:\n  sj.shaken_dexterity_dc: {dc}\n")
        battle = build_battle(load(text), 1, collect=False)
        assert isinstance(battle, ShipBattle)
        salt, gannet = battle.ships
        battle.place(gannet, salt.hex, (salt.facing + 1) % 6)
        battle.initiative_side = gannet.side
        battle.close_rng = FixedDice(0.95)  # the ram hits; no lock
        battle.shaken_rng = FixedDice(0.5)  # each d20 an 11; no NPC falls (50 >= 40)
        ram(battle, gannet, salt)
        mara = next(m for m in battle.people if m.name == "Captain Mara Vell")
        assert fallen(battle, mara) is falls
        assert ("thrown off their feet: Captain Mara Vell" in battle.log.text()) is falls


def test_a_weapon_whose_hands_all_fall_does_not_fire() -> None:
    """SJ 5: those who fall lose that round's attacks: the merchant's one-man ballista
    stays silent when its hand falls; the reaver's, on her unshaken deck, fires."""
    battle = _duel()
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    battle.round = 1
    for team in salt.teams:
        team.set_crew(1)
    battle.shaken_rng = FixedDice(0.0)  # every NPC falls
    apply_effect(battle, salt, SHAKEN, "test")
    assert not any(t.can_fire(battle.round) for t in salt.teams)
    assert any(t.can_fire(battle.round) for t in gannet.teams)


def test_the_fallen_strike_no_blow_and_cast_no_spell_that_round() -> None:
    """SJ 5: a fall disallows "any attacks or spell use that round": the merchant's wizard,
    down, casts nothing until the next round; her captain, down among boarders, strikes
    nothing while they strike at him."""
    text = (SCENARIOS / "ship-duel.yaml").read_text()
    text = text.replace("      - name: Saltwind crew\n", WIZARD + "      - name: Saltwind crew\n")
    battle = build_battle(load(text), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    salt, gannet = battle.ships
    people = {m.name: m for m in battle.people}
    battle.place(gannet, salt.hex, gannet.facing)
    battle.round = 1
    people["Magister Orlen"].memory["fallen"] = 1
    cast_spells(battle, salt)
    assert not battle.log.of("spell")
    battle.round = 2
    cast_spells(battle, salt)
    assert battle.log.of("spell")
    battle.lash(salt, gannet)
    battle.move_aboard(people["Gannet crew"], salt)
    battle.round = 3
    people["Captain Mara Vell"].memory["fallen"] = 3
    deck_round(battle, salt)
    blows = [e.actor for e in battle.log if e.action in ("attack", "volley")]
    assert "Gannet crew" in blows
    assert "Captain Mara Vell" not in blows


def test_ex_sj_16_an_inapplicable_critical_shifts_up() -> None:
    """EX-SJ-16: a ship at SR 1 that rolls 12 (Loss of SR) takes the next entry, a Deck
    crew casualty; a Poor ship that rolls 17 (Maneuverability loss) loses 10 hull points."""
    cases = (
        ({"sr": 1}, 12, 13, SjCrit.DECK_CREW, 0),
        ({"maneuverability": "E"}, 17, 18, SjCrit.HULL_LOSS_10, 10),
    )
    for update, roll, entry, kind, hull_lost in cases:
        battle = _duel()
        gannet = battle.ships[1]
        gannet.spec = gannet.spec.model_copy(update=update)
        battle.crit_rng = FixedDice((roll - 0.5) / 20)
        roll_crits(battle, gannet, 1, 0, 0, "blast", "test")
        crit = next(e for e in battle.log if e.action == "crit")
        assert dict(crit.dice) == {"d20": roll, "entry": entry}
        assert crit.result == kind.value
        assert gannet.hull_damage == hull_lost


def test_a_lost_weapons_hands_go_to_the_others_when_the_next_round_starts() -> None:
    """A weapon hit puts the mount's hands on her other weapons at the next round's start."""
    text = (SCENARIOS / "ship-duel.yaml").read_text()
    for old in ("{name: flee}", "{name: close_and_ram}"):
        text = text.replace(old, "{name: hold}")
    battle = build_battle(load(text), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    gannet = battle.ships[1]
    for crew in battle.home_crews(gannet):
        battle.casualties(crew, crew.count - 2)  # two hands: enough for her first mount
    battle.refresh_crews()
    first, second = gannet.teams
    assert (first.crew, second.crew) == (2, 0)
    battle.crit_rng = FixedDice(0.0)  # the hit falls on her first mount
    apply_effect(battle, gannet, fx.WeaponDamaged())
    assert first.disabled
    assert second.crew == 0  # not at once
    battle.step()
    assert (first.crew, second.crew) == (0, 1)
