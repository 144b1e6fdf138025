"""The ``fadad`` command line."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="fadad",
    help="Agent-based battle simulator for FADAD, FUDGE, Spelljammer and Fae Domains combat.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.command()
def version() -> None:
    """Print the package version."""
    from fadad_agents import __version__

    typer.echo(__version__)


def main() -> None:
    """Console-script entry point."""
    app()
