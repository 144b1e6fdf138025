"""A character on the field: contact, the room round a defender, and moves that cost actions.

Rules: ``personal-combat.md`` section 5 (15 yards an action, at most two, a free 8-yard step,
less for short legs, heavy armour and a Hurt leg; a quickly moving fighter's Target rises,
``move.target_bonus``) and the space each fighter takes and reaches (:mod:`fadad_agents.
rules.personal.movement`, PROPOSED there). Melee needs contact; as many attackers strike
one defender in a round as fit round it (six round a man), fewer where the scenario's
``map.max_attackers`` says so (a doorway), and at most ``engine.max_on_one`` of one
``count:`` group (counted in :mod:`~fadad_agents.agents.core.field.room`, its names
given here too). These functions take the character and the arena;
:class:`~.character.Character` calls them from its declare and act steps.
"""

from __future__ import annotations

import math
from typing import Any

from fadad_agents.agents.core import ranks
from fadad_agents.agents.core.crowd import ahead
from fadad_agents.agents.core.field.room import (
    admit,
    another_in_reach,
    has_room,
    never_crowded,
    room,
    roomy_foe_in_reach,
)
from fadad_agents.agents.core.ranks import ENGAGE_MARGIN, way_forward
from fadad_agents.policies.core.movement import CloseIn
from fadad_agents.rules.personal.movement import GAITS, MAX_MOVE_ACTIONS, movement_allowance

__all__ = [
    "STEP",
    "admit",
    "advance",
    "another_in_reach",
    "contact_place",
    "current_way",
    "distance",
    "follow_plan",
    "has_room",
    "in_contact",
    "move_event",
    "movers_first",
    "never_crowded",
    "on_ring",
    "open_way",
    "plan_move",
    "room",
    "roomy_foe_in_reach",
    "shield_rank",
    "steps_for",
    "touches",
]

STEP = True
"""A mover's compiled search moves it to the place it found in the field's mirror in the
same call, which the field's move then finds done (:func:`~fadad_agents.agents.core.ranks.
way_forward`'s ``step``): one compiled call a move fewer. Off (tests only), the field's
move puts it there: the same battle."""

_ARRIVE = 1e-6
"""Yards short of a goal that still count as there (floating point)."""

_ALLOWANCES = tuple(movement_allowance(spent) for spent in range(MAX_MOVE_ACTIONS + 1))
""":func:`movement_allowance` of 0, 1 and 2 actions (``move_plan`` inlined, every move)."""


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Yards between two points."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def touches(actor: Any, other: Any) -> bool:
    """Whether ``actor``'s melee reach touches ``other`` (anyone off the field, a group or
    a fighter of a battle without a field, is within reach of everyone; no one, None, is
    not)."""
    if other is None or not (actor.placed and other.placed):
        return other is not None
    (ax, ay), (bx, by) = actor.position, other.position
    reach = actor.radius + actor.reach + other.radius
    return bool((ax - bx) ** 2 + (ay - by) ** 2 <= reach * reach + _ARRIVE)


def in_contact(actor: Any, target: Any, arena: Any) -> bool:
    """Whether a placed ``actor`` touches ``target`` (None: no): known without measuring
    in one melee (``field.all_touching``)."""
    return target is not None and (arena.field.all_touching or touches(actor, target))


def shield_rank(defender: Any, attacker: Any) -> int:
    """1 when ``attacker`` stands on the side ``defender`` faces (within a quarter turn of
    its bearing), else 0; 1 for anyone off the field (personal-combat.md 3)."""
    if not (getattr(defender, "placed", False) and attacker.placed):
        return 1
    (dx, dy), (ax, ay) = defender.position, attacker.position
    bearing = defender.bearing
    return int((ax - dx) * math.cos(bearing) + (ay - dy) * math.sin(bearing) >= 0)


def contact_place(actor: Any, target: Any) -> tuple[float, float]:
    """Where ``actor`` stands to strike ``target``: the point within its reach on the
    straight line between them (a crowd there is met when it moves: :func:`advance`)."""
    (ax, ay), (tx, ty) = actor.position, target.position
    ring = actor.radius + actor.reach + target.radius - ENGAGE_MARGIN
    return on_ring(tx, ty, ax - tx, ay - ty, ring)


