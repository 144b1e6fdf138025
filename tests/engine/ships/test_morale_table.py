"""What calls a ship's crew to a morale check and what the modifier table adds (SJ 18)."""

from __future__ import annotations

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.damage import apply_effect
from fadad_agents.engine.ships.helm import helm_lost
from fadad_agents.engine.ships.morale import (
    _fleet_strength,
    check_morale,
    end_of_round,
    morale_events,
)
from fadad_agents.rules.ships import effects as fx
from fadad_agents.rules.ships.crew import MoraleEvent, MoraleTrigger
from tests.engine.conftest import SCENARIOS, WIZARD
from tests.engine.engine_options_helpers import (
    DUEL,
    MOONLET,
    FixedDice,
    aboard_saltwind,
    events,
    member,
    ships,
)

SALTWIND = "        model: ships/salt-trader\n"


def _triggers(battle: object) -> set[str]:
    return {t for e in events(battle, "ship_morale") for t in dict(e.outcome)["triggers"]}


def _situation(*names: str) -> str:
    return DUEL.replace(SALTWIND, SALTWIND + f"        crew_situation: [{', '.join(names)}]\n")


def test_all_officers_gone_calls_a_check() -> None:
    """SJ 18: "all officers desert, are slain, or surrender": her last named hand gone."""
    battle = ships()
    battle.take_out(member(battle, "Captain Mara Vell"), "slain")
    end_of_round(battle)
    assert "officers_gone" in _triggers(battle)


def test_a_fleeing_ship_held_fast_sees_she_cannot_escape() -> None:
    """SJ 18: "it is apparent the ship cannot escape": the merchant means to flee but is
    grappled alongside the reaver."""
    battle = ships()
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    battle.lash(salt, gannet)
    end_of_round(battle)
    assert "cannot_escape" in _triggers(battle)


def test_crewmen_slain_by_a_spell_call_a_check() -> None:
    """SJ 18: "an ally or crewman is slain by magic": a spell's blast kills a reaver."""
    battle = ships(aboard_saltwind(WIZARD))
    gannet = battle.ships[1]
    battle.crit_rng = FixedDice(0.0)  # the victim and both bystanders are struck down
    apply_effect(battle, gannet, fx.DeckCrew(damage=40), "Magister Orlen")
    end_of_round(battle)
    assert "slain_by_magic" in {
        t for e in events(battle, "ship_morale", "Red Gannet") for t in dict(e.outcome)["triggers"]
    }


def test_an_obviously_superior_force_calls_a_check_by_ratio() -> None:
    """sj.superior_force_ratio: 30 reavers against the merchant's 15 are a superior force at
    2:1, not at the default 3:1; each side's crew checks when it first sees it."""
    for ratio, seen in ((2, True), (3, False)):
        battle = ships(rules={"sj.superior_force_ratio": ratio})
        end_of_round(battle)
        assert ("superior_force" in _triggers(battle)) is seen
        end_of_round(battle)
        assert len(events(battle, "ship_morale")) == int(seen)  # once, not every round


def test_the_strength_kept_between_rounds_is_the_strength_counted_afresh() -> None:
    """The sides' tons and heads the superior-force trigger reads are counted again only
    when a side's strength fell: after every round of whole battles (duels, a fleet
    action, a boarding) they are what a fresh count finds."""
    rounds = 0
    for name in ("ship-duel", "fleet-action", "boarding-action"):
        for seed in (1, 2, 3):
            battle = build_battle(load(SCENARIOS / f"{name}.yaml"), seed)
            while not battle.finished:
                battle.play_round()
                kept = _fleet_strength(battle)
                battle.strength_kept = None  # forget it: count again
                assert _fleet_strength(battle) == kept, (name, seed, battle.round)
                rounds += 1
    assert rounds > 20


def test_a_surprised_crew_checks_at_the_end_of_the_first_round() -> None:
    """SJ 18: a surprised crew checks on the first turn after, at -2 that round only."""
    battle = ships(_situation("surprised"))
    battle.round = 1
    end_of_round(battle)
    (check,) = events(battle, "ship_morale")
    assert dict(check.outcome)["triggers"] == ("surprised",)
    assert dict(check.modifiers)["surprised"] == -2
    battle.round = 2
    assert MoraleEvent.SURPRISED not in morale_events(battle, battle.ships[0], set())


def test_the_crews_standing_situation_enters_the_table() -> None:
    """Ship.crew_situation: plunder +2, hated enemy +4, poorly treated -4 ... as named."""
    named = _situation("plunder_share", "hated_enemy", "poorly_treated", "defending_home")
    found = set(morale_events(ships(named), ships(named).ships[0], set()))
    plain = set(morale_events(ships(), ships().ships[0], set()))
    extra = {
        MoraleEvent.PLUNDER_SHARE,
        MoraleEvent.HATED_ENEMY,
        MoraleEvent.POORLY_TREATED,
        MoraleEvent.DEFENDING_HOME,
    }
    assert found - plain == extra
    assert not extra & plain


def test_a_lost_helmsman_no_enemy_slain_and_a_mage_aboard_count() -> None:
    """SJ 18: spelljamming mage slain -3; no enemy slain +2 until one falls; a magic-using
    creature on her side +2."""
    battle = ships(aboard_saltwind(WIZARD))
    salt, gannet = battle.ships
    assert MoraleEvent.NO_ENEMY_SLAIN in morale_events(battle, salt, set())
    assert MoraleEvent.MAGIC_USER_ALLY in morale_events(battle, salt, set())
    assert MoraleEvent.MAGIC_USER_ALLY not in morale_events(battle, gannet, set())
    assert MoraleEvent.SPELLJAMMER_SLAIN not in morale_events(battle, salt, set())
    helm_lost(battle, salt, "helm shock")
    assert MoraleEvent.SPELLJAMMER_SLAIN in morale_events(battle, salt, set())
    battle.casualties(member(battle, "Gannet crew"), 1)
    assert MoraleEvent.NO_ENEMY_SLAIN not in morale_events(battle, salt, set())


def test_a_creature_counts_its_hit_points_not_a_hull() -> None:
    """SJ 18: a gargantuan creature fighting as a ship has lost 50% of its HP (-4), not 50%
    of a hull."""
    battle = ships(MOONLET)
    wyrm = battle.ships[1]
    wyrm.hull_damage = wyrm.spec.hull_points // 2 + 1
    found = morale_events(battle, wyrm, set())
    assert MoraleEvent.CREATURE_HP_50 in found
    assert MoraleEvent.HULL_50 not in found


def test_morale_stacking_cumulative_adds_every_grade_crossed() -> None:
    """sj.morale_stacking: at half her hull lost the merchant's crew takes -4 (worst entry
    of the family); cumulative, -2 and -4."""
    targets = {}
    for stacking in ("worst_per_family", "cumulative"):
        battle = ships(rules={"sj.morale_stacking": stacking})
        salt = battle.ships[0]
        salt.hull_damage = salt.spec.hull_points // 2
        check_morale(battle, salt, {MoraleTrigger.CRITICAL_HIT})
        (check,) = events(battle, "ship_morale")
        mods = dict(check.modifiers)
        assert mods["hull_50"] == -4
        assert ("hull_25" in mods) is (stacking == "cumulative")
        targets[stacking] = dict(check.outcome)["target"]
    assert targets["cumulative"] == targets["worst_per_family"] - 2
