"""JSON as the standard defines it: Python's reader also takes ``NaN``, ``Infinity`` and
``-Infinity``, which no other JSON reader does and which a documents file or a manifest written
by hand should not carry unnoticed."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["loads"]


def loads(text: str) -> Any:
    """``json.loads(text)``, refusing ``NaN`` and the infinities with a ``ValueError`` naming
    them (``json.JSONDecodeError`` for anything else malformed)."""
    return json.loads(text, parse_constant=_refuse)


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not JSON, which has no NaN or infinities")
