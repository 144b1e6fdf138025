"""Called shots with a missile weapon (personal-combat.md 4 and 6): an aim policy calls a
part for a shot as for a blow; the shot lands there only if it wins by the part's minimum
RD (over an aware target's dodge, over an unaware one's range Difficulty Level) and its
rolled degree meets the part's Target; stun blows and pulled punches stay hand to hand."""

from __future__ import annotations

from collections import Counter
from typing import Any

from fadad_agents.engine import build_battle, load
from tests.engine.conftest import SCENARIOS, Script, dice

SWORDSMAN = """
      - name: {name}
        skills: {{Sword: Good}}
        attack_skill: Sword
        weapon: weapons/broadsword
        damage_capacity: Legendary
        position: [{x}, 30]
        policies: {{{policies}}}"""

STILL = "movement: hold, targeting: stay_back"


def scene(
    name: str, aim: str, men: str, *, friends: str = "", bow: str = "weapons/bow", rules: str = ""
) -> Any:
    """Aelwen (Bow Great) holding at [10, 30] with ``aim``, beside ``friends``, against
    the Men's ``men``; crits off, static initiative (and ``rules``); built on seed 1."""
    text = f"""map: {{kind: open, width: 600, height: 60}}
name: {name}
rules: {{fadad.crit_effects: none, fadad.initiative: static{rules}}}
sides:
  - name: Elves
    forces:
      - name: Aelwen
        skills: {{Bow: Great}}
        attack_skill: Bow
        weapon: {bow}
        policies: {{movement: hold, aim: {aim}}}
        position: [10, 30]{friends}
  - name: Men
    forces:{men}
"""
    return build_battle(load(text), 1, collect=False)


def volley(aim: str, *draws: int, brand_fights_cole: bool = False) -> Any:
    """Aelwen (Bow Great, concentrating: +2) shoots once at Brand 20 yd off (short range,
    Target Fair), her stream scripted (attack dice, then damage dice: Brand, aware, dodges
    with his own stream); with ``brand_fights_cole`` Brand is locked in melee with her
    friend Cole and does not see the shot coming."""
    cole = SWORDSMAN.format(name="Cole", x=31, policies=STILL) if brand_fights_cole else ""
    brand_policies = "movement: hold" if brand_fights_cole else STILL
    men = SWORDSMAN.format(name="Brand", x=32 if brand_fights_cole else 30, policies=brand_policies)
    battle = scene("called shots at range", aim, men, friends=cole)
    battle.sides[0].members[0].rng = Script(*(dice(d) for d in draws))
    battle.play_round()
    return battle


def brand(battle: Any) -> tuple[int, dict[str, str]]:
    """Brand's body wound level and his damaged parts."""
    b = battle.sides[1].members[0]
    return b.wound, {} if b.conditions is None else dict(b.conditions.parts)


def shot_line(battle: Any) -> str:
    return next(line for line in battle.log.text().splitlines() if " shoots at " in line)


def called(part: str) -> str:
    return f"{{name: called, params: {{location: {part}}}}}"


def test_a_called_shot_lands_on_the_part_instead_of_the_body() -> None:
    """The same arrow (Legendary against a Terrible dodge at Target Fair: RD 4, damage 4)
    Hurts Brand's body when shot plainly and only his leg when the leg is called."""
    plain = volley("plain", 0, 0, 2)
    leg = volley(called("leg"), 0, 0, 2)
    assert shot_line(plain).endswith("hit by 4, damage 4: Hurt.")
    assert brand(plain) == (2, {})
    assert "Aelwen shoots at Brand's leg at 20 yd (short): Legendary" in shot_line(leg)
    assert shot_line(leg).endswith("hit by 4, damage 4: Hurt, taken as hurt leg.")
    assert brand(leg) == (0, {"leg": "hurt"})


