"""Stun blows, pulled punches and knockouts in a battle (wounds-and-healing.md 8, A-27):
a stun blow is figured normally and recorded on a separate stun track; its worst mark
stuns, stuns very or knocks out, for as long as the rules say, and the log says so."""

from __future__ import annotations

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core.battle import Battle
from tests.engine.conftest import Script, dice, duel_yaml
from tests.engine.core.test_called_shots import STRONG, aimed
from tests.engine.core.test_criticals import ANN, BOB

HURT = (dice(-2), dice(0), dice(2))
"""Ann Good against Bob's dodge Poor: RD 3, damage 4 (a Hurt-level blow)."""
SCRATCH = (dice(-2), dice(0), dice(-1))
"""RD 3, damage 1 (a Scratch-level blow)."""
MISS = (dice(-4), dice(4))
"""Ann Mediocre against Bob's dodge Good or better: no hit."""
INCAPACITATING = (dice(0), dice(-1), dice(2))
"""Ann Superb against Bob's dodge Terrible: RD 6, damage 7 (an Incapacitated-level blow)."""


def stun_duel(*draws: float, rules: str = "", aim: str = "stun", ann: str = ANN) -> Battle:
    """Ann (first each round) strikes Bob with stun blows on the given draws; Bob's own
    swings all roll -4."""
    text = duel_yaml(
        aimed(ann, aim), BOB, rules="fadad.initiative: static, fadad.crit_effects: none" + rules
    )
    battle = build_battle(load(text), seed=3)
    battle.sides[0].members[0].rng = Script(*draws)
    battle.sides[1].members[0].rng = Script(*[dice(-4)] * 60)
    return battle


def play(battle: Battle, rounds: int) -> list[str]:
    for _ in range(rounds):
        if not battle.finished:
            battle.play_round()
    return battle.log.text().splitlines()


def bob_attacks(battle: Battle) -> list[int]:
    return [e.round for e in battle.log.of("attack") if e.actor == "Bob"]


def bob_defences(battle: Battle) -> dict[int, int]:
    """Bob's defence penalty by round, from Ann's blows."""
    return {
        e.round: dict(e.modifiers)["defender_penalty"]
        for e in battle.log.of("attack")
        if e.actor == "Ann"
    }


def test_ex_wnd_16_stun_accumulates_to_very_stunned_then_knockout() -> None:
    """EX-WND-16: a Hurt-level stun blow stuns Bob (no attacks, -1 to defend) for the rest
    of round 1 and round 2; three rounds later another Hurt-level blow makes him Very
    Stunned (no attacks, -2) for round 4's rest and two rounds; then an
    Incapacitated-level blow knocks him out. His body is never wounded."""
    battle = stun_duel(*HURT, *MISS, *MISS, *HURT, *MISS, *MISS, *INCAPACITATING)
    lines = play(battle, 7)
    assert lines[0].endswith("damage 4: Hurt, taken as Stun.")
    assert lines[1].endswith("Bob is stunned: no attacks, -1 to defend, for this round and 1 more.")
    assert any(
        line.endswith("Bob is very stunned: no attacks, -2 to defend, for this round and 2 more.")
        for line in lines
    )
    assert bob_attacks(battle) == [3]
    assert bob_defences(battle) == {1: 0, 2: -1, 3: 0, 4: 0, 5: -2, 6: -2, 7: 0}
    assert [e.round for e in battle.log.of("crit_recovery")] == [3, 7]
    assert lines[-2].endswith("Bob is out of the fight (knocked out).")
    assert battle.sides[1].members[0].wound == 0


def test_scratch_stuns_accumulate_only_with_the_option() -> None:
    """``stun_scratches_accumulate`` (A-27): four Scratch-level stun blows do nothing by
    default; with the option they fill the three Scratch boxes and the fourth overflows
    to Hurt: a stun."""
    draws = SCRATCH * 4
    default = stun_duel(*draws)
    play(default, 4)
    assert not default.log.of("stunned")
    assert bob_attacks(default) == [1, 2, 3, 4]
    piled = stun_duel(*draws, rules=", stun_scratches_accumulate: true")
    play(piled, 4)
    assert [e.round for e in piled.log.of("stunned")] == [4]
    assert bob_attacks(piled) == [1, 2, 3]


def test_knockout_rounds_bound_a_stun_knockout() -> None:
    """``knockout_rounds: 2``: an Incapacitated-level stun blow leaves Bob unconscious for
    the rest of round 1 and round 2; he comes to and strikes in round 3. Unset, the
    knockout lasts the rest of the combat (A-27)."""
    lasting = stun_duel(*INCAPACITATING)
    assert play(lasting, 1)[1].endswith("Bob is out of the fight (knocked out).")
    harmless = (dice(-4), dice(-4))  # on the unconscious Bob's Target: RD 2, damage 0
    timed = stun_duel(*INCAPACITATING, *harmless, *MISS, rules=", knockout_rounds: 2")
    lines = play(timed, 3)
    assert lines[1].endswith("Bob is knocked out for 2 rounds (stun).")
    assert bob_attacks(timed) == [3]
    assert [e.result for e in timed.log.of("crit_recovery")] == ["comes to"]


HEAD_SCRATCH = (dice(-1), dice(0), dice(-3))
"""Ann Great against Bob's dodge Poor: RD 4 (at least the head's 3), damage 0."""


def test_head_blow_knockout_fells_with_a_good_blow_to_the_head() -> None:
    """``head_blow_knockout``: a stun blow called at the head, rolled Great and winning
    by 4, knocks Bob out whatever its damage; without the option its damage 0 does
    nothing (SEED 001 4.62)."""
    aim = "{name: stun, params: {location: head}}"
    plain = stun_duel(*HEAD_SCRATCH, aim=aim)
    lines = play(plain, 1)
    assert "Ann's stun blow at the head is Great" in lines[0]
    assert plain.sides[1].members[0].fighting
    felled = stun_duel(*HEAD_SCRATCH, aim=aim, rules=", head_blow_knockout: true")
    lines = play(felled, 1)
    assert lines[0].endswith("taken as Knockout (blow to the head).")
    assert lines[1].endswith("Bob is out of the fight (knocked out).")


def test_ex_wnd_15_a_pulled_punch_never_passes_its_announced_level() -> None:
    """EX-WND-15: a fencer who announces Scratch wins by 8 with a +3 sword: a Scratch."""
    battle = stun_duel(
        dice(2),
        dice(-3),
        dice(0),
        aim="{name: pull_punches, params: {max_wound: Scratch}}",
        ann=STRONG,
    )
    lines = play(battle, 1)
    assert "Ann's pulled swing is Legendary+1; Bob's dodge Terrible-2; hit by 8" in lines[0]
    assert lines[0].endswith(": Scratch.")
    assert battle.sides[1].members[0].wound == 1
