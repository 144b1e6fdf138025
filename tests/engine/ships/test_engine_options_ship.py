"""The ship engine's readings under ``ship.*`` and ``fire.*`` (and the crit and crash
numbers of ``sj.*``): each one, set off its default, changes play the way its
description says."""

from __future__ import annotations

from dataclasses import replace

from fadad_agents.engine.ships import aftermath
from fadad_agents.engine.ships.chase import try_escape
from fadad_agents.engine.ships.close import crash, grapple, ram
from fadad_agents.engine.ships.damage import (
    apply_effect,
    burn_fires,
    fadad_hit,
    hull_hit,
    roll_crits,
)
from fadad_agents.policies.ships.defaults import NoFirefighting
from fadad_agents.rules.core.dice import TABLE_6DF
from fadad_agents.rules.ships import effects as fx
from fadad_agents.rules.ships.fadad_damage import ShipLevel
from tests.engine.conftest import Script, dice
from tests.engine.engine_options_helpers import DUEL, FADAD_RULES, FLEET, FixedDice, events, ships
from tests.engine.ships.helpers import FADAD_DUEL, fadad_shots, fleet_ram, ship_named


def _entry(n: int) -> FixedDice:
    """Dice that roll ``n`` on every d20 (and the same face on every other die)."""
    return FixedDice((n - 0.5) / 20)


def _notes(battle: object, actor: str) -> list[str]:
    return [str(e.result) for e in events(battle, "effect", actor)]


# --- sj.*: criticals and crashes ----------------------------------------------------------


def test_crit_triggers_choose_what_makes_a_critical() -> None:
    """ship.crit_triggers: a natural 20 on a d20 shot is a critical; with only half_hull
    among the triggers it does its damage and no more."""
    for triggers, crits in ((None, 1), (["half_hull"], 0)):
        battle = ships(DUEL, {} if triggers is None else {"ship.crit_triggers": triggers})
        gannet = battle.ships[1]
        hull_hit(battle, gannet, 1, attack_critical=True, source="test")
        assert len(events(battle, "crit")) == crits


def test_half_hull_crit_repeat_makes_every_hit_past_half_a_critical() -> None:
    """sj.half_hull_crit_repeat: past half her hull points a further hit is a critical
    only with the option (by default only the hit that crosses half is)."""
    for repeat, crits in ((False, 0), (True, 1)):
        battle = ships(DUEL, {"sj.half_hull_crit_repeat": repeat})
        gannet = battle.ships[1]
        gannet.hull_damage = gannet.spec.hull_points // 2 + 1
        hull_hit(battle, gannet, 1, source="test")
        assert len(events(battle, "crit")) == crits


def test_crit_fortitude_dc_decides_whether_bystanders_die() -> None:
    """sj.crit_fortitude_dc: a deck crew casualty (d20 2) kills one crewman, and the two
    beside him save (a 2 + 3 against DC 1) or die with him (DC 100)."""
    for dc, lost in ((1, 1), (100, 3)):
        battle = ships(DUEL, {"sj.crit_fortitude_dc": dc})
        gannet = battle.ships[1]
        battle.crit_rng = _entry(2)
        roll_crits(battle, gannet, 1, 20, 20, "blast", "test")
        assert f"{lost} of her crew down" in _notes(battle, "Red Gannet")


def test_shock_will_dc_decides_whether_the_helmsman_falls_into_a_coma() -> None:
    """sj.shock_will_dc: on Spelljammer shock (d20 20) the helmsman shrugs it off at DC 1
    and falls into a coma at DC 100."""
    for dc, coma in ((1, False), (100, True)):
        battle = ships(DUEL, {"sj.shock_will_dc": dc})
        gannet = battle.ships[1]
        battle.crit_rng = _entry(20)
        roll_crits(battle, gannet, 1, 0, 0, "blast", "test")
        notes = _notes(battle, "Red Gannet")
        assert any("coma" in n for n in notes) is coma


def test_mc_loss_rounds_per_turn_sets_how_long_the_steering_is_out() -> None:
    """sj.mc_loss_rounds_per_turn: Maneuverability loss (d20 17) lasts 1d10 turns, here 9:
    9 six-second rounds by default, 90 at 10 rounds a turn."""
    for factor, seconds in ((1, 54), (10, 540)):
        battle = ships(DUEL, {"sj.mc_loss_rounds_per_turn": factor})
        gannet = battle.ships[1]
        battle.crit_rng = _entry(17)
        roll_crits(battle, gannet, 1, 0, 0, "blast", "test")
        assert f"steering damaged for {seconds} s" in _notes(battle, "Red Gannet")


def test_lock_pct_per_10_tons_makes_a_piercing_lock_rarer() -> None:
    """sj.lock_pct_per_10_tons: the 30-ton reaver's piercing ram hits (d20 20) and locks
    on a d100 of 96 at 5% a ton (100%), not at 5% per 10 tons (15%)."""
    for per_10, locked in ((False, True), (True, False)):
        battle = ships(DUEL, {"sj.lock_pct_per_10_tons": per_10})
        salt, gannet = battle.ships
        battle.place(gannet, salt.hex, (salt.facing + 1) % 6)
        battle.initiative_side = gannet.side
        battle.close_rng = FixedDice(0.95)
        ram(battle, gannet, salt)
        assert dict(events(battle, "ram")[0].outcome)["locked"] is locked