def test_an_eye_shot_needs_a_win_by_four() -> None:
    """The eye's minimum RD is 4 (a crit): RD 4 puts the arrow in Brand's eye, RD 3 is an
    ordinary body hit, as the defender names it."""
    eye = volley(called("eye"), 0, 0, 2)
    short = volley(called("eye"), -1, 0, 2)
    assert brand(eye) == (0, {"eye": "hurt"})
    assert "hit by 3, damage 3: Hurt." in shot_line(short)
    assert brand(short) == (2, {})


def test_against_an_unaware_target_the_margin_is_over_the_difficulty_level() -> None:
    """Brand fighting Cole hand to hand does not see the arrow: unopposed, Target Good
    (short range +3, into a melee +1). Superb wins by 2, the arm's minimum, and hits the
    arm; Great wins by 1 and hits his body."""
    arm = volley(called("arm"), -1, 2, brand_fights_cole=True)
    body = volley(called("arm"), -2, 2, brand_fights_cole=True)
    assert "Brand undefended, unaware (Target Good); hit by 2" in shot_line(arm)
    assert brand(arm) == (0, {"arm": "scratched"})
    assert "hit by 1" in shot_line(body)
    assert brand(body) == (1, {})


def test_a_shot_is_neither_a_stun_blow_nor_pulled() -> None:
    """A stun aim at the leg makes a shot called at the leg, with its full wound: no stun
    track, no stun (PROPOSED); a pulled-punch aim makes a plain shot."""
    stun = volley("{name: stun, params: {location: leg}}", 0, 0, 2)
    assert shot_line(stun).endswith("taken as hurt leg.")
    target = stun.sides[1].members[0]
    assert (target.conditions.stun_track, target.conditions.stunned) == (None, 0)
    pulled = volley("{name: pull_punches, params: {max_wound: Scratch}}", 0, 0, 2)
    assert shot_line(pulled) == shot_line(volley("plain", 0, 0, 2))


def test_a_hurt_leg_slows_the_run() -> None:
    """Section 4, a Hurt leg is -1 running (``move.hurt_leg_factor``, PROPOSED 0.75): Brand
    running at Aelwen from 100 yd covers 30 yd a round until her arrow Hurts his leg, then
    22.5; the same arrow in his body, or a factor of 1, leaves his run at 30."""

    runner = SWORDSMAN.format(
        name="Brand", x=110, policies="movement: {name: close, params: {gait: run}}"
    )

    def runs(aim: str, rules: str = "") -> list[float]:
        bow = "{model: weapons/bow, ammunition: 1}"
        battle = scene("a hurt leg", aim, runner, bow=bow, rules=rules)
        battle.sides[0].members[0].rng = Script(dice(2), dice(4))
        for _ in range(3):
            battle.play_round()
        assert "hit by 3, damage 5" in shot_line(battle)  # a leg: Hurt (3 to 6)
        return [dict(e.outcome)["yards"] for e in battle.log.of("move") if e.actor == "Brand"]

    assert runs("plain") == [30, 30, 30]
    assert runs(called("leg")) == [30, 22.5, 22.5]
    assert runs(called("leg"), ", move.hurt_leg_factor: 1.0") == [30, 30, 30]


def test_the_goblin_ambush_plays_called_shots_and_bursts_of_fire() -> None:
    """The shipped ``goblin-ambush``: on seeds 1-3 Aelwen calls every arrow at a head and
    puts some there, Mirelle's bursts of fire each catch several goblins with one roll, and
    Ser Aldric calls the weapon arm in melee."""
    for seed in (1, 2, 3):
        battle = build_battle(load(SCENARIOS / "goblin-ambush.yaml"), seed, collect=False)
        battle.run_to_end()
        arrows = [dict(e.outcome) for e in battle.log.of("shoot") if e.actor == "Aelwen"]
        assert arrows
        assert all(a["aim"] == "head" for a in arrows)
        assert any("head" in a.get("taken", "") for a in arrows)
        bursts = Counter(e.round for e in battle.log.of("blast") if e.actor == "Mirelle")
        assert max(bursts.values(), default=0) >= 2
        swings = [dict(e.outcome) for e in battle.log.of("attack") if e.actor == "Ser Aldric"]
        assert any(s["verb"] == "swing at the arm" for s in swings)
