"""Reference tables shipped in ``models/tables/`` (ship volume Target, unit damage ...).

A :class:`Table` is plain data for display and for kernel tests to cross-check against:
``columns`` names each position of every row; cells are numbers, text or null.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from fadad_agents.schema.base import Name, Record, Ref, Scalar, Text

__all__ = ["Table"]


class Table(Record):
    """A rules table: a source reference, column names and rows."""

    catalog_kind: ClassVar[str | None] = "tables"

    model: Ref | None = None
    name: Name
    description: Text = ""
    source: Text = Field(description="Rules file and section, e.g. ships-fadad.md 3.")
    columns: list[Name] = Field(min_length=1, max_length=100)
    rows: list[Annotated[list[Scalar], Field(max_length=100)]] = Field(
        min_length=1, max_length=10_000
    )

    @model_validator(mode="after")
    def _row_widths(self) -> Table:
        for i, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise PydanticCustomError(
                    "row_width",
                    "row has {got} cells but there are {want} columns",
                    {"where": f"rows.{i}", "got": len(row), "want": len(self.columns)},
                )
        return self
