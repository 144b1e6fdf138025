"""A character with a missile weapon: readying, ammunition, range bands, aware targets.

Rules: ``personal-combat.md`` section 6 (SEED FADAD 4.4): the range band's Target
modifier on the defender's Target (A-02 ``range.extreme_literal``; ``range.extreme_multiple``
PROPOSED for where Extreme ends), an unaware target met by the Difficulty Level alone
(unopposed), an aware one that spends an action defending (dodge or shield block; a parry
only in a heroic game, ``range.parry_missiles``) at the projectile's penalty except for a
shield block, +2 for a shooter who concentrates on shooting and does nothing else,
readying actions carried over rounds (a bow 1, a heavy crossbow 3), and shots counted
against the ammunition carried. Shooting at a foe locked in melee with the shooter's
friends is harder (``range.into_melee_cover``, PROPOSED). An aim policy may call a body
part for a shot as for a blow (section 4, :func:`~fadad_agents.agents.core.aims.shot`);
a hit on a creature only magic harms is spirit combat (section 8).

A target is unaware of a shot (PROPOSED) while it fights someone else hand to hand: in
contact with its own target, which is not the shooter.
"""

from __future__ import annotations

import math
from typing import Any

from fadad_agents.agents.core import aims, moving, widespread
from fadad_agents.rules.core.actions import roll_unopposed
from fadad_agents.rules.core.ladder import GOOD
from fadad_agents.rules.personal.combat import resolve_attack
from fadad_agents.rules.personal.melee import moving_target_bonus, shield_skill_penalty
from fadad_agents.rules.personal.ranged import (
    CONCENTRATION_BONUS,
    PROJECTILE_DEFENCE_PENALTY,
    range_band,
    range_target_modifier,
)

__all__ = ["Missile", "in_range", "shoot_round"]

_KERNEL_PROJECTILE = {"fast": "too_fast"}
"""The schema's projectile names where the kernel's differ."""


class Missile:
    """A character's missile weapon and its state in the battle.

    Attributes:
        bands: upper bounds in yards of point-blank, short, medium and long range.
        ready_actions: actions to ready one shot (0 for a well-placed thrown weapon).
        penalty: the projectile's penalty to any defence but a shield block (<= 0).
        ammunition: shots carried (None: as many as the battle needs).
        left: shots left; progress: readying actions spent on the next shot.
        extreme: where Extreme range ends, in yards (``range.extreme_multiple`` times the
            long range); nobody is shot beyond it.
        dexterity: the shooter's Dexterity, rolled against Good to ready with an action
            past its second of the round (None: no roll, ``range.dexterity_past_two_actions``).
        area_ft3: the volume a widespread attack fills (agents.core.widespread), or None.
    """

    __slots__ = (
        "ammunition",
        "area_ft3",
        "bands",
        "dexterity",
        "extreme",
        "left",
        "penalty",
        "progress",
        "ready_actions",
    )

    def __init__(
        self,
        bands: tuple[int, int, int, int],
        ready_actions: int,
        projectile: str,
        ammunition: int | None,
        extreme_multiple: float,
        dexterity: int | None = None,
        area_ft3: float | None = None,
    ) -> None:
        self.bands = bands
        self.dexterity = dexterity
        self.ready_actions = ready_actions
        self.penalty = PROJECTILE_DEFENCE_PENALTY[_KERNEL_PROJECTILE.get(projectile, projectile)]
        self.ammunition = ammunition
        self.extreme = bands[3] * extreme_multiple
        self.area_ft3 = area_ft3
        self.restart()

    def restart(self) -> None:
        """Unreadied, with the full ammunition (set-up and reset)."""
        self.left = self.ammunition
        self.progress = 0  # readying actions spent on the next shot

    @property
    def readied(self) -> bool:
        """The next shot is ready to fire."""
        return self.progress >= self.ready_actions


def in_range(actor: Any, other: Any) -> bool:
    """Whether ``other`` is within the actor's missile range (anyone off the field is)."""
    if not (actor.placed and other.placed):
        return True
    return bool(math.dist(actor.position, other.position) <= actor.missile.extreme)


