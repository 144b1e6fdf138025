"""ShipBattle: the ship-round driver on top of :class:`~fadad_agents.engine.core.battle.Battle`.

Time (C-01, C-19, decided here): a ship round lasts as long as a ship at SR 1 takes to
cross one hex of the scenario's map (25 ft/s per SR): ``6 s x hex_yards / 50``, so a
Spelljammer map of 150-ft hexes (``hex_yards: 50``) plays 6-second tactical rounds and a
FADAD map of 500-yard hexes plays 1-minute ship rounds (= 10 personal rounds). SR stays
"hexes per round" in both and no rule needs converting; effect durations carry their own
round length (``ship_effects``). :meth:`Battle.step` advances one ship round.

One ship round (``ships-spelljammer.md`` 3, A-47):

1. (round 1) ships in a gravity well begin to take off or land (SJ 1.2,
   :mod:`~fadad_agents.engine.ships.helm`); timed effects expire, open-ended ones get their
   recovery roll; a named helmsman who fell leaves the helm to the next (a warm-up); crews
   are counted and the reload policy puts hands on the guns (short-handed reloads are
   recomputed);
2. side initiative (1d20 per side, ties reroll); each side, best first, moves first or
   last as its lead ship's maneuver policy says (``movement_order``);
3. boarders cross to ships grappled in an earlier round (SJ 12), and to a ship that
   struck while her people fight on aboard, to take her;
4. in moving order each ship: cuts lines if its policy says so; a fleeing ship with
   nothing within 25 hexes at the start of her move escapes and enemies may pursue
   (SJ 15-16, :mod:`~fadad_agents.engine.ships.chase`); she starts landing (maneuver
   ``land``), moves (facing rules per class, crew shortage, debris fields; no move while
   the helm warms up or she is in a gravity well), jettisons rubble astern if fleeing,
   fires every loaded weapon that bears (fields of fire), her spellcasters cast at enemy
   hulls (:mod:`~fadad_agents.engine.ships.hull_attacks`), then closes: hand missiles
   (at crew or hull), axes at one spot of a grappled hull, rams (d4s for d6s on a
   gargantuan creature), shears or grapples an enemy in its hex
   (:mod:`~fadad_agents.engine.ships.turn`);
5. the deck fights: 6-second personal rounds on every deck where two sides meet;
6. end of round: fires burn and are fought, ships whose decks are held by the enemy
   are taken, each ship's crew checks morale once on the section 18 triggers with the
   modifier table (:mod:`~fadad_agents.engine.ships.morale`): its NPCs abroad fall back,
   a crew aboard strikes the colours (everyone aboard surrenders, unless the colours
   policy lets a player character sail her on); mutual strikes.

When the battle ends each ship's repair bill and each side's incapacitated share of its
fallen crewmen are logged (:mod:`~fadad_agents.engine.ships.aftermath`). What the battle
keeps between rounds (decks, crews, grapples, lost ships) is its base class
:class:`~fadad_agents.engine.ships.state.ShipBattleState`.
"""

from __future__ import annotations

from typing import Any

from fadad_agents.agents.core.base import Combatant, Status
from fadad_agents.agents.core.character import Character
from fadad_agents.agents.core.groups import Crew
from fadad_agents.agents.ships.ship import Ship
from fadad_agents.agents.ships.weapon_team import Held, Reload, reloads_until
from fadad_agents.engine.core.clock import At, Phase
from fadad_agents.engine.core.turns import TurnOrder
from fadad_agents.engine.ships import aftermath as ship_aftermath
from fadad_agents.engine.ships import close as ship_close
from fadad_agents.engine.ships import helm as ship_helm
from fadad_agents.engine.ships import log as ship_log
from fadad_agents.engine.ships import morale as ship_morale
from fadad_agents.engine.ships import turn as ship_turn
from fadad_agents.engine.ships.damage import burn_fires, passes
from fadad_agents.engine.ships.deck import breathe, deck_round, recall_prize_crews, stand_up
from fadad_agents.engine.ships.state import ShipBattleState
from fadad_agents.hexmap import DIRECTIONS, direction_to
from fadad_agents.rules.ships.chase import reaction_from_appearance, roll_encounter
from fadad_agents.rules.ships.combat import movement_order, roll_side_initiative

__all__ = ["PERSONAL_SECONDS", "ShipBattle", "ship_round_seconds"]

_NARRATION = ship_log.SHIP_NARRATORS  # imported for its registration of the narrators

