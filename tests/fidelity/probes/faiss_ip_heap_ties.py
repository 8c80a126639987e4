"""Probe: which tied records ``faiss.IndexFlatIP`` returns when k cuts a tie group.

Finding (faiss-cpu 1.15.1): IndexFlatL2 returns the k smallest by (distance, position). That is
the "first k inserted" rule. IndexFlatIP does NOT follow "first k inserted" once scores are
mixed. Its k-selection is faiss's binary min-heap (faiss/utils/Heap.h, ``CMin``). A candidate
replaces the heap top only when its score is strictly greater. The top is the smallest
(score, position) pair, so a better candidate evicts the *earliest* of the worst kept records.
The final order comes from ``heap_reorder``. ``select`` below re-implements that heap in
Python and matches IndexFlatIP and IndexFlatL2 exactly on every trial (run it: it prints the
count of mismatches and exits 1 unless it is 0; fact ``faiss-ties-ip-heap`` of
docs/engines/faiss.md).
Run with ``python tests/fidelity/probes/faiss_ip_heap_ties.py``.
"""

from __future__ import annotations

import faiss
import numpy as np
from _probe import Facts


def _before(kind: str, a: float, b: float, i: int, j: int) -> bool:
    """faiss ``C::cmp2``: CMin for inner product, CMax for L2."""
    if kind == "ip":
        return a < b or (a == b and i < j)
    return a > b or (a == b and i > j)


def _replace_top(kind: str, vals: list, ids: list, k: int, val: float, idx: int) -> None:
    if k == 0:
        return
    v, d = [None, *vals[:k]], [None, *ids[:k]]
    i = 1
    while True:
        i1, i2 = 2 * i, 2 * i + 1
        if i1 > k:
            break
        if i2 == k + 1 or _before(kind, v[i1], v[i2], d[i1], d[i2]):
            if _before(kind, val, v[i1], idx, d[i1]):
                break
            v[i], d[i], i = v[i1], d[i1], i1
        else:
            if _before(kind, val, v[i2], idx, d[i2]):
                break
            v[i], d[i], i = v[i2], d[i2], i2
    v[i], d[i] = val, idx
    vals[:k], ids[:k] = v[1:], d[1:]


def select(kind: str, scores: list[float], k: int) -> list[int]:
    """Positions faiss returns for these scores (in position order) and k; -1 pads."""
    worst = -np.inf if kind == "ip" else np.inf
    vals, ids = [np.float32(worst)] * k, [-1] * k
    for position, score in enumerate(scores):
        top = vals[0]
        if (kind == "ip" and top < score) or (kind == "l2" and top > score):
            _replace_top(kind, vals, ids, k, score, position)
    out: list[int] = [0] * k
    for size in range(k, 0, -1):  # heap_reorder: pop the top, fill from the back
        out[size - 1] = ids[0]
        _replace_top(kind, vals, ids, size - 1, vals[size - 1], ids[size - 1])
    return out


def main() -> None:
    facts = Facts("FAISS k-selection among ties", "faiss-cpu", "numpy")
    rng = np.random.default_rng(0)
    mismatches = trials = 0
    for _ in range(400):
        n, dim = int(rng.integers(3, 40)), int(rng.choice([2, 3]))
        x = rng.choice([-0.5, 0.5], size=(n, dim)).astype(np.float32)
        q = rng.choice([-0.5, 0.5], size=(1, dim)).astype(np.float32)
        k = int(rng.integers(1, n + 3))
        for kind in ("ip", "l2"):
            index = faiss.IndexFlatIP(dim) if kind == "ip" else faiss.IndexFlatL2(dim)
            index.add(x)
            _, labels = index.search(q, k)
            scores = x @ q[0] if kind == "ip" else ((x - q[0]) ** 2).sum(1)
            trials += 1
            mismatches += [int(i) for i in labels[0]] != select(kind, list(scores), k)
    print(f"heap simulation vs faiss: {mismatches} mismatches in {trials} searches")
    facts.check(
        "faiss-ties-ip-heap",
        mismatches == 0,
        f"a Python replay of faiss's selection heap predicts {trials - mismatches}/{trials} "
        "searches (IndexFlatIP and IndexFlatL2)",
    )
    facts.done()


if __name__ == "__main__":
    main()
