"""Spirit combat: blows on creatures only magic harms (``personal-combat.md`` 8, A-13).

A character whose stat block has ``magic_to_hit`` (ghosts, wraiths, spirits) is harmed
only by a weapon of at least that magical plus; a hit by a lesser one does nothing. A hit
that harms it does not add its RD: the damage number is the weapon's plus + the
attacker's spiritual attunement (``attunement``: the ladder value of a trait such as
Faith, Passion or Wisdom) + 4dF, plus the weapon's plus again on a crit (once, or per
crit with ``fadad.spirit_crit_plus``), less the creature's Damage Resistance (the plus it
needs, less 1); the FADAD negative cap applies with ``fadad.spirit_negative_cap``. The
number is read on the normal wound track (A-13). An unarmed attacker's plus is
floor(Potential / 3) (``potential``), by touch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fadad_agents.rules.core.wounds import Wound, wound_for_damage
from fadad_agents.rules.personal.spirit import (
    can_hit,
    roll_spirit_damage,
    spirit_damage_resistance,
    unarmed_plus,
)
from fadad_agents.rules.personal.wound_models import record_wound

__all__ = ["Spirit", "land", "spirit_of"]


@dataclass(frozen=True, slots=True)
class Spirit:
    """A character's figures in spirit combat.

    Attributes:
        plus: the magical plus its blows carry (its weapon's, or floor(Potential / 3)
            unarmed).
        attunement: the ladder value of its spiritual attunement trait (0 if none).
        needed: the plus a weapon needs to harm it; None: any weapon harms it.
    """

    plus: int
    attunement: int
    needed: int | None


def spirit_of(force: Any) -> Spirit:
    """A character stat block's spirit-combat figures."""
    weapon = force.weapon
    if weapon is not None:
        plus = weapon.magic_plus
    else:
        plus = 0 if force.potential is None else unarmed_plus(force.potential)
    attunement = 0 if force.attunement is None else force.traits[force.attunement]
    return Spirit(plus, attunement, force.magic_to_hit)


def land(attacker: Any, target: Any, res: Any, track: Any, arena: Any) -> tuple[Any, str | None]:
    """A hit on a creature only magic harms: nothing from a lesser weapon, else spirit
    damage on its wound track. Returns the result and what the log says it was taken as."""
    needed = target.spirit.needed
    if needed is None or not res.hit:
        return res, None
    own = attacker.spirit
    plus = 0 if own is None else own.plus
    if not can_hit(plus, needed):
        unharmed = res._replace(crit_effects=(), damage=0, wound=Wound.UNDAMAGED, track=track)
        return unharmed, f"unharmed (it needs a +{needed} weapon)"
    opts = arena.options.fadad
    damage, dice = roll_spirit_damage(
        plus,
        0 if own is None else own.attunement,
        attacker.rng,
        crits=res.crits,
        damage_resistance=spirit_damage_resistance(needed),
        crit_plus=opts.spirit_crit_plus,
        negative_cap=opts.spirit_negative_cap,
    )
    wound = wound_for_damage(damage)
    new = record_wound(arena.combat_rules.wounds, track, wound, pc=target.protection.pc)
    return res._replace(damage=damage, damage_dice=(dice,), wound=wound, track=new), None
