"""A Fae Domains mount as a combatant of its own, under its rider (section 6, A-66).

``fae-domains.md`` section 6: "commanding the mount is a free action; the mount reacts on
its own next action and may delay waiting for orders". The mount is an agent beside its
rider: it makes its own Reaction test, acts at its own counts, can be attacked (its own
Wound Points, a dodge as defence) and fights with its own weapon (bite, kick, trample).
Rider and mount share one place (:attr:`FaeCharacter.xy` carries the other along) and the
rider's height.

At each of its counts the mount, in this order (PROPOSED, issue 7):

1. obeys a standing order of its rider (:func:`command`): ``charge`` runs up to Run MR
   toward the rider's target, stopping at the rider's reach (a full action; the rider's
   next blow is a mounted charge, the mount's Size in it, 3.3 - so the mount's own kick
   is not a charge too); ``move`` goes up to 2 x Walk MR (short);
2. with no order, attacks a foe within its own weapon's reach on its own margin;
3. else, if its rider still acts later this turn, delays to just below the rider's next
   count, waiting for orders (once per rider count);
4. else waits (``fae.wait_cost``).

A rider whose mount falls is unhorsed (prone, on the ground); a mount whose rider is out
of the fight (or has fled or surrendered) bolts: it is out too, so the side's ending
(destroyed, routed, surrendered) follows its riders'.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import TYPE_CHECKING, Any

from fadad_agents.agents.fae.character import FaeCharacter, position_xy
from fadad_agents.agents.fae.combat import attack
from fadad_agents.agents.fae.moves import log_event
from fadad_agents.policies.fae.defaults import FixedDefence, GroundTactics, NoCalledShot, Passive

if TYPE_CHECKING:
    from fadad_agents.agents.fae.arena import FaeArena

__all__ = ["FaeMountAgent", "command", "mount_up", "part"]


class FaeMountAgent(FaeCharacter):
    """A ridden mount: acts on its own counts, obeys its rider's orders, can be struck."""

    __slots__ = ("order", "rider", "waited")

    def __init__(self, rider: FaeCharacter, *, index: int, rng: random.Random) -> None:
        stats = rider.stats.mount
        if stats is None:
            raise ValueError(f"{rider.name} has no mount in its stat block")
        policies = dataclasses.replace(
            rider.fae_policies,
            action=Passive(),
            defence=FixedDefence(rider.opts.mount_defence),  # fae.mount_defence (PROPOSED)
            called_shot=NoCalledShot(),
            tactics=GroundTactics(),
        )
        super().__init__(
            rider.model,
            name=f"{rider.name}'s {stats.name}",
            side=rider.side,
            index=index,
            policies=policies,
            rng=rng,
            targeting_rng=rider.targeting_rng,
            stats=stats.combatant(rider.stats),
            options=rider.opts,
            band=rider.band,
        )
        self.rider: FaeCharacter | None = rider
        self.order: tuple[str, Any] | None = None
        self.waited: tuple[int, int] | None = None

    @property
    def partner(self) -> FaeCharacter | None:
        """The rider on its back (the place they share)."""
        return self.rider

    @property
    def altitude(self) -> int:
        """A ridden mount flies at its rider's height (the rider steers the flight)."""
        return self.rider.altitude if self.rider is not None else self.flight.altitude

    @property
    def has_weapon(self) -> bool:
        """It has a weapon of its own (bite, kick, trample) to fight with unbidden."""
        return self.hands.ready is not None

    def act_at_count(self, arena: FaeArena) -> str:
        """One action of the mount at its count (see the module docstring)."""
        if not self.fighting or self.margin is None:
            return "none"
        self.memory["count"] = self.margin
        if self.order is not None:
            order, self.order = self.order, None
            return _obey(self, order, arena)
        target = self.choose_target(arena)
        if target is not None and self.has_weapon and self.distance(target) <= self.reach:
            self.face(target)
            self.spend("full")
            attack(self, target, arena)
            return "full"
        rider = self.rider
        if rider is not None and rider.fighting and rider.has_action and rider.margin is not None:
            wait_for = (arena.fae_turn, rider.margin)
            if 0 <= rider.margin - 1 < self.margin and self.waited != wait_for:
                self.waited = wait_for
                before, self.margin = self.margin, rider.margin - 1
                log_event(
                    arena, self, "mount_waits", rider, "waits for orders", more=(("from", before),)
                )
                return "free"
        before = self.margin
        self.wait()
        log_event(arena, self, "delay", None, "waits", more=(("from", before),))
        return "short"


