"""Hypothesis: invariants of any small battle."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fadad_agents.engine import BattleResult, run
from tests.engine.conftest import duel_yaml, fighter

SKILLS = ["Poor", "Mediocre", "Fair", "Good", "Great", "Superb"]
REACTIONS = ["Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb"]
"""Every reaction speed, so any initiative may lead a round (Mediocre +0 once crashed it)."""
RETREATS = [
    "hold",
    "{name: wounded, params: {level: Hurt}}",
    "{name: wounded, params: {level: Very Hurt, action: surrender}}",
]
TARGETING = ["sticky", "random", "weakest", "nearest"]


@st.composite
def battles(draw: st.DrawFn) -> tuple[str, int]:
    def side(prefix: str) -> str:
        text = ""
        for i in range(draw(st.integers(1, 3))):
            count = draw(st.integers(1, 4))
            pol = (
                f"{{retreat: {draw(st.sampled_from(RETREATS))}, "
                f"targeting: {draw(st.sampled_from(TARGETING))}}}"
            )
            extra = f"        count: {count}\n" if count > 1 else ""
            extra += f"        reaction_speed: {draw(st.sampled_from(REACTIONS))}\n"
            text += fighter(
                f"{prefix}{i}", skill=draw(st.sampled_from(SKILLS)), policies=pol, extra=extra
            )
        return text

    morale = draw(st.sampled_from(["none", "{name: break_at_losses, params: {fraction: 0.5}}"]))
    text = duel_yaml(side("R"), side("B"), stop="max_rounds: 30", a_pol=f"morale: {morale}")
    return text, draw(st.integers(0, 2**32))


def _check_heads_and_clock(result: BattleResult) -> None:
    """Casualties never exceed a side's strength, every head is accounted for once, and
    the log's time never runs backwards."""
    for side in result.sides:
        assert 0 <= side.casualties <= side.strength
        assert side.fighting + side.casualties + side.withdrawn + side.surrendered == side.strength
    times = [e.time for e in result.log]
    assert times == sorted(times)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles())
def test_battle_invariants(case: tuple[str, int]) -> None:
    """Casualties never exceed strength; the fallen never act; time never runs backwards."""
    text, seed = case
    result = run(text, seed=seed)
    _check_heads_and_clock(result)
    gone: set[str] = set()
    for e in result.log:
        if e.action in ("attack", "withdraw", "surrender"):
            assert e.actor not in gone, f"{e.actor} acted after leaving the fight"
        if e.action == "attack":
            assert e.target not in gone, f"{e.target} was attacked after leaving the fight"
        if e.action in ("out", "withdraw", "surrender"):
            gone.add(e.actor)
    assert result.log.events[-1].action == "end"


GROUP = """
      - name: {name}
        kind: {kind}
        count: {count}
        skill: {skill}
"""


@st.composite
def bulk_battles(draw: st.DrawFn) -> tuple[str, int]:
    def side(prefix: str) -> str:
        return "".join(
            GROUP.format(
                name=f"{prefix}{i}",
                kind=draw(st.sampled_from(["crew", "unit"])),
                count=draw(st.integers(1, 60)),
                skill=draw(st.sampled_from(SKILLS)),
            )
            for i in range(draw(st.integers(1, 4)))
        )

    extra = fighter("Hero", skill=draw(st.sampled_from(SKILLS))) if draw(st.booleans()) else ""
    text = duel_yaml(side("R") + extra, side("B"), stop="max_rounds: 25")
    return text, draw(st.integers(0, 2**32))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bulk_battles())
def test_bulk_battle_invariants(case: tuple[str, int]) -> None:
    """Crews and units: losses never exceed head counts; the routed and wiped-out stay out."""
    text, seed = case
    result = run(text, seed=seed)
    _check_heads_and_clock(result)
    gone: set[str] = set()
    for e in result.log:
        if e.action in ("attack", "volley"):
            assert e.actor not in gone
            assert e.target not in gone
            assert dict(e.outcome).get("left", 0) >= 0
        if e.action in ("out", "withdraw", "surrender"):
            gone.add(e.actor)
