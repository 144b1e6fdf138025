"""The helm through the engine: take-off from a gravity well, warm-up, new helmsmen, sailing on."""

from __future__ import annotations

from fractions import Fraction

from scipy.stats import chisquare

from fadad_agents.agents.core.base import Status
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.helm import helm_lost, new_helmsman
from fadad_agents.engine.ships.morale import end_of_round
from fadad_agents.rules.ships.crew import MoraleTrigger
from fadad_agents.rules.ships.movement import take_off_outcomes
from tests.engine.conftest import SCENARIOS, FixedDice

DUEL = (SCENARIOS / "ship-duel.yaml").read_text()
SALT = "        speed: 2\n        policies:\n          targeting: {name: nearest_ship}\n"


def _duel(text: str = DUEL, seed: int = 1) -> ShipBattle:
    battle = build_battle(load(text), seed, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle


def _step(battle: ShipBattle, rounds: int = 1) -> None:
    for _ in range(rounds):
        if battle.finished:
            return
        battle.step()


QUIET = DUEL.replace("maneuver: {name: close_and_ram}", "maneuver: {name: hold}").replace(
    "position: [8, -4]", "position: [0, 22]"
)
"""The duel with the reaver holding far off: nobody interferes with the helm."""


def _in_well(size: str, weather: str, landed: bool = True, text: str = QUIET) -> str:
    flag = str(landed).lower()
    well = f"        gravity_well: {{size: {size}, weather: {weather}, landed: {flag}}}\n"
    assert SALT in text
    return text.replace(SALT, SALT + well)


def _events(battle: ShipBattle, action: str, actor: str = "Saltwind") -> list:
    return [e for e in battle.log if e.action == action and e.actor == actor]


def test_ex_sj_12_storm_take_off_from_size_d_through_the_engine() -> None:
    """EX-SJ-12: size D in a storm = 12 rounds, after a 1d8 helm warm-up from the surface;
    no tactical move until she is out of the well."""
    battle = _duel(_in_well("D", "storm"))
    salt = battle.ships[0]
    _step(battle)
    start = dict(_events(battle, "take_off_start")[0].outcome)
    assert start["climb"] == 12
    assert start["warm_up"] in range(1, 9)
    total = start["rounds"]
    assert total == 12 + start["warm_up"]
    while battle.round < total:
        assert salt.grounded
        assert salt.sr == 0
        assert not _events(battle, "maneuver")
        battle.step()
    battle.step()
    out = _events(battle, "take_off")
    assert out
    assert int(out[0].time) == total * battle.round_seconds
    assert not salt.grounded
    assert salt.sr > 0
    assert _events(battle, "maneuver")


def test_take_off_rounds_follow_the_kernel_distribution() -> None:
    """The engine's warm-up + climb is roll_take_off: chi-square against take_off_outcomes."""
    exact = dict(take_off_outcomes("B", "strong_winds", True))
    scenario = load(_in_well("B", "strong_winds"))
    counts = dict.fromkeys(exact, 0)
    n = 320
    for seed in range(n):
        battle = build_battle(scenario, seed, collect=False)
        assert isinstance(battle, ShipBattle)
        battle.step()
        counts[dict(_events(battle, "take_off_start")[0].outcome)["rounds"]] += 1
    assert sum(exact.values()) == Fraction(1)
    observed = [counts[k] for k in sorted(exact)]
    expected = [float(exact[k]) * n for k in sorted(exact)]
    assert chisquare(observed, expected).pvalue > 1e-4


def test_in_flight_start_needs_no_warm_up() -> None:
    """SJ 1.2: a ship already aloft in the well only climbs (no 1d8 warm-up)."""
    battle = _duel(_in_well("A", "gale", landed=False))
    _step(battle)
    start = dict(_events(battle, "take_off_start")[0].outcome)
    assert (start["warm_up"], start["climb"], start["rounds"]) == (0, 4, 4)
    assert not battle.ships[0].warming


def test_no_take_off_in_a_hurricane() -> None:
    """SJ 1.2: a hurricane allows no take-off: she never makes a tactical move."""
    battle = _duel(_in_well("A", "hurricane"))
    _step(battle, 6)
    salt = battle.ships[0]
    assert "cannot take off" in str(_events(battle, "take_off")[0].result)
    assert salt.grounded
    assert salt.sr == 0
    assert not _events(battle, "maneuver")


def test_helm_shock_interrupts_the_warm_up_and_a_new_helmsman_starts_over() -> None:
    """A helm shock mid warm-up: the captain (Helm Good) takes over and warms up from the
    start; the rounds already climbed are kept (the process is interrupted, not lost)."""
    battle = _duel(_in_well("C", "normal"))
    salt = battle.ships[0]
    _step(battle)
    assert salt.warming
    proc = salt.helm_process
    helm_lost(battle, salt, "helm shock")
    assert salt.helm_process is proc
    assert proc.is_alive
    assert salt.helmsman is not None
    assert salt.helmsman.name == "Captain Mara Vell"
    assert salt.helm == 1  # her Helm: Good
    _step(battle)
    warmups = _events(battle, "helm_warmup")
    assert warmups
    assert dict(warmups[-1].outcome)["who"] == "Captain Mara Vell"
    rounds = dict(warmups[-1].outcome)["rounds"]
    ready_at = int(warmups[-1].time) + rounds * battle.round_seconds
    while int(battle.env.now) <= ready_at + 2 * battle.round_seconds:
        battle.step()
    assert not salt.grounded
    assert int(_events(battle, "take_off")[0].time) == ready_at + 2 * battle.round_seconds


def test_helm_shock_in_open_space_stops_her_until_the_new_helm_is_warm() -> None:
    """A failed helm-shock save: SR 0 while the new helmsman warms up 1d8 rounds, then she
    maneuvers again."""
    battle = _duel(QUIET)
    salt = battle.ships[0]
    battle.helm_rng = FixedDice(0.3)  # 1d8 = 3
    helm_lost(battle, salt, "helm shock")
    assert salt.sr == 0
    assert salt.warming
    battle.step()
    battle.step()
    assert salt.sr == 0
    battle.step()
    assert not salt.warming
    assert salt.sr > 0
    assert _events(battle, "helm_ready")


def test_nobody_to_take_the_helm_leaves_it_dead() -> None:
    """Without a named hand with a helm skill the helm stays dead (SR 0) for good."""
    text = DUEL.replace("skills: {Helm: Good, Sword: Good}", "skills: {Sword: Good}")
    battle = _duel(text)
    salt = battle.ships[0]
    helm_lost(battle, salt, "helm shock")
    assert salt.helm_out
    assert salt.sr == 0
    assert salt.ms is None
    assert dict(_events(battle, "helm_change")[0].outcome)["result"] == "nobody"
    _step(battle, 10)
    assert salt.sr == 0


def test_a_named_helmsman_taken_out_hands_over_the_helm() -> None:
    """A named helmsman who falls leaves the helm; nobody else can steer: the helm is dead."""
    battle = _duel()
    salt = battle.ships[0]
    mara = next(m for m in battle.people if m.name == "Captain Mara Vell")
    assert new_helmsman(battle, salt, "the captain takes over", who=mara)
    battle.take_out(mara, "slain")
    _step(battle)
    assert salt.helmsman is None
    assert salt.helm_out


def test_a_player_character_sails_a_struck_ship_on() -> None:
    """``sail_on``: the crew strikes, the PC captain takes the helm and she flees on."""
    text = DUEL.replace(
        "surrender: {name: strike_colours, params: {hull_fraction: 0.25}}",
        "surrender: {name: sj_morale, params: {sail_on: true}}",
    )
    battle = _duel(text)
    salt = battle.ships[0]
    battle.ship_morale_rng = FixedDice(0.99)  # 2d10 = 20: the check fails
    salt.memory["triggers"] = {MoraleTrigger.CRITICAL_HIT}
    end_of_round(battle)
    assert salt.struck
    assert salt.status is Status.FIGHTING
    mara = next(m for m in battle.people if m.name == "Captain Mara Vell")
    assert mara.fighting
    assert salt.helmsman is mara
    crew = next(m for m in battle.people if m.name == "Saltwind crew")
    assert crew.status is Status.SURRENDERED
    assert salt.ship_policies.maneuver.intent == "flee"
    assert _events(battle, "sail_on")
    for _ in range(12):
        if not salt.fighting:
            break
        _step(battle)
    moved = [e for e in _events(battle, "maneuver") if dict(e.outcome)["result"]]
    assert moved or not salt.fighting


def test_without_sail_on_a_struck_ship_surrenders() -> None:
    """The default colours policy: a struck ship and her people surrender, PC or not."""
    battle = _duel()
    salt = battle.ships[0]
    battle.ship_morale_rng = FixedDice(0.99)
    salt.memory["triggers"] = {MoraleTrigger.CRITICAL_HIT}
    end_of_round(battle)
    assert salt.status is Status.SURRENDERED
    assert not _events(battle, "sail_on")


def _landing(extra: str = "") -> str:
    text = _in_well("B", "strong_winds", landed=False)
    text = text.replace("maneuver: {name: flee}", "maneuver: {name: land}")
    return text.replace(SALT, SALT + extra)


def test_a_ship_aloft_in_a_well_lands_in_the_climb_time_and_leaves_the_fight() -> None:
    """SJ 1.2: landing through the well takes the same rounds (B x2 = 4); down, she is out
    of the tactical fight with everyone aboard (near a planet, escape is landing)."""
    battle = _duel(_landing())
    salt = battle.ships[0]
    battle.step()
    start = dict(_events(battle, "landing_start")[0].outcome)
    assert start["rounds"] == 4
    assert not _events(battle, "take_off_start")
    while battle.round < 4:
        assert salt.grounded
        assert salt.fighting
        battle.step()
    landed = _events(battle, "landed")
    assert landed
    assert int(landed[0].time) == 4 * battle.round_seconds
    assert salt.status is Status.WITHDRAWN
    crew = next(m for m in battle.people if m.name == "Saltwind crew")
    assert crew.status is not Status.FIGHTING
    assert "Saltwind lands" in battle.log.text()


def test_a_ship_that_cannot_land_safely_stays_aloft() -> None:
    """SJ 1.2: only ships able to land on water or land can land safely."""
    battle = _duel(_landing("        landing: none\n"))
    battle.step()
    assert dict(_events(battle, "landing")[0].outcome)["result"] == "cannot land safely"
    assert not _events(battle, "landing_start")


def test_a_named_helmsman_stays_at_the_helm_when_the_others_board() -> None:
    """PROPOSED: the boarding party leaves the named helmsman aboard at the helm."""
    battle = _duel()
    salt = battle.ships[0]
    mara = next(m for m in battle.people if m.name == "Captain Mara Vell")
    assert mara in battle.boarding_party(salt)
    new_helmsman(battle, salt, "the captain takes over", who=mara)
    assert mara not in battle.boarding_party(salt)


def test_from_the_surface_the_helm_warms_up_first() -> None:
    """GravityWell.landed (SJ 1.2): landed in a size B well in strong winds she warms the
    helm up 1d8 rounds and then climbs 4; already aloft she only climbs the 4."""
    for landed in (True, False):
        battle = _duel(_in_well("B", "strong_winds", landed))
        _step(battle)
        start = dict(_events(battle, "take_off_start")[0].outcome)
        assert start["climb"] == 4
        assert (start["warm_up"] in range(1, 9)) is landed
        assert start["rounds"] == 4 + start["warm_up"]
        assert start["warm_up"] == 0 or landed
