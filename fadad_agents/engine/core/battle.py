"""Battle: a Mesa model that owns a SimPy clock in whole seconds.

DESIGN.md (engine): ``env.now`` is the one clock (Mesa's own event scheduler is not
used). A personal-round driver process wakes every 6 seconds (personal-combat.md 1, C-01),
rolls initiative through the kernel and calls agents in the order of action
(:mod:`~fadad_agents.engine.core.turns`: highest initiative first, then higher trait;
bands tied on both act simultaneously): first every agent declares (step 1 of the
PROPOSED sequence), then each acts, then end-of-round checks run. Durative,
interruptible actions (first aid ...) are SimPy processes; same-instant work is ordered
by explicit :class:`Phase` priorities, never by scheduling luck. An agent leaving the
fight (taken out, withdrawn, surrendered) ends its processes; it stays one of the Mesa
model's agents, with a status saying how it left (a fallen fighter can still be tended).

A battle is played once: :meth:`Battle.run_to_end` on a finished battle raises
:class:`BattleStateError`; replay by building a new battle from (scenario, seed), or
:meth:`Battle.reset` it to the state such a new battle starts in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mesa
import simpy
from simpy.events import Event

from fadad_agents.agents.core.base import Band, Combatant, SideRoster, Status
from fadad_agents.agents.core.character import Character
from fadad_agents.agents.core.crowd.waiting import move_first
from fadad_agents.agents.core.field import Field, compiled
from fadad_agents.agents.core.groups import Crew, Group, Unit
from fadad_agents.agents.core.plain import round as plain_round
from fadad_agents.engine.core import clock as round_clock
from fadad_agents.engine.core.clock import (
    PERSONAL_ROUND_SECONDS,
    Clock,
    DurativeAction,
    Phase,
    RoundClock,
)
from fadad_agents.engine.core.ending import (
    BattleStateError,
    Ending,
    StopRule,
    end_summary,
    side_out_kind,
    verdict,
)
from fadad_agents.engine.core.log import BattleLog
from fadad_agents.engine.core.mesa_model import MesaModel
from fadad_agents.engine.core.rounds_table import ROUNDS_TABLE, RoundsTable
from fadad_agents.engine.core.space import OnTheField, settle
from fadad_agents.engine.core.streams import NamedStream, Streams, forget_named_streams
from fadad_agents.engine.core.turns import (
    SharedTurn,
    TurnOrder,
    act_each,
    act_in_order,
    play_shared,
)
from fadad_agents.policies.core.protocols import MoraleChoice
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal.combat import CombatRules

__all__ = [
    "PERSONAL_ROUND_SECONDS", "ROUNDS_TABLE", "Battle", "BattleStateError", "Ending", "Phase",
    "StopRule",
]  # fmt: skip

_OUT = Status.OUT
"""An enum member read off its class is an attribute look-up CPython 3.12 does not
specialise: one a take-out, as a module name."""

_RESTARTABLE = (Character, Crew, Unit)
"""Agent kinds whose :meth:`~Combatant.restart` restores their whole starting state."""


class Battle(RoundClock, MesaModel, OnTheField):
    """One battle: sides of agents, a SimPy clock, random streams, a log and round data.

    Build it, add agents (usually through :func:`fadad_agents.engine.build_battle`), then
    :meth:`step` one round at a time or :meth:`run_to_end`.
    """

    def __init__(
        self,
        side_names: Sequence[str],
        *,
        seed: int,
        options: RulesOptions | None = None,
        stop: StopRule | None = None,
        name: str = "battle",
        collect: bool = True,
    ) -> None:
        streams = Streams(seed)  # checks the seed before Mesa sees it
        # Mesa's own generators are not used for game dice (named streams are).
        super().__init__(rng=seed)
        self.name = name
        self.options = options or RulesOptions()
        self.combat_rules = CombatRules.of(self.options)
        self.stop = stop or StopRule()
        self.sides = [SideRoster(i, n) for i, n in enumerate(side_names)]
        self._bands: dict[int, Band] = {}
        self._turn_order: TurnOrder | None = None  # the bands' (_roll_call), made on first use
        self._checks_morale = True  # someone checks morale at the end of a round (_roll_call)
        self._acts = act_in_order  # how a turn's members act: act_each if none strikes in bulk
        self._foes_cache: dict[int, list[Combatant]] = {}
        self._restartable: bool | None = None  # every member restartable (resettable, once)
        self._end_outcomes: dict[tuple[Ending, int | None, int | None], Any] = {}  # _finish
        self.field: Field | None = None  # personal battles: engine.core.space.place_forces
        self._rounds = RoundsTable(self.sides)
        self._begin(streams, collect, BattleLog())

    def _begin(self, streams: Streams, collect: bool, log: BattleLog) -> None:
        """The state one play-through starts from (set-up and :meth:`reset` share it):
        streams, clock, log, round data, no ending yet."""
        self.seed = streams.seed
        self.streams = streams
        forget_named_streams(self)  # a reset's streams are new: each made on first use
        env = self.__dict__.get("env")
        if env is None:
            self.env = Clock()
        else:  # a reset: the clock of the play before, rewound
            env.rewind()
        self.log = log
        self.round = 0
        self.ending: Ending | None = None
        self.winner: int | None = None
        self.out_side: int | None = None
        self._started = False
        self._round_over: Event | None = None
        self._driver_process: simpy.Process | None = None
        self.held: list[tuple[Callable[..., Any], tuple[Any, ...]]] | None = None
        self.datacollector: mesa.DataCollector | None = None
        self._row_columns: list[list[Any]] | None = None
        if collect:
            direct = type(self).round_row is Battle.round_row
            self.datacollector, self._row_columns = self._rounds.collector(direct=direct)

    def reset(self, seed: int, *, collect: bool = True) -> None:
        """Start again from set-up with ``seed``: the state ``build_battle`` gives for the
        same scenario and seed (a test compares every attribute), without rebuilding.

        Streams re-seeded (named ones made anew on first use, Mesa's as ``Model(rng=seed)``
        seeds them), the clock rewound to 0, a new log and round data; every side at full
        strength; every agent back to its starting state on its re-seeded streams
        (:meth:`Combatant.restart`).
        Only for a battle of the personal engine (:attr:`resettable`;
        :mod:`fadad_agents.engine.core.recycle` resets small ones for ``run`` and sweeps); the
        previous play's result keeps its own log and round data.

        Raises:
            BattleStateError: the battle is not :attr:`resettable`.
        """
        if not self.resettable:
            raise BattleStateError(
                f"battle {self.name!r} cannot be reset (only personal battles of characters, "
                "crews and units, played by play_round or run_to_end, can); build a new one "
                "from the scenario and seed"
            )
        streams = self.streams
        streams.reseed(seed)  # the agents' streams re-seeded in place, named ones made anew
        if self.log.raw or not self.log.keeps:  # the play before's (play_through released
            self.release_log()  # its own), or one that kept none: a new log, the same names
        self._begin(streams, collect, self.log)
        self.reseed_mesa(seed)
        self.running = True
        self._foes_cache.clear()
        for side in self.sides:
            side.restart()
        for band in self._bands.values():
            band.memory = {}
        # a personal battle's fighters all strike: seeded now (but off the field, and for the
        # compiled melee, which seeds its own)
        whole = round_clock.whole_battles
        on_use = self.field is None or (whole is not None and whole.plays(self))
        targeting = streams.get("targeting", on_use=on_use)  # every agent's, as for_agent
        melee = streams.for_index
        for side in self.sides:
            for member in side.members:
                rng = melee("melee", member.index, member.rng, on_use)  # in order: ten a reset
                member.restart(rng, targeting)
                if isinstance(member, Group):
                    streams.morale_of(member.index, into=member.morale_rng)
        if self.field is not None:
            settle(self)

    def release_log(self) -> None:
        """Leave the log of the play just finished to its result alone, keeping an empty
        one with the same group names: a battle kept for its next play holds no old log,
        which goes with its result (while its entries are still in the cache), not at the
        next :meth:`reset`."""
        log = BattleLog()
        log.plural = set(self.log.plural)
        self.log = log

    @property
    def resettable(self) -> bool:
        """Whether :meth:`reset` can start this battle again: a personal battle of
        characters, crews and units (whose whole state restarts), never advanced by
        Mesa's :meth:`step` (Mesa's own clock is not rewound)."""
        if type(self) is not Battle or self.steps != 0:
            return False
        restartable = self._restartable
        if restartable is None:  # the same until an agent joins (enlist forgets it)
            members = (m for side in self.sides for m in side.members)
            restartable = self._restartable = all(type(m) in _RESTARTABLE for m in members)
        return restartable

    # The battle's named streams, each made on first use (ship decks roll their own).
    _init_rng = NamedStream("initiative")
    """The personal round's initiative dice."""
    movement_rng = NamedStream("movement")
    """The order a shared turn's movers move in (:func:`move_first`)."""
    morale_rng = NamedStream("morale")
    """The battle's morale stream."""

    # --- set-up -----------------------------------------------------------------------

    def enlist(self, member: Combatant) -> Combatant:
        """Put an agent (already created with this battle as model) on its side."""
        if self._started:
            raise BattleStateError("agents can only join before the first round")
        if isinstance(member, Unit) and len(member.band.members) == 1:
            member.band = self._unit_band(member.side)
            member.band.members.append(member)
        self.sides[member.side].add(member)
        self._bands.setdefault(id(member.band), member.band)
        self._turn_order = None
        self._restartable = None
        return member

    def _unit_band(self, side: int) -> Band:
        """All FADAD units of a side act on one initiative and strike together (C-23/A-47:
        group initiative for NPC groups)."""
        key = f"{self.sides[side].name} units"
        for band in self._bands.values():
            if band.name == key and band.side == side:
                return band
        return Band(key, side)

    # --- the view policies and agents read --------------------------------------------

    def foes(self, side: int) -> Sequence[Combatant]:
        """Active enemies of ``side`` (the other side's live list when there are two)."""
        sides = self.sides
        if len(sides) == 2:
            return sides[1 - side].active
        cached = self._foes_cache.get(side)
        if cached is None:
            cached = [m for s in sides if s.index != side for m in s.active]
            self._foes_cache[side] = cached
        return cached

    def friends(self, side: int) -> Sequence[Combatant]:
        """Active members of ``side``."""
        return self.sides[side].active

    def side_fraction(self, side: int) -> float:
        """Share of ``side``'s starting head count still fighting."""
        return self.sides[side].fraction

    def downed(self, side: int) -> Sequence[Combatant]:
        """Members of ``side`` taken out, in the order they fell."""
        return self.sides[side].downed

    # --- services agents call ---------------------------------------------------------

    def record(
        self,
        actor: str,
        action: str,
        target: str | None,
        dice: tuple[tuple[str, Any], ...],
        modifiers: tuple[tuple[str, Any], ...],
        outcome: tuple[tuple[str, Any], ...],
    ) -> None:
        """Append one event to the log at the current time and round (its fields as a
        plain tuple, made a :class:`LogEvent` when read; none if it keeps none)."""
        log = self.log
        if log.keeps:  # (env.now, without its property call: every event)
            log.raw.append(
                (int(self.env._now), self.round, actor, action, target, dice, modifiers, outcome)
            )

    def defer(self, make: Callable[..., tuple[Any, ...]], args: tuple[Any, ...]) -> None:
        """Append an event at the current time and round whose other fields ``make(*args)``
        returns when the log is read (:meth:`BattleLog.defer`; hot: one per swing)."""
        log = self.log
        if log.keeps:
            log.raw.append((int(self.env._now), self.round, make, *args))  # (as record)

    def _deactivate(self, member: Combatant, status: Status, off_field: bool = True) -> SideRoster:
        """Take ``member`` off its side's live list (and, ``off_field``, the field) with
        ``status``; its side."""
        roster = self.sides[member.side]
        roster.strength -= member.headcount
        roster.deactivate(member)
        member.leave_fight(status)
        if self._foes_cache:  # kept only with three sides or more (foes)
            self._foes_cache.clear()
        if off_field and member.placed and self.field is not None:
            self.field.remove(member)
        return roster

    def take_out(self, member: Combatant, reason: str) -> None:
        """Wounds or losses put ``member`` out of the fight; its processes end (at the end
        of a simultaneous turn, if one is being played)."""
        held = self.held
        if held is not None:
            held.append((self.take_out, (member, reason)))
            return
        if not member.fighting:
            return
        self._deactivate(member, _OUT).downed.append(member)
        log = self.log
        if log.keeps:
            log.outs.append(len(log.raw))  # BattleLog.append's note, as record skips it
            self.record(member.name, "out", None, (), (), (("result", reason),))

    def casualties(self, member: Combatant, lost: int) -> int:
        """A group loses up to ``lost`` members; wiped out at zero. Returns the loss."""
        taken = int(member.lose(lost))
        self.sides[member.side].strength -= taken
        if member.headcount == 0 and member.fighting:
            self.take_out(member, "wiped out")
        return taken

    def leave(self, member: Combatant, choice: MoraleChoice, reason: str) -> None:
        """``member`` withdraws (a group routs) or surrenders; logged with the reason (at
        the end of a simultaneous turn, if one is being played)."""
        if self.held is not None:
            self.held.append((self.leave, (member, choice, reason)))
            return
        if not member.fighting or choice is MoraleChoice.HOLD:
            return
        if choice is MoraleChoice.SURRENDER:
            status, action = Status.SURRENDERED, "surrender"
        else:
            status = Status.WITHDRAWN if member.initial_headcount == 1 else Status.ROUTED
            action = "withdraw"
            self.sides[member.side].routed += member.headcount
        self._deactivate(member, status)
        self.record(
            member.name, action, None, (), (), (("result", status.value), ("reason", reason))
        )

    def start_action(
        self, member: Combatant, name: str, seconds: int, on_done: Callable[[], None]
    ) -> None:
        """Run a durative action for ``seconds``; ``on_done()`` unless interrupted first
        (logged as interrupted, with the cause)."""

        def interrupted(cause: str) -> None:
            outcome = (("result", "interrupted"), ("cause", cause))
            self.record(member.name, name, None, (), (), outcome)

        action = DurativeAction.start(self.env, seconds, on_done, interrupted)
        member.processes.append(action)

    # --- the round --------------------------------------------------------------------

    def initiative(self) -> list[Combatant]:
        """Roll initiative; the fighters in the order of action (:meth:`initiative_turns`)."""
        return [m for turn in self.initiative_turns() for m in turn]

    def initiative_turns(self) -> list[Sequence[Combatant]]:
        """Roll initiative (one roll per band) and return the turns of the round, bands
        tied on initiative and trait sharing one (:func:`~fadad_agents.engine.core.turns.
        roll_turns`, by the bands' :class:`~fadad_agents.engine.core.turns.TurnOrder`)."""
        order = self._turn_order
        if order is None:
            order = self._roll_call()
        return order.roll(self._init_rng, self.options.fadad.initiative)

    def _roll_call(self) -> TurnOrder:
        """The bands' turn order, whether anyone checks morale, and whether a band of
        units strikes in bulk: the same every round from the first on (agents join only
        before it), so found once, not each round."""
        bands = [band.members for band in self._bands.values()]
        self._checks_morale = any(m.checks_morale for b in bands for m in b)
        # a band's units found among its few kinds (a band of 10,000 characters: one)
        bulk = any(
            len(b) > 1 and any(issubclass(k, Unit) for k in {type(m) for m in b}) for b in bands
        )
        self._acts = act_in_order if bulk else act_each
        order = self._turn_order = TurnOrder(bands)
        return order

    def _play_round(self) -> None:
        self.round += 1
        whole = round_clock.whole_battles
        if whole is None or not whole.play_round(self):  # else in compiled code
            self._play_turns()
        if self._row_columns is not None:
            self._rounds.append(self._row_columns, self.round, int(self.env.now))
        elif self.datacollector is not None:
            self.datacollector.add_table_row(ROUNDS_TABLE, self.round_row())

    def _play_turns(self) -> None:
        """The round's initiative, declares, acts and end-of-round checks, in Python."""
        turns = self.initiative_turns()
        field = self.field
        if compiled.counting and field is not None and not field.all_touching:
            compiled.played(turns)  # numba loaded once the field's Python paths cost as much
        # Declare, then act, then end-of-round checks, each in the order of action.
        if plain_round.PLAIN_ROUNDS:  # plain fighters in one loop, others by their methods
            plain_round.play_round(self, turns, SharedTurn, self._play_turn)
        else:
            for turn in turns:
                for member in turn:
                    if member.fighting:
                        member.declare(self)
            for turn in turns:
                self._play_turn(turn)
        if self._checks_morale:
            for turn in turns:
                for member in turn:
                    if member.checks_morale and member.fighting:
                        member.end_round(self)

    def _play_turn(self, turn: Sequence[Combatant]) -> None:
        """The act step of one turn: a shared one together (its movers first), a band's
        members one by one or, units, in bulk."""
        if type(turn) is SharedTurn:
            if self.field is not None:
                move_first(turn, self)
            play_shared(turn, self, self, self._act)
        elif len(turn) == 1:
            member = turn[0]
            if member.fighting:
                member.act(self)
        else:
            self._acts(turn, self)

    def _act(self, order: Sequence[Combatant]) -> None:
        self._acts(order, self)

    def round_row(self) -> dict[str, int]:
        """This round's aggregates: per side strength, wounded (Hurt or worse), routed."""
        return self._rounds.row(self.round, int(self.env.now))

    def _check_end(self) -> bool:
        """Whether the battle is over now (:func:`~fadad_agents.engine.core.ending.verdict`);
        if so, its ending, winner and losing side are set."""
        sides = self.sides
        # Most rounds: both sides fight on, so only the stop rule can end the battle (the
        # verdict says the same, found here without it).
        if (
            len(sides) == 2
            and sides[0].active
            and sides[1].active
            and not self.stop.reached(self.round, self.env._now)  # (env.now, every round)
        ):
            return False
        found = verdict(sides, self.stop, self.round, self.env.now)
        if found is None:
            return False
        self.ending, self.winner, self.out_side = found
        return True

    def _finish(self) -> None:
        assert self.ending is not None
        key = self.ending, self.winner, self.out_side
        outcome = self._end_outcomes.get(key)
        if outcome is None:  # the sides' names are set: one text per way to end, made once
            text = end_summary([s.name for s in self.sides], *key)
            outcome = self._end_outcomes[key] = (("result", text), ("ending", str(self.ending)))
        self.running = False
        self.record("battle", "end", None, (), (), outcome)

    # --- hooks for subclasses that drive other clocks (engine.fae_battle) --------------

    def play_personal_round(self) -> None:
        """Play one FADAD personal round now: initiative, declare, act, end of round."""
        self._play_round()

    def side_out_kind(self, roster: SideRoster) -> str:
        """How a side that left the fight went: surrendered, routed or destroyed."""
        return side_out_kind(roster)

    def conclude_if_over(self) -> bool:
        """The end checks (a side out, the stop rule); when over, log the end and wake a
        waiting :meth:`play_round`. Returns whether the battle has ended."""
        if not self._check_end():
            return False
        self._finish()
        self.wake_step()
        return True

    def leave_initiative(self, member: Combatant) -> None:
        """Keep ``member``'s band out of the FADAD initiative (another clock drives it)."""
        self._bands.pop(id(member.band), None)
        self._turn_order = None

    @property
    def has_initiative(self) -> bool:
        """Some band rolls FADAD initiative (personal rounds have someone to play)."""
        return bool(self._bands)
