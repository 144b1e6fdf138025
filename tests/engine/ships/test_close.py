"""Close action and the chase through the engine: rams, crashes, shears, lines, escape."""

from __future__ import annotations

import random

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.close import (
    crash,
    cut_lines,
    grapple,
    move_ship,
    ram,
    shear,
    towed_by,
)
from fadad_agents.engine.ships.turn import missile_fire
from tests.engine.conftest import SCENARIOS, FixedDice

DUEL = (SCENARIOS / "ship-duel.yaml").read_text()


def _duel(text: str = DUEL, seed: int = 1) -> ShipBattle:
    battle = build_battle(load(text), seed, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle


def test_ex_sj_03_crash_damage() -> None:
    """EX-SJ-03: a ship at 15 of 30 hull points crashes: the other takes 15, it breaks up."""
    battle = _duel()
    salt, gannet = battle.ships
    gannet.hull_damage = 15
    battle.close_rng = FixedDice(0.0)  # the helmsman rolls a 1: no avoiding it
    crash(battle, gannet, salt)
    assert salt.hull_damage == 15
    assert not gannet.fighting
    assert any(e.action == "break_up" and e.actor == "Red Gannet" for e in battle.log)


def test_piercing_ram_holes_and_shakes_the_target() -> None:
    """SJ 9: a piercing ram that hits: Hull Holed and Ship Shaken, ram dice of hull damage."""
    battle = _duel()
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, (salt.facing + 1) % 6)
    battle.initiative_side = gannet.side
    battle.close_rng = FixedDice(0.95)  # d20 = 20 hits; lock roll 96 > 5% x 30 tons fails
    ram(battle, gannet, salt)
    event = next(e for e in battle.log if e.action == "ram")
    assert event.result == "hit"
    assert salt.holed
    assert salt.shaken_round == battle.round
    assert salt.hull_damage == dict(event.outcome)["hull"] > 0


def test_only_the_side_with_initiative_rams() -> None:
    """SJ 9: without initiative (and not a head-on counter) no ram is attempted."""
    battle = _duel()
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    battle.initiative_side = salt.side
    ram(battle, gannet, salt)
    assert not any(e.action == "ram" for e in battle.log)


def test_shear_costs_the_target_a_class() -> None:
    """SJ 11: a successful shear lowers the target's class by one (two at most)."""
    battle = _duel()
    salt, gannet = battle.ships
    battle.close_rng = FixedDice(0.9)  # d20 = 19: a hit, not a critical
    shear(battle, gannet, salt)
    assert salt.shear_losses == 1


