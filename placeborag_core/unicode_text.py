"""Strings the library stores, hashes or writes must be valid Unicode (encodable as UTF-8).

Python strings may hold lone surrogates (from ``os.fsdecode`` of undecodable bytes, or from
``"\\ud800"``); no engine or file format accepts them, and the keyed hashes encode text as UTF-8.
Every string a caller hands in is checked once, at the boundary, with this message.
"""

from __future__ import annotations

from placeborag_core.messages import shown

__all__ = ["require_unicode"]


def require_unicode(text: str, what: str) -> None:
    """Raise ``ValueError`` naming ``what`` if ``text`` holds a lone surrogate."""
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        bad = text[error.start]
        raise ValueError(
            f"{what} is not valid Unicode: lone surrogate {shown(bad)} at index {error.start}; "
            "strings must be encodable as UTF-8"
        ) from None
