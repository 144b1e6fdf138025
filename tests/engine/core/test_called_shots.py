"""Called shots and hit locations in a battle (personal-combat.md 4, A-09): an aim policy
calls a part, the blow lands there only by the part's minimum RD and Target, the part's
state comes from the damage number under the ``location.*`` options, and a damaged part
burdens its owner's later rolls."""

from __future__ import annotations

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core.battle import Battle
from tests.engine.conftest import Script, dice, duel_yaml
from tests.engine.core.test_criticals import ANN, BOB

ARM = "{name: called, params: {location: arm}}"

STRONG = ANN.replace("strength: Poor", "strength: Superb").replace(
    "weapons/dagger", "weapons/broadsword"
)
"""Ann with Strength Superb and a broadsword: damage = RD + 6 + the damage roll."""


def aimed(ann: str, aim: str) -> str:
    """Ann's entry with her aim policy."""
    return ann.replace(
        "attack_skill: Sword", f"attack_skill: Sword\n        policies: {{aim: {aim}}}"
    )


def duel(draws: tuple[float, ...], *, rules: str = "", ann: str = ANN, aim: str = ARM) -> Battle:
    """Ann (static initiative: first) aims as told at Bob with the given draws; one round."""
    text = duel_yaml(
        aimed(ann, aim), BOB, rules="fadad.initiative: static, fadad.crit_effects: none" + rules
    )
    battle = build_battle(load(text), seed=3)
    battle.sides[0].members[0].rng = Script(*draws)
    battle.play_round()
    return battle


def bob(battle: Battle) -> object:
    return battle.sides[1].members[0]


def first_line(battle: Battle) -> str:
    return battle.log.text().splitlines()[0]


CASE_A = (dice(-2), dice(0), dice(1))
"""Ann Superb -2 = Good (+1) against Bob's dodge Poor -2 + 0 = Poor: RD 3; damage 3."""


def test_ex_pc_06_a_called_shot_needs_the_parts_margin_and_target() -> None:
    """EX-PC-06: Good against Poor (RD 3) hits the called arm and not the body; Good
    against Fair (RD 1) is an ordinary body hit; Poor against Terrible-1 (RD 2, Target
    gate) misses the arm's Target Mediocre and hits the body."""
    a = duel(CASE_A)
    assert first_line(a).endswith(
        "Ann's swing at the arm is Good; Bob's dodge Poor; hit by 3, damage 3: Hurt, "
        "taken as hurt arm."
    )
    assert (bob(a).wound, bob(a).conditions.parts) == (0, {"arm": "hurt"})
    b = duel((dice(-2), dice(2), dice(3)))
    assert "hit by 1" in first_line(b)
    assert bob(b).wound == 2
    assert bob(b).conditions is None
    fair_ann = ANN.replace("{Sword: Superb}", "{Sword: Fair}")
    c = duel(
        (dice(-2), dice(-2), dice(3)), ann=fair_ann, rules=", fadad.target_mode: target_gate_gte"
    )
    assert "swing at the arm is Poor; Bob's dodge Terrible-1; hit by 2" in first_line(c)
    assert bob(c).wound > 0
    assert bob(c).conditions is None


def test_a_hurt_arm_burdens_its_owners_later_rolls() -> None:
    """A Hurt arm is -1 to fight with (section 4): Bob, unwounded in body, strikes back in
    the same round at -1; a scratched arm costs nothing."""
    hurt = duel(CASE_A)
    back = next(e for e in hurt.log.of("attack") if e.actor == "Bob")
    assert dict(back.modifiers)["attacker_penalty"] == -1
    scratched = duel((dice(-2), dice(0), dice(0)))
    assert bob(scratched).conditions.parts == {"arm": "scratched"}
    back = next(e for e in scratched.log.of("attack") if e.actor == "Bob")
    assert dict(back.modifiers)["attacker_penalty"] == 0


def test_also_general_wound_marks_the_body_too() -> None:
    """``location.also_general_wound``: the arm hit also wounds the body (Hurt -1 and a
    Hurt arm -1: -2 in all); by default the body is spared."""
    spared = duel(CASE_A)
    both = duel(CASE_A, rules=", location.also_general_wound: true")
    assert (bob(spared).wound, bob(spared).penalty) == (0, -1)
    assert (bob(both).wound, bob(both).penalty) == (2, -2)
    assert first_line(both).endswith("taken as hurt arm and body.")


