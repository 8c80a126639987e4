"""Every filter operator, on the records the backend probes used, against the real engine.

The records are those of probes/chroma_filters.py and qdrant_filters.py (a missing key, a
record without metadata, ``n`` as int, float, string and bool neighbours) plus list-valued and
text-valued records. Each filter is run with k above the collection size, so the comparison
covers exactly which records match (and their order and scores); filters the engine rejects must
be rejected by us too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ._cases import Dataset
from ._params import skip_unless_installed
from ._runners import compare_query, tolerance

pytestmark = pytest.mark.fidelity

RECORDS: list[dict[str, Any]] = [
    {"color": "red", "n": 1},
    {"color": "blue", "n": 5},
    {"n": 10},
    {"color": "green"},
    {},
    {"color": "red", "n": "5"},
    {"n": 2.5, "color": "blue"},
    {"flag": True, "n": 1.0},
    {"flag": False, "color": ""},
    {"tags": ["x", "y"], "title": "alpha beta"},
    {"tags": ["z"], "title": "Beta gamma", "n": 0},
    {"title": "ALPHA", "flag": True, "n": -1},
]

QDRANT_EXTRA: list[dict[str, Any]] = [{"tags": [], "color": None}]
"""Payload values Chroma refuses to store (an empty list, None) but Qdrant keeps."""

COMMON_FILTERS: list[dict[str, Any]] = [
    {"color": "red"},
    {"color": ""},
    {"color": "purple"},
    {"color": {"$eq": "red"}},
    {"n": {"$eq": 1}},
    {"n": 1},
    {"n": {"$eq": 1.0}},
    {"n": {"$eq": 2.5}},
    {"n": {"$eq": "5"}},
    {"flag": True},
    {"flag": {"$eq": False}},
    {"flag": {"$eq": 1}},
    {"missing": {"$eq": "x"}},
    {"color": {"$ne": "red"}},
    {"n": {"$ne": 1}},
    {"flag": {"$ne": True}},
    {"missing": {"$ne": "x"}},
    {"color": {"$in": ["red", "green"]}},
    {"n": {"$in": [1, 5]}},
    {"color": {"$nin": ["red", "green"]}},
    {"missing": {"$nin": ["x"]}},
    {"n": {"$gt": 3}},
    {"n": {"$gte": 5}},
    {"n": {"$lt": 5}},
    {"n": {"$lte": 1}},
    {"n": {"$gt": 2}},
    {"n": {"$gt": 2.5}},
    {"n": {"$lte": 1.0}},
    {"n": {"$gte": 1.5}},
    {"n": {"$lt": 5.5}},
    {"n": {"$gt": -1.5}},
    {"n": {"$lte": 0.5}},
    {"n": {"$eq": 1.5}},
    {"color": {"$gt": 3}},
    {"flag": {"$gt": 0}},
    {"missing": {"$lt": 100}},
    {"tags": {"$eq": "x"}},
    {"tags": {"$in": ["x"]}},
    {"tags": {"$ne": "x"}},
    {"tags": {"$nin": ["x"]}},
    {"$and": [{"color": "red"}, {"n": {"$gt": 0}}]},
    {"$or": [{"color": "green"}, {"n": {"$gt": 5}}]},
    {"$or": [{"$and": [{"color": "red"}, {"n": {"$lt": 3}}]}, {"color": "green"}]},
    {"$and": [{"$or": [{"color": "green"}, {"color": "blue"}]}, {"n": {"$gt": 2}}]},
]
"""Filters legal in both dialects (one key per mapping, one operator per expression)."""

CHROMA_FILTERS: list[dict[str, Any]] = [
    {"n": {"$in": [1.0]}},
    {"n": 5.5},
    {"n": {"$in": [5.5, 0.5]}},
    {"n": {"$ne": 1.5}},
    {"n": {"$nin": [10.5]}},
    {"color": {"$contains": "re"}},
    {"tags": {"$contains": "x"}},
    {"tags": {"$not_contains": "x"}},
    {"color": {"$not_contains": "red"}},
    {"missing": {"$contains": "x"}},
    {"missing": {"$not_contains": "x"}},
    {"n": {"$nin": [1, 5]}},
]

QDRANT_FILTERS: list[dict[str, Any]] = [
    {"tags": "x"},
    {"tags": {"$nin": ["y", "z"]}},
    {"title": {"$text_match": "alpha"}},
    {"title": {"$text_match": "ALPHA"}},
    {"title": {"$text_match": "alp"}},
    {"title": {"$text_match": "beta alpha"}},
    {"title": {"$text_match_insensitive": "BETA"}},
    {"color": {"$is_empty": True}},
    {"tags": {"$is_empty": True}},
    {"missing": {"$is_empty": True}},
    {"color": {"$exists": True}},
    {"missing": {"$exists": False}},
    {"tags": {"$exists": False}},
    {"$not": {"color": "red"}},
    {"$not": {"$or": [{"color": "red"}, {"n": 2}]}},
    {"color": "red", "n": 1},
    {"n": {"$gt": 1, "$lt": 9}},
    {"n": {"$in": [1, 5]}, "color": {"$ne": "blue"}},
]


PGVECTOR_FILTERS: list[dict[str, Any]] = [
    {"tags": "x"},
    {"tags": {"$ne": "x"}},
    {"tags": {"$nin": ["y", "z"]}},
    {"color": {"$ne": "red"}},
    {"color": {"$nin": ["red", "blue"]}},
    {"flag": {"$eq": 1}},
    {"flag": {"$gt": 0}},
    {"n": {"$ne": "5"}},
    {"n": {"$in": [1, "5", True]}},
    {"n": {"$nin": [1, "5"]}},
    {"color": {"$exists": True}},
    {"missing": {"$exists": False}},
    {"$not": {"color": "red"}},
    {"$not": {"n": 1}},
    {"$not": {"n": {"$gt": 2}}},
    {"$not": {"$or": [{"color": "red"}, {"n": 2}]}},
    {"$or": [{"n": 1}, {"$not": {"n": "5"}}]},
    {"$and": [{"$not": {"n": 1}}, {"color": {"$ne": "x"}}]},
    {"color": "red", "n": 1},
    {"n": {"$gt": 1, "$lt": 9}},
]
"""JSONB's rules: null matches ``$ne``, types never compare, ``NOT`` of unknown stays unknown."""


