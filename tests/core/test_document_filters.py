"""where_document: Chroma's filter on record text, in query, select, MMR and trace."""

from __future__ import annotations

import re
from typing import Any

import pytest

from placeborag_core import FakeVectorStore, FilterError

DOCS = {"a": "Refund policy", "b": "refund window", "c": "Shipping", "d": "x"}
VECTORS = {"a": [1.0, 0.0], "b": [0.9, 0.1], "c": [0.0, 1.0], "d": [0.5, 0.5]}

# (where_document, ids that pass) - the same table the Chroma probe prints
# (tests/fidelity/probes/chroma_where_document.py); "no-doc" is stored from a vector alone.
SEMANTICS: list[tuple[dict[str, Any], set[str]]] = [
    ({"$contains": "refund"}, {"b"}),
    ({"$contains": "Refund"}, {"a"}),
    ({"$not_contains": "refund"}, {"a", "c", "d", "no-doc"}),
    ({"$regex": "^[Rr]efund"}, {"a", "b"}),
    ({"$not_regex": "^[Rr]efund"}, {"c", "d", "no-doc"}),
    ({"$regex": "(?i)REFUND"}, {"a", "b"}),
    ({"$and": [{"$contains": "efund"}, {"$not_contains": "window"}]}, {"a"}),
    ({"$or": [{"$contains": "Ship"}, {"$contains": "window"}]}, {"b", "c"}),
]


def _store(profile: str = "default", **options: Any) -> FakeVectorStore:
    store = FakeVectorStore(profile=profile, **options)
    store.upsert_many([(i, DOCS[i], {"n": n}, VECTORS[i]) for n, i in enumerate(DOCS)])
    store.upsert("no-doc", None, {"n": 9}, vector=[1.0, 0.1])
    return store


@pytest.mark.parametrize("profile", ["default", "chroma", "faiss", "weaviate"])
@pytest.mark.parametrize(("where_document", "expected"), SEMANTICS)
def test_semantics_in_query_and_select(
    profile: str, where_document: dict[str, Any], expected: set[str]
) -> None:
    store = _store(profile)
    found = store.query([1.0, 0.0], k=5, where_document=where_document)
    assert {m.id for m in found} == expected
    assert {r.id for r in store.select(where_document=where_document)} == expected


def test_combines_with_where_and_ids_by_and() -> None:
    store = _store()
    both = store.query([1.0, 0.0], k=5, where={"n": {"$gte": 1}}, where_document={"$regex": "f"})
    assert [m.id for m in both] == ["b"]
    only = store.query([1.0, 0.0], k=5, ids=["a", "c"], where_document={"$not_contains": "zz"})
    assert [m.id for m in only] == ["a", "c"]


def test_follows_the_filter_mode() -> None:
    # post: the nearest 2 ("a", "no-doc") are fetched, then filtered; pre: filtered, then top 2
    where_document = {"$contains": "efund"}
    post = _store(filter_mode="post").query([1.0, 0.0], k=2, where_document=where_document)
    pre = _store().query([1.0, 0.0], k=2, where_document=where_document)
    assert [m.id for m in post] == ["a"]
    assert [m.id for m in pre] == ["a", "b"]


def test_mmr_and_trace_honour_it() -> None:
    store = _store()
    picks = store.max_marginal_relevance([1.0, 0.0], k=3, where_document={"$contains": "i"})
    assert {m.id for m in picks} == {"a", "b", "c"}
    traces = {t.id: t.status for t in store.trace([1.0, 0.0], where_document={"$contains": "x"})}
    assert traces["d"] == "ranked"
    assert traces["a"] == "filtered_out"


def test_orphans_contain_nothing() -> None:
    store = _store(orphaned_ids=True)
    store.delete(["a"])
    kept = store.query([1.0, 0.0], k=5, where_document={"$not_contains": "zzz"})
    assert "a" in {m.id for m in kept}
    assert "a" not in {m.id for m in store.query([1.0, 0.0], k=5, where_document={"$regex": "."})}


BAD: list[tuple[Any, str]] = [
    ({"$and": [{"$contains": "efund"}]}, "to be a list with at least two where document"),
    ({"$or": []}, "to be a list with at least two where document expressions, got []"),
    ({"$contains": ""}, "operator $contains to be a non-empty str"),
    ({"$not_regex": ""}, "operator $not_regex to be a non-empty str"),
    ({"$contains": 3}, "operator $contains to be a str, got 3"),
    ({"$foo": "x"}, "one of $contains, $not_contains, $regex, $not_regex, $and, $or, got $foo"),
    ({}, "to have exactly one operator, got {}"),
    ({"$contains": "a", "$not_contains": "b"}, "to have exactly one operator"),
    ("refund", "to be a dictionary, got refund"),
    ({"$or": [{"$contains": "a"}, {"$bad": "b"}]}, "got $bad"),
    ({"$regex": "("}, "Regex syntax error"),
]


@pytest.mark.parametrize(("where_document", "message"), BAD)
def test_malformed_expressions_raise_chroma_messages_before_reading(
    where_document: Any, message: str
) -> None:
    store = _store("chroma")
    with pytest.raises(FilterError, match=f"{re.escape(message)}.* in get\\.$"):
        store.select(where_document=where_document)  # Chroma's get
    with pytest.raises(FilterError, match=f"{re.escape(message)}.* in query\\.$"):
        store.query([1.0, 0.0], where_document=where_document)
    with pytest.raises(FilterError, match=re.escape(message)):
        _store().trace([1.0, 0.0], where_document=where_document)
    assert store.count() == 5


def test_bad_input_in_query_leaves_the_store_and_its_faults_as_they_were() -> None:
    store = _store("chroma")
    with pytest.raises(FilterError):
        store.max_marginal_relevance([1.0, 0.0], where_document={"$contains": 1})
    assert [m.id for m in store.query([1.0, 0.0], k=1)] == ["a"]


def test_delete_by_filter_removes_what_passes_among_the_given_ids() -> None:
    store = _store("chroma")
    assert store.delete(where={"n": {"$lte": 1}}) == 2  # a (n=0), b (n=1)
    assert store.ids() == ["c", "d", "no-doc"]
    store = _store("chroma")
    assert store.delete(["a", "b", "c"], where_document={"$contains": "efund"}) == 2
    assert store.ids() == ["c", "d", "no-doc"]
    store = _store()
    assert store.delete(where={"n": 0}, where_document={"$contains": "window"}) == 0
    assert store.count() == 5


def test_delete_by_filter_waits_for_refresh_under_manual_visibility() -> None:
    store = _store(visibility="manual")
    store.refresh()
    assert store.delete(where_document={"$regex": "^[Rr]"}) == 2
    assert store.count() == 5
    store.refresh()
    assert store.ids() == ["c", "d", "no-doc"]


def test_delete_needs_something_to_match_and_validates_first() -> None:
    store = _store("chroma")
    with pytest.raises(ValueError, match="needs ids, a where filter or a where_document"):
        store.delete()
    with pytest.raises(FilterError, match=r"exactly one operator, got \{\} in delete\.$"):
        store.delete(where_document={})
    with pytest.raises(FilterError, match=r"got \$foo in delete\.$"):
        store.delete(["a"], where={"n": {"$foo": 1}})
    assert store.count() == 5