def foes_in_range(actor: Any, field: Any) -> list[Any]:
    """The foes fighting on ``field`` within the Extreme range of ``actor`` (a character
    who shoots, on it), side by side in :meth:`~.field.ground.Field.within`'s order, then
    those off the field (in range wherever they are): ``foes_in_reach``'s answer, each
    measured as :func:`in_range` measures it. A side the range holds whole (a bow over an
    army) is told at once, not each of its fighters measured for every shot: where it is
    the whole answer, the field's own list (:meth:`~.field.ground.Field.fighting_within`:
    not to be changed)."""
    (x, y), radius = actor.position, actor.missile.extreme
    parts: list[list[Any]] = []
    for side in range(field.sides):
        if side == actor.side:
            continue
        whole = field.fighting_within(side, x, y, radius)
        if whole is None:
            near = field.within(side, x, y, radius)
            whole = [f for f in near if f.fighting and in_range(actor, f)]
        if whole:
            parts.append(whole)
    if field.off_field:
        off = field.off_field
        parts.append([f for f in off if f.fighting and f.side != actor.side and in_range(actor, f)])
    if len(parts) == 1:
        return parts[0]
    return [f for part in parts for f in part]


def _aware(target: Any, shooter: Any) -> bool:
    """A target fighting someone else hand to hand does not see the shot coming."""
    engaged = target.target
    if engaged is None or engaged is shooter or not target.placed:
        return True
    return not moving.touches(target, engaged)


def _into_melee(target: Any, shooter: Any, arena: Any) -> bool:
    """The target is in melee contact with one of the shooter's friends."""
    if not target.placed:
        return False
    for friend in arena.field.within(
        shooter.side, *target.position, target.radius + target.reach + arena.field.widest
    ):
        if friend is not shooter and friend.fighting and moving.touches(friend, target):
            return True
    return False


def shoot_round(actor: Any, arena: Any, actions: int) -> None:
    """Spend ``actions`` on readying and shooting at the actor's target this turn."""
    missile = actor.missile
    concentrating = actor.move_actions == 0 and actor.gait is None and actor.defences_left == 0
    spent = actor.move_actions  # actions already taken this round (moves)
    while actions > 0 and missile.left != 0:
        if not missile.readied:
            step = min(actions, missile.ready_actions - missile.progress)
            if missile.dexterity is not None and spent + step > 2:
                step = _ready_past_two(actor, arena, missile, spent, step)
            else:
                missile.progress += step
            actions -= step
            spent += step
            arena.record(
                actor.name,
                "ready",
                None,
                (),
                (("actions", step),),
                (("result", "readied" if missile.readied else "readying"),
                 ("progress", missile.progress), ("needed", missile.ready_actions)),
            )  # fmt: skip
            continue
        target = _shot_target(actor, arena)
        if target is None:
            return
        if missile.area_ft3 is None or target.kind != "character":  # a crew, a unit: as one
            _shoot(actor, target, arena, concentrating)
        else:
            widespread.blast(actor, target, arena, concentrating, *_band(actor, target, arena))
        actions -= 1
        spent += 1
        missile.progress = 0
        if missile.left is not None:
            missile.left -= 1
            if missile.left == 0:  # PROPOSED: it fights on hand to hand, unarmed
                actor.verb = "punch"
                arena.record(actor.name, "out_of_ammunition", None, (), (), (("result", "empty"),))
        if not actor.fighting:
            return


def _ready_past_two(actor: Any, arena: Any, missile: Missile, spent: int, step: int) -> int:
    """Ready with ``step`` actions, the ones past the round's second each only on a Good
    Dexterity roll (SEED 4.4); a failed roll spends its action for nothing and ends the
    readying this turn. Returns the actions spent."""
    dexterity = missile.dexterity
    assert dexterity is not None  # only called with the option on
    used = 0
    while used < step:
        if spent + used >= 2:
            ok, degree, dice = roll_unopposed(
                dexterity, GOOD, actor.rng, actor.penalty, "dexterity"
            )
            arena.record(
                actor.name,
                "dexterity",
                None,
                (("dexterity", dice),),
                (("penalty", actor.penalty),),
                (("result", "readied" if ok else "fumbled"), ("degree", degree)),
            )
            if not ok:
                return used + 1
        missile.progress += 1
        used += 1
    return used