PERSONAL_SECONDS = 6
_FIGHTING = Status.FIGHTING
_RESTARTABLE = (Character, Crew, Ship)
"""Agent kinds a ship battle's :meth:`~ShipBattle.reset` restores in whole."""


def _initiative_event(sides: list[Any], winner: int, choice: str, order: list[int]) -> Any:
    """The log fields of a round's ship initiative (actor ... outcome)."""
    outcome = (("result", choice), ("order", tuple([sides[i].name for i in order])))
    return sides[winner].name, "ship_initiative", None, (), (), outcome


def _wait(env: Any, seconds: int, held: Held) -> At | None:
    """The driver's wait of ``seconds``: with nothing but reloads due by then (``held``
    ones among them), they are played at once, the clock moved on and None returned
    (:func:`~fadad_agents.agents.ships.weapon_team.reloads_until`); otherwise the event on
    the clock to yield, the held reloads handed to its queue (a plain call, not a
    generator to ``yield from``: most rounds yield nothing)."""
    due = env._now + seconds
    if reloads_until(env, due, held):
        return None
    return At(env, int(due - env._now), Phase.ROUND)  # (whole seconds)


def ship_round_seconds(hex_yards: int) -> int:
    """Seconds of a ship round on hexes of ``hex_yards``: 50 yd -> 6 s, 500 yd -> 60 s."""
    return PERSONAL_SECONDS * max(1, round(hex_yards / 50))