def test_crash_dc_decides_whether_the_helm_avoids_a_crash() -> None:
    """sj.crash_dc: the reaver's helmsman (d20 11) steers clear at DC 1, not at DC 100."""
    for dc, result in ((1, "avoided"), (100, "crash")):
        battle = ships(DUEL, {"sj.crash_dc": dc})
        salt, gannet = battle.ships
        battle.close_rng = FixedDice(0.5)
        crash(battle, gannet, salt)
        assert events(battle, "crash")[0].result == result


def test_crash_save_dc_decides_who_aboard_lives() -> None:
    """sj.crash_save_dc: aboard a 1-ton boat that crashes each pirate takes 1d6 (a 6),
    halved to 3 on a Reflex save (d20 20 against DC 15): all live; at DC 100 all die."""
    for dc, killed in ((15, 0), (100, 30)):
        battle = ships(DUEL, {"sj.crash_dc": 100, "sj.crash_save_dc": dc})
        salt, gannet = battle.ships
        gannet.spec = gannet.spec.model_copy(update={"tons": 1})
        battle.close_rng = FixedDice(0.99)
        crash(battle, gannet, salt)
        assert f"{killed} killed in the crash" in _notes(battle, "Red Gannet")


# --- ship.*: FADAD damage, gunnery and repairs -------------------------------------------


def test_fadad_boxes_set_the_ships_wound_track() -> None:
    """ship.fadad_boxes: on 3/1/1/1/1 two scratches leave her Scratched; on 1/1/1/1/1 the
    second is promoted to Lightly Damaged."""
    for boxes, level in (
        ((3, 1, 1, 1, 1), ShipLevel.SCRATCHED),
        ((1, 1, 1, 1, 1), ShipLevel.LIGHTLY_DAMAGED),
    ):
        battle = ships(FADAD_DUEL, {**FADAD_RULES, "ship.fadad_boxes": list(boxes)})
        salt = battle.ships[0]
        fadad_hit(battle, salt, 1, source="test")
        fadad_hit(battle, salt, 1, source="test")
        assert salt.level == level


def test_repair_workers_per_ton_shortens_the_yard_time() -> None:
    """ship.repair_workers_per_ton: a Heavily Damaged merchant needs fewer days in the
    yard with more workers a ton, at the same cost."""
    bills = {}
    for workers in (1, 10):
        battle = ships(FADAD_DUEL, {**FADAD_RULES, "ship.repair_workers_per_ton": workers})
        salt = battle.ships[0]
        fadad_hit(battle, salt, 5, source="test")
        aftermath.log_repairs(battle)
        bills[workers] = battle.repairs["Saltwind"]
    assert bills[1]["gold"] == bills[10]["gold"]
    assert bills[10]["days"] < bills[1]["days"]


def test_fadad_crit_fire_scale_sets_what_a_crit_fire_burns() -> None:
    """fire.fadad_crit_fire_scale: a crit fire left to burn damages the merchant as its
    own damage number; read as weapon damage (value + 4dF - her Mass Scale) it cannot
    hurt a hull of her size for rounds."""
    hurt = {}
    for scale in ("damage_number", "weapon_damage"):
        battle = ships(FADAD_DUEL, {**FADAD_RULES, "fire.fadad_crit_fire_scale": scale})
        salt = battle.ships[0]
        salt.ship_policies = replace(salt.ship_policies, firefighting=NoFirefighting())
        apply_effect(battle, salt, fx.Fire(points=0), "test")
        for _ in range(5):
            burn_fires(battle, salt)
        hurt[scale] = salt.fadad_damage
    assert hurt["weapon_damage"] < hurt["damage_number"]


def test_coma_dice_set_how_long_a_shocked_helmsman_sleeps() -> None:
    """ship.coma_dice: FADAD Spelljammer shock (6dF +3) lays the helmsman out for 3 + NdF
    days: every die a +, 4 days with one die, 6 with three."""
    six = (TABLE_6DF.index(3) + 0.5) / 729
    for n, days in ((1, 4), (3, 6)):
        battle = ships(FADAD_DUEL, {**FADAD_RULES, "ship.coma_dice": n})
        gannet = battle.ships[1]
        battle.crit_rng = Script(six, *[0.99] * n, dice(-4))  # then the Rete check fails
        roll_crits(battle, gannet, 1, 0, 0, "blast", "test")
        assert f"the helmsman falls into a coma ({days} days)" in _notes(battle, "Red Gannet")


def test_grapple_lines_rounding_sets_the_lines_a_35_ton_ship_needs() -> None:
    """sj.grapple_lines_rounding: a tenth of 35 tons is 4 lines rounded up, 3 down."""
    for rounding, needed in (("ceil", 4), ("floor", 3)):
        battle = ships(DUEL, {"sj.grapple_lines_rounding": rounding})
        salt, gannet = battle.ships
        gannet.spec = gannet.spec.model_copy(update={"tons": 35})
        battle.place(gannet, salt.hex, gannet.facing)
        grapple(battle, gannet, salt)
        assert dict(events(battle, "grapple", "Red Gannet")[0].modifiers)["needed"] == needed


