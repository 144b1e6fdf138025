"""Big weapons at ships and at crews: the FADAD dodge against a weapon's projectile."""

from __future__ import annotations

from dataclasses import replace

from fadad_agents.engine.ships.gunnery import fire_guns
from fadad_agents.hexmap import DIRECTIONS
from fadad_agents.policies.ships.defaults import SweepDecks
from tests.engine.engine_options_helpers import FADAD_RULES, events, ships
from tests.engine.ships.helpers import FADAD_DUEL


def _dodges(weapon_line: str) -> list[int]:
    """The merchant's dodge against each shot the reaver fires at her from 2 hexes."""
    text = FADAD_DUEL.replace(
        "        model: ships/reaver-longship\n",
        f"        model: ships/reaver-longship\n        weapons: [{weapon_line}]\n",
        1,
    )
    battle = ships(text, FADAD_RULES)
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex + DIRECTIONS[0] * 2, 3)
    battle.round = 1
    fire_guns(battle, gannet)
    return [
        dict(e.outcome)["dodge"] for e in events(battle, "gunnery") if "dodge" in dict(e.outcome)
    ]


def test_a_weapons_projectile_penalty_sets_the_targets_dodge() -> None:
    """ShipWeapon.projectile_penalty: a ballista bolt takes 2 off the merchant's dodge by its
    family (FADAD 3); a bolt said to be -5 takes 5, on the same dice."""
    plain = _dodges("{model: big-weapons/ballista-medium, arc: any}")
    fast = _dodges("{model: big-weapons/ballista-medium, arc: any, projectile_penalty: -5}")
    assert plain
    assert [d - 3 for d in plain] == fast


def test_a_shot_at_her_crew_strikes_any_one_on_her_deck_named_or_not() -> None:
    """SJ 4: a large weapon aimed at the crew hits a random individual on the deck - "any
    of the 10 may be hit" - so the merchant's captain is struck about once in fifteen
    shots (she and 14 hands), and takes the bolt as a wound."""
    battle = ships()
    salt, gannet = battle.ships
    gannet.ship_policies = replace(gannet.ship_policies, targeting=SweepDecks())
    battle.place(gannet, salt.hex + DIRECTIONS[0] * 2, 3)
    victims: list[str] = []
    for shot in range(150):
        battle.round = shot + 1
        for team in gannet.teams:
            team.loaded, team.fired_round = True, -1
        fire_guns(battle, gannet)
        victims += [
            dict(e.outcome)["crew"]
            for e in events(battle, "gunnery")
            if e.round == shot + 1 and dict(e.outcome).get("crew")
        ]
        if not salt.fighting or not battle.fighters_on(salt):
            break
    assert "Captain Mara Vell" in victims
    assert events(battle, "struck", "Captain Mara Vell")
    assert victims.count("Saltwind crew") > victims.count("Captain Mara Vell")
