"""The langchain-milvus row (`profile="milvus"`), without Milvus: the measured conventions of
`docs/integrations/new_integrations.md#langchain-langchain-milvus-milvus-lc_milvus_integrationpy`
(compared with the real class in `tests/fidelity/test_langchain_milvus.py`)."""

from __future__ import annotations

import pytest

from placeborag_core.backends.milvus.errors import MilvusError
from placeborag_langchain import PlaceboEmbeddings, PlaceboVectorStore

FIRST = {"color": "red", "n": 1, "price": 1.5, "flag": True}


def store(**options: object) -> PlaceboVectorStore:
    return PlaceboVectorStore(PlaceboEmbeddings(dimensions=16), profile="milvus", **options)


def test_default_metric_is_l2_and_index_params_choose_another() -> None:
    assert store().core_store.profile.metric == "l2"
    cosine = store(index_params={"metric_type": "COSINE", "index_type": "FLAT"})
    assert cosine.core_store.profile.metric == "cosine"


def test_nothing_before_the_first_add() -> None:
    vs = store()
    assert vs.similarity_search("refund", k=2) == []
    assert vs.max_marginal_relevance_search("refund", k=2) == []
    assert vs.delete(["x"]) is False
    with pytest.raises(ValueError, match="No index params provided"):
        vs.similarity_search_with_relevance_scores("refund", k=2)


def test_first_batch_fixes_typed_fields() -> None:
    vs = store()
    vs.add_texts(["a"], metadatas=[FIRST], ids=["a"])
    with pytest.raises(MilvusError, match="Insert missed an field `n`"):
        vs.add_texts(["b"], metadatas=[{"color": "x"}], ids=["b"])
    with pytest.raises(MilvusError, match=r"\{n\} field should be a int64, but got a"):
        vs.add_texts(["b"], metadatas=[{**FIRST, "n": 1.5}], ids=["b"])
    vs.add_texts(["b"], metadatas=[{**FIRST, "price": 3, "flag": 1, "extra": 1}], ids=["b"])
    doc = vs.similarity_search("b", k=1, expr='pk == "b"')[0]
    assert doc.id is None
    assert doc.metadata == {"color": "red", "n": 1, "price": 3.0, "flag": True, "pk": "b"}
    with pytest.raises(ValueError, match=r"Metadata key pk is reserved\."):
        store().add_texts(["a"], metadatas=[{"pk": "x"}], ids=["a"])


def test_expr_over_typed_fields_and_refused_calls() -> None:
    vs = store(index_params={"metric_type": "IP"})
    vs.add_texts(["a", "b"], metadatas=[FIRST, {**FIRST, "n": 2}], ids=["a", "b"])
    assert [d.metadata["pk"] for d in vs.similarity_search("a", k=5, expr="n + 1 == 3")] == ["b"]
    with pytest.raises(MilvusError, match=r"Invalid expr: n == 1\.0: invalid parameter"):
        vs.similarity_search("a", k=5, expr="n == 1.0")
    with pytest.raises(TypeError, match="multiple values for keyword argument 'filter'"):
        vs.similarity_search("a", k=5, filter={"n": 1})
    with pytest.raises(NotImplementedError, match="get_by_ids"):
        vs.get_by_ids(["a"])
    with pytest.raises(AssertionError, match="unique ids"):
        vs.add_texts(["c", "d"], metadatas=[FIRST, FIRST], ids=["c", "c"])
    with pytest.raises(NotImplementedError, match="auto ids"):
        vs.add_texts(["c"], metadatas=[FIRST])
    with pytest.raises(NotImplementedError, match="auto_id=True"):
        store(auto_id=True)
    relevance = [s for _, s in vs.similarity_search_with_relevance_scores("a", k=1)]
    assert relevance == [pytest.approx(1.0, abs=1e-6)]  # (s + 1) / 2 of s = 1


