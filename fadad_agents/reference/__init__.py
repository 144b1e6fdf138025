"""The reference a GM reads, drawn from the code so it cannot drift: rules options (from
``RulesOptions``), policies and their parameters (from the policy registry), catalogue
entries (validated by the schema) and the fields of every stat block and scenario block.

``fadad options``, ``fadad policies``, ``fadad catalog show`` and ``fadad fields`` print
it; the documentation site's reference pages are generated from the same functions
(:mod:`~fadad_agents.reference.pages`).
"""

from fadad_agents.reference.catalog import card_rows, catalog_card
from fadad_agents.reference.fields import FIELD_KINDS, FieldDoc, field_docs
from fadad_agents.reference.options import SECTIONS, OptionDoc, option_docs
from fadad_agents.reference.policies import ParamDoc, PolicyDoc, decision_kinds, policy_docs
from fadad_agents.reference.render import fields_text, options_text, policies_text
from fadad_agents.reference.text import NotInReference

__all__ = [
    "FIELD_KINDS",
    "SECTIONS",
    "FieldDoc",
    "NotInReference",
    "OptionDoc",
    "ParamDoc",
    "PolicyDoc",
    "card_rows",
    "catalog_card",
    "decision_kinds",
    "field_docs",
    "fields_text",
    "option_docs",
    "options_text",
    "policies_text",
    "policy_docs",
]
