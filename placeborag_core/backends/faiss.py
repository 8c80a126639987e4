"""FAISS (faiss-cpu 1.15.1, flat indexes): its profile, error types and selection-heap ties.

``IndexFlatL2`` reports squared L2 distances and keeps the first inserted of equal ones;
``IndexFlatIP`` reports dot products and picks among ties with its k-selection heap. FAISS has no
metadata filter (LangChain's FAISS filters after the search), so the core dialect applies. FAISS
fails a bad ``k`` or a wrong dimension with a bare ``AssertionError``; the error types here are
``AssertionError`` subclasses that carry a message. Facts: ``docs/engines/faiss.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from placeborag_core.backends.default import CORE_DIALECT_OPERATORS
from placeborag_core.backends.formulas import DOT_F32, SQUARED_L2_F32
from placeborag_core.backends.profile import IdRule, KRule, MetricVariant, Profile
from placeborag_core.backends.ties import INSERTION, Badness, Rows, TieRule
from placeborag_core.errors import DimensionError
from placeborag_core.filters.dialect import FilterDialect

__all__ = ["PROFILE", "FaissDimensionError", "FaissKError", "HeapTies"]

DOC = "docs/engines/faiss.md"


class FaissDimensionError(DimensionError, AssertionError):
    """A dimension error under the ``faiss`` profile: FAISS raises a bare AssertionError, so code
    written against FAISS catches this too, while the message stays clear."""


class FaissKError(ValueError, AssertionError):
    """A non-positive ``k`` under the ``faiss`` profile (FAISS: a bare AssertionError)."""


class HeapTies(TieRule):
    """IndexFlatIP's k-selection heap (``faiss/utils/Heap.h``, CMin).

    Every record strictly better than the k-th score is kept; of the records tied with it, the
    survivors are those a position-order replay of the heap leaves (each later, strictly better
    record evicts the earliest kept tie); each tie group comes back in descending position, as
    the heap's final sort leaves it. ``tests/fidelity/probes/faiss_ip_heap_ties.py`` runs the heap
    itself and compares.
    """

    name = "faiss_heap"

    def at_cut(self, badness: Badness, worst: Any, limit: int) -> Rows:
        # The heap replaces its top only with a strictly better candidate, and the top is the
        # worst kept record, the earliest among equals. Records worse than ``worst`` never change
        # which others survive, and records better than it are always kept. So, over the
        # contenders in position order: the first ``limit`` fill the heap, later ties never
        # enter, and each later strictly better contender evicts the earliest tie still kept.
        contenders = np.flatnonzero(badness <= worst)
        better = badness[contenders] < worst
        late_better = int(np.count_nonzero(better[limit:]))
        head = contenders[:limit]
        head_ties = head[~better[:limit]]
        kept: Rows = np.sort(np.concatenate((contenders[better], head_ties[late_better:])))
        return kept

    def arrange(self, chosen: Rows, badness: Badness) -> Rows:
        out: Rows = chosen.copy()
        start = 0
        values = badness.tolist()
        for end in range(1, len(values) + 1):
            if end == len(values) or values[end] != values[start]:
                out[start:end] = chosen[start:end][::-1]
                start = end
        return out


PROFILE = Profile(
    name="faiss",
    metric="l2",
    variants=(
        MetricVariant(
            "l2",
            SQUARED_L2_F32,
            False,
            INSERTION,
            description="squared L2 distance (float32), lower is better (IndexFlatL2)",
            evidence=f"{DOC}#faiss-score-l2, #faiss-ties-l2-first",
        ),
        MetricVariant(
            "ip",
            DOT_F32,
            True,
            HeapTies(),
            description="inner product (float32), higher is better (IndexFlatIP)",
            evidence=f"{DOC}#faiss-score-ip, #faiss-ties-ip-heap",
        ),
    ),
    filters=FilterDialect("faiss", *CORE_DIALECT_OPERATORS),
    upsert_metadata="replace",
    duplicate_ids_in_batch="error",
    duplicate_ids_message="Duplicate ids found: {ids}",
    ids=IdRule(),
    k=KRule(
        error=FaissKError,
        message="k must be a positive int (1 or larger), got {k}",
        type_message="k must be an int, got {k!r}",
        evidence=f"{DOC}#faiss-error-k-zero",
    ),
    dimension_error=FaissDimensionError,
    accepts_zero_vectors=True,
    evidence=(
        ("zero vectors", f"{DOC}#faiss-zero-vector"),
        ("filters", "FAISS has no metadata filter; the core dialect applies"),
        ("duplicates", "docs/integrations/langchain.md#lc-faiss-ids-duplicate"),
        ("errors", f"{DOC}#faiss-error-k-zero, #faiss-error-dim-add, #faiss-error-dim-search"),
    ),
)
