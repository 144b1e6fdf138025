"""Ship combat: Spelljammer (``ships-spelljammer.md``) and FADAD 1-minute ship rules
(``ships-fadad.md``).

Spelljammer movement, gunnery, close action, crew, criticals, fire and chases (modules
named for the rule), FADAD ship attacks, damage and criticals (``fadad_*``), the effects
both share (:mod:`~fadad_agents.rules.ships.effects`) and the ``ship``, ``sj`` and ``fire``
options. Imports only :mod:`fadad_agents.rules.core`.
"""
