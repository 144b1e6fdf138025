"""What a GM reads before and after the blow-by-blow: a header naming the battle, its sides,
their forces and the rules options that differ from the defaults, and a closing tally of
every character, group and ship: its state, its wounds, and who took it out.

Built from a finished battle by :func:`~fadad_agents.engine.core.result.result_of` when
asked: ``run(..., collect=True)`` and ``fadad run`` ask as they play; a default ``run``
builds them on the result's first read of ``header`` or ``tally`` (replaying the battle);
sweeps never do, so a sweep pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from fadad_agents.agents.core.base import Combatant, Status
from fadad_agents.agents.core.character import Character
from fadad_agents.rules.core.wounds import Wound, WoundTrack
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal.dc_track import DcTrack, dc_days_to_heal
from fadad_agents.rules.personal.healing import days_to_heal

if TYPE_CHECKING:
    from fadad_agents.engine.core.battle import Battle

__all__ = ["header_lines", "healing_lines", "tally_lines"]

_WOUND_LABELS = tuple(w.label for w in Wound)
"""Each wound level's label, by level (``Wound(n).label`` without the enum's call)."""

_STATES = {
    Status.FIGHTING: "standing",
    Status.WITHDRAWN: "withdrew",
    Status.ROUTED: "routed",
    Status.SURRENDERED: "surrendered",
}


def _bands(battle: Battle, side: int) -> Iterator[tuple[str, list[Combatant]]]:
    """Each band of a side (a ``count: N`` entry, or one agent) with its members, in order."""
    seen: dict[int, list[Combatant]] = {}
    names: dict[int, str] = {}
    for member in battle.sides[side].members:
        # Identical fighters of one entry share a band; crews, units and ships stand alone.
        key = id(member.band) if member.initial_headcount == 1 else id(member)
        if key not in seen:
            seen[key] = []
            names[key] = member.band.name if member.initial_headcount == 1 else member.name
        seen[key].append(member)
    for key, members in seen.items():
        yield names[key], members


def _force(name: str, members: list[Combatant]) -> str:
    if len(members) > 1:
        return f"{len(members)} {name}"
    heads = members[0].initial_headcount
    return f"{name} ({heads})" if heads > 1 else name


def header_lines(battle: Battle) -> list[str]:
    """The battle's name and seed, each side's forces, the options that differ."""
    lines = [f"{battle.name} (seed {battle.seed})"]
    for i, side in enumerate(battle.sides):
        forces = [_force(name, members) for name, members in _bands(battle, i)]
        lines.append(f"{side.name} ({side.initial_strength}): {', '.join(forces)}")
    lines.append(_rules_line(battle.options))
    return lines


_RULES_LINES: dict[int, tuple[RulesOptions, str]] = {}
"""Each options object's line, kept with the object (its id cannot be reused meanwhile):
a loop of ``run`` calls plays one scenario's options again and again, and listing them
costs more than a small battle's blows."""


def _rules_line(options: RulesOptions) -> str:
    """``Rules:`` and the options that differ from the defaults."""
    kept = _RULES_LINES.get(id(options))
    if kept is not None and kept[0] is options:
        return kept[1]
    defaults = _default_options()
    changed = [
        f"{key} = {_yaml(value)}" for key, value in options.flat().items() if defaults[key] != value
    ]
    line = f"Rules: {'; '.join(changed)}" if changed else "Rules: the defaults"
    if len(_RULES_LINES) >= 64:
        _RULES_LINES.clear()
    _RULES_LINES[id(options)] = (options, line)
    return line


@cache
def _default_options() -> dict[str, object]:
    return RulesOptions().flat()


