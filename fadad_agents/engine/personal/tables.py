"""The tables the compiled plain melee's kernel reads, made once a battle from its rules
and fighters: the rules as one row of ints, each pair of fighters' Target and shield
modifier, who stands on each shield side, the weapon arm's state a Called Location leaves,
each fighter's morale, how it takes a new target (in what order of foes, how many weighed
up), the room round each fighter; and what they are made from, as a key
(:func:`template_key`: a battle built again the same shares them).

Nothing here loads numba: this module is imported with the engine, numba only once a
process has played enough to pay for it (the kernel's modules load it).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from fadad_agents.agents.core import moving
from fadad_agents.agents.core.field.room import never_crowded, room
from fadad_agents.engine.personal.codes import (
    DAMAGE_ROLLS,
    OPERATORS,
    PIERCING,
    QUANTITIES,
    WOUND_MODELS,
)
from fadad_agents.policies.core.defaults import (
    CasualtyMorale,
    DuelTargeting,
    FixedTargeting,
    KeepPoints,
    NearestTargeting,
    SaveFromDeath,
    SaveFromDeathOnly,
    StayBack,
    StrongestTargeting,
    WeakestTargeting,
)
from fadad_agents.policies.core.protocols import MoraleChoice
from fadad_agents.policies.core.rules import RulesTargeting
from fadad_agents.rules.core.ladder import FAIR
from fadad_agents.rules.personal.combat import _pair_constants
from fadad_agents.rules.personal.damage import armour_group
from fadad_agents.rules.personal.melee import (
    LOCATION_STATES,
    LOCATIONS,
    defender_target,
    location_penalty,
    location_severity,
)

__all__ = [
    "CHOOSES", "NEEDS_THE_FIELD", "RULE_CHOICES", "TemplateKey", "arm_states", "morale_rows",
    "nearest_in_order", "pairs", "place_rows", "ruled_rows", "rules_row", "shield_sides",
    "target_orders", "template_key",
]  # fmt: skip


def rules_row(battle: Any) -> np.ndarray:
    """The rules the kernel reads (:func:`~.kernel.play`), as one row of ints."""
    options, rules = battle.options, battle.combat_rules
    w, d = rules.wounds, rules.damage
    stop = battle.stop
    penalties = [location_penalty(state) if state != "none" else 0 for state in LOCATION_STATES]
    big = 1 << 62
    return np.array(
        [
            rules.crit_effects != "none",
            5 if rules.crit_effects == "non_lethal" else 8,  # the pool: non-lethal, or all
            w.scratch_cap,
            w.overflow_past_near_death == "stay_near_death",
            options.fadad.knockdown_penalty,
            rules.damage.kill_above_9,
            options.fadad.actions_per_round,
            options.location.also_general_wound,
            *penalties,
            big if stop.max_rounds is None else stop.max_rounds,
            big if stop.max_seconds is None else stop.max_seconds,
            battle._round_length(),
            options.engine.max_on_one,
            options.fadad.initiative == "rolled",
            -1 if options.knockout_rounds is None else options.knockout_rounds,
            w.max_three_levels,
            w.no_near_death_unless_incap,
            w.point_spend,
            FAIR,  # what a morale check must reach
            battle._checks_morale,
            rules.target_mode == "target_gate_gte",  # codes.GATE
            WOUND_MODELS.index(d.wound_model),  # codes.DAMAGE: the damage rules (damage.py)
            DAMAGE_ROLLS.index(d.damage_roll),
            d.double_rd,
            d.graze,
            d.minmidmax_minus2,
            d.minmidmax_epic,
            d.kill_above_9,
            d.situational_levels,
            d.graze_scale_step,
            d.scale_damage_roll,
            d.weapon_groups,  # codes.GROUPS
            rules.weapon_size_comparison,  # codes.SIZES
            d.piercing_min_rd,  # codes.PIERCE_RD
        ],
        dtype=np.int64,
    )


def pairs(kinds: list[tuple[int, Any, int | None]], ranks: int, mode: str) -> np.ndarray:
    """The Target and the attacker's shield modifier of each pair of kinds (a Scale, a
    shield, a shield cap) at each rank on the defender's shield side, as ``exchange``
    finds them: by Scales alone where neither carries a shield."""
    pairs = np.zeros((len(kinds), len(kinds), ranks, 2), dtype=np.int64)
    for a, (a_scale, a_shield, _) in enumerate(kinds):
        for d, (d_scale, d_shield, d_cap) in enumerate(kinds):
            for rank in range(ranks):
                if a_shield is None and d_shield is None:
                    pairs[a, d, rank] = defender_target(d_scale - a_scale, 0), 0
                else:
                    pairs[a, d, rank] = _pair_constants(
                        a_scale, a_shield, d_scale, d_shield, rank, mode, d_cap
                    )
    return pairs


def shield_sides(members: list[Any]) -> np.ndarray:
    """For each defender, whether each fighter stands on the side its shield faces
    (``moving.shield_rank``: where all touch nobody moves, so it holds all battle), then
    room for a round's list of them (:func:`~.outcomes._shield_rank`)."""
    n = len(members)
    sides = np.zeros((n, 2 * n + 2), dtype=np.int64)
    for t, defender in enumerate(members):
        for i, attacker in enumerate(members):
            sides[t, i] = moving.shield_rank(defender, attacker)
        sides[t, n] = -1
    return sides


