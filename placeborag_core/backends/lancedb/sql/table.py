"""The table a filter is planned against: its columns, and DataFusion's messages about their names.

A filter names columns of the table (``Table``), plus the hidden columns lance adds to a search
(``HIDDEN_COLUMNS``). An unknown name is reported the way DataFusion reports it: a case hint, a
near name by normalised Levenshtein, or the list of valid fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from placeborag_core.backends.lancedb.arrow import ArrowType

__all__ = ["HIDDEN_COLUMNS", "Table", "TableColumn", "quoted", "similarity"]


HIDDEN_COLUMNS = (
    "_rowid",
    "_rowaddr",
    "_row_last_updated_at_version",
    "_row_created_at_version",
    "_rowoffset",
    "_distance",
)
"""Columns lance adds to a vector search; its optimiser lists them among the valid fields."""


@dataclass(frozen=True)
class TableColumn:
    """A column of the table: ``role`` says which part of a record it holds: ``id``, ``text``,
    ``vector``, ``key`` (one metadata key, ``key``), ``struct`` (the whole metadata)."""

    name: str
    type: ArrowType
    role: str
    key: str = ""


@dataclass(frozen=True)
class Table:
    """The columns a filter is planned against, in the table's order; ``statement``: what the
    filter belongs to: a ``"vector"`` search (lance then exposes ``_distance`` too), a
    ``"plain"`` search without a vector, or a ``"delete"`` (which reports an unknown column with
    DataFusion's own message)."""

    columns: tuple[TableColumn, ...]
    statement: str = "vector"

    @property
    def hidden(self) -> tuple[str, ...]:
        return HIDDEN_COLUMNS if self.statement == "vector" else HIDDEN_COLUMNS[:-1]

    def lookup(self, name: str, quote: str | None) -> TableColumn | None:
        """A top-level column: a quoted name matches exactly, an unquoted one ignoring case."""
        for column in self.columns:
            if column.name == name:
                return column
        if quote is None:
            folded = name.casefold()
            for column in self.columns:
                if column.name.casefold() == folded:
                    return column
        return None

    def valid_fields(self) -> str:
        """The list of lance's ``No field named`` (stage 3): struct columns expanded."""
        out: list[str] = []

        def walk(prefix: str, kind: ArrowType) -> None:
            if kind.kind == "struct" and kind.fields:
                for key, inner in kind.fields:
                    walk(f"{prefix}.`{key}`", inner)
            else:
                out.append(prefix)

        for column in self.columns:
            walk(f"`{column.name}`", column.type)
        return ", ".join(out)

    def field_not_found(self, name: str) -> str:
        """DataFusion's ``FieldNotFound`` message, as its optimiser raises it: a case hint, a
        near name (normalised Levenshtein >= 0.5) or the fields lance's search exposes."""
        names = [*(c.name for c in self.columns), *self.hidden]
        text = f"No field named {quoted(name)}"
        if name.lower() in (n.lower() for n in names):
            text += (
                ". Column names are case sensitive. You can use double quotes to refer to the "
                f'"{quoted(name)}" column or set the '
                "datafusion.sql_parser.enable_ident_normalization configuration"
            )
        near = next((n for n in names if similarity(n, name) >= 0.5), None)
        if near is not None:
            text += f". Did you mean '{near}'?"
        else:
            text += ". Valid fields are " + ", ".join(quoted(n) for n in names)
        return text + "."


def similarity(a: str, b: str) -> float:
    """strsim's ``normalized_levenshtein``."""
    if not a and not b:
        return 1.0
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            cost = 0 if char_a == char_b else 1
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost))
        previous = current
    return 1.0 - previous[-1] / max(len(a), len(b))


PLAIN_NAME = re.compile(r"[a-z_][a-z0-9_]*")


def quoted(name: str) -> str:
    """A column name as DataFusion prints it: double-quoted unless plain lower-case."""
    return name if PLAIN_NAME.fullmatch(name) else '"' + name.replace('"', '""') + '"'