def _yaml(value: object) -> str:
    """An option's value as a scenario file writes it (``true``, ``[1, 2]``)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_yaml(v) for v in value) + "]"
    return "null" if value is None else str(value)


def _state(member: Combatant, takedowns: dict[str, tuple[int, str | None]]) -> str:
    """``Very Hurt, standing``, ``Incapacitated, taken out by Snorri in round 3``,
    ``hull 97%, struck her colours``, ``12 of 30 standing, routed``."""
    status = member.status
    if status is Status.OUT:
        round_, hand = takedowns.get(member.name, (None, None))
        by = f" by {hand}" if hand else ""
        state = f"taken out{by} in round {round_}" if round_ is not None else "taken out"
    else:
        state = _STATES.get(status, str(status))
    if type(member) is Character:  # the common case, without the look-ups below (hot)
        return f"{_WOUND_LABELS[member.track.level]}, {state}"
    fighting = status is Status.FIGHTING
    hull = getattr(member, "hull_fraction", None)
    if hull is not None:
        struck = status is Status.SURRENDERED
        fate = "" if fighting else ", struck her colours" if struck else f", {state}"
        return f"hull {float(hull):.0%}{fate}"
    heads = member.initial_headcount
    if heads > 1:
        left = int(getattr(member, "count", member.headcount))
        return f"{left} of {heads} standing" if fighting else f"{left} of {heads} left, {state}"
    if getattr(member, "track", None) is None:
        return state
    return f"{_WOUND_LABELS[min(max(int(member.wound), 0), 6)]}, {state}"


def _group(name: str, members: list[Combatant]) -> str:
    counts: dict[str, int] = {}
    for member in members:
        word = _STATES.get(member.status, "taken out")
        counts[word] = counts.get(word, 0) + 1
    parts = ", ".join(f"{n} {word}" for word, n in counts.items())
    return f"{len(members)} {name}: {parts}"


def tally_lines(battle: Battle) -> list[str]:
    """One line per side: each named fighter's wounds and fate, each group's losses."""
    takedowns = battle.log.takedowns()
    lines = []
    bands = [list(_bands(battle, i)) for i in range(len(battle.sides))]  # once for both
    for side, side_bands in zip(battle.sides, bands, strict=True):
        parts = []
        for name, members in side_bands:
            if len(members) > 1:
                parts.append(_group(name, members))
            else:
                parts.append(f"{name} {_state(members[0], takedowns)}")
        lines.append(f"{side.name}: " + "; ".join(parts))
    return lines + _healing(battle.options.healing_model, bands)


def _heal_days(member: Combatant, model: str) -> int | None:
    """Days of rest until ``member``'s every wound is healed (``None``: it needs care to
    heal at all); 0 for the unhurt, the dead and fighters without a FADAD wound track
    (crews, units, ships; Fae Domains fighters count wound points)."""
    track = getattr(member, "track", None)
    if type(track) is WoundTrack and type(member) is Character:  # the common case (hot)
        return 0 if track.dead else _rest_days(track.marks, model)
    if isinstance(track, DcTrack) and member.initial_headcount == 1:
        return 0 if track.dead else dc_days_to_heal(track, model)
    if not isinstance(track, WoundTrack) or member.initial_headcount != 1:
        return 0
    if track.dead:  # the dead are beyond a healer
        return 0
    return _rest_days(track.marks, model)


@lru_cache(maxsize=1024)
def _rest_days(marks: tuple[tuple[int, int], ...], model: str) -> int | None:
    """:func:`_heal_days` of a living track with these marks (a battle's tracks repeat a
    few wound patterns, and every ``run`` tallies them)."""
    track = WoundTrack("custom", (0, 0, 0, 0, 0), marks=marks)
    days = [d for d in days_to_heal(track, model) if d is not None]  # type: ignore[arg-type]
    return None if len(days) < len(marks) else max(days, default=0)


def _days(days: int | None) -> str:
    return "needs care to heal" if days is None else f"{days} day{'s' if days != 1 else ''}"


def healing_lines(battle: Battle) -> list[str]:
    """The healing bill: how long each wounded survivor rests until whole, under the
    scenario's ``healing_model`` (C-09): ``Healing (fadad, rest): Snorri 14 days (Hurt)``;
    a band of identical fighters gives its wounded count and its longest rest."""
    bands = [list(_bands(battle, i)) for i in range(len(battle.sides))]
    return _healing(battle.options.healing_model, bands)


def _healing(model: str, bands: list[list[tuple[str, list[Combatant]]]]) -> list[str]:
    """:func:`healing_lines` of each side's bands (:func:`_bands`)."""
    parts = []
    for side_bands in bands:
        for name, members in side_bands:
            wounded = [(m, _heal_days(m, model)) for m in members]
            wounded = [(m, d) for m, d in wounded if d != 0]
            if not wounded:
                continue
            if len(members) == 1:
                member, days = wounded[0]
                parts.append(f"{name} {_days(days)} ({_WOUND_LABELS[member.track.level]})")
                continue
            known = [d for _, d in wounded if d is not None]
            longest = None if len(known) < len(wounded) else max(known)
            parts.append(f"{len(wounded)} {name} wounded, the longest {_days(longest)}")
    return [f"Healing ({model} rules, rest): " + "; ".join(parts)] if parts else []
