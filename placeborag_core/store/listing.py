"""Reads without a query vector, in the profile's listing order: Chroma's ``get``, Qdrant's
``scroll``, the store's ``ids``, ``select`` and ``snapshot``.

Listing order is insertion order, or the order of the engine's id key when it has one (Qdrant
lists points by id).
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from placeborag_core.backends import Profile
from placeborag_core.filters.predicates import Predicate
from placeborag_core.store.partition import Partition

__all__ = ["Listing"]


class Listing:
    """A partition's visible rows in one profile's listing order."""

    def __init__(self, profile: Profile) -> None:
        self._order_key = profile.ids.order_key

    def order(self, part: Partition, rows: list[int]) -> list[int]:
        """``rows`` (ascending, that is insertion order) in listing order."""
        order_key = self._order_key
        if order_key is not None:
            rows.sort(key=lambda r: order_key(part.row_id[r]))
        return rows

    def visible_rows(self, part: Partition) -> list[int]:
        """Every visible record's row (orphans excluded)."""
        return self.order(part, part.rows.every_row())

    def passing_rows(
        self, part: Partition, predicate: Predicate, ids: Collection[str] | None
    ) -> list[int]:
        """The visible records' rows that pass ``predicate`` and ``ids``."""
        mask = part.live[: part.n_rows].copy()
        mask[list(part.orphans.values())] = False
        if ids is not None:
            mask &= part.ids_mask(ids)
        mask &= predicate.mask(part)
        return self.order(part, np.flatnonzero(mask).tolist())
