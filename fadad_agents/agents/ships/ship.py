"""Ship: a hull on the hex map with its weapons, crews aboard, damage, fires and grapples.

State only (DESIGN.md): the ship engine (:mod:`fadad_agents.engine.ships.battle`) moves it,
fires its guns and applies damage; the ship's :class:`~fadad_agents.policies.ships.registry.
ShipPolicySet` makes its decisions. Damage follows ``ship.damage_model`` (C-02):
Spelljammer hull points (:attr:`Ship.hull_damage`) or the FADAD level track
(:attr:`Ship.track`, boxes 3/1/1/1/1 by default, A-38). Maneuverability is the SJ class
(C-05) lowered by crew shortage (C-06), criticals and shearing; the FADAD Maneuvering Skill
(section 2) reads the same crew count.

Effects with a duration (SR loss for 1d10 rounds, maneuverability loss, helm malfunction)
are :class:`TimedEffect` records with an end time in seconds (converted from the round
length their table is written in, C-01), or open-ended with a recovery check.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

import mesa

from fadad_agents.agents.core.base import Band, Combatant, Status
from fadad_agents.agents.ships.weapon_team import WeaponTeam
from fadad_agents.hexmap import Hex
from fadad_agents.rules.core.wounds import WoundTrack
from fadad_agents.rules.ships.close import is_grappled
from fadad_agents.rules.ships.crew import crew_shortage_steps
from fadad_agents.rules.ships.effects import Check
from fadad_agents.rules.ships.fadad_combat import maneuvering_skill
from fadad_agents.rules.ships.fadad_damage import (
    ShipLevel,
    crippled_mc,
    level_from_hull_fraction,
    new_ship_track,
    ship_level,
)
from fadad_agents.rules.ships.fire import AirQuality
from fadad_agents.rules.ships.movement import MC_LETTERS, ManeuverClass, downgrade
from fadad_agents.schema import forces as schema_forces

__all__ = ["FireState", "Ship", "TimedEffect"]


@dataclass(slots=True)
class FireState:
    """A fire aboard: this round's value (damage it will do) and its growth (C-08);
    ``paid``: the round whose damage the hit that lit it already did (a wildfire hit)."""

    value: int
    growth: int = 1
    scale: str = "damage_number"
    rounds: int = 0
    paid: int = -1


@dataclass(frozen=True, slots=True)
class TimedEffect:
    """A lasting critical effect: what, how much, until when (seconds) or what ends it."""

    kind: str  # "sr_loss", "mc_loss", "helm_malfunction"
    amount: int
    until: int | None
    recovery: Check | None = None


@lru_cache(maxsize=1024)  # read by every FADAD move and shot: the same few crews and helms
def _skill(
    helm: int, crew_skill: int, mc: int, familiar: bool, sailing: int, min_crew: int, rounding: Any
) -> int:
    """:func:`~fadad_agents.rules.ships.fadad_combat.maneuvering_skill` of a ship with
    ``sailing`` hands of ``min_crew``."""
    return maneuvering_skill(
        helm,
        crew_skill,
        mc,
        familiar=familiar,
        crew_present=sailing,
        minimum_crew=min_crew,
        rounding=rounding,
    )


class Ship(Combatant):
    """A ship in the battle (a Combatant so sides, strikes and endings treat it alike)."""

    kind: ClassVar[str] = "ship"

    __slots__ = (
        "_hand_count",
        "_helmsman",
        "_sailing",
        "air",
        "crew_lost",
        "crew_start",
        "effects",
        "facing",
        "fadad_damage",
        "fire_damage",
        "fire_list",
        "grapples",
        "grounded",
        "helm",
        "helm_out",
        "helm_process",
        "hex",
        "holed",
        "hull_damage",
        "levels_model",
        "locks",
        "moved",
        "ram_crits",
        "shaken_round",
        "shear_losses",
        "ship_policies",
        "spec",
        "speed",
        "start_hull_damage",
        "start_policies",
        "start_track",
        "struck",
        "teams",
        "track",
        "warming",
    )

    def __init__(
        self,
        model: mesa.Model,
        *,
        spec: schema_forces.Ship,
        side: int,
        index: int,
        policies: Any,
        ship_policies: Any,
        rng: random.Random,
        targeting_rng: random.Random,
        boxes: tuple[int, int, int, int, int] = (3, 1, 1, 1, 1),
    ) -> None:
        # What every play starts from (:meth:`restart`, called by Combatant's set-up); the
        # builder marks the damage she brings from an earlier battle on the start values.
        self.spec = spec
        self.start_policies = ship_policies
        self.start_hull_damage = 0
        self.start_track: WoundTrack = new_ship_track(boxes)
        self.teams: list[WeaponTeam] = []
        super().__init__(
            model,
            name=spec.name,
            side=side,
            index=index,
            policies=policies,
            rng=rng,
            targeting_rng=targeting_rng,
            band=Band(spec.name, side),
        )

    def restart(self, rng: random.Random, targeting_rng: random.Random) -> None:
        """Back to her state at set-up, on new streams (:meth:`Combatant.restart`): at her
        listed position, with the damage she brought, her own policies (a player who sails
        her on swaps them), no fires, effects, grapples or crew counted yet."""
        super().restart(rng, targeting_rng)
        spec = self.spec
        # The battle's damage model (C-02), read by SR, level and hull every turn.
        self.levels_model = self.model.options.ship.damage_model == "fadad_levels"
        self.ship_policies = self.start_policies
        self.hex = Hex(*(spec.position or (0, 0)))
        self.position = (self.hex.q, self.hex.r)
        self.facing = spec.facing
        self.speed = spec.speed
        self.hull_damage = self.start_hull_damage
        self.track = self.start_track
        self.fadad_damage = 0
        self.effects: list[TimedEffect] = []
        self.fire_list: list[FireState] = []
        self.fire_damage = 0
        self.air = AirQuality.FRESH
        self.grapples: dict[Ship, int] = {}  # lines to each ship held alongside (or locked)
        self.locks: list[Ship] = []  # ships locked to her by a ram, whatever the lines
        self.holed = False
        self.helm_out = False
        self.helm = spec.helm_skill  # the helm skill of whoever sits at the helm now
        # sailing_crew and its shortage, kept until their inputs change
        self._sailing: tuple[int, int] | None = None
        self._helmsman: Combatant | None = None  # a named character at the helm, if any
        self.warming = False  # the helm warms up: no maneuvering yet (SJ 1.2)
        # in a gravity well (SJ 1.2): no tactical move until she is out of it
        self.grounded = spec.gravity_well is not None
        self.helm_process: Any = None
        self.struck = False
        self.shear_losses = 0
        self.ram_crits = 0
        self.shaken_round = -1
        self.moved = 0
        self._hand_count = 0  # hand_count, counted as set-up ends
        self.crew_start = 0
        self.crew_lost = 0

    # --- the view policies read -------------------------------------------------------

    @property
    def tons(self) -> int:
        """Size in SJ tons."""
        return self.spec.tons

    @property
    def min_crew(self) -> int:
        """Listed minimum crew (weapon crews not counted)."""
        return self.spec.min_crew

    @property
    def hands(self) -> int:
        """Own crew aboard now (kept by the engine)."""
        return self._hand_count

    @property
    def weapon_arcs(self) -> tuple[str, ...]:
        """Fields of fire of her working big weapons."""
        return tuple(t.weapon.arc for t in self.teams if not t.disabled)

    @property
    def fires(self) -> int:
        """Fires burning aboard (the dashboard draws them)."""
        return len(self.fire_list)

    @property
    def grappled(self) -> list[str]:
        """Names of the ships this one is grappled with."""
        return sorted(s.name for s in self.grapples if self.grappled_with(s))

    @property
    def headcount(self) -> int:
        """A ship counts as one in its side's strength."""
        return 1 if self.status is Status.FIGHTING else 0

    @property
    def level(self) -> ShipLevel:
        """Damage level under either model (hull points read through the C-02 bridge)."""
        if self.levels_model:
            return ship_level(self.track)
        return level_from_hull_fraction(self.hull_damage, self.spec.hull_points)

    @property
    def wound(self) -> int:
        """The damage level as an int (views compare it like a wound level)."""
        return int(self.level)

    @property
    def hull_left(self) -> int:
        """SJ hull points left."""
        return self.spec.hull_points - self.hull_damage

    @property
    def hull_fraction(self) -> float:
        """Share of the hull left, 0..1 (FADAD: boxes of the track left)."""
        if self.levels_model:
            return max(0.0, 1.0 - int(self.level) / int(ShipLevel.WRECKED))
        spec = self.spec  # hull_left, inline: every ship's colours policy reads this each round
        return (spec.hull_points - self.hull_damage) / spec.hull_points

    def grappled_with(self, other: Any) -> bool:
        """Enough lines hold the two ships together (SJ 12, EX-SJ-04), or a lock (SJ 9)."""
        if other in self.locks:
            return True
        lines = self.grapples.get(other, 0)
        if lines <= 0:  # most ships most turns: no lines to count
            return False
        rounding = self.model.options.sj.grapple_lines_rounding
        return is_grappled(lines, self.tons, other.tons, rounding)

    def boarders_on_deck(self) -> int:
        """Enemy heads fighting on this deck (the engine keeps the deck lists)."""
        return int(self.model.boarders_on(self))

    # --- maneuverability --------------------------------------------------------------

    def timed(self, kind: str) -> int:
        """Total of the active effects of ``kind``."""
        effects = self.effects
        if not effects:  # most ships most rounds: no call to sum (hot: every SR read)
            return 0
        return sum(e.amount for e in effects if e.kind == kind)

    @property
    def gargantuan(self) -> bool:
        """A gargantuan creature fighting as a ship: no crew, no shortage (SJ 9)."""
        return self.spec.gargantuan

    @property
    def hand_count(self) -> int:
        """Own crew heads on her deck, counted by the engine (:meth:`~fadad_agents.engine.
        ships.state.ShipBattleState.refresh_crews`)."""
        return self._hand_count

    @hand_count.setter
    def hand_count(self, heads: int) -> None:
        self._hand_count = heads
        self._sailing = None

    @property
    def helmsman(self) -> Combatant | None:
        """The named character at her helm, if any."""
        return self._helmsman

    @helmsman.setter
    def helmsman(self, who: Combatant | None) -> None:
        self._helmsman = who
        self._sailing = None

    def guns_manned(self) -> None:
        """The hands at her guns changed, or a gun was put out of action
        (:class:`~fadad_agents.agents.ships.weapon_team.WeaponTeam`): count her sailing
        crew again when next read."""
        self._sailing = None

    @property
    def sailing_crew(self) -> int:
        """Hands not at the guns (the helmsman among them, A-35; a named one counts too).

        Read by her SR and class several times a turn: counted once, and again after her
        hands (:attr:`hand_count`), her guns' hands or working guns (:meth:`guns_manned`)
        or her helmsman change."""
        return (self._sailing or self._count_sailing())[0]

    def _count_sailing(self) -> tuple[int, int]:
        """Her sailing crew and its :attr:`shortage` counted afresh, and kept."""
        spec = self.spec
        if spec.gargantuan:
            sailing = spec.min_crew
        else:
            named = 1 if self._helmsman is not None else 0
            at_guns = 0
            for t in self.teams:  # a loop, not sum()
                if not t.disabled:
                    at_guns += t.crew
            sailing = max(0, self._hand_count - at_guns) + named
        kept = self._sailing = (sailing, crew_shortage_steps(sailing, spec.min_crew))
        return kept

    @property
    def shortage(self) -> int:
        """Crew-shortage steps (C-06): 0-3."""
        return (self._sailing or self._count_sailing())[1]  # kept with the sailing crew

    @property
    def mc(self) -> ManeuverClass:
        """The SJ class now: listed, less shortage, criticals and shearing (never below Poor)."""
        # class_from_letter without its call (her spec admits only A-F): read by every SJ move
        listed = MC_LETTERS[self.spec.maneuverability]
        lost = (self._sailing or self._count_sailing())[1] + self.shear_losses
        if self.effects:  # most ships most turns: no effect to add up (hot: every move)
            lost += self.timed("mc_loss")
        return downgrade(listed, lost) if lost else listed

    @property
    def wrecked(self) -> bool:
        """A FADAD hulk at Wrecked kept afloat (``ship.overflow_past_wrecked: stay_wrecked``):
        no helm, no guns, no dodge."""
        return self.levels_model and ship_level(self.track) >= ShipLevel.WRECKED

    @property
    def ms(self) -> int | None:
        """FADAD Maneuvering Skill (section 2), ``None`` if nobody can steer (no dodge)."""
        sailing = self.sailing_crew
        if self.helm_out or sailing < 1 or self.wrecked:
            return None
        spec = self.spec
        mc = crippled_mc(spec.mc_level, int(ship_level(self.track)))
        rounding = self.model.options.ship.ms_rounding
        ms = _skill(self.helm, spec.crew_skill, mc, spec.familiar, sailing, spec.min_crew, rounding)
        return ms - self.timed("mc_loss") - self.shear_losses

    @property
    def sr(self) -> int:
        """SR this round: listed, less losses (never below 1); 0 if the helm is out, warming
        up or still climbing out of a gravity well."""
        if self.helm_out or self.warming or self.grounded:
            return 0
        damaged = self.effects  # most ships most rounds: no effect to add up
        if damaged and self.timed("helm_malfunction"):
            return 0
        if (self._sailing or self._count_sailing())[0] < 1:  # sailing_crew (a named helmsman too)
            return 0
        sr = self.spec.sr
        if damaged:  # (the loss read only with effects to add up: SR is read every move)
            loss = self.timed("sr_loss")
            if loss:
                sr = max(1, sr - loss) if sr >= 1 else sr
        if self.levels_model:
            lvl = ship_level(self.track)
            if lvl >= ShipLevel.WRECKED:
                return 0
            if lvl >= ShipLevel.CRIPPLED:
                sr = min(sr, 1)
        return sr

    # --- the round (the ship engine drives ships; the personal driver never does) -----

    def declare(self, arena: Any) -> None:
        """Ships act in the ship-round driver, not in personal rounds."""

    def act(self, arena: Any) -> None:
        """Ships act in the ship-round driver, not in personal rounds."""

    def leave_fight(self, status: Status) -> None:
        """Struck, broken up or gone: its weapons stop for good (their reloads end). They
        stay Mesa's agents, as she does: nothing reads the agents of a lost ship, and a
        reset then finds every weapon where set-up put it (Mesa's deregistering, and
        registering again at the reset, cost a sweep about 1.5% of a duel)."""
        super().leave_fight(status)
        for team in self.teams:
            team.stop()