def test_like_of_wildcards_only_matches_nothing_on_typed_fields() -> None:
    """milvus-filter-like-wildcards-only-match-nothing, on a VARCHAR field, the text and pk."""
    vs = store()
    vs.add_texts(["abc", "d"], metadatas=[FIRST, {**FIRST, "color": "r"}], ids=["a", "b"])
    for expr in ('color like "%"', 'color like "_"', 'text like "%_"', 'pk like "_"'):
        assert vs.similarity_search("a", k=5, expr=expr) == [], expr
    found = vs.similarity_search("a", k=5, expr='color like "r%"')
    assert sorted(d.metadata["pk"] for d in found) == ["a", "b"]


def test_every_item_of_an_in_list_on_a_typed_field_has_the_fields_kind() -> None:
    """lc-milvus-term-kind-typed: an int in a DOUBLE field's list fails as it runs (kFloatVal,
    Utils.h:140), first or not, where ``price == 1`` compares (report seed 12319647550046)."""
    vs = store()
    vs.add_texts(["a"], metadatas=[FIRST], ids=["a"])
    for expr in ("price in [1]", "price in [1.5, 2]", "price not in [2, 1.5]"):
        with pytest.raises(MilvusError, match=r"kFloatVal\)\"  at .*Utils\.h:140"):
            vs.similarity_search("a", k=5, expr=expr)
    with pytest.raises(MilvusError, match=r"kInt64Val\)\"  at .*Utils\.h:130"):
        vs.similarity_search("a", k=5, expr="n in [1.0]")
    for expr in ("price in [1.5]", "price == 1.5"):
        assert [d.metadata["pk"] for d in vs.similarity_search("a", k=5, expr=expr)] == ["a"]


def test_planner_errors_come_before_core_errors_and_bool_fields_are_operands() -> None:
    """milvus-filter-planner-errors-first, milvus-filter-logic-operands (seeds 30034, 30073)."""
    vs = store()
    vs.add_texts(["a"], metadatas=[FIRST], ids=["a"])
    for expr in ('(n in [] or title == "x")', '((color = "red" and flag < true) or n in [1])'):
        with pytest.raises(MilvusError, match="invalid parameter"):
            vs.similarity_search("a", k=5, expr=expr)
    with pytest.raises(MilvusError, match="Cannot find field with field_id: 0"):
        vs.similarity_search("a", k=5, expr="(n in [] or n == 1)")
    with pytest.raises(MilvusError, match=r"Invalid expr: n >: invalid parameter"):
        vs.similarity_search("a", k=5, expr="n >")  # a typed field (JSON: a type error)
    assert [d.metadata["pk"] for d in vs.similarity_search("a", k=5, expr="(n == 1 or flag)")] == [
        "a"
    ]


def test_delete_by_ids_or_expr() -> None:
    vs = store()
    vs.add_texts(["a", "b", "c"], metadatas=[FIRST, {**FIRST, "n": 2}, FIRST], ids=list("abc"))
    with pytest.raises(AssertionError, match="Either ids list or expr string"):
        vs.delete()
    assert vs.delete(expr="n >") is False
    assert vs.delete([5]) is False
    assert vs.delete(expr="n == 1") is True
    assert vs.core_store.ids() == ["b"]
    assert vs.delete(["b", "nope"]) is True
    assert vs.core_store.ids() == []


def test_field_names_and_dynamic_field() -> None:
    vs = store(primary_field="id", text_field="body")
    vs.add_texts(["a"], metadatas=[FIRST], ids=["a"])
    assert vs.similarity_search("a", k=1, expr='id == "a" and body like "a%"')[0].metadata["id"]
    dynamic = store(enable_dynamic_field=True)
    dynamic.add_texts(["a", "b"], metadatas=[{"color": "red"}, {"n": "5"}], ids=["a", "b"])
    got = dynamic.similarity_search("a", k=5, expr='color != "red"')
    assert [d.metadata for d in got] == [{"n": "5", "pk": "b"}]