def test_pursuit_turn_rounds_sets_when_a_pursuer_loses_her() -> None:
    """sj.pursuit_turn_rounds: the merchant slips away 30 hexes from the reaver (10 rounds
    behind): within two 10-round turns her navigator follows; at 1-round turns she is lost."""
    text = DUEL.replace("radius: 30", "radius: 60").replace(
        "position: [8, -4]", "position: [30, 0]"
    )
    for turn, result in ((10, "on her track"), (1, "loses her")):
        battle = ships(text, {"sj.pursuit_turn_rounds": turn})
        battle.chase_rng = FixedDice(0.0)
        assert try_escape(battle, battle.ships[0])
        assert events(battle, "pursuit", "Red Gannet")[0].result == result


def test_reload_rule_sets_a_short_handed_guns_time() -> None:
    """ship.reload_rule: the barge's bombard (3 rounds, 3 hands) with 2 hands left reloads
    in 3 + 1 = 4 ship rounds by the d20 rule, in 3 x 3/2 -> 5 proportionally."""
    for rule, rounds in (("sj_plus_one", 4), ("proportional", 5)):
        battle = ships(FLEET, {"ship.reload_rule": rule})
        sow = ship_named(battle, "Iron Sow")
        bombard = sow.teams[0]
        crew = battle.home_crews(sow)[0]
        battle.casualties(crew, crew.count - 2)
        battle.refresh_crews()
        bombard.fire(0)
        battle.env.run(until=(rounds - 1) * 60 + 1)
        assert not bombard.loaded
        battle.env.run(until=rounds * 60 + 1)
        assert bombard.loaded


def test_target_bands_extended_make_a_huge_hull_easier_to_hit() -> None:
    """ship.target_bands_extended: a 3,000-ton hull 4 hexes off is Target -4 on the
    extended table, -2 when every hull of 254 tons or more reads -2."""

    def huge(battle: object) -> None:
        salt = battle.ships[0]  # type: ignore[attr-defined]
        salt.spec = salt.spec.model_copy(update={"tons": 3000})

    targets = {
        ext: fadad_shots({"ship.target_bands_extended": ext}, 4, huge)[0]["target"]
        for ext in (True, False)
    }
    assert targets == {True: -4, False: -2}


def test_bombard_wildfire_dodge_penalty_sets_the_dodge_against_a_bombard() -> None:
    """ship.bombard_wildfire_dodge_penalty: the merchant dodges a bombard's shot at -2
    (PROPOSED, as a ballista bolt), at 0 with the option set so."""

    def bombard(battle: object) -> None:
        team = battle.ships[1].teams[0]  # type: ignore[attr-defined]
        team.weapon = team.weapon.model_copy(
            update={"family": "bombard", "projectile_penalty": None}
        )

    dodge = {
        p: fadad_shots({"ship.bombard_wildfire_dodge_penalty": p}, 1, bombard)[0]["dodge"]
        for p in (-2, 0)
    }
    assert dodge[0] - dodge[-2] == 2


def test_ms_rounding_sets_a_poorly_handled_ships_dodge() -> None:
    """ship.ms_rounding: the merchant under a Poor helm with a Poor crew has MS -1/2:
    0 rounded toward +infinity, -1 away from zero - her dodge of the same shot is a
    level worse."""
    text = FADAD_DUEL.replace(
        "skills: {Helm: Good, Sword: Good}", "skills: {Helm: Poor, Sword: Good}"
    )
    text = text.replace("crew_skill: Fair", "crew_skill: Poor")
    dodge = {
        r: fadad_shots({"ship.ms_rounding": r}, 1, text=text)[0]["dodge"]
        for r in ("toward_positive", "away_from_zero")
    }
    assert dodge["toward_positive"] - dodge["away_from_zero"] == 1


def test_fadad_negative_cap_caps_a_ram_that_hardly_bites() -> None:
    """ship.fadad_negative_cap: ramming the little cutter, Wolf's Tooth's own damage has a
    negative base (-2): with +4 on the dice it is capped at 1, uncapped it is 2."""
    for cap, own in ((True, 1), (False, 2)):
        battle = fleet_ram({"ship.fadad_negative_cap": cap}, "Swallow", 0.99)
        hurt = {e.actor: dict(e.outcome)["damage"] for e in events(battle, "ship_damage")}
        assert hurt["Wolf's Tooth"] == own


def test_piercing_entangle_pct_sets_how_often_a_piercing_ram_locks() -> None:
    """ship.piercing_entangle_pct: a d100 of 100 entangles the rammer with the Hawthorn at
    100%, not at the 50% of the default."""
    for pct, locked in ((50, False), (100, True)):
        battle = fleet_ram({"ship.piercing_entangle_pct": pct}, "Hawthorn", 0.995)
        wolf, hawthorn = ship_named(battle, "Wolf's Tooth"), ship_named(battle, "Hawthorn")
        assert wolf.grappled_with(hawthorn) is locked
