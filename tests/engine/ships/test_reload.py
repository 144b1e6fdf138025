"""WeaponTeam reloads on the SimPy clock, interrupted by casualties and recomputed (EX-SJ-01)."""

from __future__ import annotations

from collections.abc import Generator

import mesa
import pytest
import simpy

from fadad_agents.agents.ships.weapon_team import (
    Held,
    Reload,
    WeaponTeam,
    hand_over,
    reloads_until,
)
from fadad_agents.engine import build_battle, load, run
from fadad_agents.engine.ships import battle as ship_battle
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.schema.equipment import ShipWeapon
from tests.engine.conftest import SCENARIOS

R = 60  # one FADAD ship round
BOMBARD = ShipWeapon(
    name="Bombard", family="bombard", crew=3, reload_rounds=3, damage=23, range_mods=(-3, -1, 2)
)


class _Ship:
    name = "Test ship"

    def guns_manned(self) -> None:
        """A real ship counts her sailing crew again; this one has none."""


def _team(env: simpy.Environment, crew: int = 3, proportional: bool = False) -> WeaponTeam:
    team = WeaponTeam(
        mesa.Model(rng=1),
        weapon=BOMBARD,
        ship=_Ship(),
        label="Bombard",
        env=env,
        round_seconds=R,
        proportional=proportional,
    )
    team.set_crew(crew)
    return team


def _loaded_at(env: simpy.Environment, team: WeaponTeam, events: dict[float, int]) -> int:
    """Fire at 0, apply the crew changes at their times, return when it is loaded again."""
    done: list[int] = []
    team.on_loaded = lambda t, rounds: done.append(int(env.now))

    def changes() -> Generator[simpy.Event, None, None]:
        for at, crew in sorted(events.items()):
            yield env.timeout(at - env.now)
            team.set_crew(crew)

    team.fire(1)
    env.process(changes())
    env.run(until=20 * R)
    assert team.loaded
    return done[0]


def test_ex_sj_01_full_and_short_crews() -> None:
    """EX-SJ-01: crew 3, rate 1/3: 3 men 3 rounds, 2 men 4, 1 man 5."""
    for crew, rounds in ((3, 3), (2, 4), (1, 5)):
        env = simpy.Environment()
        team = _team(env, crew)
        assert team.total_rounds(crew) == rounds
        assert _loaded_at(env, team, {}) == rounds * R


def test_ex_sj_01_crewman_lost_mid_reload_recomputes_the_total() -> None:
    """EX-SJ-01: three start, one falls mid-reload: 4 rounds in all, counting rounds spent."""
    env = simpy.Environment()
    team = _team(env, 3)
    assert _loaded_at(env, team, {90: 2}) == 4 * R


def test_losses_after_the_reload_would_have_ended_finish_at_once() -> None:
    """Rounds already spent count: a loss in round 3 of 3 still ends at the new total."""
    env = simpy.Environment()
    team = _team(env, 3)
    assert _loaded_at(env, team, {150: 1}) == 5 * R


def test_whole_crew_lost_then_a_new_crew_starts_over() -> None:
    """SJ 6.1: a partly loaded weapon that loses its whole crew starts over with a new one."""
    env = simpy.Environment()
    team = _team(env, 3)
    assert _loaded_at(env, team, {90: 0, 200: 3}) == 200 + 3 * R


def test_reload_rule_proportional_scales_the_time() -> None:
    """A-37 option: time x crew needed / crew present, rounded up (3 x 3/2 -> 5)."""
    env = simpy.Environment()
    team = _team(env, 2, proportional=True)
    assert _loaded_at(env, team, {}) == 5 * R


def test_casualties_in_battle_slow_the_guns_and_are_logged() -> None:
    """Through the engine: crew losses reassign hands (reload policy), the reload runs late."""
    battle = build_battle(load(SCENARIOS / "fleet-action.yaml"), 2, collect=False)
    assert isinstance(battle, ShipBattle)
    sow = next(s for s in battle.ships if s.name == "Iron Sow")
    bombard = sow.teams[0]
    assert (bombard.weapon.family, bombard.crew, bombard.needed) == ("bombard", 3, 3)
    crew = battle.home_crews(sow)[0]
    bombard.fire(0)  # fired at 0:00, due at 3:00 with three hands

    def massacre() -> Generator[simpy.Event, None, None]:
        yield battle.env.timeout(90)
        battle.casualties(crew, crew.count - 2)  # two hands left for the whole ship
        battle.refresh_crews()

    battle.env.process(massacre())
    battle.env.run(until=91)
    assert bombard.crew == 2
    battle.env.run(until=3 * 60 + 1)
    assert not bombard.loaded
    battle.env.run(until=4 * 60 + 1)
    assert bombard.loaded
    late = [e for e in battle.log if e.action == "reload"]
    assert dict(late[0].outcome)["rounds"] == 4


