"""What a critical hit leaves a fighter with, and for how long (``wounds-and-healing.md``
10, A-17: the PROPOSED d8 effects).

Weak Spot, Vitals and Extra Damage act inside the blow (the kernel's
:func:`~fadad_agents.rules.personal.combat.resolve_attack`). The others leave the victim
a condition, applied when the blow lands (at the end of a simultaneous turn):

* **Knockout**: unconscious, as a stun knockout (section 8): out of the fight for its
  rest by default, or for ``knockout_rounds`` rounds (A-27), taking no action and
  meeting every attack with its Target only.
* **Knockdown**: prone, ``fadad.knockdown_penalty`` on every roll until it rises, which
  costs its next action (PROPOSED).
* **Disarm**: drops its weapon (a shield, if it has no weapon) and fights without it
  until it picks it up, which costs its next action (PROPOSED).
* **Stagger**: loses its next action.
* **Called Location**: the attacker picks the weapon arm (PROPOSED) as a called shot
  that succeeded (section 4, A-09): the blow wounds the arm instead of the body (both
  with ``location.also_general_wound``); a Hurt arm is -1 to fight with, an
  Incapacitated one drops the weapon for good.

"Its next action": a fighter whose turn in this round is still to come pays with a
planned attack; otherwise the actions come out of its next round's budget, before it
declares anything else (rising first, then picking up, then the staggers).

A crew or unit struck as one representative member takes only the Knockout (a member
out is a casualty); the rest are lost among its numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from fadad_agents.agents.core import aims
from fadad_agents.rules.personal.criticals import (
    CALLED_LOCATION,
    DISARM,
    KNOCKDOWN,
    KNOCKOUT,
    STAGGER,
)
from fadad_agents.rules.personal.melee import LOCATION_STATES, location_penalty

__all__ = ["Conditions"]

_PART_PENALTY: dict[str, int] = {state: location_penalty(state) for state in LOCATION_STATES}
""":func:`~fadad_agents.rules.personal.melee.location_penalty` of each state, looked up
(every roll of a fighter with a damaged part reads it)."""


@dataclass(slots=True)
class Conditions:
    """A fighter's conditions from crits, called shots and stun blows, beside its wound
    track.

    Attributes:
        knockdown_penalty: what being prone costs (``fadad.knockdown_penalty``).
        prone: knocked down, not yet risen.
        grounded: its leg is useless: prone for the rest of the fight (never rises).
        disarmed: its weapon (or shield) dropped and not yet picked up.
        staggered: actions still to lose.
        unconscious: rounds still to lie unconscious (0: awake).
        parts: state of each damaged body part (``arm``, ``leg``, ``head``, ``eye``:
            ``scratched``, ``hurt``, ``incapacitated``; agents.core.aims).
        stun_track: its stun track (wounds-and-healing.md 8), made on the first stun blow.
        stunned: rounds (this one included) it still cannot attack; stun_penalty: its
            penalty to every roll meanwhile (Stun -1 to defend, Very Stunned -2).
        foul_air: levels lost to the foul air it breathes on a burning ship's deck (the
            ship engine sets it, ``fire.fouled_air_penalty``).
    """

    knockdown_penalty: int
    prone: bool = False
    grounded: bool = False
    disarmed: bool = False
    staggered: int = 0
    unconscious: int = 0
    parts: dict[str, str] = field(default_factory=dict)
    stun_track: Any = None
    stunned: int = 0
    stun_penalty: int = 0
    foul_air: int = 0

    @property
    def arm(self) -> str:
        """State of its weapon arm (``none`` if unhurt)."""
        return self.parts.get("arm", "none")

    @property
    def penalty(self) -> int:
        """Modifier to every roll: prone (``fadad.knockdown_penalty``), a Hurt weapon arm
        or head (PROPOSED), a stun, foul air."""
        parts = self.parts
        penalty = -self.knockdown_penalty if self.prone else 0
        if parts:
            penalty += _PART_PENALTY[parts.get("arm", "none")]
            penalty += _PART_PENALTY[parts.get("head", "none")]
        return penalty + (self.stun_penalty if self.stunned else 0) - self.foul_air

    @property
    def cleared(self) -> bool:
        """Nothing left of them: risen, armed again, staggers paid, no part hurt, no stun
        (its track either), no foul air."""
        return not (
            self.parts or self.prone or self.grounded or self.disarmed or self.staggered
            or self.stunned or self.foul_air or self.stun_track is not None
        )  # fmt: skip

    @property
    def owed(self) -> int:
        """Actions the fighter owes: rising (unless grounded), picking up, staggers."""
        return (self.prone and not self.grounded) + self.disarmed + self.staggered

    def pay(self, fighter: Any, actions: int, arena: Any) -> int:
        """Spend up to ``actions`` on what is owed (rising, picking up, staggers, in that
        order); returns the actions left."""
        while actions and self.owed:
            actions -= 1
            if self.prone and not self.grounded:
                self.prone = False
                _recover(fighter, arena, "gets up")
            elif self.disarmed:
                self.disarmed = False
                fighter.fighter = fighter.armed
                _recover(fighter, arena, "picks up the dropped weapon")
            else:
                self.staggered -= 1
                _recover(fighter, arena, "loses an action, staggered")
        return actions

    def start_round(self, fighter: Any, budget: int, arena: Any) -> int:
        """The fighter's budget this round: none while unconscious (it comes to when its
        rounds are up, and acts in that round), less what it owes. A stun wears off. A
        fighter whose conditions are then :attr:`cleared` drops them: it fights on as one
        no crit ever struck (``conditions`` None, the plain path of every roll it makes)
        until the next crit makes them anew."""
        if self.unconscious:
            self.unconscious -= 1
            if self.unconscious:
                return 0
            _recover(fighter, arena, "comes to")
        if self.stunned:
            self.stunned -= 1
            if not self.stunned:
                self.stun_penalty = 0
                _recover(fighter, arena, "shakes off the stun")
        budget = self.pay(fighter, budget, arena)
        if self.cleared:
            fighter.conditions = None
        return budget


@cache
def _outcome(result: str, effect: str | None = None) -> tuple[tuple[str, str], ...]:
    """A crit event's outcome pairs, made once each and shared by every event that reads
    the same: a battle's log keeps them, and the collector walks every tuple it holds."""
    return (("result", result),) if effect is None else (("result", result), ("effect", effect))