def arm_states(location: Any) -> np.ndarray:
    """The weapon arm's state a Called Location leaves (``aims.part_state``'s), by the
    blow's damage number plus one and RD (to 63 each: the last row and column stand for
    more; the first row for every damage number below 0, which a FUDGE model's hit may
    have and no threshold, 0 at least, reaches). Read, never written: one table for each
    pair of the options it depends on (4,160 readings a table, a battle's set-up)."""
    thresholds = location.severity_thresholds
    return _arm_states(
        None if thresholds is None else tuple(thresholds), location.minimum_margin_cap_scale
    )


@lru_cache(maxsize=64)
def _arm_states(thresholds: Any, cap_scale: Any) -> np.ndarray:
    """:func:`arm_states` of the options' ``severity_thresholds`` and
    ``minimum_margin_cap_scale``."""
    arm = LOCATIONS["arm"]
    table = np.zeros((65, 64), dtype=np.int64)
    for damage in range(-1, 64):
        for rd in range(64):
            state = location_severity(
                damage, max(rd, arm.min_rd), arm.min_rd, 0,
                thresholds=thresholds, cap_scale=cap_scale,
            )  # fmt: skip
            table[damage + 1, rd] = LOCATION_STATES.index(state)
    return table


def morale_rows(
    members: list[Any], bands: list[Any]
) -> tuple[np.ndarray, np.ndarray, list[list[str]]]:
    """Each fighter's morale (:mod:`~.morale`'s columns, in their order): whether it
    checks (a casualty policy's thresholds; ``Character.checks_morale`` says a player
    character never does), its band (its place in ``bands``), its morale trait, whether
    its band surrenders when it breaks, how many thresholds; the thresholds; and each
    threshold as a check's reason reads."""
    at = {id(m): i for i, m in enumerate(members)}
    policies = [m.policies.morale for m in members]
    most = max((len(p.thresholds) for p in policies if type(p) is CasualtyMorale), default=0)
    rows = np.zeros((len(members), 5), dtype=np.int64)
    levels = np.zeros((len(members), max(most, 1)), dtype=np.float64)
    reasons: list[list[str]] = [[] for _ in members]
    band_of = [0] * len(members)
    for k, band in enumerate(bands):
        for m in band:
            band_of[at[id(m)]] = k
    rows[:, 1] = band_of
    rows[:, 2] = [m.morale for m in members]
    for i, m in enumerate(members):
        policy = policies[i]
        if type(policy) is CasualtyMorale and m.checks_morale:  # else never a reason
            rows[i, 0] = 1
            rows[i, 3] = policy.choice is MoraleChoice.SURRENDER
            rows[i, 4] = len(policy.thresholds)
            levels[i, : len(policy.thresholds)] = policy.thresholds
            reasons[i] = [f"{round(t * 100)}% losses" for t in policy.thresholds]
    return rows, levels, reasons


