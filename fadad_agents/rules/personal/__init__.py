"""FADAD and FUDGE personal combat (``personal-combat.md``, ``wounds-and-healing.md``).

Melee and ranged attacks, shields, criticals, damage numbers of every wound model,
Min-Mid-Max, the Damage-Capacity track, healing, spirit combat, movement, and the
personal-combat options (:class:`~fadad_agents.rules.personal.options.PersonalOptions`).
Imports only :mod:`fadad_agents.rules.core`.
"""
