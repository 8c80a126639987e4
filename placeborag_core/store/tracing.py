"""``FakeVectorStore.trace``: why each record is, or is not, returned for a query.

The trace replays the pipeline without its cut: every live row gets a status (``ranked``,
``orphaned``, ``excluded_by_ids``, ``filtered_out``, ``lost_to_recall``), its score and its
cosine similarity, ranked rows first in the order an unbounded ``k`` would return them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import numpy as np
import numpy.typing as npt

from placeborag_core.filters.predicates import Predicate
from placeborag_core.records import Trace, TraceStatus
from placeborag_core.store.faults import query_hash, recall_keep_mask
from placeborag_core.store.partition import Partition
from placeborag_core.store.ranking import Ranker

__all__ = ["trace_rows", "with_pending"]


def trace_rows(
    ranker: Ranker,
    part: Partition,
    vector: npt.NDArray[np.float64],
    predicate: Predicate,
    ids: Collection[str] | None,
) -> list[Trace]:
    """One :class:`Trace` per live row of ``part`` (records and orphans)."""
    n = part.n_rows
    live = part.live[:n]
    allowed = live & part.ids_mask(ids) if ids is not None else live.copy()
    passes = allowed & predicate.mask(part)
    survives = passes & recall_keep_mask(query_hash(vector), part.id_hashes[:n], ranker.recall)
    live_rows = np.flatnonzero(live)
    live_scores, live_cosines = ranker.scores(part, vector, live_rows)
    scores = dict(zip(live_rows.tolist(), live_scores.tolist(), strict=True))
    sims = dict(
        zip(
            live_rows.tolist(),
            ranker.similarities(part, vector, live_rows, live_scores, live_cosines),
            strict=True,
        )
    )
    surviving = survives[live_rows]
    ranked = ranker.select(part, live_rows[surviving], live_scores[surviving], None).tolist()
    out = []
    for rank, row in enumerate(ranked, start=1):
        first: TraceStatus = "ranked" if part.metas[row] is not None else "orphaned"
        out.append(Trace(part.row_id[row], first, rank, float(scores[row]), sims[row]))
    in_rank = set(ranked)
    rest = ranker.select(part, live_rows, live_scores, None).tolist()
    for row in rest:
        if row in in_rank:
            continue
        status: TraceStatus
        if part.metas[row] is None:
            status = "orphaned"
        elif not allowed[row]:
            status = "excluded_by_ids"
        elif not passes[row]:
            status = "filtered_out"
        else:
            status = "lost_to_recall"
        out.append(Trace(part.row_id[row], status, None, float(scores[row]), sims[row]))
    return out


def with_pending(traces: list[Trace], pending_ids: Iterable[str]) -> list[Trace]:
    """``traces`` followed by a ``not_visible`` trace for each held upsert not traced yet."""
    known = {trace.id for trace in traces}
    for record_id in pending_ids:
        if record_id not in known:
            known.add(record_id)
            traces.append(Trace(record_id, "not_visible", None, None, None))
    return traces
