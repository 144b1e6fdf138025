"""The personal battle's field: starting positions, and what policies ask of the space.

Every character of a personal battle stands on open ground in yards
(:class:`~fadad_agents.agents.core.field.Field`). Where the scenario gives a position, a
lone fighter stands there and a ``count:`` group forms a block whose front rank is
centred there, ranks behind it away from the enemy, a man's width apart: as many ranks
as its ``ranks`` says, else as square a block as its count makes. Forces without
a position are in the melee: each side's place is half a yard from the centre of the
field, the sides facing each other a yard apart. Up to :data:`MELEE_AT_ONCE` such
fighters of a side stand together at its place, each in contact with every foe (as every
battle played before fighters had positions); more form one block of ranks behind it.

Crews and units stay off the field: bulk agents reach and are reached everywhere (their
mass-combat rules have no personal positions). Battles of other rule systems (ships,
Fae Domains) have no field, and their FADAD fighters reach everyone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, cast

from fadad_agents.agents.core.base import Combatant
from fadad_agents.agents.core.character import Character
from fadad_agents.agents.core.field import Field
from fadad_agents.agents.core.field.ground import UNFILED
from fadad_agents.agents.core.field.measures import SQUARES_HIGH, SQUARES_LOW
from fadad_agents.agents.core.field.squares import keys_in
from fadad_agents.agents.core.moving import contact_place, has_room, touches
from fadad_agents.agents.core.shooting import foes_in_range
from fadad_agents.schema.scenario import Scenario

__all__ = ["OnTheField", "place_forces"]

_SMALL = 32
"""Up to this many foes, reach is checked foe by foe in the live list's order."""

MELEE_AT_ONCE = 6
"""PROPOSED: up to this many fighters of a side without positions stand together in the
melee, each in contact with every foe (six fit round a man); more form ranks."""

_START_TRIES = 64
"""Places behind its own a fighter tries before starting where it was put (PROPOSED)."""

NEAREST_FIRST = True
"""A melee fighter asks for its nearest foe before the foes in its reach where the other
side is filed in arrays for its nearest (:meth:`OnTheField.foes_in_reach`): behind the
ranks it is out of everyone's reach, told by one compiled look-up instead of a search of
the squares round it. False (tests only): the squares are always searched; the same
battle."""


TOUCHING_IN_MIRROR = True
"""Where the field is mirrored in arrays (``Field.mirrored``), a melee character's foes in
reach on a field of two sides are measured there, in one compiled call, and told in the
order the other side's buckets list them (:meth:`OnTheField._touching`). False (tests
only): measured bucket by bucket in Python; the same foes in the same order."""

TOUCHING_AT_ONCE = True
"""A melee character on a field of two sides, nobody off it, has its foes in reach found
in one pass over the other side's squares round it, none at once where those squares
hold none of that side (:meth:`OnTheField._touching`). False (tests only): found by
``Field.within`` and measured each; the same foes in the same order."""


REACH_OR_NEAREST = True
"""Where :data:`TOUCHING_IN_MIRROR` measures them, a melee character's foes in reach and,
if none is, its nearest foe (kept for :meth:`OnTheField.nearest_foe`) are told in one
compiled call (:func:`~fadad_agents.agents.core.crowd.remembered.foes_or_nearest`).
False (tests only): the nearest told first (:data:`NEAREST_FIRST`), then the mirror."""

NEAREST_IN_MIRROR = True
"""Where the field is mirrored (no big band's crowd answering), the nearest foe of a
field of two sides is found there in one compiled call (:func:`~fadad_agents.agents.
core.crowd.remembered.nearest_foe`). False (tests only): ``Field.nearest``."""

_reaching: Any = None  # crowd.remembered once imported (numba loaded: the mirror is kept)


def _reaching_now() -> Any:
    """:mod:`~fadad_agents.agents.core.crowd.remembered` (numba loaded: mirror kept)."""
    global _reaching
    if _reaching is None:
        from fadad_agents.agents.core.crowd import remembered

        _reaching = remembered
    return _reaching


_OUT_OF_REACH = 1 + 1e-9
"""How many times an actor's squared reach (and a hair) its nearest foe must stand beyond
for no foe to be in reach, whatever floating point does (:meth:`OnTheField.foes_in_reach`;
the nearest is measured by ``**``, reach by products)."""


