"""Steps 2-8 of the query pipeline: candidates, scores, the ranked selection, matches.

A :class:`Ranker` holds what ranking depends on (the profile, the filter mode, the recall) and
works on one partition under the store's lock: which rows are candidates (live, allowed by
``ids``, passing a pre-filter, surviving recall dropout), the profile's scores, the profile's tie
rule, and the ``Match`` objects handed out.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from placeborag_core.backends import Profile
from placeborag_core.filters.predicates import Predicate
from placeborag_core.records import Match
from placeborag_core.store.faults import query_hash, recall_keep_mask
from placeborag_core.store.partition import Partition, copy_metadata
from placeborag_core.store.scoring import row_cosines, score_rows

__all__ = ["Ranker"]


class Ranker:
    """Ranks a partition's rows for a query vector under one profile."""

    def __init__(
        self, profile: Profile, filter_mode: Literal["pre", "post"], recall: float
    ) -> None:
        self._profile = profile
        self._filter_mode = filter_mode
        self._recall = recall

    @property
    def recall(self) -> float:
        """Probability that a record is visible to a given query."""
        return self._recall

    def candidates(
        self,
        part: Partition,
        vector: npt.NDArray[np.float64],
        predicate: Predicate | None,
        ids: Collection[str] | None,
    ) -> npt.NDArray[np.bool_]:
        """Steps 2-4: live rows, ``ids`` restriction, pre-filter (if given), recall dropout."""
        mask: npt.NDArray[np.bool_] = part.live[: part.n_rows].copy()
        if ids is not None:
            mask &= part.ids_mask(ids)
        if predicate is not None:
            mask &= predicate.mask(part)
        if self._recall < 1.0:
            mask &= recall_keep_mask(
                query_hash(vector), part.id_hashes[: part.n_rows], self._recall
            )
        return mask

    def scores(self, part: Partition, vector: npt.NDArray[np.float64]) -> npt.NDArray[Any]:
        """Step 5: the profile's numbers for every row, in one pass (over whole row groups)."""
        matrix, norms = part.scoring_arrays()
        return score_rows(self._profile.variant.formula, matrix, norms, part.n_rows, vector)

    def rank(
        self,
        part: Partition,
        vector: npt.NDArray[np.float64],
        predicate: Predicate,
        ids: Collection[str] | None,
        limit: int | None,
        *,
        filter_mode: Literal["pre", "post"] | None = None,
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[Any]]:
        """Steps 2-6: the best ``limit`` candidate rows (all if None) and their scores; the
        predicate applies here in filter mode ``pre`` (the store's, unless ``filter_mode``)."""
        mode = self._filter_mode if filter_mode is None else filter_mode
        pre = predicate if mode == "pre" else None
        mask = self.candidates(part, vector, pre, ids)
        if not mask.any():
            return np.empty(0, dtype=np.intp), np.empty(0)
        scores = self.scores(part, vector)
        if scores.dtype.kind == "f":
            nan = np.isnan(scores)
            if nan.any():  # no score, no result (LanceDB's cosine of a zero vector)
                mask &= ~nan
                if not mask.any():
                    return np.empty(0, dtype=np.intp), np.empty(0)
        rows = None if mask.all() else np.flatnonzero(mask)
        ordered = self.select(part, rows, scores, limit)
        return ordered, scores[ordered]

    def select(
        self,
        part: Partition,
        rows: npt.NDArray[np.intp] | None,
        scores: npt.NDArray[Any],
        limit: int | None,
    ) -> npt.NDArray[np.intp]:
        """Step 6: the best ``limit`` of ``rows`` (all if None), ordered by score then tie rule.

        ``rows`` are ascending (row order is insertion position); None means every scored row."""
        badness = scores if rows is None else scores[rows]
        if self._profile.higher_is_better:
            badness = -badness
        return self._profile.tie_rule.select(badness, rows, limit, part.id_at)

    def matches(
        self,
        part: Partition,
        vector: npt.NDArray[np.float64],
        rows: npt.NDArray[np.intp],
        scores: npt.NDArray[Any],
    ) -> list[Match]:
        """Step 8: Match objects with copied text and metadata."""
        sims = self.similarities(part, vector, rows, scores)
        out = []
        for row, score, sim in zip(rows.tolist(), scores.tolist(), sims, strict=True):
            meta = part.metas[row]
            text = part.texts[row] if meta is not None else None
            out.append(Match(part.row_id[row], text, copy_metadata(meta), float(score), sim))
        return out

    def similarities(
        self,
        part: Partition,
        vector: npt.NDArray[np.float64],
        rows: npt.NDArray[np.intp],
        scores: npt.NDArray[Any],
    ) -> list[float]:
        if self._profile.variant.formula.is_cosine:
            return [float(s) for s in scores.tolist()]
        if len(rows) == 0:
            return []
        sims = row_cosines(part.matrix[rows], part.norms[rows], vector)
        return [float(s) for s in sims.tolist()]
