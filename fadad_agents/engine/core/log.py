"""The battle log: one frozen event per resolution, rendered as a table, JSON lines or prose.

DESIGN.md (engine): every resolution appends a structured event (time, round, actor,
action, target, dice, modifiers, outcome). The same log renders as a pandas DataFrame
for analysis, as JSON lines (byte-identical for the same scenario and seed) and as
narrated text a game master can read aloud::

    Round 3 (0:18) Snorri's swing is Great; Brynhild's block Good; hit by 1, damage 6:
    Very Hurt.

Appending is the only hot-path operation: one plain tuple (the event's fields, or for a
melee swing the deferred parts of one) and a list append; the named tuples are made when
the log is read. pandas is imported only when a DataFrame is asked for.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Container, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from fadad_agents.agents.core.blows import attack_event
from fadad_agents.rules.core.ladder import label
from fadad_agents.schema.text import escaped

if TYPE_CHECKING:
    import pandas as pd

_new_event = tuple.__new__  # what LogEvent(*fields) runs, without its __new__'s call layer

__all__ = [
    "BattleLog", "LogEvent", "agree", "clock", "morale_words", "narrate", "narrator_of",
    "register_narrator",
]  # fmt: skip

type Pairs = tuple[tuple[str, Any], ...]


class LogEvent(NamedTuple):
    """One resolution in the battle (an immutable named tuple: cheap to make, frozen).

    Attributes:
        time: simulation time in whole seconds (``env.now``).
        round: the personal round it happened in (0 before the first round).
        actor: name of the acting agent (or side, for battle-level events).
        action: what was resolved: ``attack``, ``out``, ``withdraw``, ``surrender``,
            ``morale``, ``volley``, ``first_aid``, ``initiative``, ``end``.
        target: name of the agent acted on, if any.
        dice: the dice read, as ``(name, value)`` pairs in a fixed order.
        modifiers: the modifiers applied, as ``(name, value)`` pairs.
        outcome: what came of it, as ``(name, value)`` pairs; ``result`` comes first.
    """

    time: int
    round: int
    actor: str
    action: str
    target: str | None
    dice: Pairs
    modifiers: Pairs
    outcome: Pairs

    @property
    def result(self) -> Any:
        """The headline outcome (``hit``, ``miss``, ``Very Hurt``, ``breaks`` ...)."""
        return self.outcome[0][1] if self.outcome else None

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping with a fixed key order."""
        return {
            "time": self.time,
            "round": self.round,
            "actor": self.actor,
            "action": self.action,
            "target": self.target,
            "dice": dict(self.dice),
            "modifiers": dict(self.modifiers),
            "outcome": dict(self.outcome),
        }

    def flat(self) -> dict[str, Any]:
        """One flat row: ``dice.attack``, ``outcome.rd`` ... (for DataFrames)."""
        row: dict[str, Any] = {
            "time": self.time,
            "round": self.round,
            "actor": self.actor,
            "action": self.action,
            "target": self.target,
            "result": self.result,
        }
        for prefix, pairs in (("dice", self.dice), ("mod", self.modifiers)):
            for key, value in pairs:
                row[f"{prefix}.{key}"] = value
        for key, value in self.outcome[1:]:
            row[key] = value
        return row