class OnTheField:
    """The spatial questions a personal battle answers for policies and agents.

    Attributes:
        _out_of_reach: the last actor :meth:`foes_in_reach` found no foe in reach of by
            its nearest foe (the other side filed in arrays), where it stood, the field's
            :attr:`~fadad_agents.agents.core.field.Field.moves` then, that nearest foe and
            the yards measured: while none of them changed (and the nearest fights), the
            same answers (``random_foe`` asks for the nearest foe next; a re-target's
            strike asks for foes in reach again).
    """

    field: Field | None
    _out_of_reach: tuple[Any, Any, int, Any, float] = (None, None, -1, None, 0.0)

    def foes(self, side: int) -> Sequence[Combatant]:  # provided by the battle
        raise NotImplementedError

    def foes_in_reach(self, actor: Any, *, nearest_next: bool = True) -> Sequence[Combatant]:
        """Active foes the actor can attack from where it stands, in the live list's order
        (every foe where the battle has no field, the actor is off it, or it stands in one
        melee without a missile weapon: the plain melee round counts on that; not to be changed:
        it may be that list, or one the field keeps: ``shooting.foes_in_range``). Without
        ``nearest_next``, the nearest foe (``random_foe``'s next question) is not found too."""
        field = self.field
        if field is None or not actor.placed:
            return self.foes(actor.side)
        if actor.missile is None:
            if field.all_touching:  # every foe touches (the same list)
                return self.foes(actor.side)
            who, there, moves, near, beyond = self._out_of_reach
            if (  # asked again before anyone moved (a re-target's strike): told at once
                who is actor
                and there is actor.position
                and moves == field.moves
                and near.fighting
                and beyond == actor.radius + actor.reach + field.widest
            ):
                return []
        foes = self.foes(actor.side)
        if len(foes) <= _SMALL:
            if actor.missile is not None:
                return [foe for foe in foes if actor.can_reach(foe)]
            (x, y), base, touched = actor.position, actor.radius + actor.reach, []
            for f in cast("Sequence[Any]", foes):  # moving.touches, inlined: every retarget asks
                if f.placed:  # squares by products, by ``**`` (pow) only within a hair
                    dx, dy, reach = f.position[0] - x, f.position[1] - y, base + f.radius
                    d, limit = dx * dx + dy * dy, reach * reach + 1e-6
                    if d > limit * SQUARES_LOW and (
                        d > limit * SQUARES_HIGH or dx**2 + dy**2 > reach**2 + 1e-6
                    ):
                        continue
                touched.append(f)
            return touched
        here = actor.position
        x, y = here
        shoots = actor.missile is not None and actor.shoots  # no property call in melee
        if shoots and type(actor) is Character:  # anyone within Extreme range
            return foes_in_range(actor, field)
        if shoots:  # anyone within Extreme range, else anyone its reach touches
            radius = actor.missile.extreme
        else:
            radius = actor.radius + actor.reach + field.widest
            two = field.sides == 2 and not field.off_field
            if TOUCHING_AT_ONCE and two and type(actor) is Character:
                return self._touching(actor, field, radius, nearest_next)
            if NEAREST_FIRST and two:  # if cheap
                near = field.nearest_known(1 - actor.side, x, y)
                if near is not None and near is not UNFILED:
                    fx, fy = near.position
                    if (fx - x) ** 2 + (fy - y) ** 2 > _OUT_OF_REACH * (radius * radius + 1e-6):
                        self._out_of_reach = (actor, here, field.moves, near, radius)
                        return []
        found: list[Combatant] = []
        for side in range(field.sides):
            if side != actor.side and (near := field.within(side, x, y, radius)):
                found.extend(f for f in near if f.fighting)
        if field.off_field:
            found.extend(f for f in field.off_field if f.fighting and f.side != actor.side)
        if not found:
            return found  # ranks behind
        if type(actor) is not Character:  # (a character who shoots was answered above)
            return [f for f in found if actor.can_reach(f)]
        base, near_foes, candidates = actor.radius + actor.reach, [], cast("list[Any]", found)
        for f in candidates:  # Character.can_reach (moving.touches), inlined: every re-target asks
            if f.placed:  # squares by products, by ``**`` (pow) only within a hair
                dx, dy, reach = x - f.position[0], y - f.position[1], base + f.radius
                d, limit = dx * dx + dy * dy, reach * reach + 1e-6
                if d > limit * SQUARES_LOW and (d > limit * SQUARES_HIGH or dx**2 + dy**2 > limit):
                    continue
            near_foes.append(f)
        return near_foes

    def _touching(self, actor: Any, field: Field, radius: float, nearest: bool = True) -> list[Any]:
        """:meth:`foes_in_reach` of a melee character on a field of two sides, nobody off
        it (``radius``: its reach and the widest's): none where the squares ``radius``
        round it miss the other side's (no bucket of it lies there: the ranks behind), or
        where that side's nearest, filed in arrays, stands beyond it (:data:`NEAREST_FIRST`);
        else ``Field.within``'s foes, those fighting, that its reach touches (as
        ``Character.can_reach`` measures), measured in one pass."""
        side = 1 - actor.side
        buckets, (bx0, by0, bx1, by1) = field.filed(side)
        here: Any = actor.position
        (x, y), cell = here, field.cell
        x0, y0 = math.floor((x - radius) / cell), math.floor((y - radius) / cell)
        x1, y1 = math.floor((x + radius) / cell), math.floor((y + radius) / cell)
        x0, y0 = x0 if x0 > bx0 else bx0, y0 if y0 > by0 else by0  # max, min: no calls
        x1, y1 = x1 if x1 < bx1 else bx1, y1 if y1 < by1 else by1
        if x1 < x0 or y1 < y0:
            return []
        mirror = field.mirrored() if TOUCHING_IN_MIRROR else None
        if mirror and REACH_OR_NEAREST and nearest:  # one call: in reach, or the nearest
            asked = (x, y, radius, actor.radius + actor.reach, field.widest, cell,
                     side, x0, x1, y0, y1, bx0, by0, bx1, by1)  # fmt: skip
            told, near = (_reaching or _reaching_now()).foes_or_nearest(mirror, asked)
            if near is not None and NEAREST_FIRST:  # none in reach: random_foe asks next
                self._out_of_reach = (actor, here, field.moves, near, radius)
            if told is not None:
                return [f for f in told if f.fighting]
        if NEAREST_FIRST:
            near = field.nearest_known(side, x, y)
            if near is not None and near is not UNFILED:
                fx, fy = near.position
                if (fx - x) ** 2 + (fy - y) ** 2 > _OUT_OF_REACH * (radius * radius + 1e-6):
                    self._out_of_reach = (actor, here, field.moves, near, radius)
                    return []
        r2, widest, base = radius * radius, field.widest, actor.radius + actor.reach
        if mirror and not (REACH_OR_NEAREST and nearest):  # else asked above, no answer
            told = mirror.touching((x, y, radius, base, widest, cell, float(side), x0, x1, y0, y1))
            if told is not None:
                return [f for f in told if f.fighting]
        low, high = r2 * SQUARES_LOW, r2 * SQUARES_HIGH
        found: list[Any] = []
        if (x1 - x0 + 1) * (y1 - y0 + 1) <= len(buckets):  # as Field.within looks
            get = buckets.get
            filled = [get((i, j)) for i in range(x0, x1 + 1) for j in range(y0, y1 + 1)]
        else:
            filled = [buckets[key] for key in keys_in(buckets, x0, x1, y0, y1)]
        for bucket in filled:
            for f in bucket or ():
                px, py = f.position
                px -= x
                py -= y
                d = px * px + py * py
                if (d < low or (d <= high and px**2 + py**2 <= r2)) and f.fighting:
                    if f.radius != widest and f.placed:  # as wide: within it, it touches
                        reach = base + f.radius
                        limit = reach * reach + 1e-6
                        if d > limit * SQUARES_LOW and (
                            d > limit * SQUARES_HIGH or px**2 + py**2 > limit
                        ):
                            continue
                    found.append(f)
        return found

    def nearest_foe(self, actor: Any, *, room: bool = False) -> Combatant | None:
        """The nearest active foe on the field (None without a field); with ``room``, the
        nearest with a place left round it for the actor this round."""
        field = self.field
        if not room and field is not None:  # (a foe still fighting: one is left)
            who, there, moves, near, _ = self._out_of_reach
            if who is actor and there is actor.position and moves == field.moves and near.fighting:
                told: Combatant = near  # found by foes_in_reach, nobody moved since
                return told
        if field is None or not actor.placed or not self.foes(actor.side):
            return None  # no foe left (the battle ends this round): nothing to look up
        x, y = actor.position
        if not room and field.sides == 2:  # one other side: its nearest, none to compare
            side = 1 - actor.side
            mirror = field.mirrored() if NEAREST_IN_MIRROR and field.in_arrays is None else None
            if mirror:
                asked = (x, y, side, field.cell, *field.filed(side)[1])
                found: Combatant | None = (_reaching or _reaching_now()).nearest_foe(mirror, asked)
                return found
            return field.nearest(side, x, y)
        accept = (lambda foe: has_room(foe, actor, self)) if room else None
        best: Combatant | None = None
        best_d = math.inf
        for side in range(field.sides):
            if side == actor.side:
                continue
            foe = field.nearest(side, x, y, accept)
            if foe is not None:
                d = math.dist(foe.position, (x, y))
                if d < best_d:
                    best, best_d = foe, d
        return best

    def nearest_foes(
        self,
        side: int,
        places: list[tuple[float, float]],
        each: Callable[[int, list[tuple[float, float]]], list[Any]] | None = None,
    ) -> list[Any]:
        """:meth:`nearest_foe` (no room asked for) of a fighter of ``side`` standing at
        each of ``places`` on the field, found together: each other side's nearest to
        every place by ``each`` (:meth:`Field.nearest_to_each`'s answers; by default that
        method)."""
        field = self.field
        if field is None or not self.foes(side):
            return [None] * len(places)
        if each is None:
            mirror = field.mirrored() if NEAREST_IN_MIRROR and field.in_arrays is None else None
            if mirror and field.sides == 2:
                other = 1 - side
                asked = (other, field.cell, *field.filed(other)[1])
                found: list[Any] = _reaching_now().nearest_to_each(mirror, asked, places)
                return found
            each = field.nearest_to_each
        others = [other for other in range(field.sides) if other != side]
        if len(others) == 1:  # no sides to compare
            return each(others[0], places)
        best: list[Any] = [None] * len(places)
        best_d = [math.inf] * len(places)
        for other in others:
            for i, foe in enumerate(each(other, places)):
                if foe is not None:
                    d = math.dist(foe.position, places[i])
                    if d < best_d[i]:
                        best[i], best_d[i] = foe, d
        return best

    def engage_point(self, actor: Any, target: Any) -> tuple[float, float] | None:
        """Where the actor must stand for its reach to touch ``target`` (the nearest such
        point, :func:`~fadad_agents.agents.core.moving.contact_place`); None if it touches
        already or either is off the field."""
        field = self.field
        if field is None or touches(actor, target):
            return None
        return contact_place(actor, target)


