"""Every rules option as a GM reads it: key, allowed values, default, what it settles.

Read from :class:`~fadad_agents.rules.options.RulesOptions` itself (field types, defaults,
constraints and descriptions), so the reference cannot drift from the code.

>>> row = option_docs("fadad.initiative")[0]
>>> row.key, row.allowed, row.default
('fadad.initiative', 'rolled | static', 'rolled')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from fadad_agents.reference.text import not_found, type_text, value_text
from fadad_agents.rules.options import RulesOptions

__all__ = ["SECTIONS", "OptionDoc", "option_docs"]


SECTIONS: dict[str, tuple[str, str]] = {
    "": ("Wounds and damage (top-level keys)", "rules/wounds.md"),
    "fadad": ("FADAD personal combat", "rules/personal.md"),
    "fudge": ("Anna's Fantasy FUDGE wound options", "rules/wounds.md"),
    "range": ("Ranged combat", "rules/personal.md"),
    "move": ("Movement", "rules/personal.md"),
    "location": ("Hit locations", "rules/personal.md"),
    "pc_death": ("Player-character death", "rules/wounds.md"),
    "ship": ("Ships (both rule sets)", "rules/ships.md"),
    "fire": ("Fire aboard ships", "rules/ships.md"),
    "sj": ("Spelljammer ship rules", "rules/ships.md"),
    "fae": ("Fae Domains", "rules/fae.md"),
    "mass": ("Mass combat", "rules/mass.md"),
    "engine": ("Engine readings (no seed rule)", "rules/engine.md"),
}
"""Each option section: its heading and the rules page of the documentation site."""

_CODE = re.compile(r"\b([AC]-\d\d)\b")


@dataclass(frozen=True, slots=True)
class OptionDoc:
    """One rules option.

    Attributes:
        key: dotted key as a scenario's ``rules:`` block writes it.
        section: the section key (``fadad``; ``""`` for top-level keys).
        allowed: the values it takes, as text.
        default: the default, as a scenario would write it.
        description: what it does and what it settles (from the option's description).
        codes: the conflicts and ambiguities it settles (``A-05``, ``C-13``).
        proposed: the engine's reading where the seeds are silent.
    """

    key: str
    section: str
    allowed: str
    default: str
    description: str
    codes: tuple[str, ...]
    proposed: bool

    @property
    def heading(self) -> str:
        """The section's heading (``FADAD personal combat``)."""
        return SECTIONS[self.section][0]

    @property
    def rules_page(self) -> str:
        """The documentation page of the rules the option belongs to."""
        return SECTIONS[self.section][1]


def _bounds(info: FieldInfo) -> str:
    marks = ((Ge, "ge", ">="), (Gt, "gt", ">"), (Le, "le", "<="), (Lt, "lt", "<"))
    parts = []
    for meta in info.metadata:
        for kind, attr, sign in marks:
            if isinstance(meta, kind):
                parts.append(f"{sign} {getattr(meta, attr)}")
    return f" ({', '.join(parts)})" if parts else ""


def _doc(key: str, section: str, info: FieldInfo) -> OptionDoc:
    text = " ".join((info.description or "").split())
    return OptionDoc(
        key=key,
        section=section,
        allowed=type_text(info.annotation) + _bounds(info),
        default=value_text(info.default),
        description=text,
        codes=tuple(dict.fromkeys(_CODE.findall(text))),
        proposed="PROPOSED" in text,
    )


def _all() -> list[OptionDoc]:
    rows: list[OptionDoc] = []
    for name, info in RulesOptions.model_fields.items():
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            rows.extend(_doc(f"{name}.{k}", name, f) for k, f in annotation.model_fields.items())
        else:
            rows.append(_doc(name, "", info))
    return rows


def option_docs(prefix: str | None = None) -> list[OptionDoc]:
    """Every option, or those whose key starts with ``prefix`` (``fadad``, ``sj.crash``).

    Raises:
        NotInReference: no option starts with ``prefix`` (with the nearest keys).
    """
    rows = _all()
    if not prefix:
        return rows
    chosen = [r for r in rows if r.key.startswith(prefix)]
    if not chosen:
        pool = [r.key for r in rows] + [r.section for r in rows if r.section]
        raise not_found("the start of a rules option", prefix, pool, "fadad options")
    return chosen
