"""Tokens as "units": the single-text route's exact bucket sums in one ``bincount``.

A feature's signed weight, doubled, is an integer from -2 to 2, so a feature becomes two units:
copies of its bucket ``j`` when the weight is positive, of ``width + j`` when negative, and for a
weight of magnitude 1 the second unit is the discard bin ``2 * width``. A text's doubled bucket
sums are then one ``bincount`` of its tokens' units joined, positive half minus negative half:
exact in any order, and a few numpy calls however many tokens the text has. A token's units are
one table lookup of its feature codes, kept (a few dozen bytes each) for the next text until
they outgrow their budget; they never change a result.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from placeborag_core.token_table import TokenTable

__all__ = ["TokenUnits"]

_KEPT_BYTES = 16 << 20  # memory for the kept units
_ENTRY_OVERHEAD = 100  # bytes a kept entry costs beyond its units (dict slot, bytes header)


class TokenUnits:
    """Doubled bucket sums of token lists, from a :class:`TokenTable` of feature codes.

    ``code_weights[i]`` is the signed weight of a feature whose code is ``bucket * 4 + i``; every
    weight must be a multiple of 1/2 of magnitude at most 1.
    """

    __slots__ = ("_bins", "_dtype", "_halves", "_kept", "_kept_bytes", "_table", "_tokens")

    def __init__(
        self, tokens: TokenTable, dimensions: int, code_weights: npt.NDArray[np.float64]
    ) -> None:
        self._tokens = tokens
        # a dtype instance, not a type: numpy converts a type on every call
        self._dtype = np.dtype(np.uint16 if 2 * dimensions < 1 << 16 else np.uint32)
        self._bins = 2 * dimensions + 1  # positive, negative, and the discard bin
        self._halves = (slice(0, dimensions), slice(dimensions, 2 * dimensions))
        self._table = _units_of_codes(dimensions, code_weights, self._dtype)
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
        counts = np.bincount(np.frombuffer(units, self._dtype), minlength=self._bins)
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
                units = self._table[table.codes[table.spans[table.ids[token]]]].tobytes()
                kept[token] = units
                self._kept_bytes += len(units) + _ENTRY_OVERHEAD
            found.append(units)
        return found


def _units_of_codes(
    width: int, code_weights: npt.NDArray[np.float64], dtype: np.dtype[Any]
) -> npt.NDArray[Any]:
    """Row ``code`` holds the two units of a feature code."""
    doubled = (code_weights * 2.0).astype(np.int64)  # per weight index, e.g. -1, 1, -2, 2
    if not np.isin(np.abs(doubled), (1, 2)).all():
        raise ValueError(f"code weights must be +-1/2 or +-1, got {code_weights.tolist()}")
    buckets = np.arange(width)[:, None]
    first = buckets + width * (doubled < 0)  # (bucket, weight index)
    second = np.where(np.abs(doubled) == 2, first, 2 * width)
    rows = len(code_weights) * width
    return np.stack([first, second], axis=-1).reshape(rows, 2).astype(dtype)