def _side_places(scenario: Scenario) -> list[tuple[float, float]]:
    """Each side's place in the melee: half a yard from the field's centre, the sides
    spread evenly round it (two sides face each other a yard apart)."""
    spec = scenario.map
    cx = spec.width / 2 if spec.width is not None else 0.0
    cy = spec.height / 2 if spec.height is not None else 0.0
    n = len(scenario.sides)
    return [
        (cx + 0.5 * math.cos(math.pi + 2 * math.pi * i / n),
         cy + 0.5 * math.sin(math.pi + 2 * math.pi * i / n))
        for i in range(n)
    ]  # fmt: skip


def _block(
    anchor: tuple[float, float], facing: tuple[float, float], count: int, spacing: float,
    ranks: int | None,
) -> list[tuple[float, float]]:  # fmt: skip
    """``count`` places in ``ranks`` ranks (None: as square a block as it makes), the front
    one centred on ``anchor`` across ``facing`` (toward the enemy), each next ``spacing`` back."""
    files = math.ceil(count / ranks) if ranks else math.ceil(math.sqrt(count))
    fx, fy = facing
    across = (-fy, fx)
    places = []
    for k in range(count):
        rank, file = divmod(k, files)
        offset = (file - (min(files, count - rank * files) - 1) / 2) * spacing
        places.append(
            (anchor[0] + across[0] * offset - fx * rank * spacing,
             anchor[1] + across[1] * offset - fy * rank * spacing)
        )  # fmt: skip
    return places


