"""NPC morale, retreat and surrender: each leaves the fight, logged, and ends the battle."""

from __future__ import annotations

from fadad_agents.engine import build_battle, load, run
from tests.engine.conftest import duel_yaml, fighter

CREW = """
      - name: {name}
        kind: crew
        count: {count}
        morale: {morale}
        attack_bonus: 2
        armour_class: 10
        skill: Fair
"""


def test_crew_morale_breaks_and_the_crew_routs() -> None:
    """SJ 18: a crew checks at 25%/50% losses (2d10 <= morale); a broken crew withdraws."""
    result = run(
        duel_yaml(
            CREW.format(name="Cowards", count=20, morale=2),
            CREW.format(name="Veterans", count=20, morale=20),
            a_pol="morale: {name: casualties, params: {at: '25%, 50%', on_break: withdraw}}",
            b_pol="morale: none",
        ),
        seed=7,
    )
    checks = [e for e in result.log.of("morale") if e.actor == "Cowards"]
    assert checks
    assert checks[-1].result == "breaks"
    (withdraw,) = result.log.of("withdraw")
    assert withdraw.actor == "Cowards"
    assert dict(withdraw.outcome)["result"] == "routed"
    assert "morale broke" in dict(withdraw.outcome)["reason"]
    assert not [e for e in result.log.events if e.actor == "Cowards" and e.time > withdraw.time]
    assert (result.ending, result.winner) == ("routed", "Blue")
    red = result.side("Red")
    assert red.withdrawn + red.casualties == 20
    assert red.fighting == 0


def test_npc_band_that_breaks_surrenders_together() -> None:
    """A `count: N` band checks morale once (trait + 4dF vs Fair); broken, all surrender."""
    band = fighter(
        "Thug", skill="Poor", extra="        count: 4\n        traits: {Morale: Terrible-3}\n"
    )
    result = run(
        duel_yaml(
            band,
            fighter("Ann", skill="Superb") + fighter("Bea", skill="Superb"),
            a_pol="morale: {name: break_at_losses, params: {fraction: 0.25, on_break: surrender}}",
        ),
        seed=3,
    )
    (check,) = result.log.of("morale")
    assert (check.actor, check.result) == ("Thug", "breaks")
    surrendered = result.log.of("surrender")
    assert {e.actor for e in surrendered} == {f"Thug {i}" for i in range(1, 5)} - {
        e.actor for e in result.log.of("out")
    }
    assert {e.time for e in surrendered} == {check.time}
    assert result.ending == "surrendered"
    assert result.side("Red").surrendered == len(surrendered)


def test_fighter_withdraws_when_hurt() -> None:
    """Retreat policy: withdraw once Hurt; no further attacks by the one who left."""
    result = run(
        duel_yaml(
            fighter(
                "Ann",
                skill="Mediocre",
                policies="{retreat: {name: wounded, params: {level: Hurt}}}",
                extra="        damage_capacity: Superb\n",
            ),
            fighter("Bob", skill="Superb"),
        ),
        seed=8,
    )
    (withdraw,) = result.log.of("withdraw")
    assert withdraw.actor == "Ann"
    assert dict(withdraw.outcome)["reason"] in {"Hurt", "Very Hurt"}
    assert not [e for e in result.log.of("attack") if e.actor == "Ann" and e.time > withdraw.time]
    assert (result.ending, result.loser, result.side("Red").withdrawn) == ("routed", "Red", 1)


def test_fighter_surrenders_by_declarative_rule() -> None:
    """Declarative rules from the scenario: 'wound >= Scratch -> surrender'."""
    result = run(
        duel_yaml(
            fighter(
                "Ann",
                skill="Poor",
                policies="{retreat: {name: rules, params: {rules: 'wound >= Scratch -> "
                "surrender'}}}",
                extra="        damage_capacity: Superb\n",
            ),
            fighter("Bob", skill="Superb"),
        ),
        seed=5,
    )
    (surrender,) = result.log.of("surrender")
    assert (surrender.actor, result.ending, result.loser) == ("Ann", "surrendered", "Red")
    assert result.side("Red").surrendered == 1


