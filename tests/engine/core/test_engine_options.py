"""The engine's PROPOSED readings are options: each one, set off its default, changes play
the way its description says (``engine.*``, ``ship.*``, ``mass.*``, ``fae.*``; the ``sj.*``
readings are in ``test_engine_options_sj.py``)."""

from __future__ import annotations

from typing import Any

from fadad_agents.agents.core.groups import Unit
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.fae.battle import FaeBattle
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.close import move_options
from fadad_agents.engine.ships.damage import apply_effect, crew_hit
from fadad_agents.engine.ships.gunnery import fire_guns
from fadad_agents.hexmap import Hex
from fadad_agents.policies import REGISTRY
from fadad_agents.rules.ships import effects as fx
from fadad_agents.rules.ships.fadad_combat import maneuver_row
from tests.engine.conftest import SCENARIOS, duel_yaml, fighter
from tests.engine.engine_options_helpers import (
    DUEL,
    FADAD_RULES,
    FLEET,
    FixedDice,
    events,
    ships,
    with_rules,
)

# --- engine.* ----------------------------------------------------------------------------

THUGS = """
      - name: Thugs
        kind: crew
        count: 10
        morale: 20
        attack_bonus: 2
        armour_class: 10
        skill: Fair
"""


def test_max_on_one_limits_the_members_that_attack_one_fighter() -> None:
    """engine.max_on_one: 3 members of a crew strike a lone fighter a round; with 1 only one."""
    for limit in (3, 1):
        text = duel_yaml(THUGS, fighter("Bob", skill="Legendary"))
        text = text.replace("rules: {}", f"rules: {{engine.max_on_one: {limit}}}")
        battle = build_battle(load(text), 3, collect=False)
        battle.step()
        blows = [e for e in battle.log if e.actor == "Thugs" and e.round == 1]
        assert blows
        assert len(blows) == limit


def test_ladder_d20_bonus_scales_a_helmsmans_save() -> None:
    """engine.ladder_d20_bonus: Good +5 makes a d20 10 pass a DC 15 helm-shock save; with
    (0, 0) the same roll fails and the helmsman falls into a coma."""
    shock = fx.HelmShock(save=fx.Check("will", 15, "d20"), coma_days=2)
    for scale, shrugs in (((3, 2), True), ((0, 0), False)):
        battle = ships(rules={"engine.ladder_d20_bonus": scale})
        salt = battle.ships[0]
        salt.helm = 1  # Good
        battle.crit_rng = FixedDice(0.45)  # d20 = 10
        apply_effect(battle, salt, shock, "test")
        (effect,) = events(battle, "effect", "Saltwind")
        assert ("shrugs off" in effect.result) is shrugs
        assert ("coma" in effect.result) is not shrugs


# --- ship.* ------------------------------------------------------------------------------


def _fadad_duel(rules: dict[str, Any]) -> ShipBattle:
    text = DUEL.replace("  ship.damage_model: sj_hull_points\n  ship.crit_table: sj_d20\n", "")
    return ships(text, {**FADAD_RULES, **rules})


def test_blast_victims_set_how_many_hands_a_blast_hits() -> None:
    """ship.blast_victims: a FADAD blast (damage 9) takes 3 hands; set to 1 it takes one."""
    for victims in (3, 1):
        battle = _fadad_duel({"ship.blast_victims": victims})
        gannet = battle.ships[1]
        lost = crew_hit(battle, gannet, fx.DeckCrew(9, "blast", 5, None))
        assert lost == victims


def test_crewman_dies_at_damage_sets_the_lethal_damage_number() -> None:
    """ship.crewman_dies_at_damage: a FADAD crew hit of damage 5 is not lethal at 7
    (Incapacitated); at 5 it kills."""
    for at, lost in ((7, 0), (5, 3)):
        battle = _fadad_duel({"ship.crewman_dies_at_damage": at})
        gannet = battle.ships[1]
        assert crew_hit(battle, gannet, fx.DeckCrew(5, "blast", 5, None)) == lost


def test_hull_points_per_damage_number_under_fadad_levels() -> None:
    """ship.hull_points_per_damage_number: 6 hull points lost are damage number 3 under
    FADAD levels; at 1 they are 6."""
    for per, number in ((2, 3), (1, 6)):
        battle = _fadad_duel({"ship.hull_points_per_damage_number": per})
        salt = battle.ships[0]
        apply_effect(battle, salt, fx.HullLoss(6), "test")
        assert salt.fadad_damage == number