def clock(seconds: int) -> str:
    """Sim time as ``m:ss`` (``h:mm:ss`` past an hour): ``clock(18) == "0:18"``."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _own(name: str | None) -> str:
    """English possessive: ``Snorri's``, ``the sailors'``."""
    name = name or ""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _attack_text(e: LogEvent) -> str:
    o = dict(e.outcome)
    verb, block = o.get("verb", "attack"), o.get("defence_verb", "defence")
    text = f"{_own(e.actor)} {verb} is {label(o['attack'])}; "
    if o.get("defended", True):
        text += f"{_own(e.target)} {block} {label(o['defence'])}"
    else:
        text += f"{e.target} undefended (Target {label(o['defence'])})"
    if not o["hit"]:
        return text + "; no hit."
    text += f"; hit by {o['rd']}"
    if o.get("crits"):
        text += f" ({o['crits']} crit{'s' if o['crits'] > 1 else ''}"
        effects = o.get("crit_effects")
        text += f": {', '.join(effects)})" if effects else ")"
    text += f", damage {o['damage']}: {o['wound']}"
    if "taken" in o:
        return text + f", taken as {o['taken']}."
    if "now" in o:
        return text + f", now {o['now']}."
    if "dc" in o:
        return text + f", Damage Capacity now {o['dc']}."
    return text + "."


def _simple(template: str) -> Callable[[LogEvent], str]:
    def render(e: LogEvent) -> str:
        return template.format(e=e, o=dict(e.outcome), m=dict(e.modifiers), d=dict(e.dice))

    return render


def morale_words(e: LogEvent) -> str:
    """What every morale check says after "checks morale": its trigger, the roll, what it
    had to reach and why, the result ("(25% losses): 2d10 14 against 9 (morale 11, crew
    loss 25 -2): breaks.", or on the ladder "morale Poor + 4dF -1 = Terrible against
    Fair"). Characters, crews, units and ships' crews all read alike."""
    o, m = dict(e.outcome), dict(e.modifiers)
    head = f"({o['check']}): "
    if not e.dice:  # a check the rules roll inside another action (the unit damage table)
        return f"{head}{o['result']}."
    (name, roll), base = e.dice[0], m.pop("morale", 0)
    if name == "4dF":
        return (
            f"{head}morale {label(base)} + 4dF {roll:+d} = {label(base + roll)} against "
            f"{label(o['target'])}: {o['result']}."
        )
    mods = "".join(f", {k.replace('_', ' ')} {v:+d}" for k, v in m.items())
    return f"{head}{name} {roll} against {o['target']} (morale {base}{mods}): {o['result']}."


_GAIT_VERBS = {"walk": "walks", "jog": "jogs", "run": "runs"}


def _move_text(e: LogEvent) -> str:
    o = dict(e.outcome)
    toward = f" toward {e.target}" if e.target else ""
    return f"{e.actor} {_GAIT_VERBS.get(o['result'], 'moves')} {o['yards']:g} yd{toward}."


def _shoot_text(e: LogEvent) -> str:
    o = dict(e.outcome)
    where = f"at {o['yards']:g} yd ({str(o['band']).replace('_', ' ')})"
    aimed = f"{_own(e.target)} {o['aim']}" if "aim" in o else e.target
    text = f"{e.actor} shoots at {aimed} {where}: {label(o['attack'])}; "
    if o["defended"]:
        text += f"{_own(e.target)} {o['defence_verb']} {label(o['defence'])}"
    else:
        unaware = "" if o["aware"] else ", unaware"
        text += f"{e.target} undefended{unaware} (Target {label(o['defence'])})"
    if not o["hit"]:
        return text + "; no hit."
    text += f"; hit by {o['rd']}, damage {o['damage']}: {o['wound']}"
    return text + (f", taken as {o['taken']}." if "taken" in o else ".")


def _ready_text(e: LogEvent) -> str:
    o = dict(e.outcome)
    return f"{e.actor} readies a shot ({o['progress']} of {o['needed']} actions)."


def _morale_text(e: LogEvent) -> str:
    return f"{e.actor} checks morale {morale_words(e)}"


def _volley_text(e: LogEvent) -> str:
    o = dict(e.outcome)
    if "rd" in o:  # a FADAD unit attack
        if o["damage"] is None:
            return f"{e.actor} attack {e.target}: no hit (by {o['rd']})."
        text = f"{e.actor} attack {e.target}: hit by {o['rd']}, damage {o['damage']}"
        kind = str(o["result"]).replace("_", " ")
        if kind == "no effect" and not o["casualties"]:
            return text + f": no effect ({o['left']} left)."
        return text + f" ({kind}): {o['casualties']} down ({o['left']} left)."
    return (
        f"{e.actor} strike {e.target} with {dict(e.dice).get('d20s', 0)} d20s: "
        f"{o['hits']} hit{'s' if o['hits'] != 1 else ''}, {o['casualties']} down "
        f"({o['left']} left)."
    )


