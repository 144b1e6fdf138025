"""RulesOptions: every point the seeds leave open, as a named option with its default.

Keys follow ``CONFLICTS.md`` section 3 (``fadad.target_mode`` is
``RulesOptions().fadad.target_mode``). Each field's description names the conflict or
ambiguity it settles (C-nn, A-nn) and the default chosen there. Options are frozen
pydantic models: validate them once at the boundary, then pass the object around.

Each rule system keeps its options beside its rules and this module composes them:
the personal-combat keys in :mod:`~fadad_agents.rules.personal.options`, ``ship``,
``sj`` and ``fire`` in :mod:`~fadad_agents.rules.ships.options`, ``fae`` in
:mod:`~fadad_agents.rules.fae.options`, ``mass`` in :mod:`~fadad_agents.rules.mass.options`
and ``engine`` in :mod:`~fadad_agents.rules.core.options`.

>>> opts = RulesOptions.from_flat({"fadad.target_mode": "target_gate_gte"})
>>> opts.fadad.target_mode, opts.shield_mode
('target_gate_gte', 'fadad_target')
"""

from __future__ import annotations

from typing import Any

from fadad_agents.rules.core.options import EngineOptions
from fadad_agents.rules.fae.options import FaeOptions
from fadad_agents.rules.mass.options import MassOptions
from fadad_agents.rules.personal.options import PersonalOptions
from fadad_agents.rules.ships.options import FireOptions, ShipOptions, SjOptions

__all__ = ["RulesOptions"]


class RulesOptions(PersonalOptions):
    """All rules options of a battle. Defaults reproduce every seed example.

    The personal-combat keys come from :class:`PersonalOptions`; each other rule system
    adds its own section.
    """

    ship: ShipOptions = ShipOptions()
    fire: FireOptions = FireOptions()
    sj: SjOptions = SjOptions()
    fae: FaeOptions = FaeOptions()
    mass: MassOptions = MassOptions()
    engine: EngineOptions = EngineOptions()

    @classmethod
    def from_flat(cls, flat: dict[str, Any]) -> RulesOptions:
        """Build options from dotted keys as CONFLICTS.md writes them (``"fadad.initiative"``)."""
        nested: dict[str, Any] = {}
        for key, value in flat.items():
            head, _, tail = key.partition(".")
            if tail:
                nested.setdefault(head, {})[tail] = value
            else:
                nested[head] = value
        return cls.model_validate(nested)

    def flat(self) -> dict[str, Any]:
        """Every option as a dotted key, the inverse of :meth:`from_flat`."""
        out: dict[str, Any] = {}
        for key, value in self.model_dump().items():
            if isinstance(value, dict):
                out.update({f"{key}.{k}": v for k, v in value.items()})
            else:
                out[key] = value
        return out