def test_severity_thresholds_set_the_parts_state() -> None:
    """``location.severity_thresholds``: damage 3 Hurts the arm at the default (1, 3, 7)
    and only scratches it at (1, 4, 7)."""
    default = duel(CASE_A)
    higher = duel(CASE_A, rules=", location.severity_thresholds: [1, 4, 7]")
    assert bob(default).conditions.parts == {"arm": "hurt"}
    assert bob(higher).conditions.parts == {"arm": "scratched"}


WIN_BY_TWO = (dice(-2), dice(1), dice(0))
"""Strong Ann Good against Bob's dodge Mediocre: RD 2, exactly the arm's minimum; damage 8."""


def test_a_win_by_the_bare_minimum_is_capped_at_hurt() -> None:
    """``location.minimum_margin_cap_scale``: winning by exactly the arm's minimum RD with
    damage 8 leaves the arm Hurt unless the attacker's Scale leads by the option (3);
    at 0 it Incapacitates the arm and Bob's broadsword falls for good."""
    capped = duel(WIN_BY_TWO, ann=STRONG)
    assert "hit by 2, damage 8" in first_line(capped)
    assert bob(capped).conditions.parts == {"arm": "hurt"}
    uncapped = duel(WIN_BY_TWO, ann=STRONG, rules=", location.minimum_margin_cap_scale: 0")
    assert bob(uncapped).conditions.parts == {"arm": "incapacitated"}
    assert bob(uncapped).fighter is bob(uncapped).bare


def test_an_incapacitated_head_knocks_out_and_a_leg_grounds() -> None:
    """A called head shot that Incapacitates (damage 8 at RD 4) knocks Bob out; a leg
    Incapacitated leaves him prone for the fight: he never gets up (PROPOSED)."""
    head = duel(
        (dice(0), dice(1), dice(-2)), ann=STRONG, aim="{name: called, params: {location: head}}"
    )
    assert "swing at the head" in first_line(head)
    assert "taken as incapacitated head" in first_line(head)
    assert head.log.text().splitlines()[1].endswith("Bob is out of the fight (knocked out).")
    leg = duel(
        (dice(0), dice(1), dice(-2)), ann=STRONG, aim="{name: called, params: {location: leg}}"
    )
    assert bob(leg).conditions.prone
    assert bob(leg).conditions.owed == 0
    leg.play_round()
    assert not [e for e in leg.log.of("crit_recovery") if e.result == "gets up"]


def test_the_weapon_arm_policy_calls_the_arm_only_when_far_ahead() -> None:
    """Aim ``weapon_arm_when_ahead``: Ann (Superb) calls Bob's arm when his defence is at
    least 2 below her skill (Dodge Poor), and strikes plainly at a Great dodge."""
    ahead = duel(CASE_A, aim="weapon_arm_when_ahead")
    assert "Ann's swing at the arm" in first_line(ahead)
    great = BOB.replace("Dodge: Poor", "Dodge: Great")
    text = duel_yaml(aimed(ANN, "weapon_arm_when_ahead"), great, rules="fadad.initiative: static")
    level = build_battle(load(text), seed=3)
    level.play_round()
    assert first_line(level).startswith("Round 1 (0:06) Ann's swing is")


def test_a_hurt_eye_spoils_the_aim() -> None:
    """A Hurt eye is -1 to shoot (vision), an Incapacitated one -2 (PROPOSED); it leaves
    melee rolls alone."""
    from tests.engine.core.test_ranged import _archer, _battle, _target

    penalties = []
    for state in ("none", "hurt", "incapacitated"):
        battle = _battle(_archer(0), _target(60), rounds=0)
        archer = battle.sides[0].members[0]
        archer.conditions_now().parts["eye"] = state
        battle.play_round()
        shot = next(e for e in battle.log.of("shoot"))
        penalties.append((dict(shot.modifiers)["attacker_penalty"], archer.penalty))
    assert penalties == [(0, 0), (-1, 0), (-2, 0)]
