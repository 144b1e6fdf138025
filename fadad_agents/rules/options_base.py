"""The frozen pydantic base of every section of
:class:`~fadad_agents.rules.options.RulesOptions`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["OptionsSection"]


class OptionsSection(BaseModel):
    """One section of the rules options: frozen, and a misspelt key is an error."""

    model_config = ConfigDict(frozen=True, extra="forbid")