def place_forces(battle: Any, scenario: Scenario) -> None:
    """Give the battle its field and every character its starting position (set-up)."""
    spec = scenario.map
    field = Field(
        len(scenario.sides),
        width=spec.width,
        height=spec.height,
        max_attackers=spec.max_attackers,
    )
    places = _side_places(scenario)
    anchors: list[list[tuple[float, float]]] = [[] for _ in scenario.sides]
    for si, side in enumerate(scenario.sides):
        for force in side.forces:
            pos = getattr(force, "position", None)
            anchors[si].append(places[si] if pos is None else (float(pos[0]), float(pos[1])))
    groups: dict[tuple[str, int], list[Character]] = {}  # fighters standing together
    for side in battle.sides:
        for member in side.members:
            if isinstance(member, Character):
                unplaced = anchors[member.side][member.force_index] is places[member.side]
                key = ("side", member.side) if unplaced else ("band", id(member.band))
                groups.setdefault(key, []).append(member)
    centres = [_centre(a) for a in anchors]
    for key, members in groups.items():
        lead = members[0]
        anchor = anchors[lead.side][lead.force_index]
        facing = _toward_enemy(anchor, lead.side, centres, places)
        if len(members) == 1 or (key[0] == "side" and len(members) <= MELEE_AT_ONCE):
            spots = [anchor] * len(members)
        else:
            ranks = getattr(scenario.sides[lead.side].forces[lead.force_index], "ranks", None)
            spots = _block(anchor, facing, len(members), 2 * lead.radius, ranks)
        together = key[0] == "side" and len(members) <= MELEE_AT_ONCE
        for member, spot in zip(members, spots, strict=True):
            member.position = member.start_position = _free_start(
                field, member, spot, facing, together
            )
            member.start_bearing = _bearing(member.facing, facing)
            field.add(member)
    battle.field = field
    settle(battle)


