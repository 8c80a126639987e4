"""Filter dialects: Chroma where dicts, FAISS's dict dialect, Qdrant Filter objects, callables.

Expected results are the real integrations': docs/integrations/langchain.md#lc-chroma-filter-where,
#lc-qdrant-filter-prefix, #lc-qdrant-filter-dict, #lc-faiss-filter-dialect,
#lc-faiss-filter-errors.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from lc_geometry import DOCS, META, QIDS, TableEmbeddings

from placeborag_core.backends import PROFILES
from placeborag_core.store.partition import Partition
from placeborag_langchain import INTEGRATIONS, PlaceboVectorStore
from placeborag_langchain.filters import CORE_WHERE, TranslatedFilter, translate_filter


def build(profile: str, **kwargs: Any) -> PlaceboVectorStore:
    store = PlaceboVectorStore(TableEmbeddings(), profile=profile, **kwargs)
    ids = QIDS if profile == "qdrant" else [f"id_{t}" for t in DOCS]
    store.add_texts(DOCS, [META[t] for t in DOCS], ids=ids)
    return store


def found(store: PlaceboVectorStore, flt: Any, k: int = 6, **kwargs: Any) -> list[str]:
    return [d.page_content for d in store.similarity_search("q", k=k, filter=flt, **kwargs)]


# --- Chroma: the core dialect, with Chroma's semantics and messages ---------------------------

CHROMA_CASES = [
    ({"color": "red"}, ["a", "c", "f"]),
    ({"color": {"$ne": "red"}}, ["b", "d", "e"]),
    ({"n": {"$gte": 3}}, ["c", "d", "e", "f"]),
    ({"n": 1.0}, ["a"]),
    ({"color": {"$nin": ["red", "green"]}}, ["b", "e"]),
    ({"$or": [{"color": "green"}, {"n": 1}]}, ["a", "d"]),
    ({"missing_key": {"$ne": "x"}}, DOCS),
    ({"color": {"$gt": 3}}, []),
]


@pytest.mark.parametrize(("flt", "expected"), CHROMA_CASES)
def test_chroma_where_dicts(flt: dict[str, Any], expected: list[str]) -> None:
    assert found(build("chroma"), flt) == expected


@pytest.mark.parametrize(
    ("flt", "message"),
    [
        ({"color": "red", "n": 1}, "Expected where to have exactly one operator"),
        ({"$and": [{"color": "red"}]}, "at least two where expressions"),
    ],
)
def test_chroma_rejects_what_chroma_rejects(flt: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        found(build("chroma"), flt)


def test_chroma_filter_is_a_pre_filter() -> None:
    assert found(build("chroma"), {"color": "red"}, k=2) == ["a", "c"]


# --- FAISS: its own dict dialect, post-filtered over fetch_k -----------------------------------

FAISS_CASES = [
    ({"color": "red"}, ["a", "c", "f"]),
    ({"color": {"$neq": "red"}}, ["b", "d", "e"]),
    ({"n": {"$gt": 1, "$lt": 5}}, ["b", "c", "d"]),
    ({"color": ["red", "green"]}, ["a", "c", "d", "f"]),
    ({"color": {"$nin": ["red", "green"]}}, ["b", "e"]),
    ({"color": "red", "n": 1}, ["a"]),
    ({"$not": {"color": "red"}}, ["b", "d", "e"]),
    ({"$and": [{"color": "red"}]}, ["a", "c", "f"]),
    ({"$and": []}, DOCS),
    ({"$or": []}, []),
    ({}, DOCS),
    ({"color": "red", "$or": [{"n": 4}]}, ["d"]),  # $or shadows the sibling key
    ({"missing_key": {"$neq": "x"}}, DOCS),
    ({"missing_key": {"$nin": ["x"]}}, DOCS),
    ({"missing_key": None}, DOCS),
    ({"missing_key": "x"}, []),
    ({"$or": [{"$and": [{"color": "red"}, {"n": {"$lt": 3}}]}, {"color": "green"}]}, ["a", "d"]),
]


@pytest.mark.parametrize(("flt", "expected"), FAISS_CASES)
def test_faiss_dict_dialect(flt: dict[str, Any], expected: list[str]) -> None:
    assert found(build("faiss"), flt) == expected


@pytest.mark.parametrize("op", ["$ne", "$foo", "$contains"])
def test_faiss_rejects_unsupported_operators(op: str) -> None:
    with pytest.raises(ValueError, match=f"filter contains unsupported operator: \\{op}"):
        found(build("faiss"), {"color": {op: "red"}})
    with pytest.raises(ValueError, match="unsupported operator: \\$nor"):
        found(build("faiss"), {"$nor": [{"color": "red"}]})


def test_faiss_rejects_a_non_dict_non_callable() -> None:
    with pytest.raises(ValueError, match="filter must be a dict of metadata or a callable"):
        found(build("faiss"), "red")


def test_faiss_post_filter_pitfall_and_fetch_k() -> None:
    store = PlaceboVectorStore(TableEmbeddings(), profile="faiss")
    store.add_texts([f"near{i}" for i in range(30)], [{"color": "blue"}] * 30)
    store.add_texts(["far-match"], [{"color": "red"}])
    assert found(store, {"color": "red"}, k=1) == []  # default fetch_k=20 misses it
    assert found(store, {"color": "red"}, k=1, fetch_k=31) == ["far-match"]
    pre = PlaceboVectorStore(TableEmbeddings(), profile="faiss", filter_mode="pre")
    pre.add_texts([f"near{i}" for i in range(30)], [{"color": "blue"}] * 30)
    pre.add_texts(["far-match"], [{"color": "red"}])
    assert found(pre, {"color": "red"}, k=1) == ["far-match"]


def test_faiss_callable_receives_metadata() -> None:
    assert found(build("faiss"), lambda m: m["n"] % 2 == 0) == ["b", "d", "f"]


# --- Qdrant: models.Filter, duck-typed --------------------------------------------------------


def cond(key: str, **kw: Any) -> SimpleNamespace:
    base = {
        "match": None,
        "range": None,
        "geo_bounding_box": None,
        "geo_radius": None,
        "geo_polygon": None,
        "values_count": None,
        "is_empty": None,
        "is_null": None,
    }
    return SimpleNamespace(key=key, **{**base, **kw})


def flt(
    must: Any = None, should: Any = None, must_not: Any = None, min_should: Any = None
) -> SimpleNamespace:
    return SimpleNamespace(must=must, should=should, must_not=must_not, min_should=min_should)


RED = cond("metadata.color", match=SimpleNamespace(value="red"))
GREEN = cond("metadata.color", match=SimpleNamespace(value="green"))
N1 = cond("metadata.n", match=SimpleNamespace(value=1))

DUCK_CASES = [
    (flt(must=[RED]), ["a", "c", "f"]),
    (flt(must=[cond("color", match=SimpleNamespace(value="red"))]), []),  # no metadata. prefix
    (
        flt(must=[cond("metadata.n", range=SimpleNamespace(gt=3, gte=None, lt=None, lte=None))]),
        ["d", "e", "f"],
    ),
    (
        flt(must=[cond("metadata.color", match=SimpleNamespace(any=["red", "green"]))]),
        ["a", "c", "d", "f"],
    ),
    (
        flt(must=[cond("metadata.color", match=SimpleNamespace(except_=["red", "green"]))]),
        ["b", "e"],
    ),
    (flt(must_not=[RED]), ["b", "d", "e"]),
    (flt(should=[GREEN, N1]), ["a", "d"]),
    (
        flt(
            should=[
                flt(
                    must=[
                        RED,
                        cond(
                            "metadata.n", range=SimpleNamespace(gt=None, gte=None, lt=3, lte=None)
                        ),
                    ]
                ),
                GREEN,
            ]
        ),
        ["a", "d"],
    ),
    (
        flt(
            min_should=SimpleNamespace(
                conditions=[
                    RED,
                    cond("metadata.n", range=SimpleNamespace(gt=2, gte=None, lt=None, lte=None)),
                    cond(
                        "metadata.price", range=SimpleNamespace(gt=None, gte=None, lt=5, lte=None)
                    ),
                ],
                min_count=2,
            )
        ),
        ["a", "c", "d", "f"],
    ),
    (flt(must_not=[cond("metadata.missing_key", match=SimpleNamespace(value="x"))]), DOCS),
    (flt(must=[SimpleNamespace(is_empty=SimpleNamespace(key="metadata.missing_key"))]), DOCS),
    (flt(must=[SimpleNamespace(has_id=[QIDS[1], QIDS[3]])]), ["b", "d"]),
    (flt(must=[cond("metadata.n")]), []),  # a FieldCondition without a condition
    (flt(), DOCS),
]


@pytest.mark.parametrize(("qfilter", "expected"), DUCK_CASES)
def test_qdrant_filters_duck_typed(qfilter: Any, expected: list[str]) -> None:
    assert found(build("qdrant"), qfilter) == expected


def test_qdrant_rejects_dicts_like_the_real_integration() -> None:
    with pytest.raises(AttributeError, match="'dict' object has no attribute 'must'"):
        found(build("qdrant"), {"color": "red"})


def test_qdrant_models_filter_objects() -> None:
    models = pytest.importorskip("qdrant_client.models")
    qfilter = models.Filter(
        must=[models.FieldCondition(key="metadata.color", match=models.MatchValue(value="red"))],
        must_not=[models.FieldCondition(key="metadata.n", range=models.Range(gte=6))],
    )
    assert found(build("qdrant"), qfilter) == ["a", "c"]
    red = models.FieldCondition(key="metadata.color", match=models.MatchValue(value="red"))
    in_should = models.Filter(should=[models.HasIdCondition(has_id=[QIDS[1]]), red])
    assert found(build("qdrant"), in_should) == ["a", "b", "c", "f"]


def test_qdrant_conditions_on_the_page_content() -> None:
    store = build("qdrant")
    text_is = cond("page_content", match=SimpleNamespace(value="c"))
    assert found(store, flt(must=[text_is])) == ["c"]
    assert found(store, flt(must_not=[text_is])) == ["a", "b", "d", "e", "f"]
    assert found(
        store, flt(should=[text_is, cond("metadata.n", match=SimpleNamespace(value=1))])
    ) == [
        "a",
        "c",
    ]
    text_in = cond("page_content", match=SimpleNamespace(any=["b", "e", "z"]))
    assert found(store, flt(must=[text_in, RED])) == []
    assert found(
        store, flt(must=[text_in], must_not=[cond("metadata.n", match=SimpleNamespace(value=2))])
    ) == ["e"]
    # a range never matches a string; "page_content.x" names nothing; the text is never empty
    ranged = SimpleNamespace(gt=0, gte=None, lt=None, lte=None)
    assert found(store, flt(must=[cond("page_content", range=ranged)])) == []
    assert found(store, flt(must=[cond("page_content.x", match=SimpleNamespace(value="c"))])) == []
    empty = SimpleNamespace(is_empty=SimpleNamespace(key="page_content"))
    assert found(store, flt(must=[empty])) == []


def test_qdrant_has_id_below_the_top_must_is_a_condition_on_the_id() -> None:
    store = build("qdrant")
    one, two = SimpleNamespace(has_id=[QIDS[0]]), SimpleNamespace(has_id=[QIDS[1], QIDS[2]])
    assert found(store, flt(must_not=[one])) == ["b", "c", "d", "e", "f"]
    assert found(store, flt(must=[flt(must=[two]), RED])) == ["c"]
    assert found(store, flt(should=[one, two])) == ["a", "b", "c"]


# --- callables and the default profile --------------------------------------------------------


def test_callable_filter_receives_a_document_by_default() -> None:
    store = build("default")
    assert found(store, lambda doc: doc.metadata["color"] == "blue") == ["b", "e"]
    assert found(store, lambda doc: doc.id == "id_f") == ["f"]


@pytest.mark.parametrize("profile", ["default", "faiss"])
def test_callable_filters_do_not_copy_stored_vectors(
    profile: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = build(profile)
    flags: list[bool] = []
    original = Partition.record_at

    def spy(self: Partition, row: int, *, vector: bool = True) -> Any:
        flags.append(vector)
        return original(self, row, vector=vector)

    monkeypatch.setattr(Partition, "record_at", spy)
    assert found(store, lambda _: True) == DOCS  # a Document (or its metadata) has no vector
    assert flags == [False] * len(DOCS)


def test_default_profile_uses_the_strict_core_dialect() -> None:
    store = build("default")
    assert found(store, {"missing_key": {"$ne": "x"}}) == []  # absent never matches
    with pytest.raises(ValueError, match="\\$bogus"):
        found(store, {"color": {"$bogus": 1}})


def test_translation_is_pure_data() -> None:
    faiss = INTEGRATIONS["faiss"].filter_format
    assert translate_filter(None, CORE_WHERE, PROFILES["default"], "document") == (
        TranslatedFilter()
    )
    assert translate_filter({"$or": []}, faiss, PROFILES["faiss"], "metadata") == (
        TranslatedFilter(ids=frozenset())
    )
    # FAISS evaluates its dict in Python: the dict becomes FAISS's function of the metadata.
    translated = translate_filter({"color": {"$neq": "red"}}, faiss, PROFILES["faiss"], "metadata")
    assert translated.where is None
    assert translated.predicate_arg == "metadata"
    assert translated.predicate is not None
    assert translated.predicate({"color": "blue"}) is True
    assert translated.predicate({"color": "red"}) is False


def test_faiss_callables_are_post_filtered_too() -> None:
    store = PlaceboVectorStore(TableEmbeddings(), profile="faiss")
    store.add_texts([f"near{i}" for i in range(30)], [{"color": "blue"}] * 30)
    store.add_texts(["far-match"], [{"color": "red"}])

    def red(metadata: dict[str, Any]) -> bool:
        return bool(metadata["color"] == "red")

    assert found(store, red, k=1) == []
    assert found(store, red, k=1, fetch_k=31) == ["far-match"]
