"""Probe: faiss flat indexes' tie order, removal, id maps and errors.

Covers ``faiss-ties-l2-first``, ``faiss-ties-ip-pure``, ``faiss-idmap-*``, ``faiss-remove-*``,
``faiss-batch-*`` and ``faiss-error-*`` of docs/engines/faiss.md: among equal scores L2 returns
the first inserted in insertion order, IP the first inserted in reverse order (the mixed-score
rule is faiss_ip_heap_ties.py); ``remove_ids`` renumbers positions; ``IndexIDMap`` reports
external ids by position and accepts duplicates; a wrong width or k=0 is a bare AssertionError.
Run: python tests/fidelity/probes/faiss_index.py
"""

from __future__ import annotations

import faiss
import numpy as np
from _probe import Facts, name, raised

F32 = np.float32
TIED = np.tile(np.array([[0.0, 0.0, 1.0]], dtype=F32), (10, 1))
QUERY = np.array([[0.0, 0.6, 0.8]], dtype=F32)


def labels(index, query: np.ndarray, k: int) -> list[int]:
    return index.search(query, k)[1][0].tolist()


def main() -> None:
    facts = Facts("FAISS flat indexes: ties, removal, ids, errors", "faiss-cpu", "numpy")
    l2, ip = faiss.IndexFlatL2(3), faiss.IndexFlatIP(3)
    l2.add(TIED)
    ip.add(TIED)
    facts.check(
        "faiss-ties-l2-first",
        labels(l2, QUERY, 5) == [0, 1, 2, 3, 4] and labels(l2, QUERY, 10) == list(range(10)),
        f"IndexFlatL2, 10 tied: k=5 -> {labels(l2, QUERY, 5)} (first inserted, ascending)",
    )
    facts.check(
        "faiss-ties-ip-pure",
        labels(ip, QUERY, 5) == [4, 3, 2, 1, 0] and labels(ip, QUERY, 10) == list(range(9, -1, -1)),
        f"IndexFlatIP, 10 tied: k=5 -> {labels(ip, QUERY, 5)} (first inserted, in reverse)",
    )
    many = np.tile(QUERY, (20, 1))
    facts.check(
        "faiss-ties-batch",
        all(row.tolist() == [0, 1, 2, 3, 4] for row in l2.search(many, 5)[1])
        and all(row.tolist() == [4, 3, 2, 1, 0] for row in ip.search(many, 5)[1]),
        "the same tie rules hold for 20 queries at once (faiss's BLAS path)",
    )

    removable = faiss.IndexFlatL2(1)
    removable.add(np.arange(6, dtype=F32).reshape(-1, 1))
    removed = removable.remove_ids(np.array([1, 3], dtype=np.int64))
    facts.check(
        "faiss-remove-renumbers",
        removed == 2
        and removable.ntotal == 4
        and labels(removable, np.array([[5.0]], dtype=F32), 1) == [3],
        "remove_ids compacts the index: the vector added at position 5 is now label 3",
    )
    mapped = faiss.IndexIDMap(faiss.IndexFlatL2(3))
    mapped.add_with_ids(TIED[:5], np.array([50, 10, 40, 20, 30], dtype=np.int64))
    facts.check(
        "faiss-idmap-order",
        labels(mapped, QUERY, 5) == [50, 10, 40, 20, 30],
        "IndexIDMap reports external ids, tied ones in insertion position order (not id order)",
    )
    mapped.add_with_ids(TIED[:1], np.array([10], dtype=np.int64))
    facts.check(
        "faiss-idmap-duplicates",
        labels(mapped, QUERY, 6).count(10) == 2,
        f"IndexIDMap accepts an id twice and returns both: {labels(mapped, QUERY, 6)}",
    )
    hnsw = faiss.IndexHNSWFlat(3, 8)
    hnsw.add(TIED[:3])
    kind, message = raised(lambda: hnsw.remove_ids(np.array([0], dtype=np.int64)))
    facts.check(
        "faiss-remove-hnsw",
        kind is RuntimeError and "not implemented for this type of index" in message,
        f"IndexHNSWFlat cannot remove: {name(kind)}",
    )

    errors = {
        "faiss-error-dim-add": raised(lambda: l2.add(np.zeros((1, 2), dtype=F32))),
        "faiss-error-dim-search": raised(lambda: l2.search(np.zeros((1, 4), dtype=F32), 1)),
        "faiss-error-k-zero": raised(lambda: l2.search(QUERY, 0)),
    }
    for fact_id, (kind, message) in errors.items():
        facts.check(
            fact_id,
            kind is AssertionError and message == "",
            f"a bare AssertionError with an empty message ({name(kind)})",
        )
    kind, message = raised(lambda: l2.search(QUERY[0], 1))
    facts.check(
        "faiss-error-1d-query",
        kind is ValueError and message == "not enough values to unpack (expected 2, got 1)",
        f"a 1-D query: {name(kind)}: {message}",
    )
    facts.done()


if __name__ == "__main__":
    main()
