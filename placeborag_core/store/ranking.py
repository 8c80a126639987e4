"""Steps 2-8 of the query pipeline: candidates, scores, the ranked selection, matches.

A :class:`Ranker` holds what ranking depends on (the profile, the filter mode, the recall) and
works on one partition under the store's lock: which rows are candidates (live, allowed by
``ids``, passing a pre-filter, surviving recall dropout), the profile's scores for the rows that
can be ranked (``store/scoring.py``: a float32 pass bounds them, exact arithmetic settles them),
the profile's tie rule, and the ``Match`` objects handed out.
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
from placeborag_core.store.scan import Scan
from placeborag_core.store.scoring import ScoringQuery, cosines, exact_scores

__all__ = ["Ranker"]


class Ranker:
    """Ranks a partition's rows for a query vector under one profile."""

    def __init__(
        self, profile: Profile, filter_mode: Literal["pre", "post"], recall: float
    ) -> None:
        self._profile = profile
        self._filter_mode = filter_mode
        self._recall = recall
        self._last: tuple[bytes, ScoringQuery] | None = None

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

    def scoring_query(self, vector: npt.NDArray[np.float64]) -> ScoringQuery:
        """The query's pieces under the profile's formula (the last one is kept: a query, its
        matches and an MMR re-ranking use the same vector)."""
        key = vector.tobytes()
        if self._last is None or self._last[0] != key:
            self._last = (key, ScoringQuery.build(self._profile.variant.formula, vector))
        return self._last[1]

    def scores(
        self, part: Partition, vector: npt.NDArray[np.float64], rows: npt.NDArray[np.intp]
    ) -> tuple[npt.NDArray[Any], npt.NDArray[np.float64] | None]:
        """Step 5: the profile's numbers for ``rows``, exactly, and the cosines when matches
        need them (the cosine profile's score is its similarity)."""
        wanted = not self._profile.variant.formula.is_cosine
        return exact_scores(part, self.scoring_query(vector), rows, with_cosines=wanted)

    def rank(
        self,
        part: Partition,
        vector: npt.NDArray[np.float64],
        predicate: Predicate,
        ids: Collection[str] | None,
        limit: int | None,
        *,
        filter_mode: Literal["pre", "post"] | None = None,
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[Any], npt.NDArray[np.float64] | None]:
        """Steps 2-6: the best ``limit`` candidate rows (all if None), their scores and, when
        the band was small enough to compute them on the way, their cosines. The predicate
        applies here in filter mode ``pre`` (the store's, unless ``filter_mode``)."""
        mode = self._filter_mode if filter_mode is None else filter_mode
        pre = predicate if mode == "pre" else None
        mask = self.candidates(part, vector, pre, ids)
        if self._profile.variant.zero_vectors_unranked:
            # no cosine for a zero vector: such rows, or every row for a zero query, are left
            # out (LanceDB's cosine search)
            if not vector.any():
                mask[:] = False
            else:
                mask &= part.sq_norms[: part.n_rows] != 0
        if not mask.any():
            return np.empty(0, dtype=np.intp), np.empty(0), None
        rows = None if mask.all() else np.flatnonzero(mask)
        query = self.scoring_query(vector)
        rule = self._profile.tie_rule
        scan = Scan(part, query, rows, self._profile.higher_is_better)
        band = scan.band(limit)
        small = limit is not None and len(band) <= 2 * limit + 64
        wanted = small and not self._profile.variant.formula.is_cosine
        scores, sims = exact_scores(part, query, band, with_cosines=wanted)
        badness = -scores if self._profile.higher_is_better else scores
        if rule.whole_input and limit is not None and not rule.band_decides(badness, limit):
            # the answer depends on candidates outside the band, but they are not returned
            ordered = rule.select_scan(scan, limit, part.id_at)
        else:
            ordered = self.select(part, band, scores, limit)
        at = np.searchsorted(band, ordered)
        return ordered, scores[at], None if sims is None else sims[at]

    def select(
        self,
        part: Partition,
        rows: npt.NDArray[np.intp],
        scores: npt.NDArray[Any],
        limit: int | None,
    ) -> npt.NDArray[np.intp]:
        """Step 6: the best ``limit`` of ``rows`` (ascending: row order is insertion position;
        ``scores`` are theirs), ordered by score then tie rule."""
        badness = -scores if self._profile.higher_is_better else scores
        return self._profile.tie_rule.select(badness, rows, limit, part.id_at)

    def matches(
        self,
        part: Partition,
        vector: npt.NDArray[np.float64],
        rows: npt.NDArray[np.intp],
        scores: npt.NDArray[Any],
        cosines: npt.NDArray[np.float64] | None = None,
    ) -> list[Match]:
        """Step 8: Match objects with copied text and metadata (``cosines``: of ``rows``, if
        already known)."""
        sims = self.similarities(part, vector, rows, scores, cosines)
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
        known: npt.NDArray[np.float64] | None = None,
    ) -> list[float]:
        """The cosine of each row with the query, rounded to float32 (the score itself when the
        profile reports the cosine)."""
        if self._profile.variant.formula.is_cosine:
            return [float(s) for s in scores.tolist()]
        if len(rows) == 0:
            return []
        if known is None:
            known = cosines(part, self.scoring_query(vector), rows)
        sims = known.astype(np.float32)
        return [float(s) for s in sims.tolist()]