def on_ring(tx: float, ty: float, dx: float, dy: float, ring: float) -> tuple[float, float]:
    """:func:`contact_place` from its numbers: ``ring`` yards from ``(tx, ty)`` toward
    one ``(dx, dy)`` from it (from the +x side for one on top of it)."""
    gap = math.hypot(dx, dy)
    if gap < _ARRIVE:
        return tx + ring, ty
    return tx + dx / gap * ring, ty + dy / gap * ring


def plan_move(actor: Any, target: Any, arena: Any, budget: int, attacks: int) -> int:
    """Decide this round's movement actions (``actor.move_actions``) and return how many
    of ``attacks`` can still be made: none unless the move ends in contact."""
    actor.move_actions = 0
    route = _foreseen(actor, target)
    if route is not None and route.budget == budget:
        plan = route.plan  # the same move as last time
    else:
        plan = _plan(actor, target, arena, budget, route)
        if route is not None:
            route.budget, route.plan = budget, plan and _PLANS.get(plan, plan)
    return follow_plan(actor, plan, budget, attacks)


def follow_plan(actor: Any, plan: tuple[int, bool] | None, budget: int, attacks: int) -> int:
    """:func:`plan_move`'s end with the move's ``plan`` (:func:`_plan`)."""
    actor.memory["attacks_wanted"] = attacks  # for actions a move turns out not to need
    if plan is None:  # standing: strike whoever is in reach on its turn
        return attacks
    spent, reaches = plan
    actor.move_actions = spent
    if not reaches:
        return 0
    left = budget - spent
    return attacks if attacks < left else left


def steps_for(gap: float, most: int, pace: float) -> tuple[int, float]:
    """:func:`~fadad_agents.rules.personal.movement.move_plan` of ``gap`` yards with at
    most ``most`` actions at ``pace`` (a stride), its allowances read from a table: the
    movement actions a plan spends and the yards it covers (every plan of a mover)."""
    if gap <= 0:
        return 0, 0.0
    spent = 0 if most < 0 else most if most < MAX_MOVE_ACTIONS else MAX_MOVE_ACTIONS
    for steps in range(spent + 1):
        if gap <= _ALLOWANCES[steps] * pace:
            return steps, gap
    return spent, _ALLOWANCES[spent] * pace


def open_way(goal: Any, gap: float, spent: int, pace: float, target: Any) -> Any:
    """A move's way on an open field (no edges to clamp its ``goal``), ``gap`` yards off
    with ``spent`` actions at ``pace``: the goal, gap, yards it covers, its allowance, the
    pace and the ``target`` it chases if it gets there (placed); None if it stands."""
    allowance = _ALLOWANCES[spent] * pace
    far = gap if gap <= allowance else allowance
    if far <= _ARRIVE:
        return None
    reaches = far >= gap - _ARRIVE and target is not None and target.placed
    return goal, gap, far, allowance, pace, target if reaches else None


def _plan(
    actor: Any, target: Any, arena: Any, budget: int, route: Route | None
) -> tuple[int, bool] | None:
    """The movement actions the actor's move toward where its movement policy wants it
    takes, and whether it ends in reach of ``target``; None if it stands."""
    move = _destination(actor, target, arena, route)
    if move is None:
        return None
    goal, most = move
    gap = math.hypot(actor.position[0] - goal[0], actor.position[1] - goal[1])  # distance
    pace = float(actor.stride) if actor.conditions is None else _stride(actor, arena)
    spent, yards = steps_for(gap, most if most < budget else budget, pace)
    if target is None or yards < gap - _ARRIVE:
        plan = spent, False  # it does not arrive
    elif not target.placed:  # _touches_from, inlined (every plan)
        plan = spent, True
    else:
        reach, (tx, ty) = actor.radius + actor.reach + target.radius, target.position
        plan = spent, math.hypot(goal[0] - tx, goal[1] - ty) <= reach + _ARRIVE
    if route is not None and actor.target is target:  # its way with these actions, now
        field = arena.field
        if field.width is None and field.height is None:  # _way_now's, its gap known
            way = open_way(goal, gap, spent, pace, target)
        else:
            way = _way_now(actor, arena, route, spent)
        route.actions, route.way = spent, way
    return plan