def _blast_text(e: LogEvent) -> str:
    o = dict(e.outcome)
    head = f"{_own(e.actor)} blast at {o['yards']:g} yd is {label(o['attack'])}"
    if not o["hit"]:
        return f"{head}: astray, {e.target} unharmed."
    if o["defended"]:
        how = f"{_own(e.target)} dodge {label(o['defence'])}"
    else:
        how = f"{e.target} caught (Target {label(o['defence'])})"
    return f"{head}; {how}; RD {o['rd']}, damage {o['damage']}: {o['wound']}."


_NARRATORS: dict[str, Callable[[LogEvent], str]] = {
    "attack": _attack_text,
    "out": _simple("{e.actor} is out of the fight ({o[result]})."),
    "withdraw": _simple("{e.actor} withdraws ({o[reason]})."),
    "surrender": _simple("{e.actor} surrenders ({o[reason]})."),
    "morale": _morale_text,
    "volley": _volley_text,
    "move": _move_text,
    "shoot": _shoot_text,
    "blast": _blast_text,
    "ready": _ready_text,
    "out_of_ammunition": _simple("{e.actor} has no shots left."),
    "dexterity": _simple("{e.actor} readies past two actions on a Dexterity roll: {o[result]}."),
    "first_aid": _simple("{e.actor} gives first aid to {e.target}: {o[result]}."),
    "crit_effect": _simple("{e.actor} is {o[result]} ({o[effect]})."),
    "crit_recovery": _simple("{e.actor} {o[result]}."),
    "stunned": _simple(
        "{e.actor} is {o[result]}: no attacks, {o[penalty]:+d} to defend, for this round "
        "and {o[rounds]} more."
    ),
    "ite_point": _simple(
        "{e.actor} spends an Ité point: {o[result]} instead of {o[instead_of]} ({o[left]} left)."
    ),
    "end": _simple("The battle ends: {o[result]}."),
}


def register_narrator(action: str, render: Callable[[LogEvent], str]) -> None:
    """Narrate events of ``action`` with ``render`` (other subsystems' events: Fae turns ...)."""
    _NARRATORS[action] = render


def narrator_of(action: str) -> Callable[[LogEvent], str] | None:
    """The narrator registered for ``action`` (to chain to it), or None."""
    return _NARRATORS.get(action)


_PLURAL_VERBS: dict[str, str] = {
    "is": "are",
    "has": "have",
    "checks": "check",
    "withdraws": "withdraw",
    "surrenders": "surrender",
    "gives": "give",
    "falls": "fall",
    "holds": "hold",
    "breaks": "break",
    "takes": "take",
    "flees": "flee",
    "rallies": "rally",
    "walks": "walk",
    "jogs": "jog",
    "runs": "run",
    "shoots": "shoot",
    "readies": "ready",
}
"""Singular verbs narrators write after a subject, and their plural forms."""


def agree(body: str, actor: str, group: bool) -> str:
    """``body`` with the verb right after ``actor`` in the plural when ``actor`` is a group.

    Narrators write the singular ("Snorri checks morale"); a crew or unit reads
    "Black Tern boarders check morale".
    """
    if not group or not body.startswith(actor + " "):
        return body
    verb, sep, rest = body[len(actor) + 1 :].partition(" ")
    plural = _PLURAL_VERBS.get(verb)
    return body if plural is None else f"{actor} {plural}{sep}{rest}"


def _turn_time(event: LogEvent) -> tuple[int, float] | None:
    """(turn, exact time) of an event timed inside a turn (Fae Domains), else None."""
    turn = at = None
    for key, value in event.outcome:
        if key == "at":
            at = value
        elif key == "turn":
            turn = value
    return None if turn is None or at is None else (int(turn), float(at))


