"""The documentation site's generated pages: rules options, policies, fields, the catalogue,
the command line and the Python API, written as Markdown from the code at build time.

``docs/hooks.py`` adds :func:`generated_pages` to the site (``make docs``), so none of
these pages is kept in the repository and none can drift from the code.
"""

from __future__ import annotations

import inspect
from itertools import groupby

from fadad_agents.reference.catalog import card_rows
from fadad_agents.reference.fields import FIELD_KINDS, field_docs
from fadad_agents.reference.options import option_docs
from fadad_agents.reference.policies import policy_docs
from fadad_agents.schema.catalog import KINDS, default_catalog

__all__ = ["generated_pages", "md"]


def md(text: str) -> str:
    """Plain text made safe for Markdown: no stray HTML tags, emphasis or table cells."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("*", r"\*").replace("|", r"\|")


def options_page() -> str:
    """Every rules option, by section, with its rules page."""
    lines = [
        "# Rules options",
        "",
        "Every point the rules leave open is an option a scenario sets in its `rules:` block",
        "(`rules: {fadad.initiative: static}`). Each entry gives the default, the values",
        "allowed and what it settles: `C-nn` is a conflict between rule sets, `A-nn` an",
        "ambiguity; PROPOSED marks the engine's reading where the sources are silent.",
        "The same list is printed by `fadad options [PREFIX]`.",
        "",
    ]
    for (heading, page, section), rows in groupby(
        option_docs(), key=lambda r: (r.heading, r.rules_page, r.section)
    ):
        lines += [
            f"## {heading} {{#{section or 'top-level'}}}",
            "",
            f"Rules: [{heading}](../{page})",
            "",
        ]
        for row in rows:
            lines.append(f"- **`{row.key}`** = `{row.default}` (allowed: {md(row.allowed)})  ")
            lines.append(f"  {md(row.description)}")
        lines.append("")
    return "\n".join(lines)


def policies_page() -> str:
    """Every policy by decision, with its parameters."""
    lines = [
        "# Policies",
        "",
        "Each fighter, crew, unit and ship decides through policies chosen by name in a",
        "scenario (`policies: {targeting: {name: duel, params: {reach: 6}}}`), on the side",
        "or on the force. The same list is printed by `fadad policies [DECISION]`.",
        "",
    ]
    for (label, kind), rows in groupby(policy_docs(), key=lambda r: (r.label, r.kind)):
        lines += [f"## {label} {{#{kind}}}", ""]
        for row in rows:
            mark = f" *(default for {row.default})*" if row.default else ""
            lines.append(f"- **`{row.name}`**{mark}: {md(row.summary)}")
            for p in row.params:
                lines.append(f"    - `{p.name}`: {md(p.type)}, default `{p.default}`")
        lines.append("")
    return "\n".join(lines)


def fields_page() -> str:
    """The fields of every kind of block."""
    lines = [
        "# Fields",
        "",
        "What a scenario or catalogue file may say, block by block, read from the schema the",
        "loader validates with. Ladder levels take words (`Great`, `Good-1`) or numbers",
        "(`+2`). The same lists are printed by `fadad fields KIND`.",
        "",
    ]
    for kind, cls in FIELD_KINDS.items():
        summary = (inspect.getdoc(cls) or "").split("\n\n")[0].replace("\n", " ")
        lines += [f"## {kind}", "", md(summary), "", "| field | type | default | meaning |"]
        lines.append("|---|---|---|---|")
        for row in field_docs(kind):
            cells = (f"`{row.name}`", md(row.type), md(row.default), md(row.description))
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def catalog_page() -> str:
    """Every catalogue entry's card."""
    catalog = default_catalog()
    lines = [
        "# Catalogue",
        "",
        "The things that fight, as shipped in `models/`. A scenario names an entry",
        "(`weapon: weapons/broadsword`) and may override any field",
        "(`weapon: {model: weapons/broadsword, magic_plus: 1}`). The same cards are printed",
        "by `fadad catalog show KIND/NAME`.",
        "",
    ]
    for kind in KINDS:
        lines += [f"## {kind}", ""]
        for ref in catalog.names(kind):
            title, rows = card_rows(ref)
            lines += [f"### {md(title)}", ""]
            free = [value for label, value in rows if label is None]
            if kind == "tables":
                lines += ["```text", *free, "```", ""]
                continue
            lines += [md(line) for line in free] + ([""] if free else [])
            lines += ["| stat | value |", "|---|---|"]
            lines += [
                f"| {md(label)} | {md(value)} |" for label, value in rows if label is not None
            ]
            lines.append("")
    return "\n".join(lines)


def generated_pages() -> dict[str, str]:
    """Path under ``docs/`` -> Markdown of each page generated from the registries and
    the schema (the command-line and API pages come from the layers above, in
    ``tools/docs_hooks.py``)."""
    return {
        "reference/options.md": options_page(),
        "reference/policies.md": policies_page(),
        "reference/fields.md": fields_page(),
        "reference/catalog.md": catalog_page(),
    }
