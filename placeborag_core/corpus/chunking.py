"""A tiny deterministic chunker: windows of whole words with their character offsets.

Seeding needs chunks whose boundaries are a pure function of the text and of the chunker's
settings, and it needs to know those settings, because they are part of every chunk id: change
the window size and every id changes, which is how a drift check notices a re-chunked corpus.
Real pipelines bring their own chunker; anything with a ``version`` string and a ``split(text)``
method returning :class:`Span` objects can be handed to the seeder instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from placeborag_core.messages import shown

__all__ = ["Chunker", "Span", "WordChunker"]

_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Span:
    """One chunk of a document: ``text == document[start:end]``."""

    start: int
    end: int
    text: str


class Chunker(Protocol):
    """What the seeder needs from a chunker: a version naming its behaviour, and a split."""

    @property
    def version(self) -> str:
        """A string that changes whenever the same text would be split differently."""
        ...

    def split(self, text: str) -> list[Span]:
        """Split ``text`` into spans, in document order."""
        ...


class WordChunker:
    """Split a text into windows of at most ``size`` words, consecutive windows sharing ``overlap``.

    A word is a run of non-white-space characters; a span runs from the first character of its
    first word to the last character of its last word, so spans never start or end in white space.
    A text with no words has no chunks.
    """

    def __init__(self, size: int = 200, overlap: int = 0) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"size must be an int >= 1, got {shown(size)}")
        if isinstance(overlap, bool) or not isinstance(overlap, int) or not 0 <= overlap < size:
            raise ValueError(
                f"overlap must be an int with 0 <= overlap < size ({size}), got {shown(overlap)}"
            )
        self._size = size
        self._overlap = overlap

    @property
    def size(self) -> int:
        """The largest number of words in one chunk."""
        return self._size

    @property
    def overlap(self) -> int:
        """How many words consecutive chunks share."""
        return self._overlap

    @property
    def version(self) -> str:
        """The algorithm and its settings, e.g. ``"words/1 size=200 overlap=0"``."""
        return f"words/1 size={self._size} overlap={self._overlap}"

    def split(self, text: str) -> list[Span]:
        """Return the chunks of ``text`` in order (an empty list when it has no words)."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        words = [match.span() for match in _WORD.finditer(text)]
        spans: list[Span] = []
        step = self._size - self._overlap
        first = 0
        while first < len(words):
            last = min(first + self._size, len(words)) - 1
            start, end = words[first][0], words[last][1]
            spans.append(Span(start, end, text[start:end]))
            if last == len(words) - 1:
                break
            first += step
        return spans

    def __repr__(self) -> str:
        return f"WordChunker(size={self._size}, overlap={self._overlap})"
