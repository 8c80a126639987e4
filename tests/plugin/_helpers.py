"""Helpers for the plugin tests."""

from __future__ import annotations


def literal(text: str) -> str:
    """An ``fnmatch`` pattern matching ``text`` exactly (``[``, ``]``, ``*`` and ``?`` escaped)."""
    escaped = {"[": "[[]", "]": "[]]", "*": "[*]", "?": "[?]"}
    return "".join(escaped.get(char, char) for char in text)
