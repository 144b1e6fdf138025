"""The codes the compiled melee's kernel reads in its rules row for the rules of a swing:
the target mode, the wound model and Anna's damage options (:func:`~.tables.rules_row`
writes them, :mod:`~.swing` and :mod:`~.damage` read them).

A module of constants alone: a compiled function is compiled again whenever a module it
imports changes (:mod:`~fadad_agents.agents.core.field.caching`), so the kernel imports
its codes from here, not from the tables made with half the package.
"""

from __future__ import annotations

__all__ = [
    "DAMAGE", "DAMAGE_ROLLS", "EQ", "FACTOR_1DF", "FADAD", "FOES", "FREEFORM", "FRIENDS", "GATE",
    "GE", "GROUPS", "GT", "HALVE", "IGNORE", "LE", "LEVEL_1DF", "LIMITED_4DF", "LOSSES", "LT",
    "MINMIDMAX", "NE", "NO_ROLL", "NUMERIC", "OPERATORS", "OUTNUMBERED", "PARITY", "PIERCE_RD",
    "PIERCING", "QUANTITIES", "ROUND", "SIDE", "SIZES", "UNLIMITED_4DF", "WOUND", "WOUND_MODELS",
]  # fmt: skip

WOUND_MODELS = ("fadad", "fudge_numeric", "fudge_minmidmax", "fudge_freeform")
"""The wound models by their code in the rules row (``wound_model``)."""
FADAD, NUMERIC, MINMIDMAX, FREEFORM = range(4)
DAMAGE_ROLLS = ("none", "1dF_factor", "1dF_level", "parity", "4dF_limited", "4dF_unlimited")
"""FUDGE numeric damage rolls by their code in the rules row (``fudge.damage_roll``)."""
NO_ROLL, FACTOR_1DF, LEVEL_1DF, PARITY, LIMITED_4DF, UNLIMITED_4DF = range(6)
GATE = 23
"""Where the rules row holds the target mode: 1 for ``target_gate_gte`` (the Target a
minimum rolled degree: an undefended RD 0 hits; a defended hit needs both RD 1 and the
Target), 0 for effective opposition."""
DAMAGE = 24
"""Where the damage rules begin in the rules row (:func:`~.tables.rules_row`; read by
:mod:`~.damage`): the wound model, the damage roll, ``fudge.double_rd``, ``graze``,
``minmidmax_minus2``, ``minmidmax_epic``, ``minmidmax_kill_above_9``,
``situational_levels``, ``graze_scale_step``, ``scale_damage_roll``, ``weapon_groups``."""
GROUPS = DAMAGE + 10
"""Where the rules row holds ``fudge.weapon_groups`` (Anna's weapon and armour groups)."""
SIZES = DAMAGE + 11
"""Where the rules row holds ``fadad.weapon_size_comparison`` (FUDGE's weapon and shield
sizes compared, both ways: A-04)."""
PIERCE_RD = DAMAGE + 12
"""Where the rules row holds ``scale_piercing_min_rd``: the RD from which a scale-piercing
weapon halves or ignores the defender's Mass Scale (section 11)."""
PIERCING = ("none", "halve", "ignore")
"""A weapon's ``scale_piercing`` by its code in a fighter's figures."""
HALVE, IGNORE = 1, 2

QUANTITIES = ("wound", "round", "side", "losses", "foes", "friends", "outnumbered")
"""What a targeting rule's comparison reads (``policies.core.rules``), by its code in the
rules' rows (:func:`~.tables.ruled_rows`)."""
WOUND, ROUND, SIDE, LOSSES, FOES, FRIENDS, OUTNUMBERED = range(7)
OPERATORS = (">=", "<=", "==", "!=", ">", "<")
"""A targeting rule's comparison operators by their code."""
GE, LE, EQ, NE, GT, LT = range(6)
