"""Ship damage under either model, both critical tables, one set of effect handlers, fire.

* Damage (C-02, ``ship.damage_model``): Spelljammer hull points through
  :func:`~fadad_agents.rules.ships.combat.apply_hull_damage` (a hit past half the hull is a
  critical, 0 breaks the ship up, section 7.1), or FADAD damage numbers recorded on the
  ship's level track (:func:`~fadad_agents.rules.ships.fadad_damage.record_ship_damage`;
  Wrecked or destroyed breaks it up).
* Criticals (C-03, ``ship.crit_table``): the d20 table with shift-up or the 6dF table with
  firing likelihood. Both return the shared effect vocabulary of
  :mod:`fadad_agents.rules.ships.effects`, applied here by one handler per effect, with
  durations turned into end times in seconds.
* Fire (C-08): each fire burns at the end of the ship round through
  :func:`~fadad_agents.rules.ships.fire.burn_round`, the firefighting policy sending hands;
  the air fouls at 10% and 40% of tonnage.

PROPOSED engine readings (options named): a ``HullLoss(n)`` result under the FADAD model
records a damage number of ``n // 2`` (``ship.hull_points_per_damage_number``); deck and
interior crew hits take their victims from the crews on (or in) the ship, a FADAD blast
``ship.blast_victims`` (3) of them, a victim lost when the hit's damage reaches the
average crewman's hit points (HD x ``sj.crewman_hit_points_per_hd`` 4.5, d20) or
Incapacitated (damage number ``ship.crewman_dies_at_damage`` 7+, FADAD); named characters
are not hit by deck criticals; a Ship Shaken result stops the ship's weapons that have
not yet fired this round (hands thrown off their feet, ``ship.shaken_stops_guns``); a
slain gargantuan creature leaves no debris (``sj.gargantuan_carcass_debris``); d20 checks
take a ladder skill as a d20 bonus (``engine.ladder_d20_bonus``); a failed
helm-shock save puts the helmsman in a coma: someone else aboard with a helm skill takes
over and warms the helm up (:mod:`~fadad_agents.engine.ships.helm`), else the helm stays
out (SR 0, no dodge) for the rest of the battle.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from fadad_agents.agents.ships.ship import FireState, Ship, TimedEffect
from fadad_agents.engine.ships.deck import shake
from fadad_agents.engine.ships.helm import helm_lost
from fadad_agents.hexmap import neighbours
from fadad_agents.rules.core.dice import roll_4df
from fadad_agents.rules.ships import effects as fx
from fadad_agents.rules.ships.combat import apply_hull_damage, roll_debris
from fadad_agents.rules.ships.crew import MoraleTrigger, five_hull_points_trigger
from fadad_agents.rules.ships.crits import CritContext, CritParams, crits_triggered, resolve_sj_crit
from fadad_agents.rules.ships.effects import d20_bonus, passes
from fadad_agents.rules.ships.fadad_crits import crit_count, resolve_crit
from fadad_agents.rules.ships.fadad_damage import ShipLevel, fire_damage_number, record_ship_damage
from fadad_agents.rules.ships.fire import (
    AirQuality,
    air_after_fire,
    air_penalty,
    burn_round,
    first_fire_value,
    next_fire_value,
)

__all__ = [
    "apply_effect",
    "break_up",
    "burn_fires",
    "crew_hit",
    "d20_bonus",
    "damage_ship",
    "fadad_hit",
    "hull_hit",
    "ignite",
    "passes",
    "roll_crits",
    "skill_bonus",
]


def skill_bonus(battle: Any, ladder: int) -> int:
    """``ladder`` as a d20 bonus under the battle's ``engine.ladder_d20_bonus``."""
    return d20_bonus(ladder, battle.options.engine.ladder_d20_bonus)


def _triggered(battle: Any, ship: Ship, trigger: MoraleTrigger) -> None:
    ship.memory.setdefault("triggers", set()).add(trigger)


# --- hull points and levels --------------------------------------------------------------


