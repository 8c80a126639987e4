"""Probe: what LlamaIndex's ``QdrantVectorStore`` adds on top of Qdrant's local mode.

Covers the ``li-qdrant-*`` facts of docs/integrations/llamaindex.md, measured through
``VectorStoreIndex`` and its retriever: the raw engine score, the collection it creates, metadata
kept nested at the payload's top level, UUID-only node ids, upsert of an existing id, the
``MetadataFilters`` translation (operators, NOT, nesting, ``condition=None``), ``doc_ids`` and
``node_ids``, native ``qdrant_filters``, query modes, ``delete_nodes``, ``clear``, ``get_nodes``
and ties. Run: python tests/fidelity/probes/li_qdrant_integration.py
"""

from __future__ import annotations

import inspect
import math
import uuid
from typing import Any

import pydantic
from _llamaindex import filters, index_over, node_id, nodes, retrieve, texts
from _probe import Facts, raised
from _table import DOCS


def no_collection(facts: Facts, vs: Any) -> None:
    """Each call on a store never written (no collection yet): what it raises; the client's
    own checks (``limit`` below 1, a filter it cannot translate) come first."""
    from llama_index.core.vector_stores.types import VectorStoreQuery

    def query(embedding: list[float] | None, k: int = 2, **kwargs: Any) -> Any:
        return vs.query(VectorStoreQuery(query_embedding=embedding, similarity_top_k=k, **kwargs))

    missing = (ValueError, f"Collection {vs.collection_name} not found")
    calls = {
        "query": lambda: query([1.0, 0.0, 0.0, 0.0]),
        "query without embedding": lambda: query(None),
        "get_nodes(ids)": lambda: vs.get_nodes([node_id("a")]),
        "get_nodes(bad id)": lambda: vs.get_nodes(["my-node"]),
        "get_nodes(filters)": lambda: vs.get_nodes(filters=filters(("color", "==", "red"))),
        "get_nodes()": vs.get_nodes,
        "delete_nodes(ids)": lambda: vs.delete_nodes([node_id("a")]),
        "delete_nodes()": vs.delete_nodes,
        "delete": lambda: vs.delete("x"),
        "add([])": lambda: vs.add([]),
    }
    got = {name: raised(call) for name, call in calls.items()}
    wrong = {name: shown for name, shown in got.items() if shown != missing}
    first = [
        raised(lambda: query([1.0, 0.0, 0.0, 0.0], k=0))[1],
        raised(lambda: query([1.0, 0.0, 0.0, 0.0], filters=filters(("tags", "contains", "x"))))[1][
            :48
        ],
    ]
    facts.check(
        "li-qdrant-no-collection-before-add",
        not wrong
        and raised(vs.clear) == (None, "None")
        and first
        == [
            "limit value 0 is invalid. Must be 1 or larger.",
            "Filter operator FilterOperator.CONTAINS is not s",
        ],
        f"before the first add every call raises {missing[1]!r} ({sorted(got)}; otherwise: "
        f"{wrong}); clear() is silent; the client's checks come first: {first}",
    )


SHAPES = [
    {"n": 1, "tags": ["red", "Blue sky"]},
    {"n": 2.5, "tags": ["green"]},
    {"n": "3", "tags": "red"},
    {"n": True, "tags": []},
    {"n": [4, "x"], "tags": [1, "red wine"]},
    {"n": None, "tags": [["red"]]},
]
"""Metadata of a..f for the value-shape filters: numbers, a numeric string, a bool, None, lists."""


