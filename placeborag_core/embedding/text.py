"""Text normalisation and tokenisation: the only view of a text the hashing embedder sees.

Two texts that normalise to the same token sequence embed identically, so everything that should
not change a vector (Unicode compatibility forms, case, runs of white space, punctuation) is
removed here and nowhere else.

A batch is normalised as one string (texts joined by NUL, which no normalisation step can merge
with its neighbours), so the per-character work runs once in C for the whole batch.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["BOUNDARY", "normalise", "tokenise_flat", "tokenise_many", "tokens"]

# Word characters, plus combining marks that NFKC could not compose into their base letter: a mark
# belongs to the word it decorates rather than becoming a token of its own.
_WORD = "\\w\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
# Characters that separate tokens without becoming one: white space, control characters (NUL
# excepted: it separates the texts of a batch), and punctuation.
_SEPARATORS = (
    "\\s\\x01-\\x1f\\x7f"
    "!-/:-@\\[-`{-~"  # ASCII punctuation
    "\u00a1\u00a7\u00ab\u00b6\u00b7\u00bb\u00bf"  # Latin-1 punctuation
    "\u2000-\u206f"  # general punctuation
    "\u3000-\u303f"  # CJK punctuation
    "\ufe10-\ufe1f\ufe30-\ufe4f\uff01-\uff0f\uff1a-\uff20"  # full-width and vertical forms
)
_SEPARATOR_RUN = re.compile(f"[{_SEPARATORS}]+")
# Anything else (emoji, currency, maths symbols) carries meaning on its own: a one-character token.
_SYMBOL = re.compile(f"[^{_WORD}{_SEPARATORS}\\x00]")
#: Separates the texts of a batch in :func:`tokenise_flat`; never part of a token.
BOUNDARY = "\x00"
_BOUNDARY = BOUNDARY
# For pure-ASCII batches (the common case) the same classification is a byte translation: every
# ASCII character is a word character, a separator or the batch boundary, and NFKC and case
# folding reduce to lower().
_ASCII_SEPARATORS = bytes([*range(1, 33), 127]) + b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
_ASCII_TABLE = bytes.maketrans(_ASCII_SEPARATORS, b" " * len(_ASCII_SEPARATORS))
# A single text has no batch boundary: there NUL is one more separator.
_ASCII_TABLE_SINGLE = bytes.maketrans(
    b"\x00" + _ASCII_SEPARATORS, b" " * (len(_ASCII_SEPARATORS) + 1)
)


def _fold(text: str) -> str:
    # Case folding can leave NFKC (e.g. some ligatures), so NFKC is applied on both sides of it.
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def normalise(text: str) -> str:
    """The canonical form of ``text``: NFKC, case-folded, white space collapsed and stripped."""
    return " ".join(_fold(text).split())


def _spaced(texts: list[str]) -> str:
    """The batch as one string: tokens separated by white space, texts by :data:`BOUNDARY`."""
    joined = _BOUNDARY.join(texts)
    if joined.count(_BOUNDARY) != len(texts) - 1:
        # A NUL inside a text only ever separates tokens, exactly as a space does.
        joined = _BOUNDARY.join(text.replace(_BOUNDARY, " ") for text in texts)
    if joined.isascii():
        return joined.lower().encode("ascii").translate(_ASCII_TABLE).decode("ascii")
    return _SYMBOL.sub(r" \g<0> ", _SEPARATOR_RUN.sub(" ", _fold(joined)))


def tokenise_flat(texts: list[str]) -> list[str]:
    """The tokens of a whole batch in one list, each text's followed by a :data:`BOUNDARY` token.

    One split over the whole batch: the fast form for the embedder's batch path.
    """
    return _spaced([*texts, ""]).replace(_BOUNDARY, f" {_BOUNDARY} ").split() if texts else []


def tokenise_many(texts: list[str]) -> list[list[str]]:
    """The tokens of every text of a batch (see :func:`tokens`), normalising the batch at once."""
    if not texts:
        return []
    return [segment.split() for segment in _spaced(texts).split(_BOUNDARY)]


def tokens(text: str) -> list[str]:
    """Split a text into the tokens the embedder hashes (normalising it first).

    A token is a run of word characters, or a single symbol such as an emoji. Punctuation only
    separates tokens, so ``"refund-policy!"`` and ``"refund policy"`` have the same tokens.
    """
    if text.isascii():
        return text.lower().encode("ascii").translate(_ASCII_TABLE_SINGLE).decode("ascii").split()
    return tokenise_many([text])[0]
