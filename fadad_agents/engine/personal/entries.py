"""The log's entries the compiled plain melee's event rows stand for (:mod:`~.melee`): a
swing's :class:`~fadad_agents.rules.personal.combat.AttackResult` (made when the log is
read, :func:`swing_event`), a take-out, a crit's effect or recovery, a band's morale check
and those who leave as it breaks, an Ité point spent, a move; the take-outs and departures
made by the battle's own ``_deactivate``, in the order they came.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fadad_agents.agents.core.base import Status
from fadad_agents.agents.core.blows import attack_event
from fadad_agents.agents.core.conditions import Conditions, _outcome
from fadad_agents.agents.core.moving import move_event
from fadad_agents.rules.core.dice import TABLE_4DF
from fadad_agents.rules.core.ladder import FAIR
from fadad_agents.rules.core.wounds import Wound, record
from fadad_agents.rules.personal.combat import AttackResult
from fadad_agents.rules.personal.criticals import CRIT_EFFECTS
from fadad_agents.rules.personal.melee import LOCATION_STATES
from fadad_agents.rules.personal.movement import GAITS

__all__ = [
    "BEARING", "CONDITIONS", "GAIT", "ITE", "TARGET", "TRACK", "WEAPON", "conditions_columns",
    "swing_event", "write_changes", "write_fighters", "write_log", "write_plans",
    "write_versions",
]  # fmt: skip

_WOUNDS = tuple(Wound)
_EFFECTS = {effect.d8: effect for effect in CRIT_EFFECTS}
_SUFFERED = {
    6: ("knocked down", "Knockdown"),
    5: ("disarmed", "Disarm"),
    7: ("staggered", "Stagger"),
}
_RECOVERED = ("gets up", "picks up the dropped weapon", "loses an action, staggered", "comes to")
_ONE = {total: (total,) for total in TABLE_4DF}


def write_versions(melee: Any, versions: list[Any]) -> None:
    """The wound track versions ``melee``'s kernel made since ``versions`` (a version's
    parent and the wound recorded on it), each recorded on its parent as Python does."""
    made = melee.tracks[len(versions) : int(melee.tracks[0, 0])]
    if not len(made):
        return
    w = melee.wounds
    scratch_cap, overflow = w.scratch_cap, w.overflow_past_near_death
    for (parent, wound), most in zip(made[:, :2].tolist(), made[:, 9].tolist(), strict=True):
        versions.append(record(versions[parent], wound, scratch_cap, overflow, most))


def write_log(
    melee: Any, battle: Any, versions: list[Any], secs: int, journal: list[Any] | None = None
) -> None:
    """``battle``'s log as ``melee``'s kernel rows leave it (``versions``: the wound tracks
    by version; ``secs``: a round's length), its take-outs and departures made; with a
    ``journal`` (round by round), each mover at its new place and each move and take-off
    noted there, in order, for the field to make when next looked up (its
    :meth:`~fadad_agents.agents.core.field.squares.Squares.later`)."""
    members, names = melee.members, melee.names
    log = battle.log
    raw, outs = log.raw, log.outs
    count = int(melee.events[0, 0])
    if count == 1:
        return  # (no event)
    if not log.keeps:  # (a play whose result keeps no log)
        _write_effects(melee, battle, count, journal)
        return
    table = melee.events[:count].copy(), melee.effects[:count].copy()  # the swings' events
    heads = table[0][:, :5].tolist()
    moved = melee.moved[:count].tolist() if melee.ground is not None else ()
    verbs, defence_verbs = melee.verbs, melee.defence_verbs
    append = raw.append
    outcome: tuple[tuple[str, Any], ...]
    for e in range(1, count):  # the two most common first, each read from its head
        kind, rnd, i, t, spent = heads[e]
        now = rnd * secs
        if kind == 1:  # a swing, its event made when the log is read
            append((
                now, rnd, swing_event, names[i], names[t], table, e, versions, verbs[i],
                defence_verbs[t],
            ))  # fmt: skip
            continue
        if kind == 8:  # a move (ground.MOVE): as moving.advance defers it
            yards, hx, hy, x, y = moved[e]
            if journal is not None:
                member = members[i]
                member.position = (x, y)
                journal.append((member, hx, hy, x, y))
            append((
                now, rnd, move_event, names[i], None if t < 0 else names[t], spent,
                GAITS[spent], yards, (hx, hy), x, y,
            ))  # fmt: skip
            continue
        row = table[0][e].tolist()
        if kind == 2:  # a take-out
            _taken_off(battle, members[i], kind, 0, journal)
            outs.append(len(raw))
            why = "knocked out" if row[3] == 7 else _WOUNDS[row[3]].label  # KNOCKED_OUT
            raw.append((now, rnd, names[i], "out", None, (), (), (("result", why),)))
        elif kind == 3:  # a crit's effect
            face = row[3]
            if face == 8:
                what = f"hit in the weapon arm ({LOCATION_STATES[row[4]]})"
                outcome = _outcome(what, "Called Location")
            elif face == 3:  # aims.knock_out, for knockout_rounds
                knocked = f"knocked out for {row[4]} rounds"
                outcome = (("result", knocked), ("effect", "Knockout"))
            else:
                outcome = _outcome(*_SUFFERED[face])
            raw.append((now, rnd, names[i], "crit_effect", None, (), (), outcome))
        elif kind == 6:  # a band's morale check (Character.end_round, record_morale)
            outcome = (
                ("result", "holds" if row[5] else "breaks"),
                ("check", melee.reasons[i][row[6]]),
                ("target", FAIR),
            )
            raw.append((
                now, rnd, melee.bands_of[i].name, "morale", None, (("4dF", row[3]),),
                (("morale", row[4]),), outcome,
            ))  # fmt: skip
        elif kind == 7:  # a fighter leaves as its band breaks (Battle.leave)
            why = "morale broke: " + melee.reasons[row[5]][row[4]]
            status = _taken_off(battle, members[i], kind, row[3], journal)
            action = "surrender" if row[3] else "withdraw"
            outcome = (("result", status.value), ("reason", why))
            raw.append((now, rnd, names[i], action, None, (), (), outcome))
        elif kind == 5:  # an Ité point spent (Character.spend_ite_point)
            outcome = (
                ("result", _WOUNDS[row[3]].label),
                ("instead_of", _WOUNDS[row[4]].label),
                ("left", row[5]),
            )
            raw.append((now, rnd, names[i], "ite_point", None, (), (), outcome))
        else:  # a recovery
            raw.append(
                (
                    now,
                    rnd,
                    names[i],
                    "crit_recovery",
                    None,
                    (),
                    (),
                    _outcome(_RECOVERED[row[3]]),
                )
            )


def _write_effects(melee: Any, battle: Any, count: int, journal: list[Any] | None) -> None:
    """What :func:`write_log` makes happen beside its entries, for a log that keeps none:
    the take-outs and departures, each mover at its new place (``journal``: noted there
    too, with each take-off), in order."""
    kinds = melee.events[1:count, 0]
    wanted = (kinds == 2) | (kinds == 7)  # a take-out, a departure
    if journal is not None:
        wanted |= kinds == 8  # a move (ground.MOVE)
    rows = np.flatnonzero(wanted) + 1
    if not len(rows):
        return
    members = melee.members
    heads = melee.events[rows, :4].tolist()
    moved = melee.moved[rows].tolist() if journal is not None else [None] * len(rows)
    for (kind, _, i, flag), move in zip(heads, moved, strict=True):
        member = members[i]
        if kind == 8 and journal is not None:  # (moves are read with a journal only)
            _, hx, hy, x, y = move
            member.position = (x, y)
            journal.append((member, hx, hy, x, y))
            continue
        _taken_off(battle, member, kind, flag, journal)


def _taken_off(
    battle: Any, member: Any, kind: int, surrendered: int, journal: list[Any] | None
) -> Status:
    """``member`` taken out (``kind`` 2) or gone as its band breaks (7: ``surrendered``,
    else withdrawn, a rout of its side), by the battle's own ``_deactivate``, off the field
    unless a ``journal`` notes its take-off for the field (round by round): its status."""
    if kind == 2:
        status = Status.OUT
        battle._deactivate(member, status, journal is None).downed.append(member)
    else:
        status = Status.SURRENDERED if surrendered else Status.WITHDRAWN
        if not surrendered:
            battle.sides[member.side].routed += 1
        battle._deactivate(member, status, journal is None)
    if journal is not None:
        journal.append((member,))
    return status


def swing_event(
    actor: str, target: str, table: tuple[Any, Any], e: int, versions: list[Any], verb: str,
    defence_verb: str,
) -> tuple[str, str, str, Any, Any, Any]:  # fmt: skip
    """The log's event of a swing of the compiled melee (event ``e`` of its kernel's rows
    and crit effects, ``table``; the wound tracks by version): ``attack_event`` of the
    :class:`~fadad_agents.rules.personal.combat.AttackResult` the Python swing made."""
    events, effects = table
    row = events[e].tolist()
    drawn = effects[e, : row[20]].tolist()
    defended = bool(row[19])
    if row[10]:
        res = tuple.__new__(AttackResult, (
            row[4], row[6], row[5] if defended else None, row[7] if defended else None, row[8],
            row[9], True, row[11], tuple(_EFFECTS[f] for f in drawn), row[13],
            _ONE[row[14]] if row[21] == 1 else tuple(row[22:25]) if row[21] else (),
            _WOUNDS[row[15]], versions[row[16]],
        ))  # fmt: skip
    else:
        res = tuple.__new__(AttackResult, (
            row[4], row[6], row[5] if defended else None, row[7] if defended else None, row[8],
            row[9], False, 0, (), 0, (), Wound.UNDAMAGED, versions[row[16]],
        ))  # fmt: skip
    return attack_event(actor, target, res, row[17], row[18], defended, verb, defence_verb)


swing_event.aimed = True  # type: ignore[attr-defined]  # its args begin (actor, target):
# BattleLog.takedowns reads them without making the event, as attack_event's


def write_fighters(melee: Any, battle: Any, s: Any, versions: list[Any], pos: Any = None) -> None:
    """Each of ``melee``'s fighters' track, target, conditions and actions planned as the
    kernel's state rows ``s`` leave them (``versions``: the battle's wound tracks by
    index); with ``pos``, each one's bearing, gait and move on open ground too."""
    c = melee.columns
    track, player, ite, target, attacks, defences, bare = (
        c._TRACK, c._PLAYER, c._ITE, c._TARGET, c._ATTACKS, c._DEFENCES, c._BARE,
    )  # fmt: skip
    gait_at, moves, wanted = c._GAIT, c._MOVES, c._WANTED
    members = melee.members
    knockdown = battle.options.fadad.knockdown_penalty
    bearings = None if pos is None else pos[:, 2].tolist()
    conditions = s[:, conditions_columns(c)].tolist()
    for i, (row, (made, *struck)) in enumerate(zip(s.tolist(), conditions, strict=True)):
        m = members[i]
        m.track = versions[row[track]]
        if row[player]:
            m.ite_points = row[ite]
        t = row[target]
        m.target = members[t] if t >= 0 and m.fighting else None
        m.attacks_planned, m.defences_left = row[attacks], row[defences]
        m.pending = None
        m.fighter = m.bare if row[bare] else m.armed
        m.conditions = _conditions(knockdown, *struck) if made else None
        if bearings is not None:  # on open ground
            m.bearing = bearings[i]
            gait = row[gait_at]
            m.gait = GAITS[gait - 1] if gait else None
            m.move_actions = row[moves]
            m.stepped = False
            m.memory["attacks_wanted"] = row[wanted]