def _shot_target(actor: Any, arena: Any) -> Any | None:
    target = actor.target
    if target is not None and target.fighting and in_range(actor, target):
        return target
    target = actor.policies.targeting.choose_target(actor, arena, actor.targeting_rng)
    actor.target = target
    if target is None or not in_range(actor, target):
        return None
    actor.aim = aims.choose(actor, target, arena)  # called anew at the new target
    return target


def _band(actor: Any, target: Any, arena: Any) -> tuple[str, float]:
    if not (actor.placed and target.placed):
        return "point_blank", 0.0
    yards = math.dist(actor.position, target.position)
    if moving.touches(actor, target):
        return "melee", yards
    band = range_band(yards, actor.missile.bands, arena.options.range.extreme_multiple)
    return band or "extreme", yards  # in_range already held it within Extreme


def _ranged_shield(shield: Any, rank: int) -> int:
    """A FUDGE shield against a shot (``shield_mode: fudge_skill_penalty``): the kernel's
    exchange takes its melee value off every attacker's skill; a shot meets its ranged
    value instead (``Shield.fudge_ranged``, as the file gives it), and only on the side the
    bearer faces."""
    mode = "fudge_skill_penalty"
    melee = shield_skill_penalty(shield, shield_mode=mode)
    return melee - shield_skill_penalty(
        shield, rank, ranged=True, impervious=True, shield_mode=mode
    )


def _shoot(actor: Any, target: Any, arena: Any, concentrating: bool) -> None:
    """One shot through the kernel, logged, and absorbed by the target."""
    opts = arena.options.range
    band, yards = _band(actor, target, arena)
    aware = _aware(target, actor)
    defender = getattr(target, "missile_fighter", None) or target.fighter
    blocks = getattr(target, "blocks_missiles", False)
    defended = aware and target.use_defence()
    a_pen, d_pen = actor.penalty + aims.vision_penalty(actor), target.penalty
    bonus = range_target_modifier(band, extreme_literal=opts.extreme_literal)
    cover = opts.into_melee_cover if _into_melee(target, actor, arena) else 0
    gait = getattr(target, "gait", None)
    moving_bonus = moving_target_bonus(gait, arena.options.move.target_bonus) if gait else 0
    facing = target.target
    rank = moving.shield_rank(target, actor) if facing is None else int(facing is actor)
    modifier = CONCENTRATION_BONUS if concentrating else 0
    shield = defender.shield
    if shield is not None and arena.combat_rules.shield_mode == "fudge_skill_penalty":
        modifier += _ranged_shield(shield, rank)
    aim = aims.shot(actor.aim)  # a called shot (section 4), or None
    track = target.melee_track()
    res = resolve_attack(
        actor.fighter,
        defender,
        track,
        actor.rng,
        arena.combat_rules,
        attacker_penalty=a_pen,
        defender_penalty=d_pen + (0 if blocks else actor.missile.penalty),
        defended=defended,
        modifier=modifier,
        shield_rank=rank,
        target_bonus=bonus + cover + moving_bonus,
    )
    taken = after = None
    if aim is not None or target.spirit is not None:
        res, taken, after = aims.land(actor, target, aim, res, track, arena)
    arena.record(
        actor.name,
        "shoot",
        target.name,
        (("attack", res.attack_dice), ("defence", res.defence_dice), ("damage", res.damage_dice)),
        (
            ("attacker_penalty", a_pen),
            ("defender_penalty", d_pen),
            ("concentrating", concentrating),
            ("into_melee", bool(cover)),
        ),
        (
            ("result", res.wound.label if res.hit else "miss"),
            ("attack", res.attack_rolled),
            ("defence", res.defence_rolled if defended else res.target),
            ("defended", defended),
            ("aware", aware),
            ("band", band),
            ("yards", round(yards, 2)),
            ("target_level", res.target),
            ("rd", res.rd),
            ("hit", res.hit),
            ("crits", res.crits),
            ("damage", res.damage),
            ("wound", res.wound.label),
            ("defence_verb", "block" if blocks else "dodge"),
            *(() if aim is None else (("aim", aim.location),)),
            *(() if taken is None else (("taken", taken),)),
        ),
    )
    target.absorb(res, arena)
    if after is not None:  # a hurt limb: once the shot is logged (agents.core.aims)
        after()
