"""Narration of Fae Domains events (registered with :func:`engine.log.register_narrator`).

Every Fae event carries its exact time inside the turn (``outcome.at``) and the Fae turn
(``outcome.turn``); :func:`engine.log.narrate` heads it with both, to the tenth of a second::

    Turn 2 (0:13.3) Morwen's greatsword hits Sir Brutus: margin 31, damage 37, 17 through
    armour and block.
"""

from __future__ import annotations

from collections.abc import Callable

from fadad_agents.engine.core.log import LogEvent, clock, narrator_of, register_narrator

__all__ = ["FAE_ACTIONS", "fae_text"]


def _attack(e: LogEvent) -> str:
    o = dict(e.outcome)
    d = dict(e.dice)
    m = dict(e.modifiers)
    weapon = str(o.get("weapon", "attack")).lower()
    side = {15: " from the side", 20: " from behind"}.get(int(m.get("flank") or 0), "")
    head = f"{e.actor}'s {weapon}{side} (d100 {d.get('d100')} vs {m.get('mcs')}%)"
    shot = f", called shot to the {o['shot']}" if o.get("shot") else ""
    result = o["result"]
    if result in ("miss", "botch", "cannot hit"):
        return f"{head}{shot}: {result}."
    if result == "sidestepped":
        return f"{head}{shot}: {e.target} sidesteps it."
    if result == "hit" and not o.get("damage"):
        return f"{head}{shot} glances off {e.target}: margin {o['margin']}, no damage."
    if "wound_points" in o:  # a FADAD target (bridge)
        return f"{head} hits {e.target}: margin {o['margin']}, {o['inflicted']} points: {result}."
    stun = " stun" if o.get("stun") else ""
    return (
        f"{head}{shot} hits {e.target}: margin {o['margin']}, damage {o['damage']}, "
        f"{o['inflicted']}{stun} through armour and block."
    )


def _reaction(e: LogEvent) -> str:
    o = dict(e.outcome)
    r = o["result"]
    what = "botches and cannot act" if r == "botch" else f"margin {r}"
    return f"{e.actor}'s Reaction test (d100 {dict(e.dice).get('d100')}): {what}."


def _defence(e: LogEvent, does: str, do: str, what: str) -> str:
    """A dodge or block: its margin, or that it failed."""
    if e.result == "fails":
        return f"{e.actor} tries to {do} {what} and fails."
    return f"{e.actor} {does} {what}: margin {e.result}."


def _collision(e: LogEvent) -> str:
    """A glide into a fighter, or into a map obstacle (it carries the obstacle's height)."""
    o = dict(e.outcome)
    if not o.get("obstacle"):
        return f"{e.actor} glides into {e.target}."
    return (
        f"{e.actor} glides into {e.target} at {o['altitude']} yd (it stands {o['height']} yd high)."
    )


def _simple(template: str) -> Callable[[LogEvent], str]:
    def render(e: LogEvent) -> str:
        return template.format(e=e, o=dict(e.outcome), d=dict(e.dice))

    return render


_EFFECTS = {
    "unconscious": "knocked unconscious",
    "dead": "killed outright",
    "limb_numb": "the limb goes numb",
    "limb_severed": "the limb is severed",
    "limb_mangled": "the limb is mangled",
    "doubled_over": "doubled over",
    "dies_in_turns": "a mortal wound",
    "dies_in_minutes": "a mortal wound",
}
"""Special called-shot effects (``rules.fae_attack.ShotEffect.effect``) in a report's words."""


def _effect(effect: object) -> str:
    return _EFFECTS.get(str(effect), str(effect).replace("_", " "))


