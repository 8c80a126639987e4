"""The known divergences between our profiles and the real engines, each with its evidence.

A comparison that differs from the engine only in one of these ways counts as agreement
*with a known divergence*; every other difference fails the test. The report prints this
table, and the README fidelity section is written from it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Divergence:
    """A documented, deliberate or unavoidable difference from a real engine."""

    key: str
    engines: tuple[str, ...]
    reason: str
    evidence: str


CHROMA_TIE_SUBSET = "chroma-tie-subset"
QDRANT_TIE_ORDER = "qdrant-tie-order"
FLOAT_ROUNDING = "float-rounding"
QDRANT_K_COERCION = "qdrant-k-coercion"
MILVUS_NAN = "milvus-nan-vectors"

KNOWN: dict[str, Divergence] = {
    d.key: d
    for d in (
        Divergence(
            key=CHROMA_TIE_SUBSET,
            engines=("chroma",),
            reason=(
                "When k cuts a group of records with equal distances, Chroma's HNSW graph "
                "walk decides which of them come back; with batched adds the choice differs "
                "between processes and between identically built collections. Our profile "
                "returns the earliest-inserted ones, so it agrees with one possible Chroma "
                "answer. Among equal distances Chroma's results follow its index (usually "
                "insertion order, not always: MMR picks handed back in Chroma's order may "
                "swap tied documents); ours are in insertion order."
            ),
            evidence=(
                "docs/engines/chroma.md#chroma-ties-cut-subset (reported by "
                "probes/chroma_ties.py, not asserted: it varies between runs), "
                "#chroma-ties-cut-order; tests/fidelity: the cut group is always a subset of "
                "the tied records."
            ),
        ),
        Divergence(
            key=QDRANT_TIE_ORDER,
            engines=("qdrant",),
            reason=(
                "Among equal scores, our qdrant profile follows the Qdrant server (ties "
                "broken by point id), while qdrant-client's local mode ranks with "
                "numpy's unstable argsort (reversed for Cosine/Dot) over its slot order, "
                "which also depends on numpy's SIMD dispatch. So tied records may come back "
                "in another order, and k may cut a tie group at other records."
            ),
            evidence=(
                "docs/engines/qdrant.md#qdrant-ties-similarity-reversed, "
                "#qdrant-ties-distance-insertion, #qdrant-ties-argsort, #qdrant-ties-server "
                "(probes/qdrant_ties.py); tests/fidelity: scores and tie groups as sets agree."
            ),
        ),
        Divergence(
            key=QDRANT_K_COERCION,
            engines=("qdrant",),
            reason=(
                "qdrant-client checks a query's limit with pydantic in lax mode, so k='2' "
                "becomes 2 (and True becomes 1). Our qdrant profile rejects a k that is not "
                "an int with a ValueError, as it does a fractional k (the client rejects "
                "1.5 the same way). A string k is a bug in the calling code, not a behaviour "
                "of the engine, so the profile refuses it (the KRule in "
                "placeborag_core/backends/qdrant/profile.py)."
            ),
            evidence=(
                "docs/engines/qdrant.md#qdrant-k-request-model, #qdrant-k-local-unchecked "
                "(probes/qdrant_writes.py); tests/fidelity/_engines.py QdrantSide.query."
            ),
        ),
        Divergence(
            key=MILVUS_NAN,
            engines=("milvus", "milvus_int64"),
            reason=(
                "Milvus stores a vector with a NaN or infinite component and never returns it "
                "(its score is NaN); the store rejects such a vector on write under every "
                "profile, before anything is written. A NaN vector is a bug in the calling "
                "code; refusing it is the store's contract."
            ),
            evidence=(
                "docs/engines/milvus.md#milvus-nan-accepted-on-insert, "
                "#milvus-nan-never-returned (probes/milvus_engine.py)."
            ),
        ),
        Divergence(
            key=FLOAT_ROUNDING,
            engines=("chroma", "qdrant", "faiss", "milvus", "milvus_int64"),
            reason=(
                "Two candidates whose scores differ only in the last float32 bits can be "
                "ordered differently: the engines compute with their own SIMD/FMA kernels "
                "(and qdrant-client renormalises stored cosine vectors on every query), our "
                "profiles report the exact values, rounded once, the same on every machine. "
                "Scores still agree within float32 tolerance. The "
                "same goes for MMR picks whose objectives tie within tolerance, and for "
                "LangChain's inner-product relevance (1 - d if d > 0 else -d), which turns a "
                "distance of 0 against 1.2e-7 into relevance -0.0 against 0.9999999."
            ),
            evidence=(
                "docs/engines/chroma.md#chroma-score-l2-ip-kernel, #chroma-score-cosine-kernel, "
                "#chroma-score-dyadic-exact; docs/engines/faiss.md#faiss-score-kernel, "
                "#faiss-score-numpy-gap, #faiss-score-dyadic-exact."
            ),
        ),
    )
}