def hull_hit(
    battle: Any,
    ship: Ship,
    damage: int,
    *,
    attack_critical: bool = False,
    ram_crits: int = 0,
    source: str = "",
) -> None:
    """SJ hull damage: crits on a natural 20 and on passing half the hull; 0 breaks up."""
    if not ship.fighting or (damage <= 0 and not ram_crits):
        return
    opts = battle.options
    hd = apply_hull_damage(
        ship.spec.hull_points, ship.hull_damage, damage, repeat=opts.sj.half_hull_crit_repeat
    )
    ship.hull_damage = hd.damage
    trig = opts.ship.crit_triggers
    n = crits_triggered(
        attack_critical="natural_20" in trig and attack_critical,
        half_crossed="half_hull" in trig and hd.half_crossed,
        ram_crits=ram_crits if "ram" in trig else 0,
    )
    if five_hull_points_trigger(hd.hull_left, ship.spec.hull_points):
        _triggered(battle, ship, MoraleTrigger.FIVE_HULL_POINTS)
    if hd.broken_up:
        break_up(battle, ship, source or "hull gone")
        return
    roll_crits(battle, ship, n, damage, damage, "blast", source)


def fadad_hit(
    battle: Any,
    ship: Ship,
    damage: int,
    *,
    rd: int | None = None,
    attack_dice: int | None = None,
    crew_damage: int = 0,
    crew_kind: fx.CrewHitKind = "blast",
    source: str = "",
) -> None:
    """FADAD damage number on the level track; crits by A-39 triggers; Wrecked breaks up."""
    if not ship.fighting:
        return
    opts = battle.options.ship
    before = ship.level
    sd = record_ship_damage(ship.track, damage, overflow=opts.overflow_past_wrecked)
    ship.track = sd.track
    ship.fadad_damage += damage
    battle.record(
        ship.name,
        "ship_damage",
        source or None,
        (),
        (),
        (
            ("result", sd.level.label),
            ("damage", damage),
            ("before", before.label),
        ),
    )
    if sd.level >= ShipLevel.WRECKED:
        if opts.overflow_past_wrecked == "destroyed":  # she crumbles, blows apart (FADAD 4)
            break_up(battle, ship, source or "wrecked")
            return
        if before < ShipLevel.WRECKED:
            note = "she is a wreck, dead in space: no helm, no guns"
            battle.record(ship.name, "effect", source or None, (), (), (("result", note),))
    rd_for_crit = 3 if ship.spec.poorly_maintained else 4
    n = crit_count(
        rd=rd,
        attack_dice=attack_dice,
        damage=sd,
        triggers=opts.crit_triggers,
        rd_for_crit=rd_for_crit,
    )
    roll_crits(battle, ship, n, damage, crew_damage, crew_kind, source)


def damage_ship(battle: Any, ship: Ship, hull: int, number: int, source: str) -> None:
    """Damage without an attack roll (debris, HullLoss): hull points or a damage number."""
    if battle.options.ship.damage_model == "fadad_levels":
        if number > 0:
            fadad_hit(battle, ship, number, source=source)
    else:
        hull_hit(battle, ship, hull, source=source)


# --- criticals ---------------------------------------------------------------------------


def _crit_params(battle: Any) -> CritParams:
    sj = battle.options.sj
    return _params(
        sj.crit_fortitude_dc, sj.shaken_dexterity_dc, sj.shock_will_dc, sj.mc_loss_rounds_per_turn
    )


@cache  # immutable, of four options: one per scenario
def _params(fortitude: int, dexterity: int, will: int, mc_factor: int) -> CritParams:
    return CritParams(
        fortitude_dc=fortitude, dexterity_dc=dexterity, will_dc=will, mc_loss_round_factor=mc_factor
    )


