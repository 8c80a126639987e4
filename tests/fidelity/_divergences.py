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
PGVECTOR_K_COERCION = "pgvector-k-coercion"
LANCEDB_K_TYPES = "lancedb-k-types"
LANCEDB_MESSAGES = "lancedb-vector-error-messages"
LANCEDB_BAD_VECTORS = "lancedb-bad-vectors"
LANCEDB_PROJECTION = "lancedb-struct-projection"

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
            key=PGVECTOR_K_COERCION,
            engines=("pgvector",),
            reason=(
                "PostgreSQL casts a LIMIT to bigint: psycopg's k='2' (sent untyped) becomes "
                "LIMIT 2, and a float is rounded half to even (1.5 and 2.5 give 2, 0.4 gives "
                "0). Our pgvector profile rejects a k that is not an int with a TypeError: a "
                "string or fractional k is a bug in the calling code, not a behaviour of the "
                "engine (the KRule in placeborag_core/backends/pgvector/profile.py)."
            ),
            evidence=(
                "docs/engines/pgvector.md#pgvector-k-coerced-to-bigint "
                "(probes/pgvector_errors_writes.py); tests/fidelity/_engines.py PgvectorSide."
            ),
        ),
        Divergence(
            key=LANCEDB_K_TYPES,
            engines=("lancedb",),
            reason=(
                "LanceDB checks a query's limit three ways: pydantic rejects 1.5 (a ValueError "
                "with pydantic's message), a str fails a comparison (TypeError) and True is "
                "taken as 1. The lancedb profile's KRule raises one ValueError for every k "
                "that is not an int, bools included: a k of another type is a bug in the calling "
                "code, not a behaviour of the engine."
            ),
            evidence=(
                "docs/engines/lancedb.md#lancedb-k-types (probes/lancedb_schema.py); "
                "tests/fidelity/_lancedb.py error_cases."
            ),
        ),
        Divergence(
            key=LANCEDB_MESSAGES,
            engines=("lancedb",),
            reason=(
                "A vector of the wrong width or with a NaN fails on both sides with the same "
                "kind of error (ValueError for a query and an add; for merge_insert a "
                "RuntimeError, which LanceDimensionError also is), but with the store's own "
                "message, which names both widths, instead of LanceDB's (\"There is no vector "
                'column in the data", an Arrow cast error with a Rust source path).'
            ),
            evidence=(
                "docs/engines/lancedb.md#lancedb-error-add-wrong-dimension, "
                "#lancedb-error-search-wrong-dimension, #lancedb-error-nan-vector."
            ),
        ),
        Divergence(
            key=LANCEDB_BAD_VECTORS,
            engines=("lancedb",),
            reason=(
                "Every profile refuses a vector with a NaN or infinite component with a "
                "ValueError before anything is written; LanceDB stores infinite components "
                "(and returns inf distances), and reports a NaN in a merge_insert as a "
                "RuntimeError. table.add([]) raises 'Cannot create table from empty list "
                "without a schema' even on an existing table; append_many([]) writes nothing, "
                "as every empty write in the store does."
            ),
            evidence=(
                "docs/engines/lancedb.md#lancedb-inf-vector-stored, #lancedb-merge-errors, "
                "#lancedb-add-empty-raises (probes/lancedb_schema.py)."
            ),
        ),
        Divergence(
            key=LANCEDB_PROJECTION,
            engines=("lancedb",),
            reason=(
                "After a table.add whose rows all lack a field of the metadata struct (the "
                "LangChain and LlamaIndex LanceDB stores write metadata as one struct column), "
                "lance 14 fails a search whose filter reads that field, and any plain search "
                "with a filter, with 'projection supplied fewer column indices than its fields "
                "require': a bug in lance's reader of fragments missing a struct child. The "
                "store answers the search (the field is NULL in those rows); reproducing a "
                "reader bug would make the double fail where the engine is meant to work."
            ),
            evidence=(
                "docs/engines/lancedb.md#lancedb-bug-struct-projection "
                "(probes/lc_lancedb.py lancedb-bug-plain-search-where-after-struct-nulls); "
                "tests/fidelity/test_langchain_lancedb.py."
            ),
        ),
        Divergence(
            key=FLOAT_ROUNDING,
            engines=("chroma", "qdrant", "faiss", "milvus", "milvus_int64", "pgvector", "lancedb"),
            reason=(
                "Two candidates whose scores differ only in the last float32 bits can be "
                "ordered differently: the engines compute with their own SIMD/FMA kernels "
                "(pgvector: float32 sums in 16 FMA lanes, then double precision; "
                "qdrant-client renormalises stored cosine vectors on every query), our "
                "profiles report the exact values, rounded once, the same on every machine. "
                "Scores still agree within float32 tolerance. The "
                "same goes for MMR picks whose objectives tie within tolerance, for the "
                "documents at a k or fetch_k cut that we tie exactly and the engine orders by "
                "such bits (lc-milvus: two documents orthogonal to the query, 0 for us, "
                "-3.7e-09 and less for Milvus, RandomDraw(20051)), and for "
                "LangChain's inner-product relevance (1 - d if d > 0 else -d), which turns a "
                "distance of 0 against 1.2e-7 into relevance -0.0 against 0.9999999."
            ),
            evidence=(
                "docs/engines/chroma.md#chroma-score-l2-ip-kernel, #chroma-score-cosine-kernel, "
                "#chroma-score-dyadic-exact; docs/engines/faiss.md#faiss-score-kernel, "
                "#faiss-score-numpy-gap, #faiss-score-dyadic-exact; docs/engines/pgvector.md"
                "#pgvector-score-recipe-bit-exact (the build's lane order, probe "
                "pgvector_scores.py with its kernel _pgkernel.py), "
                "#pgvector-score-profile-exact-within-1e-6."
            ),
        ),
    )
}
