"""Who acts first on a deck: fair ties, simultaneous shared turns, crews rerolled.

``personal-combat.md`` 1.2: the order of action is by initiative, a tie going to the
higher trait, then the tied act simultaneously; ``ships-spelljammer.md`` 13: rapid
resolution between crews is "resolved in the order of initiative and ... not
simultaneous", so crews tied on both are put in a fresh random order. Never by the
order of the sides in the file.
"""

from __future__ import annotations

from collections import Counter

from fadad_agents.engine import build_battle, load, play_through

SIDE = """  - name: {name}
    policies: {{surrender: {{name: fight_to_the_end}}, maneuver: {{name: hold}}}}
    forces:
      - {{name: {name} hull, model: ships/reaver-longship, weapons: [], position: [0, 0],
         facing: {facing}}}
{people}"""
CREW = "      - {{name: {name} crew, model: crews/pirates, count: 20, aboard: Blue hull}}\n"
DUELLIST = (
    "      - {{name: {name} mate, skills: {{Sword: Good}}, attack_skill: Sword,\n"
    "         weapon: weapons/broadsword, aboard: Blue hull}}\n"
)


def _brawl(person: str = CREW, *, rules: str = "") -> str:
    red = SIDE.format(name="Red", facing=0, people=person.format(name="Red"))
    blue = SIDE.format(name="Blue", facing=3, people=person.format(name="Blue"))
    return f"""name: Deck brawl
rules: {{ship.damage_model: sj_hull_points{rules}}}
map: {{kind: hex, radius: 3, hex_yards: 50}}
sides:
{red}{blue}stop: {{max_rounds: 50}}
"""


def test_two_identical_crews_split_their_wins() -> None:
    """Red's pirates boarding Blue's deck against Blue's identical pirates win about half
    the time (before, the first-listed crew won every tie: ~60%). The dice streams follow
    the place in the file, so listed the other way round Blue wins those same shares."""
    runs = 600
    scenario = load(_brawl())
    wins: Counter[str | None] = Counter()
    for seed in range(runs):
        battle = build_battle(scenario, seed, collect=False)
        battle.run_to_end()
        wins[None if battle.winner is None else battle.sides[battle.winner].name] += 1
    se = (0.25 / runs) ** 0.5
    assert abs(wins["Red"] / runs - 0.5) <= 3 * se, wins


def test_tied_fighters_share_a_simultaneous_turn() -> None:
    """Equal reactions under static initiative: both mates strike before either's wound
    applies, so both can go down in one 6-second round (never when one strikes first)."""
    both_down = 0
    for seed in range(60):
        battle = build_battle(
            load(_brawl(DUELLIST, rules=", fadad.initiative: static")), seed, collect=False
        )
        battle.run_to_end()
        outs = [e for e in battle.log.of("out") if e.actor.endswith("mate")]
        both_down += len(outs) == 2 and outs[0].time == outs[1].time
    assert both_down


def test_tied_crews_take_turns_in_a_fresh_random_order() -> None:
    """Equal crews under static initiative tie every round: rapid resolution is never
    simultaneous, so one volleys first, now Red, now Blue, by a reroll of the tie."""
    first: Counter[str] = Counter()
    for seed in range(20):
        battle = build_battle(load(_brawl(rules=", fadad.initiative: static")), seed, collect=False)
        battle.run_to_end()
        by_time: dict[int, list[str]] = {}
        for e in battle.log.of("volley"):
            by_time.setdefault(e.time, []).append(e.actor)
        for volleys in by_time.values():
            first[volleys[0]] += 1
            assert len(volleys) <= 2
        out = [e for e in battle.log.of("out") if e.actor.endswith("crew")]
        for e in out:  # a crew wiped out by the first volley does not strike back
            assert e.actor not in by_time.get(e.time, [])[1:]
    assert first["Red crew"] > 5
    assert first["Blue crew"] > 5


def test_a_deck_keeps_its_turn_order_while_the_same_fighters_stand_there() -> None:
    """A deck's order of bands is made once for the same fighters and kept round after
    round and play after play (it reads only what set-up fixes); each recycled play's log
    is still a freshly built battle's."""
    scenario = load(_brawl())
    orders = set()
    for seed in (3, 4, 5):
        fresh = build_battle(scenario, seed, collect=False).run_to_end()
        with play_through(scenario, seed, collect=False) as battle:
            assert battle.run_to_end().log.to_jsonl() == fresh.log.to_jsonl()
            orders |= {id(order) for _, order in battle.deck_orders.values()}
            assert battle.deck_orders
    assert len(orders) == 1
