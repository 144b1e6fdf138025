"""What a Fae Domains combatant does when the count reaches its margin (section 2).

:func:`take_action`: effects that bar acting (winded, doubled over, a submission hold, a
Willpower test per action after an abdomen wound), the retreat choice at the first action
of a turn (a withdrawing fighter is pursued, section 5), free manoeuvres (flight, the
mount command), getting a knocked weapon back, re-gripping and standing up, then the
``fae_action`` policy's choice, after any free actions it asks for first (speak, gesture,
drop, drop prone; each logged): attack (one weapon or two, the second in the off hand),
aim (capped at half the skill), walk + attack, move, run, hold (basic, limb or
submission), break a hold, ready a weapon, pick one up, or delay.

Free actions (the walk, flight, the mount command, speech, gestures, dropping) are at most
``fae.free_actions_per_count`` at one count (PROPOSED 3: the seed allows them "as long as
it does not conflict with any other actions taken at that time"). The free walk is taken
once a turn, and not in a turn with a Move (2.1, 2.2). A charge is the attack right after
the run: any other action in between (a delay aside) spends it (3.3).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fadad_agents.agents.fae.combat import attack
from fadad_agents.agents.fae.holds import break_free, keep_hold, release, start_hold
from fadad_agents.agents.fae.leaving import flee
from fadad_agents.agents.fae.mount import FaeMountAgent, command
from fadad_agents.agents.fae.moves import approach, drop_item, log_event, manoeuvre
from fadad_agents.policies.core.protocols import MoraleChoice
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.rules.fae.attack import aim_kept
from fadad_agents.rules.fae.special import held_may_act, multiple_attack_skills

if TYPE_CHECKING:
    from fadad_agents.agents.fae.arena import FaeArena
    from fadad_agents.agents.fae.character import FaeCharacter

__all__ = [
    "FREE_ACTIONS",
    "SPELLS",
    "register_spell",
    "speech",
    "syllables",
    "take_action",
]

Spell = Callable[[Any, Any, Any], str]
SPELLS: dict[str, Spell] = {}
"""Spells by name: ``fn(caster, target, arena) -> result text``. The Magic chapter is not
in the seed, so none ship; a policy casts one by returning ``"cast_spell:<name>"``."""


def register_spell(name: str, spell: Spell) -> None:
    """Make ``cast_spell:<name>`` run ``spell`` (a full action)."""
    SPELLS[name] = spell


# --- the action at this count ----------------------------------------------------------


def take_action(c: FaeCharacter, arena: FaeArena) -> str:
    """One action of ``c`` at its current count; returns the kind it spent.

    A mount acts on its rider's orders or its own instinct
    (:meth:`~fadad_agents.agents.fae.mount.FaeMountAgent.act_at_count`).
    """
    if isinstance(c, FaeMountAgent):
        return c.act_at_count(arena)
    if not c.fighting or c.margin is None:
        return "none"
    c.memory["count"] = c.margin
    c.free_used = 0
    c.memory["reversal_now"] = c.memory.pop("reversal", None)  # a reversed hold's right
    if c.fleeing:
        return flee(c, "fleeing", arena)
    if not c.spent:
        choice = c.retreat_choice(arena)
        if choice is MoraleChoice.WITHDRAW:
            return flee(c, Wound(c.wound).label, arena)
        if choice is not MoraleChoice.HOLD:
            arena.leave(c, choice, Wound(c.wound).label)
            return "none"
    barred = _barred(c, arena)
    if barred is not None:
        return barred
    target = c.choose_target(arena)
    order = manoeuvre(c, target, arena) == "command_mount"
    if order and target is not None and c.take_free():  # free: the mount charges at its count
        command(c, target, "charge", arena)
    if target is not None:
        c.face(target)  # PROPOSED: one turns to face the foe one acts against (3.1 arcs)
    recovered = _recover(c, arena)
    if recovered is not None:
        return recovered
    action = c.fae_policies.action.choose_action(c, target, arena)
    while action.partition(":")[0] in FREE_ACTIONS:  # free actions go alongside; ask again
        if not c.take_free():
            action = "wait"  # the count waits: no more free actions here
            break
        _free(c, action, arena)
        action = c.fae_policies.action.choose_action(c, target, arena)
    if not aim_kept("delay" if action == "wait" else action.partition("_after")[0]):
        c.aim = 0
    kind = _dispatch(c, target, action, arena)
    if action not in ("attack", "attack_after_walk", "run", "wait", "delay"):
        c.charging = False  # another action came between the run and the blow
    return kind


def _recover(c: FaeCharacter, arena: FaeArena) -> str | None:
    """Set right what a blow upset, before anything else (a short action each): pick up a
    weapon knocked from the hand, re-grip a weapon a hand was knocked off, ready the next
    weapon after a throw or a drop, stand up."""
    hands = c.hands
    if hands.knocked_down is not None:
        name = getattr(hands.pick_up(), "name", "")
        return _simple(c, arena, "pick_up", "short", f"picks up the {name.lower()}")
    if hands.grip_lost and hands.ready is not None:
        hands.grip_lost = 0
        return _simple(c, arena, "ready_weapon", "short", "re-grips")
    if hands.unready and hands.weapons:
        hands.unready = False
        return _simple(c, arena, "ready_weapon", "short", "readies")
    if c.prone:
        c.prone = False
        return _simple(c, arena, "change_position", "short", "stands up")
    return None


FREE_ACTIONS = frozenset({"speak", "gesture", "drop", "drop_prone"})
"""Free actions a policy may return before its action (2.1): ``speak:<words>``,
``gesture:<what>``, ``drop`` (the readied weapon), ``drop:<item name>`` or ``drop_prone``."""
SPEECH_SYLLABLES = 5
"""Speak up to 5 syllables (2.1): longer speech is cut there."""


def syllables(word: str) -> int:
    """Syllables of a word, counted as vowel groups (at least 1; PROPOSED estimate)."""
    return max(1, len(re.findall(r"[aeiouy]+", word.lower())))


def speech(words: str, limit: int = SPEECH_SYLLABLES) -> str:
    """The words said within ``limit`` syllables (the rest goes unsaid this action)."""
    said: list[str] = []
    total = 0
    for word in words.split():
        total += syllables(word)
        if total > limit:
            break
        said.append(word)
    return " ".join(said)


def _free(c: FaeCharacter, choice: str, arena: FaeArena) -> None:
    """Speak, gesture or drop: no margin cost, logged at this count (2.1)."""
    kind, _, what = choice.partition(":")
    if kind == "speak":
        log_event(arena, c, "speak", None, speech(what), more=(("asked", what),))
    elif kind == "gesture":  # needs a free hand: not while swinging a two-handed weapon
        hand = not c.hands.two_handed
        log_event(arena, c, "gesture", None, what if hand else "no free hand")
    elif kind == "drop_prone":
        c.prone, c.kneeling = True, False
        log_event(arena, c, "drop_prone", None, "drops prone")
    else:
        drop_item(c, what, arena)


def _simple(c: FaeCharacter, arena: FaeArena, action: str, kind: str, result: str) -> str:
    log_event(arena, c, action, None, result)
    c.spend(kind)
    return kind


def _delay(c: FaeCharacter, arena: FaeArena, result: str) -> str:
    """Lower the count by ``fae.wait_cost`` (section 2 delay; an action lost so is forfeit)."""
    before = c.margin or 0
    c.wait()
    log_event(arena, c, "delay", None, result, more=(("from", before),))
    return "short"


def _barred(c: FaeCharacter, arena: FaeArena) -> str | None:
    """Effects that replace the action: recovery tests, the abdomen Willpower test, holds."""
    recover = c.effects.get("recover")
    if recover is not None:
        roll = c.test(recover)
        if roll.check.success:
            del c.effects["recover"]
        log_event(
            arena,
            c,
            "recovery_test",
            None,
            "recovers" if roll.check.success else "fails",
            (("d100", roll.roll),),
            (("mcs", roll.mcs),),
            (("test", recover),),
        )
        c.spend("full")
        return "full"
    if c.effects.get("action_test"):
        roll = c.test("willpower_attr")
        if not roll.check.success:
            log_event(arena, c, "willpower", None, "loses the turn", (("d100", roll.roll),))
            c.margin, c.spent = 0, True
            return "full"
    if c.held_by is not None and not held_may_act(c.hold_kind):  # type: ignore[arg-type]
        return break_free(c, c.held_by, arena)  # a submission hold leaves nothing else
    return None


def _dispatch(c: FaeCharacter, target: Any, choice: str, arena: FaeArena) -> str:
    if target is None or choice in ("wait", "delay"):
        return _delay(c, arena, "waits")
    if choice == "break_hold":
        return break_free(c, c.held_by, arena) if c.held_by else _delay(c, arena, "not held")
    moving = choice in ("attack_after_walk", "move", "run")
    if c.holding is not None and (moving or c.holding is not target):
        release(c.holding, arena)  # PROPOSED: a holder who moves or turns elsewhere lets go
    if c.mount is not None and moving:
        # A rider moves only on its mount: a (free) order, then wait for the mount to go.
        command(c, target, "charge" if choice == "run" else "move", arena)
        return _delay(c, arena, "rides on")
    if c.altitude > 0 and moving:
        # Aloft, ground moves make no sense: a flyer closes with its free flight actions.
        return _delay(c, arena, "circles overhead")
    if choice == "attack_after_walk":
        if c.may_walk and c.take_free():
            c.walked = arena.fae_turn
            approach(c, target, c.walk_mr, arena, "walk")
        choice = "attack"
    if choice == "attack":
        if c.distance(target) > c.reach:
            return _delay(c, arena, "out of reach")
        c.spend("full")
        _attack_all(c, target, arena)
        return "full"
    if choice == "take_aim":
        c.aim = min(c.aim + 5, c.aim_limit)
        return _simple(c, arena, "take_aim", "short", f"+{c.aim}%")
    if choice == "run" and not c.can_run:  # a useless leg: hobble (Move) instead
        choice = "move"
    if choice == "move":
        if not c.may_move:  # not in a turn with the free walk (2.2)
            return _delay(c, arena, "walked already")
        c.moved = arena.fae_turn
        approach(c, target, 2 * c.walk_mr, arena, "move")
        c.spend("short")
        return "short"
    if choice == "run":
        approach(c, target, c.run_mr, arena, "run")
        c.ran_turn, c.charging = arena.fae_turn, True
        c.spend("full")
        return "full"
    if choice.startswith("hold"):
        c.spend("full")
        free = c.memory.get("reversal_now") is target
        start_hold(c, target, arena, choice, free=free)
        return "full"
    return _other(c, choice, arena)


def _other(c: FaeCharacter, choice: str, arena: FaeArena) -> str:
    """The rest of the catalogue: positions, picking up, standing on one's head, spells."""
    if choice.startswith("ready_weapon"):  # draw a weapon (by name, else the next one)
        name = choice.partition(":")[2]
        hands = c.hands
        i = next((k for k, w in enumerate(hands.weapons) if w.name == name), 0)
        if i:
            hands.weapons.insert(0, hands.weapons.pop(i))
            hands.drs.insert(0, hands.drs.pop(i))
        hands.unready, hands.grip_lost = False, 0
        return _simple(c, arena, "ready_weapon", "short", "readies")
    if choice in ("change_position", "kneel"):  # stand up, or kneel (3.1 modifiers)
        c.prone, c.kneeling = False, choice == "kneel"
        return _simple(c, arena, "change_position", "short", "kneels" if c.kneeling else "stands")
    if choice.startswith("pick_up"):  # from the ground at its feet, into the hand
        wanted = choice.partition(":")[2]
        item = next((g.item for g in c.hands.ground if g.item.name == wanted), None)
        got = c.hands.pick_up(item)
        result = f"picks up the {got.name.lower()}" if got else "nothing there"
        return _simple(c, arena, "pick_up", "short", result)
    if choice == "stand_on_head":
        roll = c.test("Acrobatics")
        result = "stands on its head" if roll.check.success else "topples"
        log_event(arena, c, choice, None, result, (("d100", roll.roll),), (("mcs", roll.mcs),))
        c.spend("full")
        return "full"
    if choice.startswith("cast_spell"):  # a hook: the Magic chapter is not in the seed
        name = choice.partition(":")[2]
        spell = SPELLS.get(name)
        result = "no magic rules loaded (hook)" if spell is None else spell(c, c.target, arena)
        return _simple(c, arena, "cast_spell", "full", result)
    raise ValueError(f"fae_action policy chose {choice!r}; use an action of rules.fae.ACTIONS")


def _attack_all(c: FaeCharacter, target: Any, arena: FaeArena) -> None:
    """One attack, or one per readied melee weapon (skills divided, section 3.3)."""
    if c.holding is not None and c.holding is target:
        keep_hold(c, target, arena)
        return
    melee = [w for w in c.weapons if not w.ranged]
    dual = getattr(c.fae_policies.action, "dual", False) and len(melee) >= 2
    if dual and c.hands.ready is melee[0] and not c.limb_useless("arm"):
        skills = multiple_attack_skills([c.skill(w.skill) for w in melee[:2]])
        for n, (w, s) in enumerate(zip(melee[:2], skills, strict=True)):
            if target.fighting:  # the second weapon is in the off hand (3.1)
                attack(c, target, arena, weapon=w, skill=s, offhand=n == 1)
        return
    attack(c, target, arena)