def _obey(mount: FaeMountAgent, order: tuple[str, Any], arena: FaeArena) -> str:
    """Carry out the rider's order (a charge or a move toward the rider's target)."""
    how, target = order
    rider = mount.rider
    if target is None or not target.fighting or rider is None:  # the order lapsed
        before = mount.margin
        mount.wait()
        log_event(arena, mount, "delay", None, "order lapsed", more=(("from", before),))
        return "short"
    if how == "charge" and not mount.can_run:  # a hurt leg: no charge, a Move (7)
        how = "move"
    yards = mount.run_mr if how == "charge" else 2 * mount.walk_mr
    tx, ty = getattr(target, "xy", None) or position_xy(target)
    dx, dy = tx - mount.xy[0], ty - mount.xy[1]
    gap = math.hypot(dx, dy)
    step = max(0.0, min(float(yards), gap - min(rider.reach, 1.0)))
    if gap > 0 and step > 0:
        mount.xy = (mount.xy[0] + dx * step / gap, mount.xy[1] + dy * step / gap)
        mount.position = rider.position = (round(mount.xy[0]), round(mount.xy[1]))
        mount.turn(dx, dy)
    kind = "full" if how == "charge" else "short"
    if how == "charge":  # a mounted charge (3.3, A-66): the rider's next blow, the mount's
        rider.ran_turn, rider.charging = arena.fae_turn, True  # Size in it, not its hooves
    log_event(
        arena,
        mount,
        "mount_obeys",
        target,
        how,
        more=(("yards", round(step, 2)), ("distance", round(mount.distance(target), 2))),
    )
    mount.spend(kind)
    return kind


def command(rider: FaeCharacter, target: Any, how: str, arena: FaeArena) -> bool:
    """The rider's free command: the mount ``charge``s or ``move``s toward ``target`` at its
    own next count (this turn if it has an action left, else next turn). False: no mount."""
    mount = rider.mount
    if not isinstance(mount, FaeMountAgent) or not mount.fighting:
        return False
    standing = mount.order
    if standing is not None and standing[1] is target and standing[0] in ("charge", how):
        return True  # already ordered (a charge is never downgraded to a move)
    mount.order = (how, target)
    now = mount.has_action and (mount.margin or 0) <= (rider.margin or 0)
    log_event(
        arena,
        rider,
        "command_mount",
        target,
        f"mount will {how}" if now else "mount obeys next turn",
        more=(("mount_count", mount.margin if now else None),),
    )
    return True


def mount_up(rider: FaeCharacter, index: int, rng: random.Random) -> FaeMountAgent:
    """Create the agent of ``rider``'s mount (its stat block's ``mount``) and seat the rider."""
    mount = FaeMountAgent(rider, index=index, rng=rng)
    rider.mount = mount
    return mount


def part(member: Any, arena: FaeArena) -> None:
    """``member`` left the fight: unhorse its rider, or make its mount bolt."""
    if isinstance(member, FaeMountAgent) and member.rider is not None:
        rider, member.rider = member.rider, None
        if rider.mount is member:
            rider.dismount(arena, "mount down")
    elif isinstance(member, FaeCharacter) and isinstance(member.mount, FaeMountAgent):
        mount = member.mount
        mount.rider = None
        member.mount = None
        if mount.fighting:  # out, not fled: the side's ending follows its riders' fate
            arena.take_out(mount, "bolts (riderless)")
