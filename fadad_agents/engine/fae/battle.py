"""FaeBattle: the 10-second Fae Domains turn on the battle clock, alone or beside FADAD rounds.

``fae-domains.md`` section 2 with ``CONFLICTS.md`` C-01 and C-23. One driver process
keeps both cadences on the one SimPy clock:

* every 10 s a Fae turn starts: each Fae combatant makes its Reaction test (logged in
  set-up order); the top margin acts at 0 s into the turn and margin ``m`` at
  ``10 * (top - m) / (top + 1)`` s (``rules.fae.action_offset``). Each combatant is a
  SimPy process that sleeps until its count's time, acts, pays 25 or 50 from its margin
  and sleeps again; a dodge or block spent meanwhile lowers the margin, so the process
  wakes, sees the later time and sleeps on. Same-time actions are ordered by an explicit
  priority (higher Reaction attribute first), never by FIFO luck or the order of the file.
* equal margins and equal Reaction attributes act simultaneously (section 2): "the effects
  of each action applied after both characters act". A fighter taken out by a blow struck
  at its own count falls after it has acted (mutual kills possible), and a defence it makes
  against such a blow is paid after its own action, so the blow cannot cost it the action
  it takes at that very count. The tied fighters' blows are resolved one after another in
  an order drawn by lot each turn (stream ``fae_ties``); every other effect of one on the
  other (a disarm, a hold) follows that order (PROPOSED), which keeps the odds the same
  whichever side the file lists first.
* in mixed scenes FADAD personal rounds still fall every 6 s; the clocks line up every
  ``sync_period(6, 10) == 30`` s (5 rounds = 3 turns). At a shared instant the FADAD
  round plays first, then the Fae turn ends, then the next Fae turn starts.
* flyers that took no flight action glide at margin 0 (``rules.fae.glide_offset``) and
  may fly into fighters or the map's :attr:`FaeBattle.obstacles`;
  delayed deaths are timed callbacks (:meth:`FaeBattle.after`).

Times inside a turn are exact fractions of a second on ``env.now``; log events keep
whole seconds in ``time`` and carry the exact time in ``outcome.at``.

``step()`` advances to the next tick of either clock; ``round`` counts Fae turns in a
pure Fae battle and FADAD rounds in a mixed one (``fae_turn`` always counts turns).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import simpy

from fadad_agents.agents.core.base import Combatant
from fadad_agents.agents.fae.actions import take_action
from fadad_agents.agents.fae.facing import face_nearest_foes
from fadad_agents.agents.fae.holds import release
from fadad_agents.agents.fae.leaving import check_morale
from fadad_agents.agents.fae.mount import part
from fadad_agents.agents.fae.moves import end_turn_glide
from fadad_agents.engine.core.battle import ROUNDS_TABLE, Battle
from fadad_agents.engine.core.clock import PERSONAL_ROUND_SECONDS, At, Phase
from fadad_agents.engine.fae.log import fae_text  # noqa: F401  (registers narrators)
from fadad_agents.policies.core.protocols import MoraleChoice
from fadad_agents.rules.fae.checks import FAE_TURN_SECONDS, action_offset, glide_offset, sync_period
from fadad_agents.schema.scenario import Obstacle

__all__ = ["FAE_ACTION", "FAE_TURN_END", "FAE_TURN_START", "TIMER", "FaeBattle"]

TIMER = int(Phase.ACTIONS_DONE)
"""Timed callbacks (delayed deaths) due at an instant run before that instant's rounds."""
FAE_TURN_END = int(Phase.ROUND) + 1
"""A Fae turn ends after a FADAD round falling at the same instant."""
FAE_TURN_START = FAE_TURN_END + 1
"""The next turn starts after the step that ended the last one has returned."""
FAE_GLIDE = FAE_TURN_START + 1
FAE_ACTION = 10
"""Base priority of Fae actions; + (1000 - Reaction) * 100000 + this turn's lot."""