class Route:
    """What the actor's move toward ``target`` depends on - where both stand, the target
    and whether it is on the field - and what was worked out from it: its destination
    (``move``), its plan for a ``budget`` of actions, its way with ``actions`` planned
    (:data:`_UNSET` or -1: not yet). The same places, the same destination, and with the
    same actions the same move: a man waiting in the ranks works them out once, not twice
    a round. One object a fighter: a crowd re-plans thousands a round, and the collector
    walks every object kept."""

    __slots__ = ("actions", "at", "budget", "here", "move", "placed", "plan", "target", "way")

    def __init__(self, here: Any, target: Any, at: Any, placed: bool) -> None:
        self.here, self.target, self.at, self.placed = here, target, at, placed
        self.move: Any = _UNSET
        self.plan: Any = _UNSET
        self.way: Any = _UNSET
        self.budget = self.actions = -1


_UNSET = object()  # a Route's part not yet worked out

_PLANS: dict[tuple[int, bool], tuple[int, bool]] = {
    (spent, reaches): (spent, reaches) for spent in range(3) for reaches in (False, True)
}
"""One tuple for each plan (a crowd's thousands of plans make no new objects)."""


def _foreseen(actor: Any, target: Any) -> Route | None:
    """The actor's :class:`Route` toward ``target`` when its movement policy is
    ``foreseeable`` (its destination follows from where the actor and its target stand)
    and no crit slows it: the one kept while both stand where they stood, else a new one,
    kept; None otherwise."""
    if target is None or actor.conditions is not None:
        return None
    route: Route | None = actor.memory.get("route")
    here, at, placed = actor.position, target.position, target.placed
    if (
        route is not None
        and route.target is target
        and route.here == here
        and route.at == at
        and route.placed == placed
    ):  # kept (only ever for a foreseeable policy: a fighter's policies never change)
        return route
    if route is not None:  # a new route in the kept object (nothing else holds it)
        route.here, route.target, route.at, route.placed = here, target, at, placed
        route.move = route.plan = route.way = _UNSET
        route.budget = route.actions = -1
        return route
    if not getattr(actor.policies.movement, "foreseeable", False):
        return None
    route = actor.memory["route"] = Route(here, target, at, placed)
    return route


def _destination(actor: Any, target: Any, arena: Any, route: Route | None) -> Any:
    """Where the actor's movement policy wants it now (``destination``), kept in its
    ``route`` (:func:`_foreseen`) when it has one."""
    if route is not None and route.move is not _UNSET:
        return route.move
    movement = actor.policies.movement
    if type(movement) is not CloseIn:
        move = movement.destination(actor, target, arena)
    elif target is None or arena.field is None or not (actor.placed and target.placed):
        move = None  # no one to close on, or off the field
    else:  # CloseIn's destination and arena.engage_point (touches, contact_place) inlined
        (ax, ay), (tx, ty) = actor.position, target.position
        reach = actor.radius + actor.reach + target.radius
        dx, dy = ax - tx, ay - ty
        if dx**2 + dy**2 <= reach * reach + _ARRIVE:
            move = None  # in reach already
        else:
            move = on_ring(tx, ty, dx, dy, reach - ENGAGE_MARGIN), movement.actions
    if route is not None:  # kept there
        route.move = move
    return move


def _stride(actor: Any, arena: Any) -> float:
    """The share of the movement table the actor covers now: its own (short legs, heavy
    armour), less ``move.hurt_leg_factor`` while a leg is Hurt (section 4: -1 running)."""
    found = actor.conditions
    if found is not None and found.parts.get("leg") == "hurt":
        return float(actor.stride * arena.options.move.hurt_leg_factor)
    return float(actor.stride)


