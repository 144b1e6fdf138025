"""Units on open ground (``mass.units_at_range``, PROPOSED: mass-combat.md gives no
distances): archers volley while a foe unit closes 30 yards a round; the lines strike
hand to hand within 10 yards; off, every unit reaches every foe from the first round."""

from __future__ import annotations

from typing import Any

from fadad_agents.engine import build_battle, load
from tests.engine.conftest import duel_yaml, fighter
from tests.engine.mass.test_units import unit

ARCHERS = unit("Archers", 80, weapon="weapons/bow", position="[0, 0]")
PIKES = unit("Pikes", 80, position="[150, 0]", morale="Legendary")


def _battle(rules: str = "", rounds: int = 7) -> Any:
    text = duel_yaml(ARCHERS, PIKES, rules=rules, stop=f"max_rounds: {rounds}")
    battle = build_battle(load(text), 2)
    battle.run_to_end()
    return battle


def _rounds(battle: Any, actor: str, action: str) -> list[int]:
    return [e.round for e in battle.log if e.actor == actor and e.action == action]


def test_archers_volley_while_the_pikes_close_then_the_lines_meet() -> None:
    """150 yards apart: the pikes run 30 yards in rounds 1-4 and 20 in round 5 (to 10
    yards), striking first in round 6; the archers volley every round from round 1, the
    range band's Target modifier off their attack (a worse relative degree at 150 yards
    than hand to hand). With the option off the pikes strike in round 1."""
    battle = _battle()
    moves = [dict(e.outcome)["yards"] for e in battle.log.of("move") if e.actor == "Pikes"]
    assert moves == [30, 30, 30, 30, 20]
    assert _rounds(battle, "Pikes", "volley")[0] == 6
    assert _rounds(battle, "Archers", "volley")[:6] == [1, 2, 3, 4, 5, 6]
    off = _battle("mass.units_at_range: false", rounds=1)
    assert _rounds(off, "Pikes", "volley") == [1]
    assert _rounds(off, "Pikes", "move") == []


def test_a_volley_at_long_range_meets_the_bands_target_modifier() -> None:
    """The archers' first volley crosses 150 yards, the bow's long band (Target +5,
    personal-combat.md 6.2): its relative degree is 5 worse than on the same dice with
    the option off (hand to hand), the archers unhurt in both."""

    def first(rules: str) -> dict[str, Any]:
        event = next(e for e in _battle(rules, rounds=1).log.of("volley") if e.actor == "Archers")
        return dict(event.outcome) | dict(event.modifiers)

    at_range, close = first(""), first("mass.units_at_range: false")
    assert at_range["penalty"] == close["penalty"] == 0
    assert close["rd"] - at_range["rd"] == 5


def test_a_longer_mass_round_closes_farther() -> None:
    """mass.round_seconds: the pikes run 30 yards every 6 seconds of a round, so 140 yards
    of the 150 in one 60-second round (striking in round 2, after one volley of arrows)
    and 60 + 60 + 20 in 12-second rounds (striking in round 4)."""

    def closing(seconds: int, rounds: int) -> tuple[list[float], int, list[int]]:
        battle = _battle(f"mass.round_seconds: {seconds}", rounds=rounds)
        moves = [dict(e.outcome)["yards"] for e in battle.log.of("move") if e.actor == "Pikes"]
        return moves, _rounds(battle, "Pikes", "volley")[0], _rounds(battle, "Archers", "volley")

    assert closing(60, 2) == ([140], 2, [1, 2])
    assert closing(12, 4) == ([60, 60, 20], 4, [1, 2, 3, 4])


def test_a_unit_holds_its_course_while_volleys_rerank_its_foes() -> None:
    """Targeting strongest_adjacent ranks the two bands afresh each round, and the bowmen's
    volleys thin whichever is larger, so the larger changes from round to round: the foot
    holds its course at the band it first ran at until that band is gone (it once turned
    back and forth between them, north, south, north ..., and never arrived)."""
    red = unit("Foot", 100, position="[0, 0]", morale="Legendary") + unit(
        "Bowmen", 80, weapon="weapons/bow", position="[-20, 0]", skill="Legendary"
    )
    blue = unit("North band", 60, position="[300, -150]", skill="Poor") + unit(
        "South band", 60, position="[300, 150]", skill="Poor"
    )
    for seed in (1, 2, 3):
        text = duel_yaml(
            red,
            blue,
            stop="max_rounds: 8",
            a_pol="targeting: strongest_adjacent",
            b_pol="targeting: first",
        )
        battle = build_battle(load(text), seed)
        battle.run_to_end()
        runs = [e.target for e in battle.log.of("move") if e.actor == "Foot"]
        legs = [name for k, name in enumerate(runs) if k == 0 or runs[k - 1] != name]
        assert len(runs) >= 3
        assert len(legs) == len(set(legs)), f"seed {seed}: {runs}"


def test_a_band_striking_together_holds_its_course_at_a_lone_fighter() -> None:
    """A unit that ran at a lone fighter keeps at him while he fights and the band its
    targeting names is out of reach, also when its own band strikes together in one bulk
    call: it strikes him man by man (the bulk call once took him for a band and failed)."""
    red = unit("Foot", 100, position="[0, 0]") + unit("Spears", 100, position="[0, 30]")
    blue = unit("Warband", 60, position="[0, -150]") + fighter(
        "Champion", extra="        position: [5, 0]\n"
    )
    text = duel_yaml(red, blue, stop="max_rounds: 1", a_pol="targeting: first")
    battle = build_battle(load(text), 1)
    agents = {agent.name: agent for agent in battle.agents}
    agents["Foot"].memory["chasing"] = agents["Champion"]  # it ran at him last round
    battle.run_to_end()
    foot = [e for e in battle.log if e.actor == "Foot"]
    assert foot
    assert all(e.target == "Champion" for e in foot), foot
    assert agents["Foot"].target is agents["Champion"]
    assert agents["Spears"].target is agents["Warband"]