class ShipBattle(ShipBattleState):
    """A battle with ships: ship rounds, deck fights inside them, ships' own morale."""

    _set_up: tuple[dict[int, Ship], dict[Any, bool], dict[int, list[Any]]] | None = None
    """Who stood on which deck, the debris and the spells' uses when set-up ended."""
    reload_begins: list[Reload] | None = None
    """While the ship phase runs, the reloads whose start it owes (:class:`Reload`)."""
    _restartable = False
    """Its people all characters and crews, every ship's policies stateless (set-up facts,
    asked by every reset: looked at once, as set-up ends)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.deck_orders: dict[int, tuple[tuple[Combatant, ...], TurnOrder]] = {}
        """Each deck's last fighters and the order of their bands (:func:`~fadad_agents.
        engine.ships.deck.deck_round`), kept across resets: set-up facts alone make it."""

    # --- set-up and reset --------------------------------------------------------------

    def sight_newcomers(self) -> None:
        """Ships without a ``position`` are sighted by the encounter roll (SJ 15: 1d10+10
        hexes away, 1d6 direction) from the first placed ship of another side, facing it."""
        placed = {s.name for s in self.ships if s.spec.position is not None}
        for ship in self.ships:
            if ship.name in placed:
                continue
            anchor = next((s for s in self.ships if s.name in placed and s.side != ship.side), None)
            if anchor is None:
                anchor = next((s for s in self.ships if s.name in placed), None)
            if anchor is None:
                placed.add(ship.name)
                continue
            enc = roll_encounter(self.close_rng)
            direction = (anchor.facing + enc.side) % 6
            where = anchor.hex + DIRECTIONS[direction] * enc.distance
            self.place(ship, where, direction_to(where, anchor.hex))
            ship.memory["sighted_by"] = anchor
            self.record(
                ship.name,
                "encounter",
                anchor.name,
                (),
                (),
                (("result", f"sighted {enc.distance} hexes off"), ("distance", enc.distance)),
            )
            placed.add(ship.name)

    def open_scene(self) -> None:
        """The end of set-up, everyone aboard: ships of different sides in one hex lashed
        together (boarders may cross in round 1), crews counted and put on the guns, the
        newcomers' looks (:meth:`_reaction`)."""
        if self._set_up is None:
            spells = {k: [list(pair) for pair in v] for k, v in self._spells.items()}
            self._set_up = (dict(self._deck), dict(self.debris), spells)
            self._restartable = all(
                type(m) in _RESTARTABLE for side in self.sides for m in side.members
            ) and all(s.start_policies.shareable for s in self.ships)
        fleet = self.ships
        for a in fleet:
            for b in fleet:
                if a.side < b.side and a.hex == b.hex:
                    self.lash(a, b)
        for ship in fleet:
            ship.crew_start = self.own_heads(ship)
        self.refresh_crews()
        for ship in fleet:
            if "sighted_by" in ship.memory:
                self._reaction(ship)

    def _reaction(self, ship: Ship) -> None:
        """How the newcomer looks to the ship that sights her (SJ 15, by appearance).

        PROPOSED: crews armed (``sj.crews_start_armed``); weapons loaded as they stand
        (``sj.weapons_start_loaded``);
        "packed to the gunwales" = at least twice the minimum crew on deck
        (``sj.packed_crew_factor``), or her whole ``max_crew`` when she holds fewer.
        """
        sj = self.options.sj
        loaded = sum(t.loaded for t in ship.teams)
        packed = sj.packed_crew_factor * ship.min_crew
        if ship.spec.max_crew is not None:
            packed = min(packed, ship.spec.max_crew)
        massed = self.crew_heads_home(ship) >= packed
        seen = reaction_from_appearance(loaded, len(ship.teams), sj.crews_start_armed, massed)
        sighted_by = ship.memory["sighted_by"].name
        self.record(ship.name, "reaction", sighted_by, (), (), (("result", seen),))

    @property
    def resettable(self) -> bool:
        """Whether :meth:`reset` can start this battle again: never stepped by Mesa, its
        people characters and crews, every ship's policies stateless."""
        return self._set_up is not None and self.steps == 0 and self._restartable

    def reset(self, seed: int, *, collect: bool = True) -> None:
        """Start again from set-up with ``seed``: the battle ``build_battle`` gives for the
        same scenario and seed (a test compares every attribute), without rebuilding it:
        :meth:`Battle.reset` for the sides and agents (ships among them), then the weapons
        back on the new clock, everyone on the deck they started on, newcomers sighted
        again and the scene opened as set-up opens it.

        Raises:
            BattleStateError: the battle is not :attr:`resettable`.
        """
        super().reset(seed, collect=collect)
        assert self._set_up is not None
        decks, debris, spells = self._set_up
        self.log.round_seconds = self.round_seconds
        self._play_state()
        self.debris = dict(debris)
        self._spells = {k: [list(pair) for pair in v] for k, v in spells.items()}
        unloaded = not self.options.sj.weapons_start_loaded
        for ship in self.ships:
            for team in ship.teams:  # (a lost ship's weapons stay Mesa's agents)
                team.restart(self.env)
                if unloaded:
                    team.start_unloaded()
        self.sight_newcomers()
        self._deck = dict(decks)
        self._aboard = {s.unique_id: [] for s in self.ships}
        for member in self._people:
            deck = decks[member.unique_id]
            self._aboard[deck.unique_id].append(member)
            member.position = deck.position
            self.foreign_decks |= member.side != deck.side  # as move_aboard notes it
        self.open_scene()

    # --- the ship round ----------------------------------------------------------------

    def _driver(self) -> Any:
        env = self.env
        # The ends of the reloads begun below, held off the clock's queue until a wait
        # plays them or hands them to it (reloads_until: every yield below follows one
        # that said False). None is due once a round's wait is over: each ends a round
        # or more after the phase that began it, and the wait plays those due by then.
        held: Held = []
        while True:
            # The reloads the phase's shots start begin as it ends, where their own URGENT
            # events would have run (the step's end: nothing comes between, Reload).
            begins: list[Reload] = []
            self.reload_begins = begins
            self._ship_phase()
            self.reload_begins = None
            for reload in begins:
                reload.begin(held)
            # Two sides meet on a deck only once someone stands on another side's ship (most
            # rounds of most battles: nobody does, and no deck is scanned).
            decks = [s for s in self.ships if self._contested(s)] if self.foreign_decks else None
            if decks:
                yield from self._deck_fights(decks, held)
            else:  # (most rounds)
                wait = _wait(env, self.round_seconds, held)
                if wait is not None:
                    yield wait
            self._end_of_round()
            if self._close_round():
                return
            # Let that step() return, and whatever else is due now (a reload done this
            # instant) happen, before the next round begins; with nothing due now the
            # pause would change nothing, so a played-through battle skips it, and with
            # only reloads due they are played here (reloads_until). (The queue read as
            # env.peek() reads it: SimPy's heap of (time, priority, id, event).)
            queue = env._queue
            if queue and queue[0][0] <= env._now and not reloads_until(env, env._now, held):
                yield At(env, 0, Phase.ROUND)

    def _deck_fights(self, decks: list[Ship], held: Held) -> Any:
        """Six-second personal rounds on ``decks``, where two sides meet (``held``: the
        driver's reload ends, :func:`_wait`)."""
        env = self.env
        for deck in decks:
            self._announce(deck)
        steps = self.round_seconds // PERSONAL_SECONDS
        for _ in range(steps):
            wait = _wait(env, PERSONAL_SECONDS, held)
            if wait is not None:
                yield wait
            decks = [s for s in decks if deck_round(self, s)]
            if self.crews_changed:
                self.refresh_crews()
        rest = self.round_seconds - steps * PERSONAL_SECONDS
        if rest:
            wait = _wait(env, rest, held)
            if wait is not None:
                yield wait

    def _contested(self, deck: Ship) -> bool:
        """Two sides fight on ``deck`` (a scan that stops at the second side: every ship,
        every round)."""
        first = None
        for m in self._aboard[deck.unique_id]:  # fighters_on(deck), without the list
            if m.status is not _FIGHTING:
                continue
            if first is None:
                first = m.side
            elif m.side != first:
                return True
        return False

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
        if self.thrown_down:  # (most rounds nobody was thrown off his feet: no call)
            stand_up(self)
        ship_helm.check_helmsmen(self)
        if self.crews_changed or self.recount_due:  # else the count stands
            self.refresh_crews()
        ships = [s for s in self.ships if s.fighting]
        self.start_hex = start_hex = {}
        for s in ships:
            start_hex[s] = s.hex
            s.memory["last_speed"] = s.speed  # a counter-ram strikes at it (SJ 9)
        order = self._movement_order(ships)
        self.turn_order = order
        recall_prize_crews(self)
        for ship in order:
            if ship.grapples:  # most ships most rounds: none alongside
                self._board_from(ship)
        if self.crews_changed:
            self.refresh_crews()
        for ship in order:
            if ship.fighting:
                ship_turn.ship_turn(self, ship)

    def _expire_effects(self) -> None:
        for ship in self.ships:
            if not ship.effects or not ship.fighting:  # (most ships most rounds)
                continue
            now, kept = int(self.env.now), []
            for e in ship.effects:
                if e.until is not None and e.until <= now:
                    self.record(ship.name, "recover", None, (), (), (("result", f"{e.kind} ends"),))
                elif e.until is None and passes(
                    e.recovery,
                    self._repair_skill(ship, e.kind),
                    self.crit_rng,
                    self.options.engine.ladder_d20_bonus,
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
        lead: dict[int, Ship] = {}  # each side's first ship
        for s in ships:
            lead.setdefault(s.side, s)
        ranking = roll_side_initiative(sorted(lead), self.ship_init_rng)
        self.initiative_side = ranking[0] if ranking else None
        choices = [
            lead[side].ship_policies.maneuver.move_order(lead[side], self) for side in ranking
        ]
        order = movement_order(ranking, choices)
        if ranking:  # every round: the log fields are made only if the log is read
            self.defer(_initiative_event, (self.sides, ranking[0], choices[0], order))
        if len(ships) == len(order):  # one ship a side: no ship to gather by side
            return [lead[side] for side in order]
        return [s for side in order for s in ships if s.side == side]

    def _board_from(self, ship: Ship) -> None:
        if not ship.fighting:
            return
        policy = ship.ship_policies.boarding
        for foe in sorted(ship.grapples, key=lambda s: s.unique_id):
            since = self.grappled_since(ship, foe)
            if since is None or since >= self.round or not (foe.fighting or self.holds_out(foe)):
                continue
            if policy.board(ship, foe, self):
                ship_close.board(self, ship, foe)

    def _end_of_round(self) -> None:
        for ship in self.ships:
            if ship.fire_list and ship.fighting:  # most rounds no fire: the cheap test first
                burn_fires(self, ship)
                breathe(self, self.fighters_on(ship))
        if self.crews_changed:
            self.refresh_crews()
        ship_morale.end_of_round(self)
        if self.datacollector is not None:  # a sweep's battles keep no round data
            self._collect()

    def _collect(self) -> None:
        """One row of round data, as the personal driver keeps it (a battle collecting)."""
        collector = self.datacollector
        assert collector is not None
        row_of = getattr(self, "round_row", None)
        if row_of is not None:
            collector.add_table_row("rounds", row_of())
        else:
            collector.collect(self)

    def _finish(self) -> None:
        ship_aftermath.log_repairs(self)
        ship_aftermath.log_incapacitated(self)
        super()._finish()

    def step(self) -> None:
        """One ship round."""
        self.play_round()
