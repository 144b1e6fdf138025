"""The reference as terminal text: what ``fadad options``, ``policies`` and ``fields`` print."""

from __future__ import annotations

import inspect
import textwrap
from itertools import groupby

from fadad_agents.reference.fields import FIELD_KINDS, field_docs, field_kind
from fadad_agents.reference.options import option_docs
from fadad_agents.reference.policies import policy_docs

__all__ = ["fields_text", "options_text", "policies_text"]

_WIDTH = 92


def _wrapped(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, _WIDTH, initial_indent=indent, subsequent_indent=indent) or []


def options_text(prefix: str | None = None) -> str:
    """Every rules option (or those under ``prefix``), grouped by section."""
    lines: list[str] = []
    for heading, rows in groupby(option_docs(prefix), key=lambda r: r.heading):
        lines.append(f"{heading}:")
        for row in rows:
            lines.append(f"  {row.key} = {row.default}    ({row.allowed})")
            lines.extend(_wrapped(row.description, "      "))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def policies_text(decision: str | None = None) -> str:
    """Every policy (or those of one decision) with its parameters and defaults."""
    lines: list[str] = []
    for label, rows in groupby(policy_docs(decision), key=lambda r: (r.label, r.kind)):
        title, kind = label
        lines.append(f"{title}:" if title == kind else f"{title} (registry kind {kind}):")
        for row in rows:
            mark = f"   [default for {row.default}]" if row.default else ""
            lines.append(f"  {row.name}{mark}")
            lines.extend(_wrapped(row.summary.replace("``", ""), "      "))
            lines.extend(f"      {p.name}: {p.type}{_default(p.default)}" for p in row.params)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _default(value: str) -> str:
    return " (required)" if value == "required" else f" = {value or '""'}"


def _summary(cls: type) -> str:
    return (inspect.getdoc(cls) or "").split("\n\n")[0].replace("\n", " ").replace("``", "")


def fields_text(kind: str | None = None) -> str:
    """The fields of one kind of block, or every kind with what it is."""
    if kind is None:
        width = max(len(k) for k in FIELD_KINDS)
        rows = [f"  {k:<{width}}  {_summary(cls)}" for k, cls in FIELD_KINDS.items()]
        return "Kinds of block (fadad fields KIND):\n" + "\n".join(rows) + "\n"
    lines = [f"{kind}: {_summary(field_kind(kind))}"]
    for row in field_docs(kind):
        lines.append(f"  {row.name}: {row.type}{_default(row.default)}")
        lines.extend(_wrapped(row.description, "      "))
    return "\n".join(lines) + "\n"
