"""Fae effects on the engine: useless limbs from special called shots, speak and gesture
as free actions, dropped objects falling, glide collisions with fighters and map obstacles
(fae-domains.md 2.1, 6, 7)."""

from __future__ import annotations

from typing import Any

from fadad_agents.agents.fae.actions import speech, syllables
from fadad_agents.agents.fae.character import FIST, FaeCharacter
from fadad_agents.agents.fae.moves import obstacle_hit
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core.log import narrate
from fadad_agents.engine.fae.battle import FaeBattle
from fadad_agents.policies import REGISTRY
from fadad_agents.schema.scenario import Obstacle
from tests.engine.conftest import fae_scene


def _fae(name: str, x: int, extra: str = "", *, weapons: str = "fae/longsword, fae/shortsword",
         attrs: str = "reaction: 60, luck: 50", policies: str = "{}") -> str:  # fmt: skip
    return f"""
      - name: {name}
        attributes: {{{attrs}}}
        skills: {{Sword: 60, Dodge: 30}}
        wound_points: 200
        fatigue_points: 60
        weapons: [{weapons}]
        position: [{x}, 0]
        policies: {policies}
{extra}"""


def _battle(red: str, blue: str, seed: int = 1, rounds: int = 6) -> FaeBattle:
    battle = build_battle(load(fae_scene(red, blue, name="fae effects", rounds=rounds)), seed)
    assert isinstance(battle, FaeBattle)
    return battle


def _member(battle: FaeBattle, name: str) -> FaeCharacter:
    m = next(m for m in battle.fae_members if m.name == name)
    assert isinstance(m, FaeCharacter)
    return m


def test_numb_arm_lasts_this_turn_and_the_next() -> None:
    """Limb shot (stun): the weapon arm is useless this turn and all of the next; the other
    hand fights with the spare one-handed weapon (7, PROPOSED offhand)."""
    battle = _battle(_fae("Ann", 0), _fae("Bob", 1))
    bob = _member(battle, "Bob")
    battle.step()
    turn = battle.fae_turn
    bob.effects["arm_numb_until"] = turn + 1
    assert bob.limb_useless("arm")
    assert bob.weapon.name == "Shortsword"
    assert not bob.limb_useless("leg")
    bob.hands.take(1)
    assert bob.weapon is FIST
    battle.step()
    assert bob.limb_useless("arm")
    battle.step()
    assert not bob.limb_useless("arm")
    assert bob.weapon.name == "Longsword"


def test_limb_shots_numb_the_weapon_arm_in_play() -> None:
    """After a stun limb shot numbs Bob's arm, his attacks that turn and the next use the
    other hand (never the longsword) at the offhand -10%."""
    shot = "{fae_called_shot: {name: special, params: {shot: limb, min_chance: 1, stun: true}}}"
    numbed = 0
    for seed in range(10):
        battle = _battle(_fae("Ann", 0, policies=shot), _fae("Bob", 1), seed=seed)
        battle.run_to_end()
        until = None
        for e in battle.log.events:
            o = dict(e.outcome)
            if e.action == "called_shot" and e.result == "limb_numb":
                assert o["limb"] == "arm"
                until = o["turn"] + 1
                numbed += 1
            elif e.action == "fae_attack" and e.actor == "Bob" and until is not None:
                assert o["turn"] > until or o["weapon"] != "Longsword"
    assert numbed


