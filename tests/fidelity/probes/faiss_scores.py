"""Probe: what faiss ``IndexFlatL2`` / ``IndexFlatIP`` report, in which precision, computed how.

Covers ``faiss-score-*``, ``faiss-padding``, ``faiss-zero-vector`` and ``faiss-input-float32``
of docs/engines/faiss.md: squared L2 ascending and raw inner product descending (cosine only
after ``faiss.normalize_L2``), float32 arrays out, float64 input rounded to float32, -1/+-FLT_MAX
padding when k exceeds the index, zero vectors accepted, and the float32 summation order of the
single-query kernels at each SIMD level faiss dispatches to (4 lanes without SIMD, 8 with AVX2,
16 with fused multiply-add under AVX-512), which reproduces their scores bit for bit.
Run: python tests/fidelity/probes/faiss_scores.py
"""

from __future__ import annotations

import faiss
import numpy as np
from _probe import Facts, raised

F32 = np.float32
QUERY = np.array([[1.0, 0.0, 0.0]], dtype=F32)
DOCS = np.array(
    [[1, 0, 0], [2, 0, 0], [3, 4, 0], [0.6, 0, 0.8], [0, 1, 0], [-1, 0, 0]], dtype=F32
)  # same, twice, c34, diag, ortho, opp
KERNELS = {  # SIMD level name -> (lanes, fused multiply-add)
    "NONE": (4, False),
    "AVX2": (8, False),
    "AVX512": (16, True),
}


def lane_dot(x: np.ndarray, y: np.ndarray, lanes: int, fma: bool) -> np.ndarray:
    """Row-wise float32 dot with ``lanes`` accumulators, then halving-tree lane reduction.

    A fused multiply-add rounds once; it is emulated in float64, where the product of two
    float32 numbers is exact.
    """
    acc = np.zeros((x.shape[0], lanes), dtype=F32)
    for start in range(0, x.shape[1], lanes):
        a, b = x[:, start : start + lanes], y[:, start : start + lanes]
        acc = (a.astype(np.float64) * b + acc).astype(F32) if fma else acc + a * b
    while acc.shape[1] > 1:
        half = acc.shape[1] // 2
        acc = acc[:, :half] + acc[:, half:]
    return acc[:, 0]


def search(index, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    distances, labels = index.search(query, k)
    return distances[0], labels[0]


def main() -> None:
    facts = Facts("FAISS flat-index scores", "faiss-cpu", "numpy")
    l2 = faiss.IndexFlatL2(3)
    l2.add(DOCS)
    d, i = search(l2, QUERY, 6)
    facts.check(
        "faiss-score-l2",
        i.tolist() == [0, 3, 1, 4, 5, 2] and np.allclose(d, [0, 0.8, 1, 2, 4, 20]),
        f"IndexFlatL2 = squared L2, ascending: labels {i.tolist()} distances {d.tolist()}",
    )
    facts.check(
        "faiss-score-float32",
        d.dtype == F32 and i.dtype == np.int64,
        f"distances are a {d.dtype} array, labels {i.dtype}",
    )
    ip = faiss.IndexFlatIP(3)
    ip.add(DOCS)
    d, i = search(ip, QUERY, 6)
    facts.check(
        "faiss-score-ip",
        i.tolist()[:3] == [2, 1, 0] and np.allclose(d, [3, 2, 1, 0.6, 0, -1]),
        f"IndexFlatIP = raw inner product, descending: labels {i.tolist()} scores {d.tolist()}",
    )
    unit = DOCS.copy()
    faiss.normalize_L2(unit)
    cos = faiss.IndexFlatIP(3)
    cos.add(unit)
    d, _ = search(cos, QUERY, 6)
    facts.check(
        "faiss-score-cosine-by-normalising",
        np.allclose(sorted(d.tolist()), sorted([1, 1, 0.6, 0.6, 0, -1])),
        f"cosine needs faiss.normalize_L2 on both sides, then IndexFlatIP: {d.tolist()}",
    )
    d, i = search(l2, QUERY[:, :3], 8)
    dp, ip_pad = search(ip, QUERY, 8)
    fmax = float(np.finfo(F32).max)
    facts.check(
        "faiss-padding",
        i.tolist()[6:] == [-1, -1]
        and d.tolist()[6:] == [fmax, fmax]
        and ip_pad.tolist()[6:] == [-1, -1]
        and dp.tolist()[6:] == [-fmax, -fmax],
        "k above ntotal pads labels with -1 and scores with +FLT_MAX (L2) / -FLT_MAX (IP)",
    )

    wide = faiss.IndexFlatL2(3)
    wide.add(np.array([[0.1, 0.0, 0.0]]))  # float64
    stored = wide.reconstruct(0)
    facts.check(
        "faiss-input-float32",
        stored.dtype == F32 and float(stored[0]) == float(F32(0.1)),
        f"float64 input is accepted and stored as float32: 0.1 -> {float(stored[0])!r}",
    )
    zero = faiss.IndexFlatIP(2)
    added = raised(lambda: zero.add(np.zeros((1, 2), dtype=F32)))
    d, i = search(zero, np.array([[1.0, 0.0]], dtype=F32), 1)
    facts.check(
        "faiss-zero-vector",
        added[0] is None and i.tolist() == [0] and d.tolist() == [0.0],
        "a zero vector is stored like any other (inner product 0)",
    )

    rng = np.random.default_rng(4)
    matrix = rng.normal(size=(100, 384)).astype(F32)
    dyadic = rng.choice([-0.5, 0.5], size=(20, 384)).astype(F32)
    auto = faiss.SIMDConfig.get_level()
    results = {}
    gap = 0.0
    for name, (lanes, fma) in KERNELS.items():
        level = getattr(faiss, f"SIMDLevel_{name}")
        if not faiss.SIMDConfig.is_simd_level_available(level):
            facts.note(f"SIMD level {name} not available on this CPU: not checked")
            continue
        faiss.SIMDConfig.set_level(level)
        exact = 0
        for kind in ("l2", "ip"):
            index = faiss.IndexFlatL2(384) if kind == "l2" else faiss.IndexFlatIP(384)
            index.add(matrix)
            query = rng.normal(size=(1, 384)).astype(F32)
            d, i = search(index, query, 20)
            rows = matrix[i]
            if kind == "l2":
                diff = rows - query[0]
                ours = lane_dot(diff, diff, lanes, fma)
                gap = max(
                    gap, float(np.max(np.abs(np.sum(diff * diff, axis=1, dtype=F32) - d) / d))
                )
            else:
                ours = lane_dot(rows, np.broadcast_to(query[0], rows.shape), lanes, fma)
            exact += np.array_equal(ours, d)
        results[name] = exact
    faiss.SIMDConfig.set_level(auto)
    facts.check(
        "faiss-score-kernel",
        all(exact == 2 for exact in results.values()),
        f"single-query L2 and IP scores equal the lane model of each SIMD level bit for bit "
        f"({results}); running at level {faiss.SIMDConfig.get_level_name()}",
    )
    facts.check(
        "faiss-score-numpy-gap",
        0 < gap < 1e-6,
        f"numpy's float32 pairwise sum differs from faiss's L2 by up to {gap:.1e} (relative)",
    )
    exact_index = faiss.IndexFlatIP(384)
    exact_index.add(dyadic)
    d, i = search(exact_index, dyadic[:1], 20)
    facts.check(
        "faiss-score-dyadic-exact",
        d.tolist() == (dyadic[i].astype(np.float64) @ dyadic[0].astype(np.float64)).tolist(),
        "on +-0.5 vectors the inner products are exact",
    )
    facts.done()


if __name__ == "__main__":
    main()
