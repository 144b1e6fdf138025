"""MkDocs hooks: add the pages generated from the code to the documentation site.

``mkdocs.yml`` names this file under ``hooks:``. The reference pages (rules options,
policies, fields, catalogue) come from :func:`fadad_agents.reference.pages.generated_pages`;
the command-line page from the typer app and the API page from the public names'
signatures and docstrings, here because they read the layers above ``reference/``. None of
them is stored in ``docs/``, so none can drift from the code.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import typer.core
import typer.main
from mkdocs.structure.files import File, Files

from fadad_agents.reference.pages import generated_pages, md


def on_files(files: Files, config: Any) -> Files:
    """Add every generated page to the site's files."""
    pages = {**generated_pages(), "reference/cli.md": cli_page(), "reference/api.md": api_page()}
    for path, text in pages.items():
        files.append(File.generated(config, path, content=text))
    return files


def cli_page() -> str:
    """Every command of ``fadad`` with its arguments and options, from the typer app."""
    from fadad_agents.cli import app

    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    lines = ["# Command line", "", md(group.help or ""), ""]
    for name in sorted(group.commands):
        command = group.commands[name]
        lines += [f"## `fadad {name}`", "", md(inspect.cleandoc(command.help or "")), ""]
        for param in command.params:
            if isinstance(param, typer.core.TyperArgument):
                text = md(getattr(param, "help", "") or "")
                lines.append(f"- `{(param.name or '').upper()}`: {text}")
            elif isinstance(param, typer.core.TyperOption) and "--help" not in param.opts:
                flags = ", ".join(f"`{o}`" for o in param.opts)
                lines.append(f"- {flags}: {md(param.help or '')}")
        lines.append("")
    return "\n".join(lines)


_SECTION = re.compile(r"^(Args|Returns|Raises|Attributes|Yields):$")
_ROLE = re.compile(r":\w+:`~?([^`]+)`")


def _docstring(obj: Any) -> list[str]:
    """A Google-style docstring as Markdown: sections in bold, their items as a list;
    doctest examples as code."""
    out: list[str] = []
    section = example = False
    for line in _ROLE.sub(r"``\1``", inspect.getdoc(obj) or "").splitlines():
        if _SECTION.match(line):
            out += ["", f"**{line[:-1]}**", ""]
            section = True
        elif line.startswith(">>>") and not example:
            out += ["```python", line]
            example = True
        elif example:
            if line.strip():
                out.append(line)
            else:
                out += ["```", ""]
                example = False
        elif section and line.startswith("        ") and out:
            out[-1] += " " + md(line.strip())
        elif section and line.startswith("    "):
            out.append(f"- {md(line.strip())}")
        else:
            section = False
            out.append(md(line))
    return [*out, "```"] if example else out


def api_page() -> str:
    """The Python API page: each public name's signature and docstring."""
    import fadad_agents
    from fadad_agents.analysis import (
        Comparison,
        SweepResult,
        compare,
        fighter_odds,
        read_results,
        summary_table,
    )
    from fadad_agents.engine import BattleResult
    from fadad_agents.table import TableSession, load_session, save_session

    names: dict[str, Any] = {
        "fadad_agents.load": fadad_agents.load,
        "fadad_agents.run": fadad_agents.run,
        "fadad_agents.sweep": fadad_agents.sweep,
        "fadad_agents.ScenarioError": fadad_agents.ScenarioError,
        "fadad_agents.Limits": fadad_agents.Limits,
        "BattleResult": BattleResult,
        "SweepResult": SweepResult,
        "fadad_agents.analysis.read_results": read_results,
        "fadad_agents.analysis.summary_table": summary_table,
        "fadad_agents.analysis.fighter_odds": fighter_odds,
        "fadad_agents.analysis.compare": compare,
        "Comparison": Comparison,
        "fadad_agents.table.TableSession": TableSession,
        "fadad_agents.table.save_session": save_session,
        "fadad_agents.table.load_session": load_session,
    }
    lines = ["# Python API", "", "Everything the command line does is one call away.", ""]
    for name, obj in names.items():
        head = "class " if inspect.isclass(obj) else ""
        lines += [f"## `{name}`", "", "```python", f"{head}{name}{inspect.signature(obj)}"]
        lines += ["```", "", *_docstring(obj), ""]
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_") or not inspect.getdoc(member):
                    continue
                if callable(member) or isinstance(member, property):
                    lines += [f"### `{name}.{attr}`", "", *_docstring(member), ""]
    return "\n".join(lines)