def narrate(
    event: LogEvent,
    plural: Container[str] = (),
    round_seconds: int | None = None,
    round_word: str = "Round",
) -> str:
    """One event as a sentence a game master can read aloud, headed by when it happened.

    Args:
        event: the event.
        plural: actor names that are groups (crews, units): their verbs agree.
        round_seconds: the length of a round, when its events happen at several instants
            (ship rounds: gunnery first, deck fights and morale later); every event of
            round ``n`` is then labelled with the round's time, ``n * round_seconds``,
            as in personal combat (``Round 3 (0:18)``). Otherwise the event's own time.
        round_word: what a round is called (``Turn`` in a pure Fae Domains battle).
            Events timed inside a Fae turn (``turn`` and ``at`` in the outcome) always
            read ``Turn 2 (0:13.3)``, to the tenth of a second.

    A control character in a name (a scenario refuses them, an object built in Python
    may not) is shown escaped: a line never breaks or rewrites the terminal.
    """
    render = _NARRATORS.get(event.action)
    body = render(event) if render else f"{event.actor} {event.action}: {event.result}."
    body = escaped(agree(body, event.actor, event.actor in plural))
    timed = _turn_time(event)
    if timed is not None:
        secs, tenths = divmod(round(timed[1] * 10), 10)
        return f"Turn {timed[0]} ({clock(secs)}.{tenths}) {body}"
    when = event.round * round_seconds if round_seconds else event.time
    return f"{round_word} {event.round} ({clock(when)}) {body}"


