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

from dataclasses import dataclass
from typing import Any

from fadad_agents.rules.personal.criticals import (
    CALLED_LOCATION,
    DISARM,
    KNOCKDOWN,
    KNOCKOUT,
    STAGGER,
)
from fadad_agents.rules.personal.melee import LOCATIONS, location_penalty, location_severity

__all__ = ["WEAPON_ARM", "Conditions"]

WEAPON_ARM = LOCATIONS["arm"]
"""The location a Called Location crit picks (PROPOSED: the arm that holds the weapon)."""


@dataclass(slots=True)
class Conditions:
    """A fighter's conditions from crits, beside its wound track.

    Attributes:
        knockdown_penalty: what being prone costs (``fadad.knockdown_penalty``).
        prone: knocked down, not yet risen.
        disarmed: its weapon (or shield) dropped and not yet picked up.
        staggered: actions still to lose.
        unconscious: rounds still to lie unconscious (0: awake).
        arm: state of its weapon arm (``none``, ``scratched``, ``hurt``, ``incapacitated``).
        foul_air: levels lost to the foul air it breathes on a burning ship's deck (the
            ship engine sets it, ``fire.fouled_air_penalty``).
    """

    knockdown_penalty: int
    prone: bool = False
    disarmed: bool = False
    staggered: int = 0
    unconscious: int = 0
    arm: str = "none"
    foul_air: int = 0

    @property
    def penalty(self) -> int:
        """Modifier to every roll: prone (``fadad.knockdown_penalty``), a Hurt weapon arm,
        foul air."""
        prone = -self.knockdown_penalty if self.prone else 0
        return prone + location_penalty(self.arm) - self.foul_air

    @property
    def owed(self) -> int:
        """Actions the fighter owes: rising, picking its weapon up, staggers."""
        return int(self.prone) + int(self.disarmed) + self.staggered

    def pay(self, fighter: Any, actions: int, arena: Any) -> int:
        """Spend up to ``actions`` on what is owed (rising, picking up, staggers, in that
        order); returns the actions left."""
        while actions and self.owed:
            actions -= 1
            if self.prone:
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
        rounds are up, and acts in that round), less what it owes."""
        if self.unconscious:
            self.unconscious -= 1
            if self.unconscious:
                return 0
            _recover(fighter, arena, "comes to")
        return self.pay(fighter, budget, arena)


def _recover(fighter: Any, arena: Any, what: str) -> None:
    arena.record(fighter.name, "crit_recovery", None, (), (), (("result", what),))


def _suffer(fighter: Any, arena: Any, effect: str, result: str) -> None:
    arena.record(
        fighter.name, "crit_effect", None, (), (), (("result", result), ("effect", effect))
    )


def spares_the_body(effects: tuple[Any, ...], arena: Any) -> bool:
    """Whether a blow's crits move its wound off the body: a Called Location, unless
    ``location.also_general_wound`` wounds both."""
    return CALLED_LOCATION in effects and not arena.options.location.also_general_wound


def _called_location(fighter: Any, result: Any, arena: Any) -> None:
    """The weapon arm's state from the blow's damage number (A-09; the attacker won by at
    least the arm's minimum, as a called shot that succeeded)."""
    opts = arena.options.location
    severity = location_severity(
        result.damage,
        max(result.rd, WEAPON_ARM.min_rd),
        WEAPON_ARM.min_rd,
        0,
        thresholds=opts.severity_thresholds,
        cap_scale=opts.minimum_margin_cap_scale,
    )
    found = fighter.conditions_now()
    if _ARM_STATES.index(severity) > _ARM_STATES.index(found.arm):
        found.arm = severity
    _suffer(fighter, arena, CALLED_LOCATION.name, f"hit in the weapon arm ({found.arm})")
    if found.arm == "incapacitated" and fighter.armed is not fighter.bare:
        fighter.fighter = fighter.bare  # the weapon falls from a useless arm for good
        found.disarmed = False


_ARM_STATES = ("none", "scratched", "hurt", "incapacitated")


def suffer(fighter: Any, result: Any, arena: Any) -> None:
    """Apply a landed blow's crit effects to a character, after its wound."""
    for effect in result.crit_effects:
        if not fighter.fighting:
            return
        if effect is KNOCKOUT:
            rounds = arena.options.knockout_rounds
            if rounds is None:
                arena.take_out(fighter, "knocked out")
                continue
            fighter.conditions_now().unconscious = rounds
            fighter.attacks_planned = fighter.defences_left = 0
            _suffer(fighter, arena, effect.name, f"knocked out for {rounds} rounds")
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
