"""The air aboard a burning ship (SJ 7.3): fire fouls it at 10% and 40% of her tonnage,
and everyone breathing it fights worse (PROPOSED ``fire.fouled_air_penalty``,
``fire.deadly_air_penalty``); the fouling is part of ``fire.sj_firefighting``."""

from __future__ import annotations

from dataclasses import replace

from fadad_agents.agents.ships.ship import FireState
from fadad_agents.engine.ships.close import board
from fadad_agents.engine.ships.damage import burn_fires
from fadad_agents.engine.ships.deck import deck_round
from fadad_agents.engine.ships.gunnery import fire_guns
from fadad_agents.engine.ships.turn import missile_fire
from fadad_agents.policies.ships.defaults import NoFirefighting
from fadad_agents.rules.ships.fire import AirQuality
from tests.engine.engine_options_helpers import DUEL, events, member, ships

FIRES = DUEL.replace("  fire.sj_firefighting: true\n", "")  # each test sets it
ARCHERS = DUEL.replace(
    "        model: crews/pirates\n        count: 30\n",
    "        model: crews/pirates\n        count: 30\n        weapon: weapons/bow\n",
)


def _burn_until_fouled(rules: dict[str, object]) -> tuple[object, object]:
    battle = ships(FIRES, rules)
    salt = battle.ships[0]
    salt.ship_policies = replace(salt.ship_policies, firefighting=NoFirefighting())
    salt.fire_list.append(FireState(0))
    for _ in range(4):  # 0 + 1 + 2 + 3 = 6 points: past 10% of her 40 tons
        burn_fires(battle, salt)
    return battle, salt


def test_fire_fouls_the_air_and_the_log_says_what_it_costs() -> None:
    """SJ 7.3: at 10% of her tonnage burnt the air fouls; the log names the cost."""
    battle, salt = _burn_until_fouled({})
    assert salt.air == AirQuality.FOULED
    assert (
        "The air aboard Saltwind is fouled (fire has burnt 6 points of her 40 tons): "
        "everyone aboard fights at -1." in battle.log.text()
    )


def test_without_sj_firefighting_nobody_fights_a_fire_and_the_air_stays_fresh() -> None:
    """fire.sj_firefighting off: a fire is not fought (no hands put it out) and burns
    without fouling the air (the rule comes with Spelljammer firefighting, C-08)."""
    for on in (True, False):
        battle = ships(FIRES, {"fire.sj_firefighting": on})
        salt = battle.ships[0]
        salt.fire_list.append(FireState(3))
        burn_fires(battle, salt)
        fire = events(battle, "fire", "Saltwind")[0]
        assert (dict(fire.modifiers)["firefighters"] > 0) is on
    battle, salt = _burn_until_fouled({"fire.sj_firefighting": False})
    assert salt.fire_damage == 6
    assert salt.air == AirQuality.FRESH
    assert not events(battle, "air")


def test_a_crew_breathing_foul_air_shoots_worse_by_its_levels() -> None:
    """fire.fouled_air_penalty / deadly_air_penalty: 30 pirate archers (+1) on a fouled
    deck shoot at -1 (1 level, 2 d20 points), on a deadly one at -5 (3 levels); with the
    penalties at 0 foul air costs nothing."""
    cases = (
        (AirQuality.FRESH, {}, 1),
        (AirQuality.FOULED, {}, -1),
        (AirQuality.DEADLY, {}, -5),
        (AirQuality.DEADLY, {"fire.deadly_air_penalty": 0}, 1),
        (AirQuality.FOULED, {"fire.fouled_air_penalty": 0}, 1),
    )
    for air, rules, bonus in cases:
        battle = ships(ARCHERS, rules)
        salt, gannet = battle.ships
        gannet.air = air
        battle.place(gannet, salt.hex, gannet.facing)
        missile_fire(battle, gannet, salt)
        volley = events(battle, "volley", "Gannet crew")[0]
        assert dict(volley.modifiers)["attack_bonus"] == bonus, (air, rules)


def test_a_character_on_a_fouled_deck_fights_a_level_worse() -> None:
    """On Saltwind's fouled deck Captain Mara Vell strikes at -1 (every roll), and at 0
    with fire.fouled_air_penalty 0; her crew and the boarders on that deck breathe it too."""
    for penalty in (1, 0):
        battle = ships(DUEL, {"fire.fouled_air_penalty": penalty})
        salt, gannet = battle.ships
        salt.air = AirQuality.FOULED
        battle.place(gannet, salt.hex, gannet.facing)
        battle.lash(gannet, salt)
        board(battle, gannet, salt)
        for _ in range(6):
            deck_round(battle, salt)
        blows = [e for e in battle.log if e.actor == "Captain Mara Vell" and e.target]
        assert blows
        assert {dict(e.modifiers).get("attacker_penalty") for e in blows} == {-penalty}
        assert member(battle, "Saltwind crew").penalty == -penalty
        assert member(battle, "Gannet crew").penalty == -penalty  # boarders breathe it too


def test_a_ship_whose_air_is_deadly_hits_less_in_play() -> None:
    """Played duels on the same seeds: Red Gannet's gunners, choking on deadly air from
    the start, hit less often (d20 at -6) than with fire.deadly_air_penalty 0."""
    hits = {}
    for penalty in (3, 0):
        total = 0
        for seed in range(1, 21):
            battle = ships(DUEL, {"fire.deadly_air_penalty": penalty}, seed)
            battle.ships[1].air = AirQuality.DEADLY
            battle.run_to_end()
            total += sum(e.result != "miss" for e in events(battle, "gunnery", "Red Gannet"))
        hits[penalty] = total
    assert hits[3] < hits[0]


def test_her_big_weapons_lose_the_levels_too() -> None:
    """A gun of a ship in deadly air fires at 6 d20 points less (3 levels)."""
    bonus = {}
    for penalty in (3, 0):
        battle = ships(DUEL, {"fire.deadly_air_penalty": penalty})
        salt, gannet = battle.ships
        gannet.air = AirQuality.DEADLY
        battle.place(gannet, salt.hex, gannet.facing)
        fire_guns(battle, gannet)
        shot = events(battle, "gunnery", "Red Gannet")[0]
        bonus[penalty] = dict(shot.modifiers)["bonus"]
    assert bonus[0] - bonus[3] == 6


def test_a_burning_creature_has_no_air_to_foul() -> None:
    """A gargantuan creature fighting as a ship (the wyrm) has no deck and nobody aboard:
    fire hurts it, but fouls no air."""
    for gargantuan in (False, True):
        battle = ships(FIRES, {"fire.sj_firefighting": True})
        salt = battle.ships[0]
        salt.spec = salt.spec.model_copy(update={"gargantuan": gargantuan})
        salt.ship_policies = replace(salt.ship_policies, firefighting=NoFirefighting())
        salt.fire_list.append(FireState(0))
        for _ in range(4):
            burn_fires(battle, salt)
        assert salt.fire_damage == 6
        assert (salt.air == AirQuality.FRESH) is gargantuan
        assert bool(events(battle, "air")) is not gargantuan
