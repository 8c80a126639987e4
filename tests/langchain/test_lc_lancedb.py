"""``PlaceboVectorStore(profile="lancedb")``: langchain-community ``LanceDB``'s conventions
without LanceDB installed (each expectation is a fact of
docs/integrations/new_integrations.md#langchain-lancedb-lc_lancedbpy, compared with the real
store by tests/fidelity/test_langchain_lancedb.py)."""

from __future__ import annotations

import warnings

import pytest

from placeborag_langchain import PlaceboEmbeddings, PlaceboVectorStore

META = [{"color": "red", "n": 1}, {"color": "blue", "n": 2}, {"color": "red", "n": 3}]


def store(**options: object) -> PlaceboVectorStore:
    return PlaceboVectorStore(PlaceboEmbeddings(dimensions=16), profile="lancedb", **options)


def test_every_add_replaces_the_table_by_default_and_appends_with_mode_append() -> None:
    s = store()
    s.add_texts(["a", "b"], META[:2], ids=["1", "2"])
    s.add_texts(["c"], [{"x": True}], ids=["3"])  # a new table, a new schema
    assert [(d.page_content, d.metadata) for d in s.similarity_search("c", k=9)] == [
        ("c", {"x": True})
    ]
    s = store(mode="append")
    s.add_texts(["a", "b"], META[:2], ids=["1", "2"])
    s.add_texts(["a"], [{"n": 7}], ids=["1"])  # the same id again: another row
    found = s.similarity_search_with_score("a", k=9)
    assert [(d.page_content, d.metadata) for d, _ in found] == [
        ("a", {"color": "red", "n": 1}),
        ("a", {"color": None, "n": 7}),
        ("b", {"color": "blue", "n": 2}),
    ]
    assert all(d.id is None for d, _ in found)
    with pytest.raises(ValueError, match="field 'other' does not exist in table schema"):
        s.add_texts(["d"], [{"other": 1}], ids=["4"])


def test_add_texts_without_metadatas_stores_the_id() -> None:
    s = store()
    s.add_texts(["q"], ids=["x1"])
    assert s.similarity_search("q", k=1)[0].metadata == {"id": "x1"}


def test_filters_are_sql_post_filters_unless_prefilter() -> None:
    s = store(mode="append")
    s.add_texts(["a", "b", "c"], META, ids=["1", "2", "3"])
    found = s.similarity_search("a", k=3, filter="metadata.n >= 2")
    assert sorted(d.page_content for d in found) == ["b", "c"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert s.similarity_search("a", k=1, filter="metadata.color = 'blue'") == []
    assert [str(w.message) for w in caught] == ["No results found for the query."]
    found = s.similarity_search("a", k=1, filter="metadata.color = 'blue'", prefilter=True)
    assert [d.page_content for d in found] == ["b"]
    with pytest.raises(ValueError, match="Schema error: No field named color"):
        s.similarity_search("a", k=1, filter={"color": "red"})  # the dict's SQL is unprefixed
    with pytest.raises(ValueError, match="Limit is required for ANN/KNN queries"):
        s.similarity_search("a", k=0)


def test_distance_picks_the_relevance_function_only() -> None:
    scores = {}
    for distance in ("l2", "cosine", "ip"):
        s = store(distance=distance)
        s.add_texts(["a", "b"], META[:2], ids=["1", "2"])
        scores[distance] = [score for _, score in s.similarity_search_with_score("a", k=2)]
    assert scores["l2"] == scores["cosine"] == scores["ip"]  # every search is l2
    s = store(distance="dot")
    s.add_texts(["a"], META[:1], ids=["1"])
    with pytest.raises(ValueError, match=r"for distance metric of type: dot\.Consider providing"):
        s.similarity_search_with_relevance_scores("a", k=1)


def test_get_by_ids_and_deletes() -> None:
    s = store(mode="append")
    s.add_texts(["a", "b", "c"], META, ids=["1", "2", "1"])
    with pytest.raises(NotImplementedError, match=r"LanceDB does not yet support get_by_ids\."):
        s.get_by_ids(["1"])
    for ids in (None, []):
        with pytest.raises(ValueError, match="Provide either filter, ids, drop_columns"):
            s.delete(ids=ids)
    assert s.delete(filter="metadata.n = 3") is None  # that row only, not every row of id 1
    assert sorted(d.page_content for d in s.similarity_search("a", k=9)) == ["a", "b"]
    assert s.delete(ids=["nope", "it's"]) is None
    s.delete(ids=["1"])
    assert [d.page_content for d in s.similarity_search("a", k=9)] == ["b"]
    s.delete(delete_all=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert s.similarity_search("a", k=9) == []
