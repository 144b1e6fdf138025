"""ShipBattle: the ship-round driver on top of :class:`~fadad_agents.engine.battle.Battle`.

Time (C-01, C-19, decided here): a ship round lasts as long as a ship at SR 1 takes to
cross one hex of the scenario's map (25 ft/s per SR): ``6 s x hex_yards / 50``, so a
Spelljammer map of 150-ft hexes (``hex_yards: 50``) plays 6-second tactical rounds and a
FADAD map of 500-yard hexes plays 1-minute ship rounds (= 10 personal rounds). SR stays
"hexes per round" in both and no rule needs converting; effect durations carry their own
round length (``ship_effects``). :meth:`Battle.step` advances one ship round.

One ship round (``ships-spelljammer.md`` 3, A-47):

1. (round 1) ships in a gravity well begin to take off or land (SJ 1.2,
   :mod:`~fadad_agents.engine.ship_helm`); timed effects expire, open-ended ones get their
   recovery roll; a named helmsman who fell leaves the helm to the next (a warm-up); crews
   are counted and the reload policy puts hands on the guns (short-handed reloads are
   recomputed);
2. side initiative (1d20 per side, ties reroll); each side, best first, moves first or
   last as its lead ship's maneuver policy says (``movement_order``);
3. boarders cross to ships grappled in an earlier round (SJ 12);
4. in moving order each ship: cuts lines if its policy says so, starts landing (maneuver
   ``land``), moves (facing rules per class, crew shortage, debris fields; no move while
   the helm warms up or she is in a gravity well), jettisons rubble astern if fleeing
   (:mod:`~fadad_agents.engine.ship_jettison`), fires every loaded weapon that bears
   (fields of fire), her spellcasters cast at enemy hulls
   (:mod:`~fadad_agents.engine.ship_hull_attacks`), then closes: hand missiles (at crew
   or hull), axes at one spot of a grappled hull, rams (d4s for d6s on a gargantuan
   creature), shears or grapples an enemy in its hex; a fleeing ship that is 25 hexes
   clear of everything escapes and enemies may pursue (SJ 15-16);
5. the deck fights: 6-second personal rounds on every deck where two sides meet;
6. end of round: fires burn and are fought, ships whose decks are held by the enemy
   are taken, ships check morale on the section 18 triggers with the modifier table and
   strike their colours when it fails (everyone aboard surrenders, unless the colours
   policy lets a player character sail her on); mutual strikes.

When the battle ends each ship's repair bill is logged (SJ 17 / FADAD 7).
"""

from __future__ import annotations

from typing import Any

import simpy
from simpy.events import Event

from fadad_agents.agents.base import Combatant, Status
from fadad_agents.agents.character import Character
from fadad_agents.agents.groups import Crew
from fadad_agents.agents.ship import Ship
from fadad_agents.engine import (
    ship_close,
    ship_helm,
    ship_hull_attacks,
    ship_jettison,
    ship_log,
    ship_morale,
)
from fadad_agents.engine.battle import Battle, Phase
from fadad_agents.engine.ship_damage import burn_fires, passes
from fadad_agents.engine.ship_deck import deck_round
from fadad_agents.engine.ship_gunnery import fire_guns
from fadad_agents.hexmap import Hex, distance
from fadad_agents.policies import MoraleChoice
from fadad_agents.rules.sj_close import is_grappled, lines_to_grapple
from fadad_agents.rules.sj_combat import movement_order, roll_side_initiative
from fadad_agents.rules.sj_movement import miles_per_day, travel_mph

__all__ = ["PERSONAL_SECONDS", "ShipBattle", "ship_round_seconds"]

_NARRATION = ship_log.SHIP_NARRATORS  # imported for its registration of the narrators

PERSONAL_SECONDS = 6


def ship_round_seconds(hex_yards: int) -> int:
    """Seconds of a ship round on hexes of ``hex_yards``: 50 yd -> 6 s, 500 yd -> 60 s."""
    return PERSONAL_SECONDS * max(1, round(hex_yards / 50))


class _At(Event):
    """An event at ``now + delay`` with an explicit same-instant priority."""

    def __init__(self, env: simpy.Environment, delay: int, phase: Phase) -> None:
        super().__init__(env)
        self._ok = True
        self._value = None
        env.schedule(self, phase, delay)  # type: ignore[arg-type]