def test_severed_leg_halves_movement_and_forbids_running() -> None:
    """A severed leg halves Walk and Run MR and turns a Run into a Move (7, PROPOSED)."""
    battle = _battle(_fae("Ann", 0, policies="{fae_action: charger}"), _fae("Bob", 80))
    ann = _member(battle, "Ann")
    walk, run = ann.walk_mr, ann.run_mr
    ann.effects["leg"] = "limb_severed"
    assert (ann.walk_mr, ann.run_mr) == (walk // 2, run // 2)
    assert not ann.can_run
    battle.step()
    mine = [e.action for e in battle.log.events if e.actor == "Ann"]
    assert "move" in mine
    assert "run" not in mine


def test_useless_leg_may_still_run_by_option() -> None:
    """fae.useless_leg_runs lets a lamed fighter run at half its Run MR."""
    battle = _battle(_fae("Ann", 0, policies="{fae_action: charger}"), _fae("Bob", 80))
    ann = _member(battle, "Ann")
    ann.opts = ann.opts.model_copy(update={"useless_leg_runs": True})
    ann.effects["leg"] = "limb_mangled"
    assert ann.can_run
    battle.step()
    runs = [e for e in battle.log.events if e.actor == "Ann" and e.action == "run"]
    assert runs
    assert all(e.result <= ann.run_mr for e in runs)


class _Herald:
    """Shouts, points, drops its weapon once, then fights."""

    def __init__(self, drop: bool = False) -> None:
        self.drop = drop

    def choose_action(self, actor: Any, target: Any, battle: Any) -> str:
        said = actor.memory.setdefault("said", [])
        for free in ("speak:Yield now or perish forever", "gesture:points", "drop"):
            if free not in said and (free != "drop" or self.drop):
                said.append(free)
                return free
        return "wait"


def test_speak_and_gesture_are_free_and_logged() -> None:
    """Speaking (up to 5 syllables) and gesturing cost nothing: logged at the count of the
    action they go with; a two-handed weapon leaves no hand free to gesture (2.1)."""
    assert [syllables(w) for w in ("yield", "perish", "forever")] == [1, 2, 3]
    assert speech("Yield now or perish forever") == "Yield now or perish"
    REGISTRY.register("fae_action", "test_herald", _Herald, replace=True)
    herald = "{fae_action: test_herald}"
    battle = _battle(_fae("Ann", 0, policies=herald), _fae("Bob", 30, policies=herald), rounds=1)
    battle.run_to_end()
    ann = [e for e in battle.log.events if e.actor == "Ann"]
    kinds = [e.action for e in ann]
    assert kinds[kinds.index("speak") : kinds.index("speak") + 3] == ["speak", "gesture", "delay"]
    speak, gesture, first = ann[kinds.index("speak") : kinds.index("speak") + 3]
    assert speak.result == "Yield now or perish"
    assert gesture.result == "points"
    count = dict(speak.modifiers)["count"]
    assert dict(gesture.modifiers)["count"] == count == dict(first.modifiers)["count"]
    assert dict(first.outcome)["from"] == count  # the free actions cost nothing
    two = _battle(
        _fae("Cid", 0, weapons="fae/greatsword", policies=herald), _fae("Bob", 30), rounds=1
    )
    two.run_to_end()
    assert [e.result for e in two.log.events if e.action == "gesture"] == ["no free hand"]
    assert "gesture" in battle.log.text()


def test_dropped_weapons_fall_and_break_from_the_air() -> None:
    """A dropped item takes fall damage 10 + 10 per yard (PROPOSED) as equipment damage:
    from the ground a longsword is intact; from 12 yd it breaks (2.1, 6, 8)."""
    REGISTRY.register("fae_action", "test_dropper", lambda: _Herald(drop=True), replace=True)
    dropper = "{fae_action: test_dropper}"
    results = {}
    for alt in (0, 12):
        flyer = f"        fly_mr: 30\n        altitude: {alt}\n"
        battle = _battle(_fae("Ann", 0, flyer, policies=dropper), _fae("Bob", 40), rounds=1)
        battle.step()
        drops = [e for e in battle.log.events if e.action == "drop"]
        assert len(drops) == 1
        o = dict(drops[0].outcome)
        assert (o["item"], o["fell"]) == ("Longsword", alt)
        results[alt] = drops[0].result
        ann = _member(battle, "Ann")
        assert [w.name for w in ann.weapons] == ["Shortsword"]
    assert results == {0: "intact", 12: "broken"}


def test_glide_collides_with_a_fighter_in_its_path() -> None:
    """An end-of-turn glide passing within 1 yd of a fighter at its altitude stops there;
    each takes half the other's Size at margin 100 (PROPOSED, fae.glide_collision)."""
    glider = "        can_glide: true\n        altitude: 9\n        walk_mr: 12\n"
    perched = "        altitude: 7\n"
    passive = "{fae_action: passive}"
    for on in (True, False):
        battle = _battle(
            _fae("Ann", 0, glider, policies=passive, attrs="reaction: 60, luck: 50, size: 40"),
            _fae("Bob", 6, perched, policies=passive, attrs="reaction: 60, luck: 50, size: 60"),
            rounds=1,
        )
        ann, bob = _member(battle, "Ann"), _member(battle, "Bob")
        ann.opts = ann.opts.model_copy(update={"glide_collision": on})
        battle.step()
        glide = next(e for e in battle.log.events if e.action == "glide")
        hits = {e.actor: e.result for e in battle.log.events if e.action == "collision_damage"}
        if on:
            assert (glide.result, ann.altitude) == (6, 7)
            assert hits == {"Ann": 30, "Bob": 20}
            assert (ann.health.wounds, bob.health.wounds) == (30, 20)
        else:
            assert (glide.result, ann.altitude) == (12, 5)
            assert hits == {}


GLIDER = "        can_glide: true\n        altitude: 9\n        walk_mr: 12\n"
"""Glides 12 yd along +x from (0, 0) at the turn's end, altitude 9 -> 5 (1 yd per 3 yd)."""


def _glide_past(obstacles: str, bob_x: int = 50, bob: str = "", rules: str = "") -> FaeBattle:
    """One turn in which Ann glides along +x past ``obstacles``; Bob stands at ``bob_x``."""
    passive = "{fae_action: passive}"
    text = f"""
name: glide into terrain
ruleset: fae
rules: {{{rules}}}
map:
  obstacles: [{obstacles}]
sides:
  - name: Red
    forces:{_fae("Ann", 0, GLIDER, policies=passive)}
  - name: Blue
    forces:{_fae("Bob", bob_x, bob, policies=passive)}
stop: {{max_rounds: 1}}
"""
    battle = build_battle(load(text), seed=1)
    assert isinstance(battle, FaeBattle)
    battle.step()
    return battle


def _glide_events(battle: FaeBattle) -> list[tuple[str, str | None, Any]]:
    kinds = ("glide", "collision", "collision_damage")
    return [(e.action, e.target, e.result) for e in battle.log.events if e.action in kinds]


def test_glide_into_a_tree_stops_there_and_hurts_the_glider() -> None:
    """A glide passing within a tree's radius + 1 yd below its height stops at that edge;
    the glider takes half the tree's Size at margin 100, the tree nothing (PROPOSED)."""
    battle = _glide_past("{name: old oak, position: [8, 0], radius: 1, height: 8}")
    ann, bob = _member(battle, "Ann"), _member(battle, "Bob")
    assert _glide_events(battle) == [
        ("glide", None, 6),  # the oak's edge + 1 yd is 6 yd along; altitude 9 - 6 // 3
        ("collision", "old oak", "collides"),
        ("collision_damage", None, 50),  # Size 100 (the PROPOSED default) // 2
    ]
    assert (ann.xy, ann.altitude, ann.health.wounds, bob.health.wounds) == ((6.0, 0.0), 7, 50, 0)
    hit = battle.log.of("collision")[0]
    assert dict(hit.outcome)["height"] == 8
    assert "Ann glides into old oak at 7 yd (it stands 8 yd high)." in narrate(hit)


def test_obstacle_size_sets_the_collision_damage() -> None:
    """A smaller obstacle hurts less: base damage is half its ``size``."""
    battle = _glide_past("{name: hedge post, position: [4, 0], radius: 0.5, height: 12, size: 30}")
    assert _glide_events(battle)[-1] == ("collision_damage", None, 15)
    assert _glide_events(battle)[0] == ("glide", None, 2)  # 4 - 0.5 - 1 = 2.5 yd: 2 whole


def test_glide_above_the_tree_passes_over() -> None:
    """A glider still at or above the tree's height over its reach flies over it."""
    battle = _glide_past("{name: low thorn, position: [8, 0], radius: 1, height: 5}")
    assert _glide_events(battle) == [("glide", None, 12)]
    assert (_member(battle, "Ann").xy, _member(battle, "Ann").altitude) == ((12.0, 0.0), 5)


def test_glide_sinks_into_a_wide_cliff_once_below_its_top() -> None:
    """Over a wide cliff the glider is hit where its altitude first drops below the top:
    altitude 9 - 9 // 3 = 6 < 7 from 9 yd on, though it reached the cliff at 4 yd."""
    battle = _glide_past("{name: cliff, position: [10, 0], radius: 5, height: 7}")
    assert _glide_events(battle)[:2] == [("glide", None, 9), ("collision", "cliff", "collides")]
    assert _member(battle, "Ann").altitude == 6


def test_obstacle_beside_the_path_is_missed() -> None:
    """An obstacle farther than its radius + 1 yd from the path is missed; at exactly that
    distance it is hit."""
    miss = _glide_past("{name: old oak, position: [8, 3], radius: 1, height: 20}")
    assert _glide_events(miss) == [("glide", None, 12)]
    graze = _glide_past("{name: old oak, position: [8, 2], radius: 1, height: 20}")
    assert _glide_events(graze)[:2] == [("glide", None, 8), ("collision", "old oak", "collides")]


def test_obstacle_behind_the_glider_or_beyond_its_glide_is_missed() -> None:
    """Only what lies ahead within the glide's length is hit."""
    trees = "{name: behind, position: [-3, 0], radius: 2, height: 20}, " + (
        "{name: beyond, position: [15, 0], radius: 1, height: 20}"
    )
    assert _glide_events(_glide_past(trees)) == [("glide", None, 12)]


def test_nearest_of_several_obstacles_is_hit() -> None:
    """Of two obstacles on the path, the glide stops at the first it reaches."""
    trees = "{name: far oak, position: [10, 0], radius: 1, height: 20}, " + (
        "{name: near ash, position: [6, 1], radius: 1, height: 20}"
    )
    assert _glide_events(_glide_past(trees))[1] == ("collision", "near ash", "collides")


def test_fighter_before_the_obstacle_is_hit_first() -> None:
    """A fighter on the path before the obstacle takes the collision; one after it does not."""
    perched = "        altitude: 7\n"
    oak = "{name: old oak, position: [10, 0], radius: 1, height: 20}"
    first = _glide_past(oak, bob_x=6, bob=perched)
    assert _glide_events(first)[:2] == [("glide", None, 6), ("collision", "Bob", "collides")]
    assert _member(first, "Bob").health.wounds == 25  # half Ann's Size 50
    ash = "{name: ash, position: [3, 0], radius: 0.5, height: 20}"
    behind = _glide_past(ash, bob_x=6, bob=perched)
    assert _glide_events(behind)[:2] == [("glide", None, 1), ("collision", "ash", "collides")]
    assert _member(behind, "Bob").health.wounds == 0


def test_glide_collision_off_turns_terrain_off_too() -> None:
    """``fae.glide_collision: false`` glides through trees as through fighters."""
    oak = "{name: old oak, position: [8, 0], radius: 1, height: 20}"
    battle = _glide_past(oak, rules="fae.glide_collision: false")
    assert _glide_events(battle) == [("glide", None, 12)]
    assert _member(battle, "Ann").health.wounds == 0


def test_glide_hits_terrain_off_keeps_fighter_collisions() -> None:
    """``fae.glide_hits_terrain: false`` ignores obstacles; fighters are still hit."""
    ash = "{name: ash, position: [3, 0], radius: 0.5, height: 20}"
    battle = _glide_past(
        ash, bob_x=6, bob="        altitude: 7\n", rules="fae.glide_hits_terrain: false"
    )
    assert _glide_events(battle)[:2] == [("glide", None, 6), ("collision", "Bob", "collides")]


def test_obstacle_hit_geometry() -> None:
    """The yard along the path where a glide first meets an obstacle below its height."""
    oak = Obstacle(name="old oak", position=(10, 0), radius=1, height=8)
    east = (1.0, 0.0)
    assert obstacle_hit((0.0, 0.0), east, 5, 12, oak) == 8.0  # edge + 1 yd
    assert obstacle_hit((0.0, 0.0), east, 12, 12, oak) is None  # over it until past it
    assert obstacle_hit((0.0, 0.0), east, 5, 7, oak) is None  # the glide ends short of it
    assert obstacle_hit((20.0, 0.0), east, 5, 12, oak) is None  # behind the glider
    assert obstacle_hit((0.0, 0.0), (0.6, 0.8), 5, 12, oak) is None  # passes 8 yd off
    assert obstacle_hit((10.0, -5.0), (0.0, 1.0), 5, 12, oak) == 3.0  # from the south
