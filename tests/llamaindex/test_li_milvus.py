"""The milvus profile's LlamaIndex conventions (``MilvusVectorStore``), without the engine:
MMR scores and fallback, ``get_nodes`` and ``delete_nodes``. Each test names the probe fact of
``docs/integrations/new_integrations.md`` (``li_milvus_integration.py``) it reproduces."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from li_support import PROBE_METADATA, VECTORS
from llama_index.core.indices.query.embedding_utils import get_top_k_mmr_embeddings
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
)

from placeborag_core.backends.milvus import MilvusError
from placeborag_llamaindex import PlaceboVectorStore

UNIT = VECTORS  # the shared six nodes a..f, with the probes' metadata
MMR_QUERY = [0.95, 0.2, 0.3, 0.1]


def store() -> PlaceboVectorStore:
    s = PlaceboVectorStore(profile="milvus")
    s.add([TextNode(id_=k, text=k, embedding=v,
                    metadata={"color": PROBE_METADATA[k]["color"], "n": PROBE_METADATA[k]["n"]})
           for k, v in UNIT.items()])  # fmt: skip
    return s


def one(key: str, value: Any, op: FilterOperator = FilterOperator.EQ) -> MetadataFilters:
    return MetadataFilters(filters=[MetadataFilter(key=key, value=value, operator=op)])


def left(s: PlaceboVectorStore) -> str:
    return "".join(sorted(n.node_id for n in s.get_nodes(filters=one("n", 0, FilterOperator.GT))))


def mmr(s: PlaceboVectorStore, filters: MetadataFilters | None = None) -> Any:
    return s.query(VectorStoreQuery(query_embedding=MMR_QUERY, similarity_top_k=3, mode="mmr",
                                    filters=filters))  # fmt: skip


def llama_index_mmr(letters: list[str]) -> tuple[list[float], list[str]]:
    stored = [[float(np.float32(x)) for x in UNIT[k]] for k in letters]  # float32 field
    return get_top_k_mmr_embeddings(MMR_QUERY, stored, similarity_top_k=3, embedding_ids=letters)


def test_mmr_scores_are_the_mmr_objectives() -> None:
    # li-milvus-mmr-score-objective
    result = mmr(store())
    objectives, picks = llama_index_mmr(list(UNIT))
    assert result.ids == picks == ["a", "e", "b"]
    assert result.similarities == pytest.approx(objectives, abs=1e-7)


def test_mmr_with_fewer_candidates_than_top_k_has_no_plain_fallback() -> None:
    # li-milvus-mmr-fewer-than-top-k-no-fallback: MMR over the two, objectives as scores
    result = mmr(store(), one("id", ["a", "b"], FilterOperator.IN))
    objectives, picks = llama_index_mmr(["a", "b"])
    assert result.ids == picks
    assert result.similarities == pytest.approx(objectives, abs=1e-7)


def test_get_nodes_refuses_no_arguments_and_both() -> None:
    # li-milvus-get-nodes-no-arguments, li-milvus-get-nodes-ids-and-filters
    s = store()
    with pytest.raises(ValueError, match=r"^Either node_ids or filters must be provided\.$"):
        s.get_nodes()
    with pytest.raises(ValueError, match=r"^Only one of node_ids or filters can be provided\.$"):
        s.get_nodes(["a"], filters=one("color", "red"))


def test_get_nodes_of_no_ids_raises_the_engine_error() -> None:
    # li-milvus-get-nodes-empty-ids-raises
    with pytest.raises(MilvusError) as raised:
        store().get_nodes([])
    assert str(raised.value) == (
        "<MilvusException: (code=1100, message=empty expression should be used with limit: "
        "invalid parameter)>"
    )


def test_get_nodes_returns_embeddings() -> None:
    # li-milvus-get-nodes-with-embedding
    (node,) = store().get_nodes(["b"])
    assert node.embedding == [0.800000011920929, 0.6000000238418579, 0.0, 0.0]


def test_delete_nodes_adds_the_ids_to_the_filters_under_their_condition() -> None:
    # li-milvus-delete-nodes-ids-or-filters-union, li-milvus-delete-nodes-ids-and-filters-both
    s = store()
    either = MetadataFilters(
        filters=[MetadataFilter(key="color", value="green"), MetadataFilter(key="n", value=5)],
        condition=FilterCondition.OR,
    )
    s.delete_nodes(["a", "b"], filters=either)
    assert left(s) == "cf"
    s = store()
    s.delete_nodes(["a", "b"], filters=one("color", "red"))
    assert left(s) == "bcdef"


@pytest.mark.parametrize("node_ids", [[], None])
def test_delete_nodes_without_a_condition_raises_the_engine_error(node_ids: Any) -> None:
    # li-milvus-delete-nodes-empty-ids-raises, li-milvus-delete-nodes-no-arguments-raises
    s = store()
    with pytest.raises(ValueError, match="Illegal str variables") as raised:  # MilvusParamError
        s.delete_nodes(node_ids)
    assert isinstance(raised.value, MilvusError)
    assert str(raised.value) == (
        "<ParamError: (code=1, message=Illegal str variables: {'filter': ''}, expect non-empty "
        "str)>"
    )
    assert left(s) == "abcdef"


def query_ids(s: PlaceboVectorStore, filters: MetadataFilters, **kwargs: Any) -> str:
    res = s.query(VectorStoreQuery(query_embedding=UNIT["a"], similarity_top_k=6,
                                   filters=filters, **kwargs))  # fmt: skip
    return "".join(sorted(res.ids or []))


def invalid(expr: str) -> str:
    return f"<MilvusException: (code=1100, message=Invalid expr: {expr}: invalid parameter)>"


@pytest.mark.parametrize(
    ("filters", "expr"),
    [
        (one("doc_id", 1), "doc_id == 1"),
        (one("doc_id", 1.5, FilterOperator.GT), "doc_id > 1.5"),
        (one("doc_id", 1, FilterOperator.NE), "doc_id != 1"),
        (one("doc_id", ["x"], FilterOperator.ANY), "array_contains_any(doc_id, ['x'])"),
        (one("doc_id", ["x"], FilterOperator.ALL), "array_contains_all(doc_id, ['x'])"),
        (one("doc_id", "x", FilterOperator.CONTAINS), "array_contains(doc_id, 'x')"),
        (one("doc_id", None, FilterOperator.IS_EMPTY), "array_length(doc_id) == 0"),
        (one("text", 1), "text == 1"),
        (one("text", None, FilterOperator.IS_EMPTY), "array_length(text) == 0"),
    ],
)
def test_doc_id_and_text_are_varchar_fields_the_engine_type_checks(filters, expr) -> None:
    # li-milvus-filter-doc-id-typed, li-milvus-filter-text-typed
    s = store()
    for call in (lambda: query_ids(s, filters), lambda: query_ids(s, filters, doc_ids=["x"])):
        with pytest.raises(MilvusError) as raised:
            call()
        assert str(raised.value) == invalid(expr)


def test_doc_id_in_a_list_of_ints_fails_when_run() -> None:
    # li-milvus-filter-doc-id-typed: the parser takes it, the segment's assertion does not
    with pytest.raises(MilvusError, match=r"code=2000, message=Operator::GetOutput failed"):
        query_ids(store(), one("doc_id", [1, 2], FilterOperator.IN))


def test_the_text_key_names_the_node_text() -> None:
    # li-milvus-filter-text-typed
    s = store()
    assert query_ids(s, one("text", "a", FilterOperator.TEXT_MATCH)) == "a"
    assert query_ids(s, one("text", "b")) == "b"


# -- after clear(): MilvusVectorStore.clear() drops the collection (li-milvus-after-clear-*) --

NOT_FOUND = "<MilvusException: (code=100, message=collection not found)>"
DESCRIBE = "<DescribeCollectionException: (code=100, message=collection not found)>"
SCHEMA = (
    "<MilvusException: (code=100, message=Can not find llamacollection's schema: "
    "collection not found)>"
)


def cleared() -> PlaceboVectorStore:
    s = store()
    s.clear()
    return s


def search(s: PlaceboVectorStore, embedding: list[float] | None, **kwargs: Any) -> Any:
    return s.query(VectorStoreQuery(query_embedding=embedding, similarity_top_k=3, **kwargs))


@pytest.mark.parametrize(
    ("call", "code", "text"),
    [
        (lambda s: search(s, UNIT["a"]), 100, SCHEMA),
        (lambda s: search(s, UNIT["a"], mode="mmr"), 100, SCHEMA),
        (lambda s: search(s, UNIT["a"], filters=one("doc_id", 1)), 100, SCHEMA),
        (lambda s: search(s, [1.0, 0.0]), 100, SCHEMA),
        (lambda s: search(s, None),
         1, "<ParamError: (code=1, message=`search_data` value [None] is illegal)>"),
        (lambda s: s.get_nodes(["a"]), 100, DESCRIBE),
        (lambda s: s.get_nodes(filters=one("n", 0, FilterOperator.GT)), 100, NOT_FOUND),
        (lambda s: s.get_nodes([]), 100, NOT_FOUND),
        (lambda s: s.delete_nodes(["a"]), 100, NOT_FOUND),
        (lambda s: s.delete("x"), 100, NOT_FOUND),
        (lambda s: s.add([TextNode(id_="z", text="z", embedding=UNIT["a"])]), 100, DESCRIBE),
    ],
    ids=["query", "query-mmr", "query-bad-filter", "query-other-width", "query-no-embedding",
         "get-nodes-ids", "get-nodes-filters", "get-nodes-empty-ids", "delete-nodes", "delete",
         "add"],
)  # fmt: skip
def test_every_call_after_clear_raises_the_engine_error(call: Any, code: int, text: str) -> None:
    s = cleared()
    with pytest.raises(MilvusError) as caught:
        call(s)
    assert (caught.value.code, str(caught.value)) == (code, text)


def test_the_store_stays_dead_after_clear() -> None:
    s = cleared()
    with pytest.raises(MilvusError):
        s.add([TextNode(id_="z", text="z", embedding=UNIT["a"])])
    s.clear()  # li-milvus-after-clear-clear-again: silent
    assert s.add([]) == []
    for call in (lambda: search(s, UNIT["a"]), lambda: s.get_nodes(["z"])):
        with pytest.raises(MilvusError, match="collection not found"):
            call()
    assert s.core_store.count("") == 0


def test_async_calls_after_clear_raise_too() -> None:
    import asyncio

    s = store()
    asyncio.run(s.aclear())
    with pytest.raises(MilvusError, match="Can not find llamacollection's schema"):
        asyncio.run(s.aquery(VectorStoreQuery(query_embedding=UNIT["a"], similarity_top_k=1)))


def test_the_clients_own_checks_still_come_first_after_clear() -> None:
    s = cleared()
    with pytest.raises(ValueError, match="Either node_ids or filters must be provided"):
        s.get_nodes()
    with pytest.raises(MilvusError, match="Illegal str variables") as caught:
        s.delete_nodes()
    assert caught.value.code == 1
    with pytest.raises(MilvusError, match="`limit` value 0 is illegal"):
        s.query(VectorStoreQuery(query_embedding=UNIT["a"], similarity_top_k=0))
    with pytest.raises(ValueError, match="TEXT_MATCH_INSENSITIVE"):
        search(s, UNIT["a"], filters=one("color", "x", FilterOperator.TEXT_MATCH_INSENSITIVE))


def test_a_store_whose_clear_keeps_the_collection_stays_usable() -> None:
    s = PlaceboVectorStore(profile="default")
    s.add([TextNode(id_="a", text="a", embedding=UNIT["a"])])
    s.clear()
    assert s.add([TextNode(id_="b", text="b", embedding=UNIT["b"])]) == ["b"]
    assert search(s, UNIT["b"]).ids == ["b"]


# --------------------------------------------------------------------------- per-call keywords


def _ids(s: PlaceboVectorStore) -> list[str]:
    return sorted(n.node_id for n in s.get_nodes([*UNIT, "g"]))


async def test_milvus_per_call_keywords_at_their_no_op_values_change_nothing():
    # li-milvus-call-kwargs: MilvusVectorStore reads milvus_partition_names (query, get_nodes),
    # force_flush and milvus_partition_name (add), milvus_partition_name (delete, delete_nodes)
    s = store()
    top = VectorStoreQuery(query_embedding=MMR_QUERY, similarity_top_k=3)
    plain = s.query(top)
    for scoped in (s.query(top, milvus_partition_names=None), await s.aquery(top, **_NONE_READ)):
        assert (scoped.ids, scoped.similarities) == (plain.ids, plain.similarities)
    assert [n.node_id for n in s.get_nodes(["a", "b"], milvus_partition_names=None)] == ["a", "b"]
    assert [n.node_id for n in await s.aget_nodes(["a"], **_NONE_READ)] == ["a"]
    g = TextNode(id_="g", text="g", embedding=UNIT["a"])
    for flush in (True, False, None):
        assert s.add([g], force_flush=flush, milvus_partition_name=None) == ["g"]
    assert await s.async_add([g], force_flush=False, milvus_partition_name=None) == ["g"]
    s.delete_nodes(["a"], milvus_partition_name=None)
    await s.adelete_nodes(["b"], milvus_partition_name=None)
    s.delete("x", milvus_partition_name=None)
    await s.adelete("x", milvus_partition_name=None)
    assert _ids(s) == ["c", "d", "e", "f", "g"]


_NONE_READ = {"milvus_partition_names": None}


_ONE = VectorStoreQuery(query_embedding=MMR_QUERY)
_G = TextNode(id_="g", text="g", embedding=UNIT["a"])
_READS = "milvus_partition_names=['p']"
_WRITES = "milvus_partition_name='p'"


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda s: s.query(_ONE, milvus_partition_names=["p"]), _READS),
        (lambda s: s.get_nodes(["a"], milvus_partition_names=["p"]), _READS),
        (lambda s: s.add([_G], milvus_partition_name="p"), _WRITES),
        (lambda s: s.delete_nodes(["a"], milvus_partition_name="p"), _WRITES),
        (lambda s: s.delete("x", milvus_partition_name="p"), _WRITES),
    ],
)
def test_a_milvus_partition_name_is_an_engine_only_feature(call, name):
    s = store()
    with pytest.raises(NotImplementedError, match=rf"does not provide {re.escape(name)}: it is a"):
        call(s)
    assert _ids(s) == sorted(UNIT)  # nothing written or deleted


def test_milvus_force_flush_must_be_a_bool():
    s = store()
    with pytest.raises(TypeError, match="force_flush must be a bool or None, got str"):
        s.add([TextNode(id_="g", text="g", embedding=UNIT["a"])], force_flush="yes")
    assert _ids(s) == sorted(UNIT)


async def test_milvus_async_add_with_force_flush_writes_then_raises():
    # li-milvus-call-kwargs: MilvusVectorStore.async_add inserts, then refuses force_flush
    s = store()
    with pytest.raises(
        NotImplementedError, match=r"^force_flush is not supported in async mode\.$"
    ):
        await s.async_add([TextNode(id_="g", text="g", embedding=UNIT["a"])], force_flush=True)
    assert _ids(s) == [*sorted(UNIT), "g"]


@pytest.mark.parametrize("profile", ["default", "chroma", "qdrant", "pgvector"])
def test_milvus_keywords_stay_unknown_elsewhere(profile):
    s = PlaceboVectorStore(profile=profile)
    with pytest.raises(
        TypeError, match=r"add\(\) got unexpected keyword arguments \['force_flush'\]"
    ):
        s.add([], force_flush=True)
    with pytest.raises(TypeError, match="unexpected keyword arguments"):
        s.query(VectorStoreQuery(query_embedding=MMR_QUERY), milvus_partition_names=None)
