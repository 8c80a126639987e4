"""Translate the pgvector profile's ``where=`` dialect into the SQL it stands for.

The profile claims PostgreSQL's JSONB semantics (``placeborag_core/backends/pgvector/filters.py``);
this is that claim written out as SQL on the harness table's ``meta jsonb`` column, executed by
the real server:

========================  ==========================================================
ours                      SQL
========================  ==========================================================
``$eq $ne``, bounds       ``jsonb_path_match(meta, '$."k" == $v', jsonb_build_object('v', v))``
``$in``                   the same with ``==`` and the list as ``$v``
``$nin``                  ``'!='`` against each item, joined by ``AND``
``$exists``               ``meta ? 'k'`` (``NOT`` for false)
``$and $or $not``         ``AND``, ``OR``, ``NOT``
========================  ==========================================================

Anything outside the dialect (other operators, non-number bounds, ``None`` operands, empty
lists of clauses) raises :class:`UntranslatableError`: the profile must refuse it too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ._qdrant_filter import UntranslatableError

_NATIVE = {"$eq": "==", "$ne": "!=", "$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}


def _path(key: str) -> str:
    return "$." + json.dumps(key)


def _match(key: str, op: str, operand: Any, params: list[Any]) -> str:
    params.append(f"{_path(key)} {op} $v")
    params.append(json.dumps({"v": operand}))
    return "jsonb_path_match(meta, %s::jsonpath, %s::jsonb)"


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float) and value == value  # not NaN


def _field(key: str, op: str, operand: Any, params: list[Any]) -> str:
    if op in ("$gt", "$gte", "$lt", "$lte"):
        if isinstance(operand, bool) or not isinstance(operand, int | float):
            raise UntranslatableError(f"a bound must be a number: {operand!r}")
    elif op in ("$eq", "$ne"):
        if not _scalar(operand):
            raise UntranslatableError(f"{op} takes a scalar: {operand!r}")
    elif op in ("$in", "$nin"):
        if not isinstance(operand, list | tuple) or not all(_scalar(v) for v in operand):
            raise UntranslatableError(f"{op} takes a list of scalars: {operand!r}")
        if op == "$in":
            return _match(key, "==", list(operand), params)
        if not operand:
            return "TRUE"
        return "(" + " AND ".join(_match(key, "!=", v, params) for v in operand) + ")"
    elif op == "$exists":
        if not isinstance(operand, bool):
            raise UntranslatableError(f"$exists takes a bool: {operand!r}")
        params.append(key)
        return "(meta ? %s)" if operand else "(NOT (meta ? %s))"
    else:
        raise UntranslatableError(f"no JSONB form for {op}")
    return _match(key, _NATIVE[op], operand, params)


def to_sql(where: Any, params: list[Any]) -> str:
    """The SQL condition for ``where``; its parameters are appended to ``params``."""
    if not isinstance(where, Mapping) or not where:
        raise UntranslatableError(f"a clause must be a non-empty mapping: {where!r}")
    parts: list[str] = []
    for key, value in where.items():
        if key in ("$and", "$or"):
            if not isinstance(value, list | tuple) or not value:
                raise UntranslatableError(f"{key} takes a non-empty list")
            joined = f" {key[1:].upper()} ".join(to_sql(item, params) for item in value)
            parts.append(f"({joined})")
        elif key == "$not":
            parts.append(f"(NOT {to_sql(value, params)})")
        elif key.startswith("$"):
            raise UntranslatableError(f"unknown logical operator {key}")
        elif isinstance(value, Mapping):
            if not value:
                raise UntranslatableError("empty operator mapping")
            parts.extend(_field(key, op, operand, params) for op, operand in value.items())
        else:
            parts.append(_field(key, "$eq", value, params))
    return "(" + " AND ".join(parts) + ")"