def roll_crits(
    battle: Any,
    ship: Ship,
    n: int,
    hull_damage: int,
    crew_damage: int,
    crew_kind: fx.CrewHitKind,
    source: str,
) -> None:
    """Roll ``n`` criticals on the scenario's table and apply their effects."""
    if n <= 0:
        return  # most hits: no stream to fetch (a stream is seeded when first read)
    rng = battle.crit_rng
    opts = battle.options.ship
    for _ in range(n):
        if not ship.fighting:
            return
        dice: tuple[tuple[str, int], ...]
        if opts.crit_table == "sj_d20":
            crew_aboard = battle.crew_heads_on(ship) > 0
            ctx = CritContext(
                sr=ship.sr,
                mc=ship.mc,
                has_large_weapon=any(not t.disabled for t in ship.teams),
                has_exposed_crew=crew_aboard,
                anyone_aboard=crew_aboard,
            )
            res = resolve_sj_crit(ctx, hull_damage, rng, _crit_params(battle))
            name, dice, effects = (
                res.kind.value,
                (("d20", res.roll), ("entry", res.entry)),
                res.effects,
            )
        else:
            roll = resolve_crit(
                rng,
                crew_damage=crew_damage,
                crew_hit_kind=crew_kind,
                volatile_stores=any(t.weapon.family == "wildfire" for t in ship.teams),
                coma_dice=opts.coma_dice,
            )
            name, dice, effects = (
                str(roll.crit).replace("_", " "),
                (("6dF", roll.roll),),
                roll.effects,
            )
        _triggered(battle, ship, MoraleTrigger.CRITICAL_HIT)
        battle.record(ship.name, "crit", source or None, dice, (), (("result", name),))
        for effect in effects:
            apply_effect(battle, ship, effect, source)


def _until(battle: Any, rounds: int | None, round_seconds: int) -> int | None:
    return None if rounds is None else int(battle.env.now) + rounds * round_seconds