def advance(actor: Any, arena: Any) -> None:
    """Move on the actor's turn: toward where its movement policy wants it now, as far as
    the planned actions allow (the free step with none); logged with the distance.

    Planned movement actions the move turned out not to need (the foe came to it) go to
    attacks if it now touches its target, else to defences."""
    field = arena.field
    if field.looked_ahead != arena.round:  # the round's first move
        field.looked_ahead = arena.round
        _look_ahead(arena)
    planned = actor.move_actions
    memory = actor.memory
    route, target, here = memory.get("route"), actor.target, actor.position
    found = memory.pop("found", _UNSET)  # a place the arrays found (crowd.runs): no search
    if found is not _UNSET:  # its way for the goal and pace only: no route kept (none read)
        way = None if found is None else _way_now(actor, arena, None)
    elif (  # current_way's kept way, inlined (every move): see _foreseen
        route is not None
        and route.actions == planned
        and route.target is target
        and target is not None
        and route.here == here
        and route.at == target.position
        and route.placed == target.placed
        and actor.conditions is None
    ):
        way = route.way
    else:
        way = current_way(actor, arena)
    if way is None:
        if planned > 0:  # _spare of none: nothing to do (a blocked rear rank, every turn)
            _spare(actor, planned)
        return
    goal, gap, yards, allowance, pace, target = way
    memo = memory.get("blocked")
    if found is not _UNSET:
        place = found
    elif memo is not None and memo.way is way and ranks.REMEMBER_BLOCKED:
        place = memo.retry(actor, field)  # its remembered search was for this very way
    else:
        place = way_forward(actor, field, goal, gap, yards, allowance, target, way, memo, STEP)
    if place is None:  # every place tried is taken: it waits where it stands
        if planned > 0:
            _spare(actor, planned)
        return
    x, y = place
    yards = math.hypot(here[0] - x, here[1] - y)  # distance, inlined (every move)
    if yards <= _ARRIVE:
        if planned > 0:
            _spare(actor, planned)
        return
    spent, most = 0, planned if planned < MAX_MOVE_ACTIONS else MAX_MOVE_ACTIONS
    while spent < most and yards > _ALLOWANCES[spent] * pace:  # move_plan's, inlined
        spent += 1
    field.move(actor, x, y)
    actor.bearing = math.atan2(goal[1] - here[1], goal[0] - here[0])
    gait = GAITS[spent]  # gait_for_move_actions, unchecked: move_plan spends 0 to 2
    actor.gait = gait
    target = actor.target
    arena.defer(  # its log fields made when the log is read: a crowd moves thousands a round
        move_event,
        (actor.name, None if target is None else target.name, spent, gait, yards, here, x, y),
    )
    if planned > spent:
        _spare(actor, planned - spent)


def move_event(
    actor: str,
    target: str | None,
    spent: int,
    gait: str,
    yards: float,
    here: tuple[float, float],
    x: float,
    y: float,
) -> tuple[str, str, str | None, tuple[()], tuple[Any, ...], tuple[Any, ...]]:
    """The (actor, action, target, dice, modifiers, outcome) of one move of
    :func:`advance`: ``spent`` actions at ``gait``, ``yards`` from ``here`` to ``(x, y)``."""
    return (
        actor,
        "move",
        target,
        (),
        (("actions", spent),),
        (
            ("result", gait),
            ("yards", round(yards, 2)),
            ("from", (round(here[0], 2), round(here[1], 2))),
            ("to", (round(x, 2), round(y, 2))),
        ),
    )


def current_way(actor: Any, arena: Any) -> tuple[Any, float, float, float, float, Any] | None:
    """Where the actor's move goes now: its goal (on the field), the yards to it, the
    yards it moves, its allowance and pace, and its target if the move reaches it (else
    None: no place round it to try); None if it stays where it stands. (A band's turn in
    arrays works out its members' ways here too: :mod:`~.crowd.waiting`.)"""
    route = _foreseen(actor, actor.target)
    actions = actor.move_actions
    if route is not None and route.actions == actions:
        found: tuple[Any, float, float, float, float, Any] | None = route.way
        return found  # the same way as last time
    way = _way_now(actor, arena, route)
    if route is not None:
        route.actions, route.way = actions, way
    return way