def _dataset(records: list[dict[str, Any]]) -> Dataset:
    vectors = np.random.default_rng(3).standard_normal((len(records), 4))
    ids = [str(i) for i in range(len(records))]
    return Dataset(kind="gauss", dim=4, ids=ids, vectors=vectors, metadatas=records)


def _params(engine: str, filters: list[dict[str, Any]]) -> list[Any]:
    return [
        pytest.param(engine, where, id=f"{engine}-{where}", marks=skip_unless_installed(engine))
        for where in filters
    ]


@pytest.mark.parametrize(
    ("engine", "where"),
    _params("chroma", COMMON_FILTERS + CHROMA_FILTERS)
    + _params("qdrant", COMMON_FILTERS + QDRANT_FILTERS)
    + _params("pgvector", COMMON_FILTERS + PGVECTOR_FILTERS),
)
def test_filter_matches_the_same_records(engine: str, where: dict[str, Any], sides: Any) -> None:
    records = RECORDS + (QDRANT_EXTRA if engine in ("qdrant", "pgvector") else [])
    data = _dataset(records)
    metric = "l2" if engine == "chroma" else "cosine"
    fake, real = sides(engine, metric, data.dim)
    fake.upsert(data.ids, data.vectors, data.metadatas)
    real.upsert(data.ids, data.vectors, data.metadatas)
    query = np.ones(data.dim)
    verdict = compare_query(
        engine, fake, real, vector=query, k=len(records) + 3, where=where,
        tol=tolerance(data, query, metric), size=len(records),
    )  # fmt: skip
    assert verdict.agree, verdict.detail
    assert not verdict.divergences, verdict.detail