class FaeBattle(Battle):
    """A battle with Fae Domains combatants (and maybe FADAD ones) on one clock."""

    def __init__(
        self, side_names: Sequence[str], *, obstacles: Sequence[Obstacle] = (), **kwargs: Any
    ) -> None:
        super().__init__(side_names, **kwargs)
        self.obstacles: tuple[Obstacle, ...] = tuple(obstacles)
        """The map's trees and towers an end-of-turn glide may fly into (section 6)."""
        self.fae_turn = 0
        self.turn_start: Fraction = Fraction(0)
        self.top_margin = 0
        self.fae_members: list[Any] = []
        self._acting: tuple[Fraction, int, int] | None = None
        self._lots: dict[int, int] = {}
        self._in_fae = False  # a Fae action, glide or timer is being played

    # --- set-up and the view agents use -------------------------------------------------

    def enlist(self, member: Combatant) -> Combatant:
        """Enlist; Fae combatants are kept out of the FADAD initiative (their turn drives them)."""
        super().enlist(member)
        if member.kind == "fae":
            self.leave_initiative(member)
            self.fae_members.append(member)
        return member

    @property
    def mixed(self) -> bool:
        """FADAD combatants fight beside the Fae ones (6-s rounds and 10-s turns)."""
        return self.has_initiative

    @property
    def period(self) -> int:
        """Seconds after which the clocks line up again (C-01): 30 mixed, else 10."""
        return sync_period(PERSONAL_ROUND_SECONDS, FAE_TURN_SECONDS) if self.mixed else 10

    @property
    def now(self) -> Fraction:
        """The exact sim time."""
        now: Any = self.env.now  # (simpy types it a float: a Fraction once a turn began)
        return now if now.__class__ is Fraction else Fraction(now)

    def after(self, seconds: Fraction | int, name: str, fn: Callable[[], None]) -> None:
        """Call ``fn()`` ``seconds`` from now unless the battle has ended by then."""

        def timer() -> Any:
            yield At(self.env, seconds, TIMER)
            if not self.finished:
                self._in_fae = True
                fn()
                self._maybe_end()
                self._in_fae = False

        self.env.process(timer())

    # --- the Fae turn ---------------------------------------------------------------------

    def _start_turn(self) -> None:
        self.fae_turn += 1
        if not self.mixed:
            self.round = self.fae_turn
        self.turn_start = self.now
        acting = [m for m in self.fae_members if m.fighting]
        if self.fae_turn == 1:  # no facing in the stat block: toward the nearest foe
            face_nearest_foes(acting, self)
        margins = {id(m): m.reaction_test(self) for m in acting}
        lots = list(range(len(acting)))
        self.streams.get("fae_ties").shuffle(lots)
        self._lots = {id(m): lot for m, lot in zip(acting, lots, strict=True)}
        self.top_margin = max((v for v in margins.values() if v is not None), default=0)
        for m in acting:
            if margins[id(m)] is not None:
                self.env.process(self._combatant(m, self.turn_start, self.top_margin))
            if m.fly_mr or m.stats.can_glide:
                self.env.process(self._glide(m, self.turn_start, self.top_margin))

    def _priority(self, m: Any) -> int:
        """Same instant: higher Reaction attribute first, then this turn's lot (ties)."""
        return FAE_ACTION + (1000 - min(int(m.reaction), 999)) * 100_000 + self._lots[id(m)]

    def _combatant(self, m: Any, start: Fraction, top: int) -> Any:
        """One combatant's actions this turn, each at its margin's time (C-23)."""
        prio = self._priority(m)
        turn = self.fae_turn
        woke: Fraction | None = None
        while m.fighting and not self.finished and self.fae_turn == turn:
            margin = m.margin
            if margin is None or (margin <= 0 and m.spent):
                return
            due = start + action_offset(max(margin, 0), top)
            if woke != due:  # always wake through the priority event, even at 0 s
                yield At(self.env, due - self.now, prio)
                woke = due
                continue
            before = (m.margin, m.spent)
            self._acting, self._in_fae = (self.now, margin, int(m.reaction)), True
            take_action(m, self)
            self._acting = None
            m.memory["acted_at"] = self.now
            m.pay_deferred()
            if m.fighting and (m.margin, m.spent) == before:
                m.spend("short")  # every action costs something: no endless loop at one count
            pending = m.memory.pop("pending_out", None)
            if pending is not None:
                self._out(m, pending)
            ended = self._maybe_end()
            self._in_fae = False
            if ended:
                return

    def record(
        self,
        actor: str,
        action: str,
        target: str | None,
        dice: tuple[tuple[str, Any], ...],
        modifiers: tuple[tuple[str, Any], ...],
        outcome: tuple[tuple[str, Any], ...],
    ) -> None:
        """Append an event; in a mixed scene one that a Fae action causes (a fighter struck
        down, the end of the battle) carries the Fae turn and exact time, so it reads
        ``Turn 1 (0:04.2)``, not as a FADAD round that has not begun (``Round 0``)."""
        if self.mixed and self._in_fae and all(k != "at" for k, _ in outcome):
            outcome = (*outcome, ("at", round(float(self.now), 3)), ("turn", self.fae_turn))
        super().record(actor, action, target, dice, modifiers, outcome)

    def simultaneous(self, member: Any) -> bool:
        """``member`` has yet to act at this very instant, with the same margin and Reaction
        as the one acting now: their actions are simultaneous (section 2)."""
        act = self._acting
        return (
            act is not None
            and member.kind == "fae"
            and member.fighting
            and member.memory.get("acted_at") != act[0]
            and (getattr(member, "margin", None), int(member.reaction)) == act[1:]
            and not (member.spent and act[1] <= 0)
        )

    def take_out(self, member: Combatant, reason: str) -> None:
        """Out of the fight, unless ``member`` acts at this very instant with the same margin
        and Reaction as the striker: simultaneous actions take effect after both act
        (section 2; mutual kills possible)."""
        if self.simultaneous(member):
            member.memory["pending_out"] = reason
            return
        self._out(member, reason)

    def _out(self, member: Combatant, reason: str) -> None:
        """Out now; a rider's mount bolts, a fallen mount's rider is unhorsed, holds end."""
        super().take_out(member, reason)
        self._parted(member)

    def leave(self, member: Combatant, choice: MoraleChoice, reason: str) -> None:
        """Withdraw or surrender; a mount follows its rider, a rider is unhorsed."""
        super().leave(member, choice, reason)
        if not member.fighting:
            self._parted(member)

    def _parted(self, member: Combatant) -> None:
        part(member, self)
        if member.kind == "fae":  # a hold needs both fighters in the fight (section 4)
            release(member, self, "")
            if getattr(member, "holding", None) is not None:
                release(member.holding, self, "")

    def _glide(self, m: Any, start: Fraction, top: int) -> Any:
        due = start + glide_offset(top)
        yield At(self.env, due - self.now, FAE_GLIDE)
        if m.fighting and not self.finished:
            self._in_fae = True
            end_turn_glide(m, self)
            self._in_fae = False

    def _end_turn(self) -> None:
        for m in self.fae_members:  # band leads check morale when their policy asks
            if m.fighting and not self.finished:
                check_morale(m, self)
        if not self.mixed and self.datacollector is not None:
            self.datacollector.add_table_row(ROUNDS_TABLE, self.round_row())

    # --- the clock ------------------------------------------------------------------------

    def _maybe_end(self) -> bool:
        """After a Fae action: end the battle if a side is out (ends the driver too)."""
        if self.finished:
            return True
        standing = [s for s in self.sides if s.active]
        if len(standing) > 1 and not any(
            not s.active and self.side_out_kind(s) in self.stop.when_side for s in self.sides
        ):
            return False
        if not self.conclude_if_over():
            return False
        self.stop_driver()
        return True

    def round_driver(self) -> Any:
        """Both clocks in one process (the module docstring); ends early when interrupted."""
        return self._fae_driver()

    def _fae_driver(self) -> Any:
        try:
            yield from self._ticks()
        except simpy.Interrupt:
            return

    def _ticks(self) -> Any:
        fae = bool(self.fae_members)
        round_at: int | None = PERSONAL_ROUND_SECONDS if self.mixed else None
        turn_at = 0
        if fae:
            self._start_turn()
            turn_at = FAE_TURN_SECONDS
        while True:
            due = min(t for t in (round_at, turn_at if fae else None) if t is not None)
            yield At(self.env, due - self.now, int(Phase.ROUND))
            if self.finished:
                return
            if round_at == due:
                self.play_personal_round()
                round_at += PERSONAL_ROUND_SECONDS
            ended_turn = fae and turn_at == due
            if ended_turn:
                yield At(self.env, 0, FAE_TURN_END)
                self._end_turn()
            if self.conclude_if_over():
                return
            self.wake_step()
            if ended_turn:
                yield At(self.env, 0, FAE_TURN_START)
                self._start_turn()
                turn_at += FAE_TURN_SECONDS