def _way_now(
    actor: Any, arena: Any, route: Route | None, actions: int | None = None
) -> tuple[Any, float, float, float, float, Any] | None:
    """:func:`current_way`, worked out (with ``actions`` planned: its move actions now
    if None)."""
    move: Any = route.move if route is not None else _UNSET
    if move is _UNSET:
        move = _destination(actor, actor.target, arena, route)
    if move is None:
        return None
    point, field = move[0], arena.field
    goal = point if field.width is None and field.height is None else field.clamp(*point)
    if goal == point:  # on the field: the point kept already (one object fewer a way)
        goal = point
    (hx, hy), (gx, gy) = actor.position, goal
    gap = math.hypot(hx - gx, hy - gy)  # distance, inlined (every new way)
    pace = float(actor.stride) if actor.conditions is None else _stride(actor, arena)
    if actions is None:
        actions = actor.move_actions
    allowance = (
        _ALLOWANCES[actions] if 0 <= actions <= MAX_MOVE_ACTIONS else movement_allowance(actions)
    ) * pace
    yards = gap if gap <= allowance else allowance
    if yards <= _ARRIVE:
        return None
    target = actor.target
    if not (yards >= gap - _ARRIVE and target is not None and target.placed):
        target = None
    return goal, gap, yards, allowance, pace, target


def _look_ahead(arena: Any) -> None:
    """Before the round's first move: the searches of the fighters whose way changed
    since they last searched (a target that fell or stepped), made together, those whose
    move reaches the target with the places round it (:func:`~fadad_agents.agents.core.
    crowd.ahead.measure_ahead`). Only fighters whose movement policy is ``foreseeable`` (its
    destination follows from where they and their targets stand) are worked out ahead;
    each move is still made on its fighter's turn, from where everyone stands then."""
    if not (ahead.LOOK_AHEAD and ranks.REMEMBER_BLOCKED):
        return
    everyone = arena.field.standing()
    if len(everyone) < ahead.AHEAD_AT_LEAST:
        return
    chasers = []
    for index, actor in enumerate(everyone):
        chased = actor.target
        if chased is None or not getattr(actor.policies.movement, "foreseeable", False):
            continue
        memo = actor.memory.get("blocked")
        if (  # it and its target stand where they did: most likely the same way, and
            memo is not None
            and memo.here is actor.position
            and memo.chased is chased
            and memo.chased_at is chased.position
        ):  # its memo answers on its turn
            continue
        way = current_way(actor, arena)
        if way is not None:
            goal, gap, yards, allowance, _, target = way
            chasers.append((actor, index, goal, gap, yards, allowance, target, way))
    ahead.measure_ahead(arena.field, everyone, chasers)


def _spare(actor: Any, actions: int) -> None:
    """Movement actions not needed after all: shots for a missile fighter; attacks on a
    target now in reach, up to what its multi-attack policy wanted (a fighter whose foe
    came to it strikes); the rest defences."""
    if actions <= 0:
        return
    actor.move_actions -= actions
    if actor.shoots:
        actor.attacks_planned += actions
        return
    strikes = 0
    if actor.target is not None and touches(actor, actor.target):
        wanted = actor.memory.get("attacks_wanted", 1)
        strikes = max(0, min(actions, wanted - actor.attacks_planned))
    actor.attacks_planned += strikes
    actor.defences_left += actions - strikes


def movers_first(turn: Any, arena: Any) -> list[Any]:
    """A shared turn's movers, who move before anyone in it strikes, in an order drawn by
    lot on ``arena.movement_rng`` (read only when two or more move: no side moves first
    because of its place in the file); each then acts without moving again (``stepped``:
    :func:`~fadad_agents.agents.core.crowd.waiting.move_first` moves them). In one melee
    (``field.all_touching``) every target is in reach: no contact to check."""
    near = arena.field.all_touching
    movers = [
        m
        for m in turn
        if m.placed
        and m.fighting
        and (m.move_actions or not (m.target is not None if near else touches(m, m.target)))
    ]
    if len(movers) > 1:
        rng = arena.movement_rng
        for i in range(len(movers) - 1, 0, -1):  # Fisher-Yates on the movement stream
            j = int(rng.random() * (i + 1))
            movers[i], movers[j] = movers[j], movers[i]
    return movers