def test_crew_changes_in_one_step_are_heard_after_it_with_the_hands_then() -> None:
    """A loss and a partial return in the same instant recompute the reload once the step
    is over, with the hands at the weapon then (two of three: 4 rounds, not 5)."""
    env = simpy.Environment()
    team = _team(env, 3)
    done: list[int] = []
    team.on_loaded = lambda t, rounds: done.append(int(env.now))

    def both_at_once() -> Generator[simpy.Event, None, None]:
        yield env.timeout(0)
        team.set_crew(1)  # a loss: the reload will be recomputed after this step
        team.set_crew(2)  # hands back, no new recompute of its own

    team.fire(1)
    env.process(both_at_once())
    env.run(until=20 * R)
    assert done == [4 * R]


def test_reloads_ending_at_one_instant_end_in_the_order_they_began() -> None:
    """Two weapons fired in turn that finish at the same instant finish in that order (a
    'loaded late' line per weapon keeps the order of their shots)."""
    env = simpy.Environment()
    first, second = _team(env, 2), _team(env, 2)
    order: list[str] = []
    first.on_loaded = lambda t, rounds: order.append("first")
    second.on_loaded = lambda t, rounds: order.append("second")
    first.fire(1)
    second.fire(1)
    env.run(until=20 * R)
    assert order == ["first", "second"]
    assert not first.reloading
    assert not second.reloading


def test_reloads_the_round_driver_plays_itself_play_the_same_battle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where nothing but reloads is due by a round's end, the ship-round driver plays them
    itself (``reloads_until``), those its ship phase began held off the clock's queue,
    instead of waiting on SimPy: the same battles, byte for byte, as handing every held
    reload to the queue and waiting on the clock for every round (duels, a fleet action,
    boarding)."""
    played: list[bool] = []

    def counting(env: simpy.Environment, due: float, held: Held) -> bool:
        waiting = any(when <= due for when, *_ in [*env._queue, *held])
        done = reloads_until(env, due, held)
        played.append(done and waiting)
        return done

    def waiting_on_the_clock(env: simpy.Environment, due: float, held: Held) -> bool:
        hand_over(env, held)
        return False

    for name in ("ship-duel", "fleet-action", "boarding-action"):
        for seed in (1, 2, 3):
            monkeypatch.setattr(ship_battle, "reloads_until", counting)
            own = run(SCENARIOS / f"{name}.yaml", seed).log.to_jsonl()
            monkeypatch.setattr(ship_battle, "reloads_until", waiting_on_the_clock)
            waited = run(SCENARIOS / f"{name}.yaml", seed).log.to_jsonl()
            assert own == waited, (name, seed)
    assert any(played)  # reload events were played by the driver, not merely skipped


@pytest.mark.parametrize("handed", [False, True])
def test_held_reload_ends_merge_with_the_queue_in_booking_order(handed: bool) -> None:
    """Reload ends at one instant, some held off the clock's queue by the ship-round
    driver and some booked on it, end in the order they were booked (their event ids),
    whether the driver plays them itself or hands the held ones to SimPy."""
    env = simpy.Environment()
    teams = {name: _team(env, 2) for name in ("first", "second", "third")}
    order: list[str] = []
    for name, team in teams.items():
        team.on_loaded = lambda t, rounds, name=name: order.append(name)
    held: Held = []
    teams["first"].fire(1)  # its start an URGENT event, its end booked on the queue
    env.step()
    begins: list[Reload] = []
    teams["second"].model.reload_begins = begins  # as a ship phase hands it on
    teams["second"].fire(1)
    assert len(begins) == 1
    begins[0].begin(held)  # its end held
    teams["third"].fire(1)
    env.step()
    assert len(held) == 1
    assert len(env._queue) == 2
    if handed:
        hand_over(env, held)
        assert not held
        assert len(env._queue) == 3
        env.run(until=4 * R + 1)
    else:
        assert reloads_until(env, 4 * R, held)
        assert env.now == 4 * R
    assert order == ["first", "second", "third"]
    assert all(t.loaded and not t.reloading for t in teams.values())