def main() -> None:
    facts = Facts(
        "LlamaIndex QdrantVectorStore on Qdrant local mode",
        "llama-index-vector-stores-qdrant",
        "llama-index-core",
        "qdrant-client",
    )
    from llama_index.core.retrievers import VectorIndexRetriever
    from llama_index.core.vector_stores.types import MetadataFilters, VectorStoreQuery
    from llama_index.vector_stores.qdrant import QdrantVectorStore
    from qdrant_client import QdrantClient, models

    client = QdrantClient(":memory:")

    def store(distance=None) -> QdrantVectorStore:
        name = f"li-{uuid.uuid4().hex[:8]}"
        if distance is not None:
            client.create_collection(name, models.VectorParams(size=4, distance=distance))
        return QdrantVectorStore(collection_name=name, client=client)

    cosine = index_over(store())
    hits = retrieve(cosine)
    scores = {h.node.get_content(): h.score for h in hits}
    params = client.get_collection(cosine.vector_store.collection_name).config.params.vectors
    facts.check(
        "li-qdrant-collection",
        params.distance == models.Distance.COSINE and params.size == 4,
        f"the first add creates the collection with COSINE and the embedding width: {params}",
    )
    facts.check(
        "li-qdrant-score",
        scores
        == {
            "a": 1.0,
            "b": 0.800000011920929,
            "c": 0.6000000238418579,
            "d": 0.0,
            "e": -0.6000000238418579,
            "f": -1.0,
        },
        f"NodeWithScore.score is the engine's score unchanged (COSINE: cosine): {scores}",
    )
    euclid = index_over(store(models.Distance.EUCLID))
    hits = retrieve(euclid)
    facts.check(
        "li-qdrant-score-euclid",
        [h.node.get_content() for h in hits] == DOCS and hits[1].score == 0.6324555508823199,
        "EUCLID: the score is the distance, lower first",
    )
    payload = client.retrieve(cosine.vector_store.collection_name, [node_id("a")])[0].payload
    facts.check(
        "li-qdrant-payload",
        payload["color"] == "red" and {"_node_content", "doc_id", "ref_doc_id"} <= set(payload),
        f"metadata keys sit at the payload's top level (filter key 'color'): {sorted(payload)}",
    )
    facts.check(
        "li-qdrant-stores-text",
        cosine.vector_store.stores_text and not cosine.index_struct.nodes_dict,
        "stores_text: the text lives in the payload",
    )
    nested = index_over(store(), nodes(["a"], ids=[node_id("a")], metadata=[{"d": {"x": 1}}]))
    facts.check(
        "li-qdrant-nested-metadata",
        retrieve(nested)[0].node.metadata == {"d": {"x": 1}},
        "flat_metadata is False: nested metadata is kept",
    )
    bad = raised(lambda: index_over(store(), nodes(["a"], ids=["my-node"])))
    facts.check(
        "li-qdrant-node-ids",
        bad == (ValueError, "Point id my-node is not a valid UUID"),
        f"node ids must be UUIDs: {bad[1]}",
    )
    cosine.insert_nodes(nodes(["b"], ids=[node_id("a")], metadata=[{"color": "green"}]))
    replaced = {h.node.node_id: h.node for h in retrieve(cosine)}[node_id("a")]
    facts.check(
        "li-qdrant-existing-id",
        replaced.get_content() == "b" and replaced.metadata == {"color": "green"},
        "inserting an existing node id replaces it (upsert)",
    )
    twice = index_over(store(), nodes(["a", "b"], ids=[node_id("c")] * 2))
    facts.check(
        "li-qdrant-duplicate-in-add",
        [h.node.get_content() for h in retrieve(twice)] == ["b"],
        "the same id twice in one add: the last one wins",
    )

    plain = index_over(store())

    def where(*items, condition="and") -> list[str] | tuple:
        try:
            return texts(plain, filters=filters(*items, condition=condition))
        except Exception as error:  # the probe records what the integration raises
            return type(error), str(error)

    matrix = {
        "color == red": where(("color", "==", "red")),
        "price == 1.5": where(("price", "==", 1.5)),
        "n == '1'": where(("n", "==", "1")),
        "color != red": where(("color", "!=", "red")),
        "missing != x": where(("missing", "!=", "x")),
        "n >= 3": where(("n", ">=", 3)),
        "color > 3": where(("color", ">", 3)),
        "in str": where(("color", "in", "red,green")),
        "nin": where(("color", "nin", ["red", "green"])),
        "text_match ed": where(("color", "text_match", "ed")),
        "text_match red": where(("color", "text_match", "red")),
        "text_match RED": where(("color", "text_match", "RED")),
        "text_match_insensitive RED": where(("color", "text_match_insensitive", "RED")),
        "text_match_insensitive RE": where(("color", "text_match_insensitive", "RE")),
        "is_empty missing": where(("missing", "is_empty", None)),
        "not": where(("color", "==", "red"), ("n", "==", 2), condition="not"),
        "condition None": where(("color", "==", "red"), condition=None),
    }
    facts.check(
        "li-qdrant-filters",
        matrix
        == {
            "color == red": ["a", "c", "f"],
            "price == 1.5": ["a"],
            "n == '1'": [],
            "color != red": ["b", "d", "e"],
            "missing != x": [],
            "n >= 3": ["c", "d", "e", "f"],
            "color > 3": [],
            "in str": ["a", "c", "d", "f"],
            "nin": ["b", "e"],
            "text_match ed": [],
            "text_match red": ["a", "c", "f"],
            "text_match RED": ["a", "c", "f"],
            "text_match_insensitive RED": ["a", "c", "f"],
            "text_match_insensitive RE": [],
            "is_empty missing": DOCS,
            "not": ["d", "e"],
            "condition None": DOCS,
        },
        f"the translation: float == becomes a range, != needs the key, IN splits a comma "
        f"string, TEXT_MATCH and TEXT_MATCH_INSENSITIVE are the same case-insensitive whole-word "
        f"match, NOT is none-of, "
        f"condition None drops the filter: {matrix}",
    )
    unsupported = {op: where(("color", op, ["red"])) for op in ("any", "all", "contains")}
    facts.check(
        "li-qdrant-filter-unsupported",
        all(
            kind is NotImplementedError
            and message.startswith(f"Filter operator FilterOperator.{op.upper()} is not supported")
            for op, (kind, message) in unsupported.items()
        ),
        "ANY, ALL and CONTAINS raise NotImplementedError",
    )
    float_ne = where(("price", "!=", 1.5))
    facts.check(
        "li-qdrant-filter-ne-float",
        float_ne[0] is pydantic.ValidationError,
        "!= with a float fails in pydantic (MatchExcept takes str or int)",
    )
    nested_ok = texts(
        plain,
        filters=filters(
            filters(("color", "==", "red"), ("n", "<", 3)), ("color", "==", "green"), condition="or"
        ),
    )
    empty_nested = texts(plain, filters=filters(MetadataFilters(filters=[]), ("n", ">", 4)))
    facts.check(
        "li-qdrant-filter-nested",
        nested_ok == ["a", "d"] and empty_nested == ["e", "f"],
        "nested groups work; an empty nested group is dropped",
    )
    shapes = index_over(store(), nodes(DOCS, metadata=SHAPES))

    def shaped(key, op, value, condition="and") -> list[str]:
        return texts(shapes, filters=filters((key, op, value), condition=condition))

    unbounded = {op: shaped("n", op, None) for op in (">", ">=", "<", "<=")}
    unbounded["not >"] = shaped("n", ">", None, condition="not")
    numbers = {op: ["a", "b", "e"] for op in (">", ">=", "<", "<=")}
    facts.check(
        "li-qdrant-filter-range-none",
        unbounded == {**numbers, "not >": ["c", "d", "f"]},
        "GT/GTE/LT/LTE with value None: Range without a bound, every numeric value (1, 2.5, a "
        f"list holding 4), not '3', True or None: {unbounded}",
    )
    words = {
        f"{op} {value}": shaped("tags", op, value)
        for op in ("text_match", "text_match_insensitive")
        for value in ("red", "RED", "sky blue", "1")
    }
    facts.check(
        "li-qdrant-filter-text-match-list",
        words
        == {
            f"{op} {value}": expected
            for op in ("text_match", "text_match_insensitive")
            for value, expected in (
                ("red", ["a", "c", "e"]),
                ("RED", ["a", "c", "e"]),
                ("sky blue", ["a"]),
                ("1", []),
            )
        },
        "TEXT_MATCH(_INSENSITIVE) on a list value: any str element holding every word (not an "
        f"int element, not a nested list): {words}",
    )
    facts.check(
        "li-qdrant-doc-ids",
        texts(plain, doc_ids=["none"]) == [],
        "doc_ids= filters on the payload's doc_id",
    )
    by_ids = VectorIndexRetriever(
        plain, similarity_top_k=6, node_ids=[node_id("b"), node_id("d")]
    ).retrieve("q")
    facts.check(
        "li-qdrant-node-ids-honoured",
        [h.node.get_content() for h in by_ids] == ["b", "d"],
        "node_ids= (VectorIndexRetriever) becomes a HasId condition",
    )
    native = texts(
        plain,
        filters=filters(("color", "==", "red")),
        vector_store_kwargs={
            "qdrant_filters": models.Filter(
                must=[models.FieldCondition(key="color", match=models.MatchValue(value="blue"))]
            )
        },
    )
    facts.check(
        "li-qdrant-native-filter",
        native == ["b", "e"],
        "vector_store_kwargs={'qdrant_filters': Filter} replaces filters= silently",
    )
    two = texts(plain, k=2)
    floats = {repr(k): raised(lambda k=k: texts(plain, k=k)) for k in (None, 2.5)}
    facts.check(
        "li-qdrant-top-k-integral-float",
        texts(plain, k=2.0) == two
        and len(two) == 2
        and texts(plain, k=True) == texts(plain, k=1)
        and floats["None"][0] is TypeError
        and floats["2.5"] == (None, "['a', 'b', 'c']"),
        f"similarity_top_k=2.0 searches as 2 ({two}); True is 1; None and 2.5: {floats}",
    )
    everything = texts(plain)
    where_alone = texts(plain, vector_store_kwargs={"where": {"color": "red"}})
    where_str = texts(plain, vector_store_kwargs={"where": "color == 'red'"})
    red = texts(plain, filters=filters(("color", "==", "red")))
    where_beside = texts(
        plain,
        filters=filters(("color", "==", "red")),
        vector_store_kwargs={"where": {"color": "blue"}},
    )
    facts.check(
        "li-qdrant-where-kwarg-ignored",
        where_alone == everything and where_str == everything and where_beside == red != [],
        "vector_store_kwargs={'where': ...} is never read: a dict or a string changes nothing "
        f"({where_alone} == {everything}), and beside filters= raises nothing ({where_beside})",
    )
    nan_query = raised(
        lambda: plain.vector_store.query(
            VectorStoreQuery(query_embedding=[float("nan"), 0.0, 0.0, 1.0], similarity_top_k=2)
        )
    )
    facts.check(
        "li-qdrant-nan-query",
        nan_query == (ValueError, "Query vector must not contain NaN"),
        f"a NaN in the query vector raises (local mode): {nan_query}",
    )
    inf = float("inf")
    inf_query = plain.vector_store.query(
        VectorStoreQuery(query_embedding=[inf, 0.0, 0.0, 1.0], similarity_top_k=99)
    )
    listed = [
        p.id
        for p in client.scroll(plain.vector_store.collection_name, limit=99, with_payload=False)[0]
    ]
    facts.check(
        "li-qdrant-inf-query",
        inf_query.ids is not None
        and sorted(inf_query.ids) == sorted(str(i) for i in listed)
        and all(math.isnan(s) for s in inf_query.similarities or []),
        "an infinite component in the query vector raises nothing (local mode): the normalised "
        "vector is NaN, every point scores nan and numpy's argsort of the NaN scores picks the "
        f"order (reversed insertion order for a few points, its own for 40): {inf_query.ids}",
    )
    mmr = texts(
        plain, k=3, vector_store_query_mode="mmr", vector_store_kwargs={"mmr_threshold": 0.1}
    )
    facts.check(
        "li-qdrant-mmr-ignored",
        mmr == ["a", "b", "c"],
        "mmr mode (and mmr_threshold) is ignored: plain top-k",
    )
    unchecked = [
        texts(plain, k=3, vector_store_query_mode=mode, vector_store_kwargs={"mmr_threshold": t})
        for mode in ("default", "mmr")
        for t in (1.5, -0.1, "x")
    ]
    facts.check(
        "li-qdrant-mmr-threshold-ignored",
        all(got == ["a", "b", "c"] for got in unchecked),
        "mmr_threshold is never read, so 1.5, -0.1 and 'x' are accepted in both modes: "
        f"{unchecked}",
    )
    vs = plain.vector_store
    sparse = vs.query(VectorStoreQuery(query_embedding=None, similarity_top_k=2, mode="sparse"))
    hybrid = raised(
        lambda: vs.query(
            VectorStoreQuery(query_embedding=[1.0, 0, 0, 0], similarity_top_k=2, mode="hybrid")
        )
    )
    facts.check(
        "li-qdrant-modes",
        len(sparse.nodes) == 2
        and sparse.similarities == [1.0, 1.0]
        and hybrid[0] is ValueError
        and hybrid[1].startswith("Hybrid search is not enabled"),
        f"a query without embedding returns the first nodes with score 1.0; hybrid raises "
        f"{hybrid[1][:40]}...",
    )
    got = vs.get_nodes([node_id("c"), str(uuid.UUID(int=99)), node_id("a")])
    facts.check(
        "li-qdrant-get-nodes",
        [n.get_content() for n in got] == ["a", "c"]
        and got[0].embedding == [1.0, 0.0, 0.0, 0.0]
        and vs.get_nodes([]) == []
        and "limit or 9999" in inspect.getsource(type(vs).get_nodes),
        "get_nodes: id order (scroll), with embeddings, missing ids skipped, [] returns "
        "nothing; without a limit it reads at most 9999 points",
    )
    vs.delete_nodes([str(uuid.UUID(int=99))])
    vs.delete_nodes([])
    count = client.count(vs.collection_name).count
    vs.delete_nodes([node_id("a")], filters=filters(("color", "==", "green"), condition="or"))
    union = client.count(vs.collection_name).count
    vs.delete_nodes(None)
    facts.check(
        "li-qdrant-delete-nodes",
        count == 6 and union == 4 and client.count(vs.collection_name).count == 0,
        "delete_nodes: a missing id and [] are no-ops; ids + filters delete the union "
        "(6 -> 4 for a + green); None deletes every point",
    )
    vs.clear()
    gone = raised(lambda: texts(plain))
    again = raised(vs.clear)
    plain.insert_nodes(nodes(["a"], ids=[node_id("a")]))
    back = texts(plain)
    facts.check(
        "li-qdrant-clear",
        gone == (ValueError, f"Collection {vs.collection_name} not found")
        and again == (None, "None")
        and back == ["a"],
        f"clear() drops the collection; the next query raises: {gone[1]}; clear() again is "
        f"silent; a later add creates the collection again: {back}",
    )
    no_collection(facts, store())
    ties = index_over(
        store(),
        nodes(
            ["tie3", "tie1", "tie4", "tie0", "tie2"],
            ids=[str(uuid.UUID(int=i)) for i in (3, 1, 4, 10, 2)],
            metadata=[{}] * 5,
        ),
    )
    order = [h.node.get_content() for h in retrieve(ties, query="qtie", k=5)]
    facts.check(
        "li-qdrant-ties",
        order == ["tie2", "tie0", "tie4", "tie1", "tie3"],
        f"COSINE ties in reverse insertion order (local mode): {order}",
    )
    facts.done()


if __name__ == "__main__":
    main()