def test_ex_sj_04_lines_needed_to_hold() -> None:
    """EX-SJ-04: a 50-ton and a 30-ton ship are grappled with 3 lines; 2 do not hold."""
    battle = build_battle(load(SCENARIOS / "fleet-action.yaml"), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    hawthorn = next(s for s in battle.ships if s.name == "Hawthorn")  # 50 tons
    wolf = next(s for s in battle.ships if s.name == "Wolf's Tooth")  # 30 tons
    battle.add_lines(hawthorn, wolf, 2)
    assert not hawthorn.grappled_with(wolf)
    battle.add_lines(wolf, hawthorn, 1)
    assert hawthorn.grappled_with(wolf)
    assert wolf.grappled_with(hawthorn)
    assert battle.immobilised(hawthorn)


def test_the_lines_the_rounding_option_asks_for_hold_the_ships() -> None:
    """sj.grapple_lines_rounding (A-53): a 25-ton merchant is held by 3 lines (2.5 rounded
    up) or by 2 (down): the reaver's hooks, all caught, throw that many and the ships are
    grappled; one line fewer and they are not (before, 2 never held under floor)."""
    text = DUEL.replace(
        "        model: ships/salt-trader\n", "        model: ships/salt-trader\n        tons: 25\n"
    )
    text = text.replace("rules:\n", "rules:\n  sj.grapple_lines_rounding: {rounding}\n", 1)
    for rounding, lines in (("ceil", 3), ("floor", 2)):
        battle = _duel(text.replace("{rounding}", rounding))
        salt, gannet = battle.ships
        battle.place(gannet, salt.hex, gannet.facing)
        battle.close_rng = FixedDice(0.99)  # every hook catches
        grapple(battle, gannet, salt)
        assert len(battle.lines_between(gannet, salt)) == lines
        assert gannet.grappled_with(salt)
        assert salt.grappled_with(gannet)
        battle.add_lines(gannet, salt, -1)
        assert not gannet.grappled_with(salt)


def test_fleeing_ship_escapes_past_the_capture_distance_and_is_pursued() -> None:
    """SJ 15-16: nothing within 25 hexes: she leaves; the reaver's navigator rolls to follow."""
    text = DUEL.replace("radius: 30", "radius: 60")
    text = text.replace("position: [8, -4]", "position: [24, 0]")
    text = text.replace("maneuver: {name: flee}", "maneuver: {name: flee, params: {order: first}}")
    battle = _duel(text)
    battle.run_to_end()
    actions = [e.action for e in battle.log]
    assert "escape" in actions
    assert "pursuit" in actions
    assert battle.winner == 1
    assert battle.ships[0].status.value == "withdrawn"


def test_rams_happen_in_the_duel() -> None:
    """The reavers' close_and_ram policy rams in play (some seeds)."""
    rams = 0
    for seed in range(10):
        battle = _duel(seed=seed)
        battle.run_to_end()
        rams += sum(1 for e in battle.log if e.action == "ram")
    assert rams > 0


def test_a_stronger_helm_tows_a_grappled_ship() -> None:
    """SJ 14: grappled ships move only if one helm is stronger; the other is dragged along."""
    text = DUEL.replace("maneuver: {name: close_and_ram}", "maneuver: {name: hold}")
    battle = _duel(text)
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    battle.lash(salt, gannet)
    salt.spec = salt.spec.model_copy(update={"sr": 4})
    assert towed_by(battle, salt) == [gannet]
    assert towed_by(battle, gannet) is None  # the weaker helm is inhibited
    move_ship(battle, salt)
    assert salt.moved > 0
    assert gannet.hex == salt.hex
    assert any(e.action == "tow" for e in battle.log)


def test_archers_shoot_across_a_shared_hex_by_rapid_resolution() -> None:
    """SJ 8 and 13: crews with missile weapons volley at the enemy deck; hulls take nothing."""
    text = DUEL.replace(
        "        model: crews/pirates\n        count: 30\n",
        "        model: crews/pirates\n        count: 30\n        weapon: weapons/bow\n",
    )
    battle = _duel(text)
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    before = battle.crew_heads_on(salt)
    missile_fire(battle, gannet, salt)
    volley = next(e for e in battle.log if e.action == "volley")
    assert (volley.actor, volley.target) == ("Gannet crew", "Saltwind crew")
    assert battle.crew_heads_on(salt) == before - dict(volley.outcome)["casualties"]
    assert salt.hull_damage == 0


class _Script(random.Random):
    """A stream that plays back fractions in order (then repeats the last)."""

    def __init__(self, values: list[float]) -> None:
        super().__init__(0)
        self.values = values
        self.i = 0

    def random(self) -> float:
        value = self.values[min(self.i, len(self.values) - 1)]
        self.i += 1
        return value


def test_fadad_ram_damages_both_ships() -> None:
    """FADAD 5.1 (A-44): an opposed MS roll rams; each ship takes a damage number."""
    text = (SCENARIOS / "fleet-action.yaml").read_text()
    battle = build_battle(load(text), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    wolf = next(s for s in battle.ships if s.name == "Wolf's Tooth")  # piercing ram
    hawthorn = next(s for s in battle.ships if s.name == "Hawthorn")
    battle.place(wolf, hawthorn.hex, wolf.facing)
    battle.initiative_side = wolf.side
    wolf.moved = 3
    # one draw per 4dF: rammer +4, target -4, damage rolls +4 (and no entangling)
    battle.close_rng = _Script([0.99, 0.0, 0.99])
    ram(battle, wolf, hawthorn)
    event = next(e for e in battle.log if e.action == "ram")
    assert event.result == "hit"
    hurt = {e.actor for e in battle.log if e.action == "ship_damage"}
    assert hurt == {"Wolf's Tooth", "Hawthorn"}
    assert hawthorn.fadad_damage > wolf.fadad_damage  # the ram took the brunt on Wolf's side


def test_crew_of_a_crashing_ship_that_holds_together_are_hurt() -> None:
    """SJ 10: aboard a crashing ship each saves or takes 1d6 a ton (max 20d6)."""
    battle = _duel()
    salt, gannet = battle.ships
    battle.close_rng = FixedDice(0.0)  # no avoiding it, no saves, every die a 1
    heads = battle.crew_heads_on(gannet)
    crash(battle, gannet, salt)  # 30 of 30 hull points: she loses 15 and holds together
    assert gannet.fighting
    assert gannet.hull_damage == 15
    # 20 dice of 1 = 20 damage >= 4.5 hit points: every crewman aboard is killed
    assert battle.crew_heads_on(gannet) == 0 < heads


def _locked(seed: int = 1) -> ShipBattle:
    """The Gannet's piercing ram has locked her to the fleeing Saltwind."""
    battle = _duel(seed=seed)
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, (salt.facing + 1) % 6)
    battle.lash(gannet, salt, lock=True)
    return battle


def test_a_piercing_ram_lock_parts_when_a_helmsman_pulls_free() -> None:
    """SJ 9: locked ships "cannot separate until the helmsman from either ship
    successfully makes an attack roll": the fleeing merchant's helmsman pulls free on a
    hit, and no axe can cut a lock."""
    battle = _locked()
    salt, gannet = battle.ships
    battle.close_rng = FixedDice(0.0)  # a natural 1: he fails; every axe misses too
    battle.step()
    assert salt.grappled_with(gannet)
    assert battle.log.of("separate")[0].result == "still locked"
    battle = _locked()
    salt, gannet = battle.ships
    battle.close_rng = FixedDice(0.99)  # a natural 20
    battle.step()
    assert dict(battle.log.of("separate")[0].outcome)["result"] == "pulls free"
    assert not salt.grappled_with(gannet)


def test_a_locked_merchant_gets_away_in_the_duel() -> None:
    """The merchant's helmsman eventually pulls her free of a ram lock and she runs on:
    the lock is not forever (before, it never parted)."""
    freed = 0
    for seed in range(6):
        battle = _locked(seed)
        salt, gannet = battle.ships
        for _ in range(8):
            if not (salt.fighting and gannet.fighting):
                break
            battle.step()
        freed += any(e.result == "pulls free" for e in battle.log.of("separate"))
    assert freed


CHAINS = "        model: ships/reaver-longship\n"


def test_a_chain_is_cut_by_blows_that_add_up() -> None:
    """SJ 12: a chain has 20 hit points at AC 4: each blow wears it down, so the merchant's
    axes cut the reaver's chains in time (before, every blow started on a fresh 20 hp)."""
    text = DUEL.replace(CHAINS, CHAINS + "        grapnels: chains\n", 1)
    battle = _duel(text)
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    battle.lash(gannet, salt)  # chains: the reaver's gear
    assert {line[0].name for line in battle.lines_between(salt, gannet)} == {"chain"}
    battle.close_rng = FixedDice(0.5)  # every blow hits AC 4 for 1d6 = 4
    rounds = 0
    while salt.grappled_with(gannet) and rounds < 10:
        battle.round += 1
        cut_lines(battle, salt, gannet)
        rounds += 1
    assert rounds == 5  # 20 hit points, 4 a blow: the fifth blow parts each of the three
    worn = [dict(e.outcome)["worn"] for e in battle.log.of("cut_lines")]
    assert worn[0] == (16, 16, 16)
    assert worn[3] == (4, 4, 4)


def test_ram_dice_grow_with_the_speed_she_strikes_at() -> None:
    """sj.ram_dice_by_speed: the reaver's 3d6 ram is for her full SR 3: after one hex she
    rolls 1d6, after three 3d6; off, 3d6 at any speed."""
    for by_speed, moved, dice in ((True, 1, "1d6"), (True, 3, "3d6"), (False, 1, "3d6")):
        text = DUEL.replace(
            "rules:\n", f"rules:\n  sj.ram_dice_by_speed: {str(by_speed).lower()}\n"
        )
        battle = _duel(text)
        salt, gannet = battle.ships
        battle.place(gannet, salt.hex, (salt.facing + 1) % 6)
        gannet.moved = moved
        battle.initiative_side = gannet.side
        battle.close_rng = FixedDice(0.95)
        ram(battle, gannet, salt)
        assert dict(battle.log.of("ram")[0].modifiers)["dice"] == dice


def test_fadad_ram_damage_counts_the_relative_speed() -> None:
    """FADAD 5.1: damage = the other's Mass + relative speed in SR + 2: the reaver at 3
    hexes meets the merchant head-on at 2 (5 SR apart) or overtakes her (1 SR)."""
    fadad = DUEL.replace(
        "  ship.damage_model: sj_hull_points\n  ship.crit_table: sj_d20\n",
        "  ship.damage_model: fadad_levels\n  ship.crit_table: fadad_6dF\n",
    )
    for merchant_facing, relative in ((3, 5), (0, 1)):
        battle = _duel(fadad)
        salt, gannet = battle.ships
        battle.place(salt, salt.hex, merchant_facing)
        battle.place(gannet, salt.hex, 0)
        gannet.moved, salt.speed = 3, 2
        battle.initiative_side = gannet.side
        battle.close_rng = FixedDice(0.99)  # she rams; every 4dF roll +4
        ram(battle, gannet, salt)
        assert dict(battle.log.of("ram")[0].modifiers)["relative_sr"] == relative


def test_ex_sj_08_ramming_size_limits() -> None:
    """EX-SJ-08: a 100-ton ship cannot ram one of 10 tons or less (the small ship checks
    for a crash) nor one of over 300 tons (she checks for a crash); a grappling ram
    takes a 5-ton boat but not a 301-ton ship."""
    cases = (
        ("piercing", 10, ("crash", "Saltwind")),
        ("piercing", 11, ("ram", "Red Gannet")),
        ("piercing", 300, ("ram", "Red Gannet")),
        ("piercing", 301, ("crash", "Red Gannet")),
        ("grappling", 5, ("ram", "Red Gannet")),
        ("grappling", 301, ("crash", "Red Gannet")),
    )
    for kind, tons, (action, actor) in cases:
        battle = _duel()
        salt, gannet = battle.ships
        gannet.spec = gannet.spec.model_copy(update={"tons": 100, "ram": kind})
        salt.spec = salt.spec.model_copy(update={"tons": tons})
        battle.place(gannet, salt.hex, (salt.facing + 1) % 6)
        battle.initiative_side = gannet.side
        ram(battle, gannet, salt)
        first = next(e for e in battle.log if e.action in ("ram", "crash"))
        assert (first.action, first.actor) == (action, actor), (kind, tons)
