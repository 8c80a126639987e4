"""Tokens as "units": the single-text route's exact bucket sums in one ``bincount``.

Every feature weight is +-1/2 (character n-grams) or +-1 (words), so doubled it is +-1 or +-2:
a feature becomes one or two copies ("units") of its bucket ``j`` when the weight is positive, of
``width + j`` when negative. A text's doubled bucket sums are then one ``bincount`` of its
tokens' units joined, positive half minus negative half: exact in any order, and a few numpy
calls however many tokens the text has. A token's units are derived from the token table the
first time it is seen and kept (a few dozen bytes each) for the next text until they outgrow
their budget; they never change a result.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from placeborag_core.embedding._speed.token_table import TokenTable

__all__ = ["TokenUnits"]

_KEPT_BYTES = 16 << 20  # memory for the kept units
_ENTRY_OVERHEAD = 100  # bytes a kept entry costs beyond its units (dict slot, bytes header)


class TokenUnits:
    """Doubled bucket sums of token lists, from a :class:`TokenTable` whose feature weights are
    all +-1/2 or +-1."""

    __slots__ = ("_dtype", "_halves", "_kept", "_kept_bytes", "_tokens", "_width")

    def __init__(self, tokens: TokenTable, dimensions: int) -> None:
        self._tokens = tokens
        self._width = dimensions
        # a dtype instance, not a type: numpy converts a type on every call
        self._dtype = np.dtype(np.uint16 if 2 * dimensions <= 1 << 16 else np.uint32)
        self._halves = (slice(0, dimensions), slice(dimensions, 2 * dimensions))
        self._kept: dict[str, bytes] = {}
        self._kept_bytes = 0

    @property
    def kept(self) -> int:
        """How many tokens' units are kept now."""
        return len(self._kept)

    def doubled_sums(self, token_list: list[str]) -> npt.NDArray[np.intp]:
        """Per bucket, twice the sum of the signed weights of the features of ``token_list``."""
        try:
            units = b"".join(map(self._kept.__getitem__, token_list))
        except KeyError:
            units = b"".join(self._new_units(token_list))
        positive, negative = self._halves
        counts = np.bincount(np.frombuffer(units, self._dtype), minlength=2 * self._width)
        doubled: npt.NDArray[np.intp] = counts[positive] - counts[negative]
        return doubled

    def _new_units(self, token_list: list[str]) -> list[bytes]:
        table = self._tokens.intern(token_list)
        kept = self._kept
        if self._kept_bytes > _KEPT_BYTES:
            kept = self._kept = {}
            self._kept_bytes = 0
        found = []
        for token in token_list:
            units = kept.get(token)
            if units is None:
                span = table.spans[table.ids[token]]
                weights = table.weights[span]
                signed = table.buckets[span] + self._width * (weights < 0)
                twice = signed[np.abs(weights) == 1.0]  # a word's weight counts twice
                units = np.concatenate((signed, twice)).astype(self._dtype).tobytes()
                kept[token] = units
                self._kept_bytes += len(units) + _ENTRY_OVERHEAD
            found.append(units)
        return found
