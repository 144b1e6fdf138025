"""The fighters of a melee exchange and the switches one attack reads.

:class:`Fighter` is what the kernel knows of one combatant (skills, damage modifiers,
Scale, shield, armour and weapon groups); :class:`CombatRules` the options one attack
needs, read once per battle; :class:`Protection` how a blow on a player character is
recorded (``wounds-and-healing.md`` 8, 12). :mod:`~fadad_agents.rules.personal.combat`
resolves attacks between them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from fadad_agents.rules.personal.damage import ScalePiercing
from fadad_agents.rules.personal.melee import Shield
from fadad_agents.rules.personal.wound_models import DamageRules, WoundRules

if TYPE_CHECKING:
    from fadad_agents.rules.personal.options import PersonalOptions

__all__ = ["NO_PROTECTION", "CombatRules", "CritPolicy", "Fighter", "Protection"]


type CritPolicy = Literal["none", "non_lethal", "random"]


@dataclass(frozen=True, slots=True)
class Fighter:
    """What the kernel needs to know of one combatant in a melee exchange.

    Attributes:
        name: display name, used in narration only.
        attack: ladder value of the offensive skill (before wound penalties).
        defence: ladder value of the defensive skill (parry, Shield, Dodge ...).
        odm: offensive damage modifier: Strength + Strength Scale + weapon (+ magic).
        ddm: defensive damage modifier: Damage Capacity + Mass Scale + armour (+ magic).
        scale: Scale for the Target table and grazes.
        shield: ``buckler``, ``small``, ``medium``, ``large``, a shield's own figures
            (:class:`~fadad_agents.rules.personal.melee.ShieldStats`) or None.
        armour: the armour part of ``ddm`` (a Weak Spot crit ignores it).
        weapon_group: Anna's weapon group (0 none, 1 Light, 2 Medium, 3 Heavy), used with
            the ``fudge.weapon_groups`` option; None = ungrouped (full damage).
        armour_group: Anna's armour group (0 unarmoured .. 3 Heavy); None = from
            ``armour`` (:func:`~fadad_agents.rules.personal.damage.armour_group`).
        shield_cap: the largest Target its shield can give it (small creatures, section
            3); None = no cap.
        mass_scale: the Mass Scale part of ``ddm``; None = ``scale``.
        scale_piercing: its weapon halves (``halve``) or ignores (``ignore``) a
            defender's Mass Scale on a good hit (section 11), or ``none``.
        volume_scale: its volume Scale against widespread attacks (personal-combat.md
            7); None = its Mass Scale.
    """

    name: str
    attack: int
    defence: int
    odm: int
    ddm: int
    scale: int = 0
    shield: Shield | None = None
    armour: int = 0
    weapon_group: int | None = None
    armour_group: int | None = None
    shield_cap: int | None = None
    mass_scale: int | None = None
    scale_piercing: ScalePiercing = "none"
    volume_scale: int | None = None
    plain: bool = field(init=False, repr=False, compare=False)
    """No shield and no scale-piercing weapon: its attacks and the blows it takes need
    neither the shield's Target nor the pierced Scale (:func:`~fadad_agents.rules.
    personal.combat.resolve_attack`'s plain path), worked out once, not every swing."""

    def __post_init__(self) -> None:
        plain = self.shield is None and self.scale_piercing == "none"
        object.__setattr__(self, "plain", plain)


@dataclass(frozen=True, slots=True)
class CombatRules:
    """The switches of :class:`PersonalOptions` one attack needs, read once per battle."""

    target_mode: str = "effective_opposition"
    shield_mode: str = "fadad_target"
    damage: DamageRules = field(default_factory=DamageRules)
    wounds: WoundRules = field(default_factory=WoundRules)
    crit_effects: CritPolicy = "non_lethal"
    weapon_size_comparison: bool = False
    plain: bool = field(init=False, repr=False, compare=False)
    """Effective opposition and FADAD wounds without weapon groups (the default rules):
    :func:`~fadad_agents.rules.personal.combat.resolve_attack` may take its plain path."""

    def __post_init__(self) -> None:
        damage = self.damage
        plain = (
            self.target_mode == "effective_opposition"
            and damage.wound_model == "fadad"
            and not damage.weapon_groups
        )
        object.__setattr__(self, "plain", plain)

    @classmethod
    def from_options(cls, opts: PersonalOptions) -> CombatRules:
        """Copy what the attack needs out of validated options."""
        return cls(
            target_mode=opts.fadad.target_mode,
            shield_mode=opts.shield_mode,
            damage=DamageRules.from_options(opts),
            wounds=WoundRules.from_options(opts),
            crit_effects=opts.fadad.crit_effects,
            weapon_size_comparison=opts.fadad.weapon_size_comparison,
        )

    @classmethod
    def of(cls, opts: PersonalOptions) -> CombatRules:
        """:meth:`from_options`, kept per options object (options are frozen; a sweep plays
        thousands of battles under one), checked by identity as well as by ``id``."""
        entry = _FROM_OPTIONS.get(id(opts))
        if entry is None or entry[0] is not opts:
            if len(_FROM_OPTIONS) >= 16:
                _FROM_OPTIONS.pop(next(iter(_FROM_OPTIONS)))
            entry = _FROM_OPTIONS[id(opts)] = (opts, cls.from_options(opts))
        return entry[1]


_FROM_OPTIONS: dict[int, tuple[PersonalOptions, CombatRules]] = {}


@dataclass(frozen=True, slots=True)
class Protection:
    """How the defender's wound is recorded beyond the options (``wounds-and-healing.md`` 8, 12).

    Attributes:
        pc: the PC-death options apply (never to ordinary NPCs).
        incap_at_round_start: the defender began the round Incapacitated (PC option 2).
        point_spent: an Ite/Fudge point is spent to turn a deadly wound into Incapacitated.
        pulled_to: a pulled punch: the attacker's announced maximum wound level.
    """

    pc: bool = False
    incap_at_round_start: bool = False
    point_spent: bool = False
    pulled_to: int | None = None


NO_PROTECTION = Protection()