FAE_ACTIONS: dict[str, Callable[[LogEvent], str]] = {
    "reaction_test": _reaction,
    "fae_attack": _attack,
    "dodge": lambda e: _defence(e, "dodges", "dodge", f"{e.target}'s blow"),
    "acrobatic_dodge": _simple("{e.actor} tumbles away from {e.target}: {o[result]}."),
    "block": lambda e: _defence(
        e, "blocks", "block", f"{e.target} (item DR {dict(e.outcome)['item_dr']})"
    ),
    "delay": lambda e: f"{e.actor} waits" + ("." if e.result == "waits" else f" ({e.result})."),
    "walk": _simple("{e.actor} walks {o[result]} yd toward {e.target}."),
    "move": _simple("{e.actor} moves {o[result]} yd toward {e.target}."),
    "run": _simple("{e.actor} runs {o[result]} yd toward {e.target}."),
    "take_aim": _simple("{e.actor} takes aim ({o[result]})."),
    "ready_weapon": _simple("{e.actor} {o[result]} a weapon."),
    "change_position": _simple("{e.actor} {o[result]}."),
    "called_shot": lambda e: f"{e.target}: {_effect(e.result)} ({dict(e.outcome)['shot']} shot).",
    "mortal_wound": lambda e: (
        f"{e.actor} is mortally wounded and will die at {clock(int(dict(e.outcome)['dies_at']))}."
    ),
    "delayed_death": _simple("{e.actor} dies of the wound."),
    "fly": _simple("{e.actor} flies toward {e.target} (altitude {o[altitude]} yd)."),
    "climb": _simple("{e.actor} climbs (altitude {o[altitude]} yd)."),
    "dive": _simple("{e.actor} dives at {e.target}: {o[result]} (altitude {o[altitude]} yd)."),
    "glide": _simple("{e.actor} glides {o[result]} yd (altitude {o[altitude]} yd)."),
    "command_mount": _simple("{e.actor} commands the mount: {o[result]}."),
    "hold": _simple("{e.actor} grapples {e.target}: {o[result]}."),
    "break_hold": _simple("{e.actor} struggles against {e.target}'s hold: {o[result]}."),
    "recovery_test": _simple("{e.actor} tries to recover: {o[result]}."),
    "willpower": _simple("{e.actor} falters: {o[result]}."),
    "disarm": _simple("{e.actor} {o[result]} against {e.target}'s disarm."),
    "item_break": _simple("{e.actor} strikes {e.target}'s {o[item]}: {o[result]}."),
    "item_broken": _simple("{e.actor}'s {o[result]} breaks."),
    "drop_prone": _simple("{e.actor} drops prone."),
    "pick_up": _simple("{e.actor} picks something up."),
    "stand_on_head": _simple("{e.actor} tries to stand on its head: {o[result]}."),
    "cast_spell": _simple("{e.actor} casts a spell: {o[result]}."),
    "flee": _simple("{e.actor} flees from {e.target}: {o[result]} (gap {o[gap]} yd)."),
    "speak": _simple('{e.actor} says "{o[result]}".'),
    "gesture": _simple("{e.actor} gestures: {o[result]}."),
    "drop": _simple("{e.actor} drops the {o[item]} from {o[fell]} yd: {o[result]}."),
    "fall": _simple("{e.actor} crashes from {o[yards]} yd and takes {o[result]} damage."),
    "collision": _collision,
    "collision_damage": _simple("{e.actor} takes {o[result]} damage in the collision."),
    "mount_waits": _simple("{e.actor} waits for {e.target}'s orders."),
    "mount_obeys": _simple("{e.actor} obeys: {o[result]} toward {e.target}."),
    "unhorsed": _simple("{e.actor} is unhorsed ({o[result]})."),
    "fae_morale": _simple(
        "{e.actor} checks morale after {o[check]} (Willpower, d100 {d[d100]}): {o[result]}."
    ),
}
"""Narrators of every Fae event kind."""


def fae_text(e: LogEvent) -> str:
    """A Fae event as a sentence, with its exact time (other subsystems' events of the same
    name, which carry no ``at``, read plainly)."""
    o = dict(e.outcome)
    if "at" not in o:
        return f"{e.actor} {e.action}: {e.result}."
    return FAE_ACTIONS[e.action](e)


def _chained(previous: Callable[[LogEvent], str] | None) -> Callable[[LogEvent], str]:
    """Fae events (they carry ``at``) read as Fae; others go to the earlier narrator."""

    def render(e: LogEvent) -> str:
        if previous is not None and "at" not in dict(e.outcome):
            return previous(e)
        return fae_text(e)

    return render


for _action in FAE_ACTIONS:
    register_narrator(_action, _chained(narrator_of(_action)))