def test_unit_breaks_on_the_unit_damage_table() -> None:
    """Mass combat: a failed table morale check makes the unit withdraw (unit_morale)."""
    unit = """
      - name: {name}
        kind: unit
        count: {count}
        skill: {skill}
        morale: {morale}
"""
    result = run(
        duel_yaml(
            unit.format(name="Levy", count=50, skill="Poor", morale="Terrible-3"),
            unit.format(name="Guard", count=50, skill="Superb", morale="Legendary"),
            a_pol="morale: unit_morale",
        ),
        seed=8,
    )
    breaks = [e for e in result.log.of("morale") if e.actor == "Levy"]
    assert breaks
    assert breaks[-1].result == "breaks"
    assert result.log.of("withdraw")[0].actor == "Levy"
    assert result.winner == "Blue"


def test_player_characters_never_check_npc_morale() -> None:
    """SJ 12: morale checks are only for two-dimensional NPCs; a PC ignores the side's policy."""
    red = (
        fighter("Ann", skill="Fair", extra="        player: true\n")
        + fighter("Cal", skill="Poor")
        + fighter("Dee", skill="Poor")
    )
    blue = fighter("Bob", skill="Superb") + fighter("Eve", skill="Superb")
    checks: dict[str, int] = {}
    for seed in range(12):
        result = run(
            duel_yaml(red, blue, a_pol="morale: {name: casualties, params: {at: '25%'}}"),
            seed=seed,
        )
        for e in result.log.of("morale"):
            checks[e.actor] = checks.get(e.actor, 0) + 1
    assert checks.get("Cal", 0) + checks.get("Dee", 0) > 0  # the NPCs beside her do check
    assert "Ann" not in checks


def test_a_bands_morale_trait_is_the_one_its_traits_name() -> None:
    """Creature.traits: a band checks morale on its Morale trait + 4dF (Terrible-3 here),
    on Fair when its traits name none."""
    rolled = {}
    for traits, level in (("        traits: {Morale: Terrible-3}\n", -6), ("", 0)):
        band = fighter("Thug", skill="Poor", extra="        count: 4\n" + traits)
        result = run(
            duel_yaml(
                band,
                fighter("Ann", skill="Superb") + fighter("Bea", skill="Superb"),
                a_pol="morale: {name: break_at_losses, params: {fraction: 0.25}}",
            ),
            seed=3,
        )
        checks = result.log.of("morale")
        assert checks
        rolled[level] = {dict(e.modifiers)["morale"] for e in checks}
    assert rolled == {-6: {-6}, 0: {0}}


def test_a_bands_head_counts_follow_its_members_round_by_round() -> None:
    """A band's heads (what its morale check reads) are its members' heads summed, every
    round: a band of single fighters counted by status, a crew's band by the crew's own
    count as it falls (looked over once, not again each read)."""
    band = fighter("Thug", skill="Poor", extra="        count: 4\n")
    battle = build_battle(
        load(
            duel_yaml(
                band + CREW.format(name="Deckhands", count=12, morale=20),
                fighter("Ann", skill="Superb") + fighter("Bea", skill="Superb"),
                a_pol="morale: none",
            )
        ),
        seed=5,
    )
    bands = {m.band for side in battle.sides for m in side.members}
    assert {len(b.members) for b in bands} == {1, 4}
    seen = set()
    while not battle.finished:
        for b in bands:
            assert b.headcount == sum(m.headcount for m in b.members)
            assert b.initial_headcount == sum(m.initial_headcount for m in b.members)
            seen.add((b.name, b.headcount))
        battle.play_round()
    assert {n for name, n in seen if name == "Deckhands"} > {12}  # the crew lost heads
    assert {n for name, n in seen if name == "Thug"} > {4}
