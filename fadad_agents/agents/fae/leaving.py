"""Leaving a Fae fight: an NPC band's morale, and the pursuit of those who flee.

Morale (PROPOSED: the seed has no morale rule): when a band's morale policy calls for a
check (``policies.core``: at 25% and 50% losses ...), its lead makes a Willpower test (the
seed's test of nerve against pain, section 7); a failure breaks the band, which withdraws
or surrenders as the policy says. A player character never rolls NPC morale: its player
decides (its retreat policy still may).

Pursuit (``fae-domains.md`` section 5): a fighter who withdraws runs, pursued by its
nearest foe. Each of its actions while it flees is a pursuit exchange (a full action, a
run): both test their movement (A-68: running Athletics or Agility, flying Aerobatics,
riding Riding); the winner may open or close the gap by (winner's margin - loser's
margin)% of its Move Rate. PROPOSED: the fleer is away once the gap exceeds what its
pursuer could close in a turn (its Move Rate); a pursuer that closes to reach has caught
it, and the fleer keeps trying at its next action, struck meanwhile.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from fadad_agents.agents.fae.moves import log_event, step_away
from fadad_agents.policies.core.protocols import MoraleChoice
from fadad_agents.rules.fae.checks import ladder_to_percentile, resolve_check
from fadad_agents.rules.fae.special import PURSUIT_SKILLS, resolve_pursuit

if TYPE_CHECKING:
    from fadad_agents.agents.fae.arena import FaeArena
    from fadad_agents.agents.fae.character import FaeCharacter, position_xy

__all__ = ["check_morale", "flee"]


def check_morale(c: FaeCharacter, arena: FaeArena) -> None:
    """The end-of-turn morale check of ``c``'s band, if ``c`` leads it and its policy asks."""
    band = c.band
    if not c.checks_morale or c.stats.player or band.lead() is not c:
        return
    view = band if len(band.members) > 1 else c
    morale = c.policies.morale
    reason = morale.check_reason(view, arena)  # type: ignore[arg-type]
    if reason is None:
        return
    roll = c.test("willpower_attr")
    held = roll.check.success
    arena.record(
        band.name,
        "fae_morale",
        None,
        (("d100", roll.roll),),
        (("mcs", roll.mcs),),
        (
            ("result", "holds" if held else "breaks"),
            ("check", reason),
            ("at", round(float(arena.now), 3)),
            ("turn", arena.fae_turn),
        ),
    )
    if held:
        return
    choice = morale.on_break(view, arena)  # type: ignore[arg-type]
    for member in list(band.members):
        if member.fighting:
            arena.leave(member, choice, f"morale broke: {reason}")


def _movement(c: Any) -> tuple[str, int]:
    """How ``c`` moves in a chase and its Move Rate (a FADAD fighter runs 30 yd a turn)."""
    if not hasattr(c, "stats"):
        return "fadad", 30
    if c.altitude > 0 and c.fly_mr:
        return "flying", c.fly_mr
    if c.mounted:
        return "riding", c.run_mr
    return "running", c.run_mr if c.can_run else 2 * c.walk_mr


def _pursuit_test(c: Any) -> Any:
    """A pursuit test by movement type (A-68); a FADAD fighter tests Fair as a percentile
    (C-04)."""
    kind, _ = _movement(c)
    if kind == "fadad":
        return resolve_check(ladder_to_percentile(0), c.rng)
    skills = PURSUIT_SKILLS[kind]
    name = next((s for s in skills if c.skill(s)), None)
    use = name if name is not None else f"{skills[-1].lower()}_attr"
    return c.test("agility_attr" if use == "riding_attr" else use)


def flee(c: FaeCharacter, reason: str, arena: FaeArena) -> str:
    """One action of a fleeing fighter: a pursuit exchange with its nearest foe (a full
    action), or away at once with no foe near enough to chase it."""
    c.fleeing = True
    foes = [f for f in arena.foes(c.side) if f.fighting]
    chaser: Any = min(foes, key=lambda f: (c.distance(f), f.name)) if foes else None
    their_rate = _movement(chaser)[1] if chaser is not None else 0
    if chaser is None or c.distance(chaser) > their_rate:
        arena.leave(c, MoraleChoice.WITHDRAW, reason)
        return "none"
    mine, theirs = _pursuit_test(c), _pursuit_test(chaser)
    result = resolve_pursuit(mine.check, theirs.check, _movement(c)[1], their_rate)
    if result.winner == "a":
        step_away(c, chaser, result.distance)
    elif result.winner == "b":
        _close(chaser, c, result.distance)
    gap = c.distance(chaser)
    away = gap > their_rate
    outcome = "escapes" if away else "caught" if gap <= _reach(chaser) else "pursued"
    log_event(
        arena, c, "flee", chaser, outcome,
        (("d100", mine.roll), ("pursuer", theirs.roll)),
        more=(("gap", round(gap, 2)), ("moved", result.distance), ("winner", result.winner)),
    )  # fmt: skip
    c.spend("full")
    if away:
        arena.leave(c, MoraleChoice.WITHDRAW, reason)
    return "full"


def _reach(chaser: Any) -> float:
    return float(getattr(chaser, "reach", 2.0))


def _close(chaser: Any, fleer: Any, yards: float) -> None:
    """The pursuer gains up to ``yards`` on the fleer, stopping at its reach."""
    fx, fy = getattr(fleer, "xy", None) or position_xy(fleer)
    cx, cy = getattr(chaser, "xy", None) or position_xy(chaser)
    gap = math.hypot(fx - cx, fy - cy)
    step = max(0.0, min(yards, gap - min(_reach(chaser), 1.0)))
    if gap > 0 and step > 0 and hasattr(chaser, "xy"):
        chaser.xy = (cx + (fx - cx) * step / gap, cy + (fy - cy) * step / gap)
        chaser.position = (round(chaser.xy[0]), round(chaser.xy[1]))