def test_shaken_ship_fires_by_option() -> None:
    """ship.shaken_stops_guns: a Ship Shaken result stops all her guns this round; off (the
    default, SJ 5) only a gun whose hands fell is silent, so with nobody down they fire."""
    for stops in (True, False):
        battle = ships(rules={"ship.shaken_stops_guns": stops})
        gannet = battle.ships[1]
        battle.place(gannet, Hex(1, -1), 3)
        battle.round = 1
        gannet.shaken_round = 1
        fire_guns(battle, gannet)
        assert bool(events(battle, "gunnery")) is not stops


def test_fadad_acceleration_limit_can_be_lifted() -> None:
    """ship.fadad_acceleration_limit: from speed 1 the barge makes 1 +- its acceleration
    hexes; without the limit any speed 0..SR."""
    for limit in (True, False):
        battle = ships(FLEET, {"ship.fadad_acceleration_limit": limit})
        sow = next(s for s in battle.ships if s.name == "Iron Sow")
        sow.spec = sow.spec.model_copy(update={"sr": 4})
        sow.speed = 1
        assert sow.ms is not None
        acc = maneuver_row(sow.ms).max_acceleration
        hexes = {len(p) for _, p in move_options(battle, sow)}
        assert hexes == (set(range(max(0, 1 - acc), 2 + acc)) if limit else set(range(5)))


# --- mass.* and fae.* --------------------------------------------------------------------

UNIT = """
      - name: {name}
        kind: unit
        count: 50
        skill: Fair
        morale: Fair
"""


def test_morale_check_level_sets_the_level_a_unit_must_meet() -> None:
    """mass.morale_check_level: a Fair unit rolling 0 on 4dF holds against Fair; against
    Great (2) it breaks."""
    for level, holds in ((0, True), (2, False)):
        text = duel_yaml(UNIT.format(name="Levy"), UNIT.format(name="Guard"))
        text = text.replace("rules: {}", f"rules: {{mass.morale_check_level: {level}}}")
        battle = build_battle(load(text), 1, collect=False)
        levy = _member_of(battle, "Levy")
        assert isinstance(levy, Unit)
        levy.morale_rng = FixedDice(0.5)  # 4dF = 0
        assert levy.roll_morale()[2].passed is holds


def _member_of(battle: Any, name: str) -> Any:
    return next(m for side in battle.sides for m in side.members if m.name == name)


class _Chatter:
    """Always says something: only free actions, as many as a count allows."""

    def choose_action(self, actor: Any, target: Any, battle: Any) -> str:
        return "speak:hold"


def _fae(name: str, x: int, policies: str = "{}") -> str:
    return f"""
      - name: {name}
        attributes: {{strength: 60, agility: 60, luck: 50, reaction: 60}}
        skills: {{Sword: 70, Dodge: 40}}
        wound_points: 60
        fatigue_points: 60
        weapons: [fae/longsword]
        position: [{x}, 0]
        policies: {policies}
"""


def test_free_actions_per_count_caps_the_free_actions_beside_an_action() -> None:
    """fae.free_actions_per_count: a fighter that only speaks says 3 things at its first
    count, then waits; at 1 it says one."""
    REGISTRY.register("fae_action", "test_chatter", _Chatter, replace=True)
    for cap in (3, 1):
        text = f"""
name: chatter
ruleset: fae
rules: {{fae.free_actions_per_count: {cap}}}
sides:
  - name: Red
    forces:{_fae("Ann", 0, "{fae_action: test_chatter}")}
  - name: Blue
    forces:{_fae("Bob", 40)}
stop: {{max_rounds: 1}}
"""
        battle = build_battle(load(text), 1, collect=False)
        assert isinstance(battle, FaeBattle)
        battle.step()
        ann = [e for e in battle.log.events if e.actor == "Ann" and e.action != "reaction_test"]
        first = dict(ann[0].modifiers)["count"]
        at_first = [e.action for e in ann if dict(e.modifiers)["count"] == first]
        assert at_first == ["speak"] * cap + ["delay"]


def test_mount_defence_none_leaves_mounts_undefended() -> None:
    """fae.mount_defence: ridden destriers dodge the trollkin's blows; with 'none' they take
    every blow undefended."""
    text = (SCENARIOS / "fae-mounted-charge.yaml").read_text()
    for defence in ("dodge", "none"):
        dodges = struck = 0
        for seed in range(4):
            battle = build_battle(load(with_rules(text, {"fae.mount_defence": defence})), seed)
            battle.run_to_end()
            log = battle.log.events
            dodges += sum(1 for e in log if e.action == "dodge" and "destrier" in e.actor)
            struck += sum(1 for e in log if "destrier" in str(e.target))
        assert struck > 0
        assert (dodges > 0) is (defence == "dodge")