def conditions_columns(c: Any) -> list[int]:
    """The columns of a fighter's row (``c``: the kernel's columns) its conditions are read
    from: whether a crit made them, then its :func:`_conditions` but the knockdown."""
    return [c._CONDITIONS, c._PRONE, c._DISARMED, c._STAGGERED, c._UNCONSCIOUS, c._ARM]


def _conditions(
    knockdown: int, prone: int, disarmed: int, staggered: int, unconscious: int, arm: int
) -> Conditions:
    """A fighter's :class:`Conditions` as the kernel's row holds them."""
    found = Conditions(knockdown)
    found.prone, found.disarmed = bool(prone), bool(disarmed)
    found.staggered, found.unconscious = staggered, unconscious
    if arm:
        found.parts["arm"] = LOCATION_STATES[arm]
    return found


TRACK, TARGET, ITE, WEAPON, CONDITIONS, GAIT, BEARING = range(7)
"""What a user sees of a fighter (:func:`write_changes`): its wound track, its target, its
Ité points, its weapon (armed or bare), its conditions, its gait and its bearing."""


def write_changes(
    melee: Any,
    battle: Any,
    s: Any,
    versions: list[Any],
    changed: tuple[Any, Any, Any],
    pos: Any,
    tracks: list[Any],
) -> None:
    """What a user sees of ``melee``'s fighters that a round changed, as the kernel's state
    rows ``s`` leave it: ``changed`` holds, for each thing (:data:`TRACK` ...), the
    fighters whose own changed, its value in their rows and how many
    (:func:`~.swing.changed_rows`); each new track into ``tracks`` too. The same as
    :func:`write_fighters` of theirs, but their plans: most fighters change one or two
    things a round."""
    rows, values, counts = changed
    at = [(rows[k, :count].tolist(), values[k, :count].tolist()) for k, count in
          enumerate(counts.tolist())]  # fmt: skip
    members = melee.members
    for i, v in zip(*at[TRACK], strict=True):
        members[i].track = tracks[i] = versions[v]
    for i, t in zip(*at[TARGET], strict=True):
        m = members[i]
        m.target = members[t] if t >= 0 and m.fighting else None
    for i, v in zip(*at[ITE], strict=True):
        m = members[i]
        if m.player:  # (a player character's alone: write_fighters)
            m.ite_points = v
    for i, bare in zip(*at[WEAPON], strict=True):
        m = members[i]
        m.fighter = m.bare if bare else m.armed
    changes, made = at[CONDITIONS]  # (each one's made: whether a crit made them)
    if changes:
        knockdown = battle.options.fadad.knockdown_penalty
        struck = s[changes][:, conditions_columns(melee.columns)[1:]].tolist()
        for i, has, row in zip(changes, made, struck, strict=True):
            members[i].conditions = _conditions(knockdown, *row) if has else None
    for i, gait in zip(*at[GAIT], strict=True):
        members[i].gait = GAITS[gait - 1] if gait else None
    turned = at[BEARING][0]
    if turned:
        for i, bearing in zip(turned, pos[turned, 2].tolist(), strict=True):
            members[i].bearing = bearing


def write_plans(melee: Any, s: Any, placed: bool) -> None:
    """Each of ``melee``'s fighters' plans for the round as the kernel's state rows ``s``
    leave them: its actions, no pending track, and, ``placed`` on open ground, its move
    (what :func:`write_fighters` writes but a user does not see)."""
    c = melee.columns
    rows = s[:, [c._ATTACKS, c._DEFENCES, c._MOVES, c._WANTED]].tolist()
    for m, (attacks, defences, moves, wanted) in zip(melee.members, rows, strict=True):
        m.attacks_planned, m.defences_left = attacks, defences
        m.pending = None
        if placed:
            m.move_actions = moves
            m.stepped = False
            m.memory["attacks_wanted"] = wanted
