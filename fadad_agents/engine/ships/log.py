"""Narration of ship events: the log of a ship battle reads like a battle report.

Each ship event (``maneuver``, ``gunnery``, ``crit``, ``fire``, ``grapple``, ``board``,
``strike`` ...) gets a sentence a game master can read aloud::

    Round 3 (0:18) Red Gannet comes about and runs in (RFF), now 2 hexes off.
    Round 3 (0:18) Red Gannet's Ballista, medium (fore) hits Saltwind: 7 hull points.
    Round 4 (0:24) Fire aboard Saltwind (size 3): 3 hands fight it and put it out.

Importing this module registers the narrators with :mod:`fadad_agents.engine.core.log`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fadad_agents.engine.core import log as battle_log
from fadad_agents.engine.core.ending import plural_name
from fadad_agents.engine.core.log import LogEvent
from fadad_agents.rules.core.ladder import describe
from fadad_agents.rules.ships.crew import MORALE_MODIFIERS, MoraleEvent, MoraleTrigger

__all__ = [
    "MORALE_KEYS",
    "SHIP_NARRATORS",
    "TRIGGER_WORDS",
    "in_rule_order",
    "morale_event",
    "triggers_named",
]

_TURNS = {"L": "to port", "R": "to starboard"}


def _own(name: str | None) -> str:
    name = name or ""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _maneuver(e: LogEvent) -> str:
    o = dict(e.outcome)
    plan = str(o["result"])
    hexes = plan.count("F")
    turns = "".join(ch for ch in plan if ch != "F")
    parts = []
    if turns:
        parts.append(f"turns {_TURNS[turns[0]]}")
    if hexes:
        parts.append(f"makes {hexes} hex{'es' if hexes > 1 else ''}")
    what = " and ".join(parts) or "holds her course"
    return f"{e.actor} {what} ({plan}), now at {tuple(o['to'])} facing {o['facing']}."


def _gunnery(e: LogEvent) -> str:
    o, m = dict(e.outcome), dict(e.modifiers)
    who = f"{_own(e.actor)} {m.get('weapon', 'gun')}"
    if o.get("aim") == "crew":
        if o["result"] == "miss":
            if o.get("hull"):
                stray = _plural(o["hull"], "hull point")
                return f"{who} sweeps {_own(e.target)} deck, misses the crew; a stray hit: {stray}."
            return f"{who} sweeps {_own(e.target)} deck and misses."
        hit = f" and hits {o['crew']}" if o.get("crew") else ""
        return f"{who} sweeps {_own(e.target)} deck{hit}: {o.get('casualties', 0)} down."
    if o["result"] == "miss":
        return f"{who} fires at {e.target} and misses."
    if "hull" in o:
        crit = " - a critical!" if o.get("critical") else "."
        return f"{who} hits {e.target}: {o['hull']} hull point{'s' if o['hull'] != 1 else ''}{crit}"
    return f"{who} hits {e.target} (by {o['rd']}): damage {o['damage']}."


def _simple(template: str) -> Callable[[LogEvent], str]:
    def render(e: LogEvent) -> str:
        return template.format(e=e, o=dict(e.outcome), m=dict(e.modifiers), d=dict(e.dice))

    return render


def _fire(e: LogEvent) -> str:
    o, m = dict(e.outcome), dict(e.modifiers)
    k = m.get("firefighters", 0)
    where = f"Fire aboard {e.actor} (size {o['value']})"
    if o["result"] == "out":
        if not k:
            return f"{where} dies down by itself."
        return f"{where}: {_plural(k, 'hand')} fight it and put it out."
    hands = f"{_plural(k, 'hand')} fight it" if k else "nobody fights it"
    burns = f"damage {o['damage']}" if o["damage"] else "no damage yet"
    return f"{where}: {hands}; it burns on ({burns})."


def _air(e: LogEvent) -> str:
    o, m = dict(e.outcome), dict(e.modifiers)
    burnt = f"fire has burnt {_plural(m['fire_damage'], 'point')} of her {m['tons']} tons"
    effect = f"everyone aboard fights at {o['penalty']}" if o["penalty"] else "no effect"
    return f"The air aboard {e.actor} is {o['result']} ({burnt}): {effect}."


def _morale(e: LogEvent) -> str:
    return f"{_own(e.actor)} crew checks morale {battle_log.morale_words(e)}"


def _incapacitated(e: LogEvent) -> str:
    o, m, d = dict(e.outcome), dict(e.modifiers), dict(e.dice)
    alive = o["incapacitated"]
    were = "was" if alive == 1 else "were"
    fallen = m["casualties"]
    casualties = "crew casualty" if fallen == 1 else "crew casualties"
    return (
        f"{e.actor}: of {fallen} {casualties}, {alive} {were} only "
        f"incapacitated (1d6 = {d['1d6']}, x5%)."
    )


def _grapple(e: LogEvent) -> str:
    o = dict(e.outcome)
    if o["result"] == "grappled":
        return f"{e.actor} grapples {e.target}: {_plural(o['lines'], 'line')} hold her fast."
    if not o["lines"]:
        return f"{e.actor} throws grapnels at {e.target}; none catches."
    caught = "1 line catches" if o["lines"] == 1 else f"{o['lines']} lines catch"
    return f"{e.actor} throws grapnels at {e.target}: {caught}, not enough to hold her."


def _board(e: LogEvent) -> str:
    o = dict(e.outcome)
    who = ", ".join(o["who"])
    verb = "leaps" if o.get("heads", 2) == 1 else "swarm"
    return f"Boarders away! From {e.actor}, {who} {verb} onto {e.target}."


def _ram(e: LogEvent) -> str:
    o = dict(e.outcome)
    head = "counter-rams" if o.get("counter") else "rams"
    if o["result"] == "miss":
        return f"{e.actor} {head} at {e.target} and misses."
    hull = f": {o['hull']} hull points" if "hull" in o else ""
    if o.get("gargantuan") and hull:
        hull += f" ({dict(e.modifiers).get('dice')}: d4s for d6s against a gargantuan creature)"
    lock = "; the ships are locked together" if o.get("locked") else ""
    return f"{e.actor} {head} {e.target}{hull}{lock}."


def _ship_damage(e: LogEvent) -> str:
    o = dict(e.outcome)
    if not o["damage"]:
        return f"{e.actor} shrugs off the hit: {o['result']}."
    if o["result"] == o["before"]:
        return f"{e.actor} takes damage {o['damage']}, still {o['result']}."
    return f"{e.actor} takes damage {o['damage']}: now {o['result']}."


def _cut(e: LogEvent) -> str:
    o = dict(e.outcome)
    n = o["cut"]
    lines = f"{n} line{'s' if n != 1 else ''}"
    return f"{_own(e.actor)} axes cut {lines} to {e.target}: {o['result']} ({o['left']} left)."


def _deck_fight(e: LogEvent) -> str:
    o = dict(e.outcome)
    sides = " against ".join(f"{name} {n}" for name, n in o["heads"])
    return f"Steel rings on {_own(e.actor)} deck: {sides}."


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _sentence(text: str) -> str:
    """``text`` ended by one full stop (a result may bring its own: ``Fire!``)."""
    return text if text.endswith((".", "!", "?")) else text + "."


def _repair(e: LogEvent) -> str:
    o = dict(e.outcome)
    return f"{e.actor} will need {o['gold']} gp and {_plural(o['days'], 'day')} of repairs."


def _debris(e: LogEvent) -> str:
    o = dict(e.outcome)
    if o["result"] == "clear":
        return f"{e.actor} threads the debris unscathed."
    return f"{e.actor} runs into debris: {o['result']}, damage {o['damage']}."


_WEATHER = {
    "becalmed": "becalmed",
    "normal": "in fair weather",
    "rain_or_snow": "in rain or snow",
    "storm": "in a storm",
    "gale": "in a gale",
    "hurricane": "in a hurricane",
}
"""Weather (``rules.sj_movement.Weather``) as a report says it; others read 'in X weather'."""


def _take_off_start(e: LogEvent) -> str:
    o = dict(e.outcome)
    weather = _WEATHER.get(str(o["weather"]), f"in {str(o['weather']).replace('_', ' ')} weather")
    warm = f"her helm warms up for {_plural(o['warm_up'], 'round')}, then " if o["warm_up"] else ""
    return (
        f"{e.actor} begins to take off from a size {o['size']} body {weather}: "
        f"{warm}{_plural(o['climb'], 'round')} to climb out of the gravity well."
    )


def _helm_change(e: LogEvent) -> str:
    o = dict(e.outcome)
    if o["result"] == "nobody":
        return f"Nobody aboard {e.actor} can take the helm ({o['reason']}): she drifts."
    return f"{o['who']} takes {_own(e.actor)} helm ({o['reason']})."


def _fadad_roll(e: LogEvent) -> str:
    """A FADAD roll at a hull (ships-fadad.md 5.3): rolled degree, 4dF, Target, range."""
    m = dict(e.modifiers)
    rolled = m["skill"] + m.get("wounds", 0) + dict(e.dice)["4dF"]
    wounds = f", wounds {m['wounds']:+d}" if m.get("wounds") else ""
    return (
        f"{describe(rolled)} on 4dF {dict(e.dice)['4dF']:+d}{wounds} against Target "
        f"{describe(m['target'])} (range {m['range_mod']:+d} at {m['yards']} yd)"
    )


def _spell(e: LogEvent) -> str:
    o, m = dict(e.outcome), dict(e.modifiers)
    roll = f" ({_fadad_roll(e)})" if "target" in m else ""
    if o["result"] == "miss":
        spell = o.get("spell", "a spell")
        return f"{e.actor} casts {spell} at {e.target}{roll}; it goes wide of her hull."
    points = f" for {o['points']} points" if o.get("points") else ""
    if m.get("effect") != "damage":
        return f"{e.actor} casts {o['spell']} at {e.target}{roll}."
    return (
        f"{e.actor} casts {o['spell']} at {e.target}{roll}{points}: "
        f"{_plural(o['hull'], 'hull point')}."
    )


def _hull_volley(e: LogEvent) -> str:
    o = dict(e.outcome)
    if not o["hits"]:
        return f"{e.actor} loose a volley at {_own(e.target)} side; every shaft misses."
    if not o["hull"]:
        return (
            f"{e.actor} loose a volley at {_own(e.target)} side: {_plural(o['hits'], 'hit')} for "
            f"{o['points']} points, scattered over her planking, do no hull damage."
        )
    return (
        f"{e.actor} loose a volley at {_own(e.target)} side: {o['hits']} hits punch "
        f"{_plural(o['hull'], 'hull point')} through her planking."
    )


def _hull_shot(e: LogEvent) -> str:
    o = dict(e.outcome)
    if "target" in dict(e.modifiers):
        return _fadad_hull_shot(e)
    if o["result"] == "miss":
        return f"{e.actor} shoots at {_own(e.target)} side and misses."
    if not o["hull"]:
        where = f"{_own(e.target)} side ({o['points']} points)"
        return f"{e.actor} puts a shaft into {where}: no hull damage."
    return f"{e.actor} drives a shaft through {_own(e.target)} side: 1 hull point."


def _fadad_hull_shot(e: LogEvent) -> str:
    o = dict(e.outcome)
    head = f"{e.actor} shoots at {_own(e.target)} side: {_fadad_roll(e)}"
    if o["result"] == "miss":
        return f"{head}; a miss."
    if not o["hull"]:
        return f"{head}; a hit by {o['rd']}, {o['points']} points at one spot: no hull damage."
    return f"{head}; a hit by {o['rd']}, through her planking: {_plural(o['hull'], 'hull point')}."


def _hull_chop(e: LogEvent) -> str:
    o = dict(e.outcome)
    done = f": {_plural(o['hull'], 'hull point')} hacked through" if o["hull"] else ""
    return (
        f"{e.actor} hacks at one spot of {_own(e.target)} hull for {o['points']} points "
        f"({o['spot']} there so far){done}."
    )


def _jettison(e: LogEvent) -> str:
    o = dict(e.outcome)
    return (
        f"{e.actor} jettisons rubble astern into the path of {', '.join(o['pursuers'])}: "
        f"a debris field in {len(o['hexes'])} hex{'es' if len(o['hexes']) != 1 else ''}."
    )


def _jettison_hit(e: LogEvent) -> str:
    o = dict(e.outcome)
    if o["result"] == "miss":
        return f"Jettisoned shot from {e.actor} whistles past {e.target}."
    return f"Jettisoned shot from {e.actor} strikes {e.target} at speed: damage {o['damage']}."


def _escape(e: LogEvent) -> str:
    o = dict(e.outcome)
    pace = (
        f" (in open air her helm makes {o['mph']:g} mph, {o['miles_per_day']} miles a day)"
        if "mph" in o
        else ""
    )
    return f"{e.actor} clears the capture distance and escapes at spelljamming speed{pace}."


def _reload(e: LogEvent) -> str:
    o, m = dict(e.outcome), dict(e.modifiers)
    return (
        f"{_own(e.actor)} {o['weapon']} is loaded at last after {o['rounds']} rounds "
        f"({m['crew']} of {m['needed']} hands)."
    )


SHIP_NARRATORS: dict[str, Callable[[LogEvent], str]] = {
    "ship_initiative": lambda e: (
        f"{e.actor} win the initiative and move {e.result}."
        if plural_name(e.actor)
        else f"{e.actor} wins the initiative and moves {e.result}."
    ),
    "encounter": _simple("{e.actor} is {o[result]} {e.target}."),
    "reaction": _simple("To {e.target} she looks {o[result]}: {e.actor} bears down."),
    "maneuver": _maneuver,
    "gunnery": _gunnery,
    "ship_damage": _ship_damage,
    "crit": lambda e: _sentence(f"Critical hit on {e.actor}: {e.result}"),
    "effect": _simple("{e.actor}: {o[result]}."),
    "recover": _simple("{e.actor}: {o[result]}."),
    "fire": _fire,
    "air": _air,
    "break_up": _simple("{e.actor} breaks up ({o[cause]}): {o[pieces]} large pieces drift."),
    "debris": _debris,
    "ram": _ram,
    "shear": _simple("{e.actor} makes a shearing pass at {e.target}: {o[result]}."),
    "crash": _simple("{e.actor} and {e.target}: {o[result]}."),
    "grapple": _grapple,
    "cut_lines": _cut,
    "separate": _simple("{e.actor}'s helmsman strains to pull free of {e.target}: {o[result]}."),
    "tow": _simple("{e.actor} {o[result]} {e.target} along, grappled alongside."),
    "release": _simple("{e.actor} and {e.target} part: {o[result]}."),
    "board": _board,
    "deck_fight": _deck_fight,
    "retreat": _simple("{e.actor} falls back to {e.target} ({o[reason]})."),
    "return": _simple("{e.actor} leaves the taken {o[prize]} and returns to {e.target}."),
    "refuse": _simple("{e.actor} {o[result]} {e.target}: the odds are too long."),
    "ship_morale": _morale,
    "struck": _simple("{e.actor} is struck by {e.target}'s shot: damage {m[damage]}, {o[result]}."),
    "incapacitated": _incapacitated,
    "taken": _simple("{e.actor} is {o[result]}."),
    "strike": _simple("{e.actor} {o[result]} ({o[reason]})."),
    "mutual_strike": _simple("Every ship strikes at once: {o[result]}."),
    "escape": _escape,
    "take_off_start": _take_off_start,
    "take_off": _simple("{e.actor} {o[result]}."),
    "helm_warmup": _simple(
        "{o[who]} sits down at {e.actor}'s helm; it warms up for {o[rounds]} rounds."
    ),
    "helm_ready": _simple("{e.actor}'s helm is warm: she answers to {o[who]}."),
    "helm_change": _helm_change,
    "sail_on": _simple("{o[who]} keeps {e.actor} under way though her crew has struck."),
    "spell": _spell,
    "hull_volley": _hull_volley,
    "hull_chop": _hull_chop,
    "jettison": _jettison,
    "jettison_hit": _jettison_hit,
    "slain": _simple("{e.actor} is slain ({o[cause]})."),
    "landing_start": _simple(
        "{e.actor} dives for the ground: {o[rounds]} rounds to land through the gravity well."
    ),
    "landing": _simple("{e.actor} {o[result]}."),
    "landed": _simple("{e.actor} lands, out of reach of the fight."),
    "hull_shot": _hull_shot,
    "cut_loose": _simple(
        "{e.actor} cuts {m[tons]} tons adrift: {e.target} must heave to {o[stop]} hexes short "
        "of the mass and loses {o[rounds]} rounds."
    ),
    "pursuit": _simple("{e.actor} follows {e.target}: {o[result]}."),
    "reload": _reload,
    "repair": _repair,
}
"""Narrators of the ship events, by action."""


# --- ship morale's words (engine.ships.morale logs its checks with them) ----------------

TRIGGER_WORDS = {
    MoraleTrigger.CRITICAL_HIT: "a critical hit",
    MoraleTrigger.FIVE_HULL_POINTS: "5 hull points left",
    MoraleTrigger.SURPRISED: "surprised",
    MoraleTrigger.SUPERIOR_FORCE: "a superior force",
    MoraleTrigger.SLAIN_BY_MAGIC: "slain by magic",
    MoraleTrigger.CREW_25: "a quarter of the crew lost",
    MoraleTrigger.CREW_50: "half the crew lost",
    MoraleTrigger.SLAIN_AFTER_50: "a crewman slain past half losses",
    MoraleTrigger.OFFICERS_GONE: "no officers left",
    MoraleTrigger.CANNOT_ESCAPE: "no escape",
    MoraleTrigger.CAPTAIN_SLAIN: "captain slain",
    MoraleTrigger.BEFORE_BOARDING: "a dangerous boarding",
}
"""How the log names each ship-morale trigger."""


def triggers_named(triggers: set[MoraleTrigger]) -> str:
    """The triggers as the log names them, in the order of section 18."""
    return ", ".join([TRIGGER_WORDS[t] for t in in_rule_order(triggers)])


def in_rule_order(triggers: set[MoraleTrigger]) -> list[MoraleTrigger]:
    """``triggers`` in the order of section 18 (a set's own order follows memory addresses)."""
    return sorted(triggers, key=_TRIGGER_ORDER.__getitem__)


# What the log writes of each trigger and table entry, made once (an enum's name is slow).
_TRIGGER_ORDER = {t: i for i, t in enumerate(MoraleTrigger)}
MORALE_KEYS = {e: e.name.lower() for e in (*MoraleTrigger, *MoraleEvent)}
"""The log's key of each morale trigger and modifier-table entry."""

_register = getattr(battle_log, "register_narrator", None)
for _action, _render in SHIP_NARRATORS.items():
    if _register is not None:
        _register(_action, _render)
    else:  # an engine.log without the public hook
        battle_log._NARRATORS[_action] = _render


def morale_event(
    name: str,
    die: str,
    res: Any,
    base: int,
    applied: list[MoraleEvent],
    target: int,
    triggers: set[MoraleTrigger],
) -> tuple[Any, ...]:
    """The log fields (actor ... outcome) of ship ``name``'s crew morale check: its roll
    ``res`` on ``die`` against ``target``, from its base morale and the table entries
    ``applied``, called by ``triggers`` (:func:`~fadad_agents.engine.ships.morale.
    check_morale` defers them until the log is read)."""
    modifiers = (("morale", base), *[(MORALE_KEYS[e], MORALE_MODIFIERS[e]) for e in applied])
    outcome = (
        ("result", "holds" if res.passed else "breaks"),
        ("check", triggers_named(triggers)),
        ("target", target),
        ("triggers", tuple([MORALE_KEYS[t] for t in in_rule_order(triggers)])),
    )
    return name, "ship_morale", None, ((die, res.roll),), modifiers, outcome