class ShipBattle(Battle):
    """A battle with ships: ship rounds, deck fights inside them, ships' own morale."""

    def __init__(
        self, *args: Any, round_seconds: int = 60, map_radius: int | None = None, **kw: Any
    ):
        super().__init__(*args, **kw)
        self.round_seconds = round_seconds
        self.map_radius = map_radius
        self.ships: list[Ship] = []
        self.debris: dict[Hex, bool] = {}
        self.start_hex: dict[Ship, Hex] = {}
        self.initiative_side: int | None = None
        self.crews_changed = False
        self.repairs: dict[str, dict[str, Any]] = {}
        self._deck: dict[int, Ship] = {}
        self._home: dict[int, Ship] = {}
        self._aboard: dict[int, list[Combatant]] = {}
        self._locked: set[frozenset[int]] = set()
        self._role: dict[int, str] = {}
        self._missile: set[int] = set()
        self._people: list[Combatant] = []
        self._grappled_at: dict[frozenset[int], int] = {}
        s = self.streams
        self.gunnery_rng = s.get("gunnery")
        self.crit_rng = s.get("crits")
        self.fire_rng = s.get("fire")
        self.close_rng = s.get("close")
        self.chase_rng = s.get("chase")
        self.ship_morale_rng = s.get("ship_morale")
        self.deck_init_rng = s.get("deck_initiative")
        self.ship_init_rng = s.get("ship_initiative")
        self.helm_rng = s.get("helm")
        self.jettison_rng = s.get("jettison")
        self.hull_rng = s.get("hull_attacks")
        self._helm_skill: dict[int, int] = {}
        self._spells: dict[int, list[Any]] = {}
        self.spots: dict[tuple[int, int], int] = {}
        self.jettisoned: set[Hex] = set()

    # --- set-up ------------------------------------------------------------------------

    def add_ship(self, ship: Ship) -> None:
        """Enlist a ship."""
        self.enlist(ship)
        self.ships.append(ship)
        self._aboard[ship.unique_id] = []

    def put_aboard(self, member: Combatant, ship: Ship, home: Ship | None) -> None:
        """At set-up: ``member`` stands on ``ship``; ``home`` is its own ship."""
        if home is not None:
            self._home[member.unique_id] = home
        self._people.append(member)
        self.move_aboard(member, ship)

    def set_role(self, member: Combatant, role: str) -> None:
        """A crew's job aboard (``rigging`` crews stay aboard when the rest board)."""
        self._role[member.unique_id] = role

    def note_person(self, member: Combatant, force: Any) -> None:
        """At set-up: a named character's helm skill and the spells it can cast at ships."""
        skill = ship_helm.helm_skill_of(dict(getattr(force, "skills", None) or {}))
        if skill is not None:
            self._helm_skill[member.unique_id] = skill
        weapon = getattr(force, "weapon", None)
        if isinstance(member, Character) and weapon is not None and weapon.ranged:
            self._missile.add(member.unique_id)
        spells = getattr(force, "spells", None)
        if spells:
            self._spells[member.unique_id] = [[spell, spell.uses] for spell in spells]

    def helm_skill(self, member: Combatant) -> int | None:
        """``member``'s helm skill, ``None`` if it cannot take a ship's helm."""
        return self._helm_skill.get(member.unique_id)

    def missile(self, member: Combatant) -> bool:
        """``member`` carries a hand-held missile weapon."""
        return member.unique_id in self._missile

    def add_debris(self, cells: Any) -> None:
        """At set-up: debris fields on the map (``map.debris``), hazards to ships (SJ 7.2)."""
        for q, r in cells:
            self.debris.setdefault(Hex(q, r), False)

    @property
    def has_spells(self) -> bool:
        """Someone in the battle can cast spells at ships."""
        return bool(self._spells)

    def spells_of(self, member: Combatant) -> list[Any]:
        """``[spell, uses left]`` pairs of ``member``'s ship spells (kept up to date)."""
        return self._spells.get(member.unique_id, [])

    # --- decks and crews ---------------------------------------------------------------

    def deck_of(self, member: Combatant) -> Ship | None:
        return self._deck.get(member.unique_id)

    def home_of(self, member: Combatant) -> Ship | None:
        return self._home.get(member.unique_id)

    def move_aboard(self, member: Combatant, ship: Ship) -> None:
        old = self._deck.get(member.unique_id)
        if old is not None:
            self._aboard[old.unique_id].remove(member)
        self._deck[member.unique_id] = ship
        self._aboard[ship.unique_id].append(member)
        member.position = ship.position
        self.crews_changed = True

    @property
    def people(self) -> list[Combatant]:
        """Everyone who is not a ship, in set-up order."""
        return self._people

    def fighters_on(self, ship: Ship) -> list[Combatant]:
        return [m for m in self._aboard[ship.unique_id] if m.status is Status.FIGHTING]

    def crews_on(self, ship: Ship) -> list[Crew]:
        return [m for m in self.fighters_on(ship) if isinstance(m, Crew)]

    def crew_heads_on(self, ship: Ship) -> int:
        return sum(c.count for c in self.crews_on(ship))

    def home_crews(self, ship: Ship) -> list[Crew]:
        """Own crews on the own deck."""
        return [
            c
            for c in self.crews_on(ship)
            if c.side == ship.side and self._home.get(c.unique_id) is ship
        ]

    def crew_heads_home(self, ship: Ship) -> int:
        return sum(c.count for c in self.home_crews(ship))

    def crew_bonus(self, ship: Ship) -> int:
        crews = self.home_crews(ship)
        return crews[0].stats.attack_bonus if crews else 0

    def boarders_on(self, ship: Ship) -> int:
        return sum(m.headcount for m in self.fighters_on(ship) if m.side != ship.side)

    def boarders_defending(self, ship: Ship) -> int:
        """Heads of ``ship``'s side fighting on its deck."""
        return sum(m.headcount for m in self.fighters_on(ship) if m.side == ship.side)

    def own_heads(self, ship: Ship) -> int:
        """Own crew heads wherever they fight (boarders included)."""
        return sum(m.headcount for m in self._crew_of(ship))

    def _crew_of(self, ship: Ship) -> list[Combatant]:
        return [
            m for m in self._people if self._home.get(m.unique_id) is ship and isinstance(m, Crew)
        ]

    def boarding_party(self, ship: Ship) -> list[Combatant]:
        """Who swarms across: own characters but a named helmsman, and every crew but the
        riggers (PROPOSED)."""
        party = []
        for m in self.fighters_on(ship):
            if m.side != ship.side or self._home.get(m.unique_id) is not ship:
                continue
            if isinstance(m, Crew) and self._role.get(m.unique_id) == "rigging":
                continue
            if "retreated" in m.memory:  # a crew that fell back will not cross again
                continue
            if m is ship.helmsman:  # the helmsman stays at the helm
                continue
            party.append(m)
        return party

    def can_retreat(self, member: Combatant, deck: Ship) -> bool:
        home = self._home.get(member.unique_id)
        return home is not None and home.fighting and home.grappled_with(deck)

    def refresh_crews(self) -> None:
        """Count hands aboard each ship and put them on the guns (reload policy)."""
        self.crews_changed = False
        for ship in self.ships:
            if not ship.fighting:
                continue
            ship.hand_count = self.crew_heads_home(ship)
            teams = ship.teams
            needs = [0 if t.disabled else t.needed for t in teams]
            crews = ship.ship_policies.reload.assign(ship.hand_count, ship.min_crew, needs)
            for team, n in zip(teams, crews, strict=True):
                team.set_crew(n)

    # --- the view ship policies read ---------------------------------------------------

    def enemy_ships(self, side: int) -> list[Ship]:
        return [s for s in self.ships if s.side != side and s.fighting]

    def own_ships(self, side: int) -> list[Ship]:
        return [s for s in self.ships if s.side == side and s.fighting]

    def range_between(self, a: Any, b: Any) -> int:
        return distance(a.hex, b.hex)

    def holds_initiative(self, side: int) -> bool:
        return self.initiative_side == side

    # --- grapples ----------------------------------------------------------------------

    def add_lines(self, a: Ship, b: Ship, n: int) -> None:
        lines = max(0, a.grapples.get(b, 0) + n)
        for x, y in ((a, b), (b, a)):
            if lines:
                x.grapples[y] = lines
            else:
                x.grapples.pop(y, None)
        key = frozenset((a.unique_id, b.unique_id))
        if lines and is_grappled(lines, a.tons, b.tons):
            self._grappled_at.setdefault(key, self.round)
        else:
            self._grappled_at.pop(key, None)
            self._locked.discard(key)

    def lash(self, a: Ship, b: Ship, *, chains: bool = False) -> None:
        """Hold two ships together (a lock, an entangling ram, or lines at set-up)."""
        needed = lines_to_grapple(a.tons, b.tons, self.options.sj.grapple_lines_rounding)
        self.add_lines(a, b, max(0, needed - a.grapples.get(b, 0)))
        if chains:
            self._locked.add(frozenset((a.unique_id, b.unique_id)))

    def is_locked(self, a: Ship, b: Ship) -> bool:
        return frozenset((a.unique_id, b.unique_id)) in self._locked

    def release(self, a: Ship, b: Ship, reason: str) -> None:
        self.add_lines(a, b, -a.grapples.get(b, 0))
        self.record(a.name, "release", b.name, (), (), (("result", reason),))

    def grappled_since(self, a: Ship, b: Ship) -> int | None:
        return self._grappled_at.get(frozenset((a.unique_id, b.unique_id)))

    def immobilised(self, ship: Ship) -> bool:
        return any(ship.grappled_with(o) and o.fighting for o in ship.grapples)

    def place(self, ship: Ship, where: Hex, facing: int) -> None:
        ship.hex, ship.facing = where, facing
        ship.position = (where.q, where.r)
        for m in self._aboard[ship.unique_id]:
            m.position = ship.position

    # --- losing ships ------------------------------------------------------------------

    def lose_ship(self, ship: Ship, reason: str) -> None:
        """Broken up: the ship and everyone on it are out; lines to it part."""
        for other in list(ship.grapples):
            self.add_lines(ship, other, -ship.grapples.get(other, 0))
        for m in list(self.fighters_on(ship)):
            self.take_out(m, reason)
        self.take_out(ship, reason)
        self.crews_changed = True

    def strike(self, ship: Ship, reason: str) -> None:
        """Strike the colours: the ship and its people surrender; PCs in a fight fight on,
        and a PC who can take the helm may sail her on (:func:`ship_helm.sail_on`)."""
        if not ship.fighting:
            return
        again, ship.struck = ship.struck, True
        if not again:
            self.record(
                ship.name,
                "strike",
                None,
                (),
                (),
                (("result", "strikes her colours"), ("reason", reason)),
            )
        sails_on = getattr(ship.ship_policies.colours, "sail_on", False)
        keep = sails_on and not again and not ship.gargantuan
        helmsman = ship_helm.sail_on(self, ship) if keep else None
        if helmsman is None:
            self.leave(ship, MoraleChoice.SURRENDER, reason)
        for m in list(self._people):
            if m is helmsman or not m.fighting or self._home.get(m.unique_id) is not ship:
                continue
            deck = self._deck.get(m.unique_id)
            fighting_on = (
                getattr(m, "player", False) and deck is not None and self.boarders_on(deck) > 0
            )
            if not fighting_on:
                self.leave(m, MoraleChoice.SURRENDER, f"{ship.name} struck")
        self.crews_changed = True

    def escape(self, ship: Ship) -> None:
        """The ship accelerates to spelljamming speed and leaves with everyone aboard.

        The log gives her long-range pace (SJ 1.1, A-45) for the chase that follows:
        ``travel_mph`` and ``miles_per_day`` at her listed SR.
        """
        sr = ship.spec.sr
        self.record(
            ship.name,
            "escape",
            None,
            (),
            (("sr", sr),),
            (
                ("result", "escapes"),
                ("mph", float(travel_mph(sr))),
                ("miles_per_day", miles_per_day(sr)),
            ),
        )
        for m in list(self.fighters_on(ship)):
            if m.side == ship.side:
                self.leave(m, MoraleChoice.WITHDRAW, f"aboard {ship.name}")
        for other in list(ship.grapples):
            self.add_lines(ship, other, -ship.grapples.get(other, 0))
        self.leave(ship, MoraleChoice.WITHDRAW, "escaped")
        self.crews_changed = True

    # --- the ship round ----------------------------------------------------------------

    def _driver(self) -> Any:
        env = self.env
        while True:
            self._ship_phase()
            yield from self._deck_fights()
            self._end_of_round()
            finished = self._check_end()
            if finished:
                self._finish()
            done, self._round_over = self._round_over, env.event()
            assert done is not None
            done.succeed()
            if finished:
                return
            # Let a step() that waits on ``done`` return before the next round begins.
            yield _At(env, 0, Phase.ROUND)

    def _deck_fights(self) -> Any:
        """Six-second personal rounds on every deck where two sides meet."""
        env = self.env
        decks = [s for s in self.ships if len({m.side for m in self.fighters_on(s)}) > 1]
        if not decks:
            yield _At(env, self.round_seconds, Phase.ROUND)
            return
        for deck in decks:
            self._announce(deck)
        steps = self.round_seconds // PERSONAL_SECONDS
        for _ in range(steps):
            yield _At(env, PERSONAL_SECONDS, Phase.ROUND)
            decks = [s for s in decks if deck_round(self, s)]
            if self.crews_changed:
                self.refresh_crews()
        rest = self.round_seconds - steps * PERSONAL_SECONDS
        if rest:
            yield _At(env, rest, Phase.ROUND)

    def _announce(self, deck: Ship) -> None:
        """Log the heads on each side when a deck fight starts (or starts again)."""
        people = self.fighters_on(deck)
        heads = tuple(
            (self.sides[side].name, sum(m.headcount for m in people if m.side == side))
            for side in sorted({m.side for m in people})
        )
        if deck.memory.get("deck_fight") == heads:
            return
        deck.memory["deck_fight"] = heads
        self.record(deck.name, "deck_fight", None, (), (), (("result", "melee"), ("heads", heads)))

    def _ship_phase(self) -> None:
        self.round += 1
        if self.round == 1:
            ship_helm.start_take_offs(self)
        self._expire_effects()
        ship_helm.check_helmsmen(self)
        self.refresh_crews()
        ships = [s for s in self.ships if s.fighting]
        self.start_hex = {s: s.hex for s in ships}
        order = self._movement_order(ships)
        for ship in order:
            self._board_from(ship)
        if self.crews_changed:
            self.refresh_crews()
        for ship in order:
            if ship.fighting:
                self._ship_turn(ship)

    def _expire_effects(self) -> None:
        now = int(self.env.now)
        for ship in self.ships:
            if not ship.effects or not ship.fighting:
                continue
            kept = []
            for e in ship.effects:
                if e.until is not None and e.until <= now:
                    self.record(ship.name, "recover", None, (), (), (("result", f"{e.kind} ends"),))
                elif e.until is None and passes(
                    e.recovery, self._repair_skill(ship, e.kind), self.crit_rng
                ):
                    self.record(
                        ship.name, "recover", None, (), (), (("result", f"{e.kind} repaired"),)
                    )
                else:
                    kept.append(e)
            ship.effects = kept

    @staticmethod
    def _repair_skill(ship: Ship, kind: str) -> int:
        """The helmsman recovers lost SR; the repair crew mends steering (A-42)."""
        return ship.spec.crew_skill if kind == "mc_loss" else ship.helm

    def _movement_order(self, ships: list[Ship]) -> list[Ship]:
        sides = sorted({s.side for s in ships})
        ranking = roll_side_initiative(sides, self.ship_init_rng)
        self.initiative_side = ranking[0] if ranking else None
        lead = {side: next(s for s in ships if s.side == side) for side in sides}
        choices = [
            lead[side].ship_policies.maneuver.move_order(lead[side], self) for side in ranking
        ]
        order = movement_order(ranking, choices)
        names = [self.sides[i].name for i in order]
        if ranking:
            self.record(
                self.sides[ranking[0]].name,
                "ship_initiative",
                None,
                (),
                (),
                (("result", choices[0]), ("order", tuple(names))),
            )
        return [s for side in order for s in ships if s.side == side]

    def _board_from(self, ship: Ship) -> None:
        if not ship.fighting:
            return
        policy = ship.ship_policies.boarding
        for foe in sorted(ship.grapples, key=lambda s: s.unique_id):
            since = self.grappled_since(ship, foe)
            if since is None or since >= self.round or not foe.fighting:
                continue
            if policy.board(ship, foe, self):
                ship_close.board(self, ship, foe)

    def _ship_turn(self, ship: Ship) -> None:
        maneuver = ship.ship_policies.maneuver
        for foe in list(ship.grapples):
            if not (foe.fighting and ship.grappled_with(foe)) or self.boarders_on(ship):
                continue  # loose lines part when she moves off; boarders aboard: no axes free
            flee = maneuver.intent in ("flee", "shoot")
            if flee or ship.ship_policies.boarding.cut_lines(ship, foe, self):
                ship_close.cut_lines(self, ship, foe)
        if maneuver.intent == "land":
            ship_helm.start_landing(self, ship)
        ship_close.move_ship(self, ship)
        if not ship.fighting:
            return
        if maneuver.intent == "flee":
            ship_jettison.lay_debris(self, ship)
        fire_guns(self, ship)
        ship_hull_attacks.cast_spells(self, ship)
        if not ship.fighting:
            return
        self._close_action(ship, maneuver.intent)
        if maneuver.intent == "flee":
            ship_morale.try_escape(self, ship)

    def _close_action(self, ship: Ship, intent: str) -> None:
        here = [f for f in self.enemy_ships(ship.side) if f.hex == ship.hex]
        if not here:
            return
        foe = min(here, key=lambda f: (f.hull_fraction, f.unique_id))
        self.missile_fire(ship, foe)
        if ship.fighting and foe.fighting:
            ship_hull_attacks.chop_hull(self, ship, foe)
        if not (ship.fighting and foe.fighting):
            return
        if intent == "ram" and ship.spec.ram != "none":
            ship_close.ram(self, ship, foe)
        elif intent == "shear":
            ship_close.shear(self, ship, foe)
        if (
            ship.fighting
            and foe.fighting
            and intent in ("board", "ram")
            and not ship.grappled_with(foe)
        ):
            ship_close.grapple(self, ship, foe)

    def casualties(self, member: Combatant, lost: int) -> int:
        """Losses also change who can work the guns and sail (crews are recounted)."""
        self.crews_changed = True
        return int(super().casualties(member, lost))

    def set_missile(self, member: Combatant) -> None:
        """At set-up: this crew carries hand-held missile weapons (bows, crossbows, slings)."""
        self._missile.add(member.unique_id)

    def missile_fire(self, ship: Ship, foe: Ship) -> None:
        """Hand-held missile fire across a shared hex (SJ 8) by rapid resolution (SJ 13).

        Crews with missile weapons on their own deck, not in a deck fight there, shoot at a
        crew on the enemy's deck (medium range, short in contact: no modifier, PROPOSED).
        When the ship's gunnery policy aims small arms at the hull (``small_arms: hull``)
        they shoot at her side instead: scattered hits, one spot each (EX-SJ-06,
        :func:`~fadad_agents.engine.ship_hull_attacks.hull_volley`), and so do named
        characters with missile weapons (:func:`~fadad_agents.engine.ship_hull_attacks.
        hull_shots`).
        """
        if self.boarders_on(ship):
            return
        at_hull = ship_hull_attacks.small_arms_aim(ship) == "hull"
        for crew in self.home_crews(ship):
            if crew.unique_id not in self._missile or not foe.fighting:
                continue
            if at_hull:
                ship_hull_attacks.hull_volley(self, crew, foe)
                continue
            targets = self.crews_on(foe)
            targets = [t for t in targets if t.side != ship.side]
            if not targets:
                return
            crew.volley(targets[int(self.gunnery_rng.random() * len(targets))], self)
        if at_hull and foe.fighting:
            ship_hull_attacks.hull_shots(self, ship, foe)
        if self.crews_changed:
            self.refresh_crews()

    def _end_of_round(self) -> None:
        for ship in self.ships:
            if ship.fighting and ship.fire_list:
                burn_fires(self, ship)
        if self.crews_changed:
            self.refresh_crews()
        ship_morale.end_of_round(self)
        self._collect()

    def _collect(self) -> None:
        """One row of round data, as the personal driver keeps it."""
        collector = self.datacollector
        if collector is None:
            return
        row_of = getattr(self, "round_row", None)
        if row_of is not None:
            collector.add_table_row("rounds", row_of())
        else:
            collector.collect(self)

    def _finish(self) -> None:
        ship_morale.log_repairs(self)
        super()._finish()

    def step(self) -> None:
        """One ship round."""
        self.play_round()