def apply_effect(battle: Any, ship: Ship, effect: fx.ShipEffect, source: str = "") -> None:
    """One handler per shared effect (C-03): the same code serves both crit tables."""
    if not ship.fighting:
        return
    note = ""
    match effect:
        case fx.Fire():
            _ignite(battle, ship, first_fire_value(effect), effect.growth, crit=True)
            note = "fire breaks out aboard"
        case fx.HelmShock(save=save):
            if passes(save, ship.helm, battle.crit_rng, battle.options.engine.ladder_d20_bonus):
                note = "the helmsman shrugs off the spelljammer shock"
            else:
                note = f"the helmsman falls into a coma ({effect.coma_days} days)"
                battle.record(ship.name, "effect", source or None, (), (), (("result", note),))
                helm_lost(battle, ship, "helm shock")
                return
        case fx.SpeedLoss():
            ship.effects.append(
                TimedEffect(
                    "sr_loss",
                    effect.sr,
                    _until(battle, effect.rounds, effect.round_seconds),
                    effect.recovery,
                )
            )
            note = f"SR -{effect.sr}" + (f" for {effect.seconds} s" if effect.seconds else "")
        case fx.ManeuverLoss():
            ship.effects.append(
                TimedEffect(
                    "mc_loss",
                    effect.classes,
                    _until(battle, effect.rounds, effect.round_seconds),
                    effect.repair,
                )
            )
            note = "steering damaged" + (f" for {effect.seconds} s" if effect.seconds else "")
        case fx.HelmMalfunction():
            ship.effects.append(
                TimedEffect(
                    "helm_malfunction", 1, _until(battle, effect.rounds, effect.round_seconds)
                )
            )
            note = f"helm malfunctions for {effect.seconds} s"
        case fx.HullHoled():
            ship.holed = True
            note = "a hole gapes in her hull"
        case fx.Shaken():
            ship.shaken_round = battle.round
            note = shake(battle, ship, effect)
        case fx.DeckCrew() | fx.InteriorCrew():
            lost = crew_hit(battle, ship, effect, source)
            note = f"{lost} of her crew down" if lost else "the blast hurts no one seriously"
        case fx.WeaponDamaged():
            note = _weapon_hit(battle, ship, effect, source)
        case fx.HullLoss(n=n):
            note = f"timbers splinter: {n} hull points lost"
            battle.record(ship.name, "effect", source or None, (), (), (("result", note),))
            per = battle.options.ship.hull_points_per_damage_number
            damage_ship(battle, ship, n, n // per, source)
            return
    battle.record(ship.name, "effect", source or None, (), (), (("result", note),))


def _weapon_hit(battle: Any, ship: Ship, effect: fx.WeaponDamaged, source: str) -> str:
    working = [t for t in ship.teams if not t.disabled]
    if not working:
        return "no weapon left to hit"
    team = working[int(battle.crit_rng.random() * len(working))]
    team.stop()
    battle.recount_due = True  # her hands go to the other weapons next round
    what = "destroyed" if effect.may_be_destroyed else "damaged"
    if effect.crew_hit is not None:
        crew_hit(battle, ship, effect.crew_hit, source)
    return f"{team.label} {what}"


def crew_hit(
    battle: Any, ship: Ship, effect: fx.DeckCrew | fx.InteriorCrew, source: str = ""
) -> int:
    """Casualties of a deck or interior crew hit among the crews on the ship; crewmen slain
    by a spell's blast are slain by magic (a morale trigger, SJ 18)."""
    crews = battle.crews_on(ship)
    heads = sum(c.count for c in crews)
    if heads == 0:
        return 0
    rng = battle.crit_rng
    scale = battle.options.engine.ladder_d20_bonus
    victims = 1
    if effect.kind == "bolt":  # a random crewman dodges at -2 a Fair attack (FADAD)
        victims = 0 if passes(effect.bystander_save, 0, rng, scale) else 1
    elif effect.bystander_save is not None:  # d20: two bystanders within 5 ft save or die
        victims += sum(1 for _ in range(2) if not passes(effect.bystander_save, 0, rng, scale))
    else:  # FADAD blast: everyone in the 10-ft area (PROPOSED: ``ship.blast_victims`` hands)
        victims = battle.options.ship.blast_victims
    lost = 0
    for _ in range(victims):
        pick = int(rng.random() * heads)
        for crew in crews:
            if pick < crew.count:
                if _kills(battle, crew, effect.damage):
                    lost += battle.casualties(crew, 1)
                break
            pick -= crew.count
        heads = sum(c.count for c in crews if c.fighting)
        if heads == 0:
            break
    battle.refresh_crews()
    if lost and source in battle.casters:
        _triggered(battle, ship, MoraleTrigger.SLAIN_BY_MAGIC)
    return lost


def _kills(battle: Any, crew: Any, damage: int) -> bool:
    """A crewman dies at ``ship.crewman_dies_at_damage`` (FADAD) or at his average hit points,
    HD x ``sj.crewman_hit_points_per_hd`` (d20)."""
    opts = battle.options
    if opts.ship.damage_model == "fadad_levels" and opts.ship.crit_table == "fadad_6dF":
        return bool(damage >= opts.ship.crewman_dies_at_damage)
    return dies_of(damage, crew.stats.hd, opts.sj.crewman_hit_points_per_hd)


def dies_of(damage: int, hd: Any, hit_points_per_hd: float) -> bool:
    """A crewman of ``hd`` Hit Dice dies of ``damage`` at HD x ``hit_points_per_hd``
    (PROPOSED ``sj.crewman_hit_points_per_hd``, 4.5 = his average hit points)."""
    return bool(damage >= Fraction(hit_points_per_hd) * Fraction(hd))


# --- fire --------------------------------------------------------------------------------


def _ignite(
    battle: Any, ship: Ship, value: int, growth: int, *, crit: bool, paid: bool = False
) -> None:
    scale = battle.options.fire.fadad_crit_fire_scale if crit else "weapon_damage"
    ship.fire_list.append(FireState(value, growth, scale=scale, paid=battle.round if paid else -1))


def ignite(battle: Any, ship: Ship, value: int, source: str, *, paid: bool = False) -> None:
    """A wildfire (or burning debris) hit sets the ship on fire at ``value``. ``paid``: the
    hit on her hull was the fire's first round of damage ("the fire damage the first
    round is as listed", FADAD 3.1; "fires inflict their initial damage the round they
    start", SJ 7.3), so it burns her again only from the next round, one point hotter."""
    _ignite(battle, ship, value, 1, crit=False, paid=paid)
    battle.record(
        ship.name, "effect", source or None, (), (), (("result", f"set ablaze ({value})"),)
    )


def burn_fires(battle: Any, ship: Ship) -> None:
    """End of the ship round: every fire burns, hands fight it, the air may foul (C-08)."""
    policy = ship.ship_policies.firefighting
    free = ship.hands
    for fire in list(ship.fire_list):
        if not ship.fighting:
            return
        value = fire.value
        k = (
            min(free, policy.firefighters(ship, value, free))
            if battle.options.fire.sj_firefighting
            else 0
        )
        free -= k
        burnt = burn_round(value, k)
        paid = fire.paid == battle.round  # its first round's damage came with the hit
        battle.record(
            ship.name,
            "fire",
            None,
            (),
            (("firefighters", k),),
            (
                ("result", "out" if burnt.out else "burns"),
                ("value", value),
                ("damage", 0 if paid else burnt.damage),
            ),
        )
        before = ship.fire_damage
        ship.fire_damage += value if paid else burnt.damage  # the air fouls with either
        if battle.options.fire.sj_firefighting:
            _foul_air(battle, ship, air_after_fire(ship.air, before, ship.fire_damage, ship.tons))
        if burnt.out:
            ship.fire_list.remove(fire)
            continue
        fire.value = next_fire_value(burnt, fire.growth)
        fire.rounds += 1
        if paid:
            continue
        if battle.options.ship.damage_model == "fadad_levels":
            number = fire_damage_number(
                value,
                roll_4df(battle.fire_rng),
                ship.spec.mass_scale,
                scale=fire.scale,  # type: ignore[arg-type]
                negative_cap=battle.options.ship.fadad_negative_cap,
            )
            if number > 0:
                fadad_hit(battle, ship, number, source="fire")
        else:
            hull_hit(battle, ship, burnt.damage, source="fire")


def _foul_air(battle: Any, ship: Ship, air: AirQuality) -> None:
    """SJ 7.3: the smoke fouls her air; everyone aboard fights at its penalty (PROPOSED,
    ``fire.fouled_air_penalty``, ``fire.deadly_air_penalty``). A creature fighting as a
    ship has no deck, and nobody aboard to breathe."""
    if air == ship.air or ship.gargantuan:
        return
    ship.air = air
    fire = battle.options.fire
    levels = air_penalty(air, fire.fouled_air_penalty, fire.deadly_air_penalty)
    battle.record(
        ship.name,
        "air",
        None,
        (),
        (("fire_damage", ship.fire_damage), ("tons", ship.tons)),
        (("result", air.name.lower()), ("penalty", -levels)),
    )


# --- breaking up -------------------------------------------------------------------------


def break_up(battle: Any, ship: Ship, cause: str) -> None:
    """0 hull points (or Wrecked): debris fills its hex and the next; all aboard are lost."""
    if not ship.fighting:
        return
    carcass = battle.options.sj.gargantuan_carcass_debris
    if ship.gargantuan and not carcass:  # slain, no debris (PROPOSED, see the option)
        battle.record(ship.name, "slain", None, (), (), (("result", "slain"), ("cause", cause)))
        battle.lose_ship(ship, f"{ship.name} slain")
        return
    pieces = roll_debris(ship.tons, battle.crit_rng)
    burning = bool(ship.fire_list)
    for h in (ship.hex, *neighbours(ship.hex)):
        battle.debris[h] = battle.debris.get(h, False) or burning
    battle.record(
        ship.name,
        "break_up",
        None,
        (("pieces", pieces),),
        (),
        (("result", "breaks up"), ("cause", cause), ("pieces", pieces)),
    )
    battle.lose_ship(ship, f"{ship.name} broke up")