class BattleLog:
    """Append-only list of :class:`LogEvent` with its renderings.

    A battle appends each event as a plain tuple, made into its :class:`LogEvent` only
    when the log is first read (a named tuple costs several plain ones to make, and
    sweeps never read most logs): a recorded event as its eight fields (the battle's
    ``record``), a hot kind (a melee swing: one per attack) *deferred*, as the time, the
    round, a function and its arguments. The function is pure over immutable arguments
    (names and the kernel's frozen result), so the event is the same whenever it is
    made; sweeps that never read a log never pay for formatting it.
    """

    __slots__ = ("_settled", "keeps", "outs", "plural", "raw", "round_seconds", "round_word")

    def __init__(self) -> None:
        self.raw: list[Any] = []
        """Entries as appended: a :class:`LogEvent`, its eight fields as a plain tuple,
        or deferred ``(time, round, make, *args)`` (read :attr:`events`, never this)."""
        self._settled = 0  # entries before this index are all LogEvents
        self.keeps = True
        """False: its writers make no entry, for a play whose log nobody reads (nothing
        reads a log as the battle plays; ``run``: :func:`~.result.replays_its_log`)."""
        self.outs: list[int] = []
        """The indexes of the ``out`` events (noted as they are written: :meth:`takedowns`
        reads them without a scan of every entry)."""
        # Narration only (never in the JSON lines): actors that are groups (crews, units)
        # take plural verbs; a round length labels every event of a round with its time.
        self.plural: set[str] = set()
        self.round_seconds: int | None = None
        self.round_word = "Round"

    @property
    def events(self) -> list[LogEvent]:
        """Every event in order (plain entries are made into events here, once)."""
        raw, start = self.raw, self._settled
        if start < len(raw):
            for i in range(start, len(raw)):
                entry = raw[i]
                if entry.__class__ is tuple:
                    make = entry[2]
                    raw[i] = (
                        LogEvent(entry[0], entry[1], *make(*entry[3:]))
                        if callable(make)  # deferred: (time, round, make, *args)
                        else _new_event(LogEvent, entry)  # the fields, as recorded
                    )
            self._settled = len(raw)
        return raw

    def append(self, event: LogEvent) -> None:
        """Record one event (times never run backwards: the engine appends in time order)."""
        if self.keeps:
            if event.action == "out":
                self.outs.append(len(self.raw))
            self.raw.append(event)

    def defer(
        self, time: int, round: int, make: Callable[..., tuple[Any, ...]], args: tuple[Any, ...]
    ) -> None:
        """Record an event at ``time`` and ``round`` whose other six fields (actor, action,
        target, dice, modifiers, outcome) ``make(*args)`` returns when the log is read.

        ``make`` must be a pure function of ``args``, and ``args`` immutable."""
        if self.keeps:
            self.raw.append((time, round, make, *args))

    def takedowns(self) -> dict[str, tuple[int, str | None]]:
        """Who went out of the fight, in which round, and by whose hand:
        ``name -> (round, taken out by)``.

        The hand is the actor of the last entry at the same instant, before the ``out``
        event, that targeted the fighter (the blow that did it: a take-out is recorded
        after its blow, and tied bands record all their blows before their take-outs),
        else None (bleeding, a crew's losses, a fall). Deferred entries are read without
        being settled, so a sweep that never narrates pays little."""
        found: dict[str, tuple[int, str | None]] = {}
        raw = self.raw
        for i in self.outs:
            entry = raw[i]  # never deferred: (time, round, actor, ...), made an event or not
            actor = entry[2]
            if actor not in found:
                found[actor] = (entry[1], self._hand(i, entry[0], actor))
        return found

    def _hand(self, index: int, time: int, victim: str) -> str | None:
        """The actor of the last entry before ``index`` at ``time`` aimed at ``victim``."""
        raw = self.raw
        for j in range(index - 1, -1, -1):
            entry = raw[j]
            if entry[0] != time:
                return None
            make = entry[2]  # an actor's name, or a deferred entry's make
            if make is attack_event or getattr(make, "aimed", False):  # (actor, target, ...)
                if entry[4] == victim:
                    return str(entry[3])
                continue
            if entry.__class__ is tuple and callable(make):  # (time, round, make, *args)
                entry = LogEvent(entry[0], entry[1], *make(*entry[3:]))
            if entry[4] == victim:  # (time, round, actor, action, target, ...)
                return str(entry[2])
        return None

    def __getstate__(self) -> dict[str, Any]:
        return {
            "raw": list(self.events),
            "plural": self.plural,
            "round_seconds": self.round_seconds,
            "round_word": self.round_word,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in state.items():
            setattr(self, key, value)
        self._settled = len(self.raw)
        self.outs = [i for i, event in enumerate(self.raw) if event.action == "out"]

    def __len__(self) -> int:
        return len(self.raw)

    def __iter__(self) -> Iterator[LogEvent]:
        return iter(self.events)

    def of(self, action: str) -> list[LogEvent]:
        """The events of one kind, in order."""
        return [e for e in self.events if e.action == action]

    def to_dataframe(self) -> pd.DataFrame:
        """One row per event, with dice, modifiers and outcome fields as columns."""
        import pandas as pd

        return pd.DataFrame.from_records([e.flat() for e in self.events])

    def jsonl_lines(self) -> Iterator[str]:
        """Each event as one compact JSON line (no trailing newline)."""
        dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
        for e in self.events:
            yield dumps(e.as_dict())

    def to_jsonl(self) -> str:
        """The whole log as JSON lines; byte-identical for the same scenario and seed."""
        return "".join(line + "\n" for line in self.jsonl_lines())

    def write_jsonl(self, path: str | Path) -> None:
        """Write :meth:`to_jsonl` to ``path`` (UTF-8)."""
        Path(path).write_text(self.to_jsonl(), encoding="utf-8")

    def lines(self, last: int | None = None) -> list[str]:
        """Every event (or the ``last`` ones) as a narrated line, in order."""
        events = self.events if last is None else self.events[max(0, len(self.events) - last) :]
        return [narrate(e, self.plural, self.round_seconds, self.round_word) for e in events]

    def narrate(self, last: int | None = None) -> str:
        """The battle as a GM reads it aloud: one line per event (or the ``last`` ones)."""
        return "\n".join(self.lines(last))

    def text(self) -> str:
        """The whole narration as one string (:meth:`narrate`)."""
        return self.narrate()
