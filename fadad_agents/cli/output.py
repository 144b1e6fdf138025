"""How the ``fadad`` commands print: one line ``fadad COMMAND: what`` for bad input (exit
status 2), and whatever a file names with its control characters escaped."""

from __future__ import annotations

import typer

__all__ = ["bad_file", "fail", "shown"]


def fail(command: str, exc: BaseException) -> typer.Exit:
    """Print ``fadad COMMAND: message`` on one line to stderr; exit status 2."""
    text = " ".join(shown(str(exc)).split())
    typer.echo(f"fadad {command}: {text}", err=True)
    return typer.Exit(2)


def bad_file(problems: list[str]) -> typer.Exit:
    """Print a file's problems, one line each, to stderr; exit status 2."""
    for line in problems:
        typer.echo(line, err=True)
    return typer.Exit(2)


def shown(text: str) -> str:
    """Text as printed: control characters escaped, line by line - the line breaks of a
    multi-line summary or table are the program's own (names and descriptions cannot hold
    one: validation refuses control characters in them), so they stay line breaks."""
    from fadad_agents.schema.text import escaped

    return "\n".join(escaped(line) for line in text.split("\n"))