SPENDS = {KeepPoints: 0, SaveFromDeath: 1, SaveFromDeathOnly: 2}
"""When each shipped Ité policy spends a point (``swing.NEVER``, ``ON_DEATHLY``,
``ON_DEAD``); a player character with another policy is played in Python."""


CHOOSES = {
    FixedTargeting: 1, NearestTargeting: 2, WeakestTargeting: 3, StrongestTargeting: 4,
    DuelTargeting: 5, StayBack: 6, RulesTargeting: 7,
}  # fmt: skip
"""How the kernel takes a new target for a targeting policy not ``random_in_reach``:
``swing.FIRST``, ``NEAREST``, ``WEAKEST``, ``STRONGEST``, ``DUEL``, ``STAY_BACK``,
``RULES`` (their values, here without loading numba; a test holds them equal); with
another policy, a GM's own among them, the battle is played in Python."""

RULE_CHOICES = {"random": 0, "first": 1, "weakest": 3, "strongest": 4, "sticky": 8}
"""A targeting rule's choice by the kernel's code (``swing.RANDOM``, ``FIRST``,
``WEAKEST``, ``STRONGEST``, ``STICKY``; a test holds them equal)."""


def ruled_rows(members: list[Any]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The rules of each :class:`~fadad_agents.policies.core.rules.RulesTargeting` among
    ``members``' policies, for the kernel to evaluate (``choosing._ruled``): ``ruled[p,
    r]``, policy ``p``'s rule ``r`` as its choice's code (-1 past the last rule), how many
    comparisons, then each comparison's quantity and operator (``codes.QUANTITIES``,
    ``codes.OPERATORS``); ``worth[p, r, k]`` each comparison's value; and each member's
    policy ``p`` (-1: another policy)."""
    found: dict[int, int] = {}
    policies: list[Any] = []
    which = []
    for m in members:
        policy = m.policies.targeting
        if type(policy) is not RulesTargeting:
            which.append(-1)
            continue
        if id(policy) not in found:
            found[id(policy)] = len(policies)
            policies.append(policy)
        which.append(found[id(policy)])
    rules = max((len(p.rules) for p in policies), default=0) + 1
    terms = max((len(r.terms) for p in policies for r in p.rules), default=0)
    ruled = np.full((max(len(policies), 1), rules, 2 + 2 * terms), -1, dtype=np.int64)
    worth = np.zeros((max(len(policies), 1), rules, max(terms, 1)), dtype=np.float64)
    for p, policy in enumerate(policies):
        for r, rule in enumerate(policy.rules):
            ruled[p, r, :2] = RULE_CHOICES[rule.choice], len(rule.terms)
            for k, (quantity, op, value) in enumerate(rule.terms):
                code = OPERATORS.index(op) if op else -1
                ruled[p, r, 2 + 2 * k : 4 + 2 * k] = QUANTITIES.index(quantity), code
                worth[p, r, k] = value
    return ruled, worth, which


NEEDS_THE_FIELD = (NearestTargeting, DuelTargeting)
"""The policies that look for the nearest foe on the field (none: Python's own search)."""


def _reach(policy: Any) -> int:
    """How many foes ``policy`` weighs up for the most or least wounded (0: none)."""
    if type(policy) is RulesTargeting:  # its weakest and strongest selectors' reach
        return int(getattr(policy.selectors["weakest"], "reach", 0))
    return int(getattr(policy, "reach", 0))


def target_orders(members: list[Any], moving: bool = False) -> tuple[np.ndarray, list[int]]:
    """``near[i, j]``: where foe ``j`` stands in the order fighter ``i`` takes its foes
    when it targets the nearest (``NearestTargeting``, ``DuelTargeting``): by the square
    of the distance between them as ``Field.nearest`` measures it, ties to the lower
    ``unique_id`` (nobody moves in a melee where all touch: the order holds for the
    battle); of more than two sides, by the distance as ``Space.nearest_foe`` compares
    each side's nearest (``math.dist``), ties to the first side, then as ``Field.nearest``
    (the same choice while, side by side, the one order never contradicts the other:
    :func:`nearest_in_order`). A single 0 where nobody targets the nearest, or where they
    move (``moving``: open ground, the nearest searched at each choice); and how many
    foes each weighs up for the most or least wounded (its policy's ``reach``; 0 for
    others)."""
    reaches = [_reach(m.policies.targeting) for m in members]
    nearest = [type(m.policies.targeting) in NEEDS_THE_FIELD for m in members]
    if moving or not any(nearest):
        return np.zeros((1, 1), dtype=np.int64), reaches
    n = len(members)
    many = len({m.side for m in members}) > 2
    near = np.zeros((n, n), dtype=np.int64)
    for i in (i for i, m in enumerate(members) if nearest[i]):
        keys = _foe_keys(members, i, many)
        for rank, j in enumerate(sorted(keys, key=keys.__getitem__)):
            near[i, j] = rank
    return near, reaches


def nearest_in_order(members: list[Any]) -> bool:
    """Whether, for each fighter of more than two sides targeting the nearest, each side's
    foes stand in the same order by their squares of distance (``Field.nearest``'s, ties to
    the lower ``unique_id``) as by their distances (``math.dist``): then the nearest
    ``Space.nearest_foe`` finds is the first in :func:`target_orders`' order. Floating
    point could part the two (a hair's difference in one not seen in the other); such a
    battle is left to Python."""
    for i, m in enumerate(members):
        if type(m.policies.targeting) not in NEEDS_THE_FIELD:
            continue
        keys = _foe_keys(members, i, True)
        last: dict[int, float] = {}  # each side's distance so far, in Field.nearest's order
        for j in sorted(keys, key=lambda j: keys[j][2:]):
            side, dist = members[j].side, keys[j][0]
            if dist < last.get(side, dist):
                return False
            last[side] = dist
    return True


def _foe_keys(members: list[Any], i: int, many: bool) -> dict[int, tuple[Any, ...]]:
    """Fighter ``i``'s foes by their keys in :func:`target_orders`' order: the square of
    the distance and ``unique_id``; of more than two sides, the distance and side first."""
    m = members[i]
    x, y = m.position
    keys: dict[int, tuple[Any, ...]] = {}
    for j, foe in enumerate(members):
        if foe.side != m.side:
            px, py = foe.position
            px -= x
            py -= y
            key = (px**2 + py**2, foe.unique_id)
            keys[j] = (math.dist(foe.position, m.position), foe.side, *key) if many else key
    return keys


def place_rows(
    battle: Any, members: list[Any], bands: list[Any], at: dict[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """How many fighters of one size fit round one of another (the map's ``max_attackers``
    at most), and the room round each fighter (``room.admit``): whether it is never
    crowded, its size, its band (``at``: each member's index by its ``id``), then this
    round's places taken round it (none yet)."""
    sizes = sorted({m.radius for m in members})
    size = {r: k for k, r in enumerate(sizes)}
    proxies = [members[[m.radius for m in members].index(r)] for r in sizes]
    fit = np.array([[room(d, a, battle) for a in proxies] for d in proxies], dtype=np.int64)
    places = np.zeros((len(members), 5 + int(fit.max())), dtype=np.int64)
    band_of = [0] * len(members)
    for k, band in enumerate(bands):
        for m in band:
            band_of[at[id(m)]] = k
    places[:, 2] = band_of
    places[:, 0] = [never_crowded(m, battle) for m in members]
    places[:, 1] = [size[m.radius] for m in members]
    places[:, 3] = -1
    return fit, places


def state_row(m: Any, columns: Any) -> list[int]:
    """``m``'s row of the kernel's state (``columns``: :mod:`~.swing`'s) as a battle
    begins, but for its side, track and slot (the same for every member of a band: its
    policies and Ité points)."""
    c = columns
    pol = m.policies
    row = [0] * c.STATE_COLUMNS
    row[c._TARGET] = row[c._PENDING] = row[c._DUEL] = -1
    row[c._FIGHTING] = 1
    chooses = row[c._CHOOSES] = CHOOSES.get(type(pol.targeting), c.RANDOM)
    row[c._KEEPS] = chooses in (c.FIRST, c.NEAREST) or pol.keeps_target
    row[c._COUNT] = pol.attack_count
    if m.player:
        row[c._PLAYER] = 1
        row[c._ITE] = m.start_ite_points
        row[c._SPENDS] = SPENDS[type(pol.ite_points)]
    return row


def figure_row(f: Any, kinds: dict[Any, int], size: int | None) -> tuple[int, ...]:
    """A fighter's figures (``swing.FIGURES``) as its row holds them, its kind numbered in
    ``kinds`` (by Scale, shield and cap) if new; ``size`` its weapon and shield size."""
    kind = kinds.setdefault((f.scale, f.shield, f.shield_cap), len(kinds))
    return (
        f.attack, f.defence, f.odm, f.ddm, f.scale, f.armour, kind, f.shield is not None,
        -1 if f.weapon_group is None else f.weapon_group,
        armour_group(f.armour) if f.armour_group is None else f.armour_group,
        PIERCING.index(f.scale_piercing), f.scale if f.mass_scale is None else f.mass_scale,
        size or 0,
    )  # fmt: skip


def template_key(battle: Any, members: list[Any], order: Any) -> tuple[TemplateKey, list[Any]]:
    """What a :class:`Melee` is made from, as a key: the battle's rules (as the kernel
    reads them) and field, its bands, and each fighter's policies, figures and start track
    (by their ids: a battle built again from one scenario shares them), side, size, reach,
    stride, traits, initiative, place, bearing, name and index; and the objects whose ids
    it holds (kept with the template, so that no other object takes an id while it is)."""
    field = battle.field
    kept = [battle.options, battle.combat_rules]
    fighters = []
    place, traits = order._place, order._trait_key  # TurnOrder._key's, inlined (each fighter)
    for m in members:
        kept += (m.policies, m.armed, m.bare, m.start_track)
        fighters.append((
            id(m.policies), id(m.armed), id(m.bare), id(m.start_track), m.side, m.radius,
            m.reach, m.stride, m.size_value, m.player, m.start_ite_points, m.morale,
            traits[m.reaction] + (m.unique_id if place is None else place[id(m)]), m.position,
            m.bearing, m.name, m.index,
        ))  # fmt: skip
    bands = [band for _, _, band in order._bands]
    if [m for band in bands for m in band] == members:  # (by identity) each band in turn
        banded: tuple[Any, ...] = tuple(map(len, bands))
    else:
        at = {id(m): i for i, m in enumerate(members)}
        banded = tuple(tuple(at[id(m)] for m in band) for band in bands)
    key = (
        rules_row(battle).tobytes(), id(battle.options), id(battle.combat_rules),
        len(battle.sides), len(battle.agents),
        None if field is None else (
            field.cell, field.widest, field.width, field.height, field.max_attackers,
            field.all_touching, field.sides,
        ),
        banded,
        tuple(fighters),
    )  # fmt: skip
    return TemplateKey(key), kept


class TemplateKey(tuple):  # type: ignore[type-arg]  # (of anything)
    """A template's key (:func:`template_key`), its hash found once: a big battle's is a
    tuple of 20,000 fighters' own, 10 ms to hash at each look-up and each move to the
    end of the templates kept."""

    def __init__(self, _: Any) -> None:
        self.hash = tuple.__hash__(self)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return hash(other) == self.hash and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other