def _free_start(
    field: Field, member: Any, spot: tuple[float, float], facing: tuple[float, float],
    together: bool,
) -> tuple[float, float]:  # fmt: skip
    """Where ``member`` starts: its spot, else the first free place k men's widths from it
    (k = 1, 2 ...): behind it, away from the enemy, then to its left, its right, ahead
    (two forces given overlapping places form one deep block; a spot at the field's edge
    spills sideways): no two fighters in one place. Fighters without positions in the
    melee stand together (``together``)."""
    x, y = field.clamp(*spot)
    if together or not field.crowded(member, x, y):
        return x, y
    step = 2 * member.radius
    fx, fy = facing
    ways = ((-fx, -fy), (-fy, fx), (fy, -fx), (fx, fy))  # behind, left, right, ahead
    for k in range(1, _START_TRIES + 1):
        for wx, wy in ways:
            px, py = field.clamp(x + wx * k * step, y + wy * k * step)
            if not field.crowded(member, px, py):
                return px, py
    return x, y


def settle(battle: Any) -> None:
    """Everyone at its starting position on the (cleared) field (set-up and reset); the
    field knows whether every fighter then touches every foe (:attr:`Field.all_touching`)."""
    field = battle.field
    field.clear()
    field.off_field = [
        m for side in battle.sides for m in side.members if m.start_bearing is None
    ]  # crews and units: in reach of everyone
    placed = []
    for side in battle.sides:
        for member in side.members:
            if member.start_bearing is not None:  # a character (groups stay off the field)
                member.position = member.start_position
                member.bearing = member.start_bearing
                member.placed = True
                placed.append(member)
    if field.start_touching:  # a reset battle in one melee: filed only if looked up
        field.place_later(placed)
    else:
        field.add_all(placed)
    if field.start_touching is None:  # the same start every reset: found once per battle
        field.start_touching = _all_touching(placed)
    field.all_touching = field.start_touching


def _all_touching(placed: list[Any]) -> bool:
    """Whether each of ``placed`` is within reach of every foe among them, measured
    strictly (no rounding margin, as a declaring fighter measures); at most
    :data:`_SMALL` fighters are checked pair by pair, more are taken as not."""
    if len(placed) > _SMALL:
        return False
    return all(
        (a.position[0] - b.position[0]) ** 2 + (a.position[1] - b.position[1]) ** 2
        <= (a.radius + a.reach + b.radius) ** 2
        for a in placed
        for b in placed
        if a.side != b.side
    )


def _centre(points: list[tuple[float, float]]) -> tuple[float, float]:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _toward_enemy(
    anchor: tuple[float, float],
    side: int,
    centres: list[tuple[float, float]],
    places: list[tuple[float, float]],
) -> tuple[float, float]:
    """Unit vector from ``anchor`` toward the centre of the other sides' forces (else
    from the side's own place toward the field's centre)."""
    others = [c for i, c in enumerate(centres) if i != side]
    tx, ty = _centre(others)
    dx, dy = tx - anchor[0], ty - anchor[1]
    norm = math.hypot(dx, dy)
    if norm < 1e-9:
        px, py = places[side]
        ox, oy = _centre(places)
        dx, dy = ox - px, oy - py
        norm = math.hypot(dx, dy) or 1.0
        if dx == dy == 0:
            dx = 1.0
    return dx / norm, dy / norm


def _bearing(facing: int | None, toward: tuple[float, float]) -> float:
    """Starting bearing in radians: the scenario's ``facing`` (sixths of a turn from +x),
    else toward the enemy."""
    if facing is not None:
        return math.pi / 3 * facing
    return math.atan2(toward[1], toward[0])