def _recover(fighter: Any, arena: Any, what: str) -> None:
    arena.record(fighter.name, "crit_recovery", None, (), (), _outcome(what))


def _suffer(fighter: Any, arena: Any, effect: str, result: str) -> None:
    arena.record(fighter.name, "crit_effect", None, (), (), _outcome(result, effect))


def spares_the_body(effects: tuple[Any, ...], arena: Any) -> bool:
    """Whether a blow's crits move its wound off the body: a Called Location, unless
    ``location.also_general_wound`` wounds both. Effects are the kernel's eight, found
    by identity (``in`` would call a dataclass ``__eq__`` for every other one)."""
    for effect in effects:
        if effect is CALLED_LOCATION:
            return not arena.options.location.also_general_wound
    return False


def _called_location(fighter: Any, result: Any, arena: Any) -> None:
    """The weapon arm takes the blow, as a called shot that succeeded (A-09; the attacker
    won by at least the arm's minimum): the same path as a called shot's
    (:func:`~fadad_agents.agents.core.aims.part_state`)."""
    state = aims.part_state(fighter, aims.WEAPON_ARM, result, None, arena)
    _suffer(fighter, arena, CALLED_LOCATION.name, f"hit in the weapon arm ({state})")
    aims.hurt_part(fighter, aims.WEAPON_ARM, state, arena)


def suffer(fighter: Any, result: Any, arena: Any) -> None:
    """Apply a landed blow's crit effects to a character, after its wound."""
    for effect in result.crit_effects:
        if not fighter.fighting:
            return
        if effect is KNOCKOUT:
            aims.knock_out(fighter, arena, effect.name)
        elif effect is KNOCKDOWN:
            fighter.conditions_now().prone = True
            _suffer(fighter, arena, effect.name, "knocked down")
        elif effect is DISARM:
            if fighter.fighter is fighter.bare:
                continue  # nothing (more) to drop
            fighter.conditions_now().disarmed = True
            fighter.fighter = fighter.bare
            _suffer(fighter, arena, effect.name, "disarmed")
        elif effect is STAGGER:
            fighter.conditions_now().staggered += 1
            _suffer(fighter, arena, effect.name, "staggered")
        elif effect is CALLED_LOCATION:
            _called_location(fighter, result, arena)
