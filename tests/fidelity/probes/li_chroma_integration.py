"""Probe: what LlamaIndex's ``ChromaVectorStore`` adds on top of Chroma.

Covers the ``li-chroma-*`` facts of docs/integrations/llamaindex.md, measured through
``VectorStoreIndex`` and its retriever as an application uses them: ``NodeWithScore.score`` as
``exp(-distance)``, where the text lives, flat metadata, node ids, adding an existing id, the
``MetadataFilters`` operators and conditions it translates (and how the others fail),
``doc_ids``/``node_ids``, native ``where``, query modes (MMR, hybrid, sparse), ``delete_nodes``,
``clear``, ``get_nodes`` and ties. Run: python tests/fidelity/probes/li_chroma_integration.py
"""

from __future__ import annotations

import math
import uuid

from _llamaindex import filters, index_over, node_id, nodes, retrieve, texts
from _probe import Facts, chroma_client, name, raised
from _table import DOCS


def main() -> None:
    facts = Facts(
        "LlamaIndex ChromaVectorStore on Chroma",
        "llama-index-vector-stores-chroma",
        "llama-index-core",
        "chromadb",
    )
    from chromadb.errors import DuplicateIDError
    from llama_index.core.vector_stores.types import MetadataFilters, VectorStoreQuery
    from llama_index.vector_stores.chroma import ChromaVectorStore

    client = chroma_client()

    def store(space: str | None = None) -> ChromaVectorStore:
        collection = client.create_collection(
            f"li-{uuid.uuid4().hex[:8]}",
            metadata={"hnsw:space": space} if space else None,
            embedding_function=None,
        )
        return ChromaVectorStore(chroma_collection=collection)

    l2 = index_over(store())
    scores = {hit.node.get_content(): hit.score for hit in retrieve(l2)}
    facts.check(
        "li-chroma-score",
        scores["a"] == 1.0
        and scores["b"] == math.exp(-0.4000000059604645)
        and scores["f"] == math.exp(-4.0),
        f"NodeWithScore.score = exp(-distance); l2 gives exp(2cos - 2): {scores}",
    )
    cosine = index_over(store("cosine"))
    scores = {hit.node.get_content(): hit.score for hit in retrieve(cosine)}
    facts.check(
        "li-chroma-score-cosine",
        scores["b"] == math.exp(-0.19999998807907104) and scores["f"] == math.exp(-2.0),
        f"cosine space: exp(cos - 1): {scores}",
    )
    facts.check(
        "li-chroma-stores-text",
        l2.vector_store.stores_text and not l2.index_struct.nodes_dict and not l2.docstore.docs,
        "stores_text: the index's node map and docstore stay empty, the text is in Chroma",
    )
    raw = l2.vector_store._collection.get(ids=[node_id("a")], include=["metadatas", "documents"])
    facts.check(
        "li-chroma-stored-keys",
        raw["documents"] == ["a"]
        and {"_node_content", "_node_type", "doc_id", "document_id", "ref_doc_id"}
        <= set(raw["metadatas"][0]),
        f"Chroma holds the text as the document and the node in metadata keys: "
        f"{sorted(raw['metadatas'][0])}",
    )
    nested = raised(
        lambda: index_over(store(), nodes(["a"], ids=["n1"], metadata=[{"d": {"x": 1}}]))
    )
    facts.check(
        "li-chroma-flat-metadata",
        nested == (ValueError, "Value for metadata d must be one of (str, int, float, None)"),
        f"flat_metadata: a nested value raises {nested[1]}",
    )
    nulls = index_over(
        store(), nodes(["a", "b"], ids=["x1", "x2"], metadata=[{"k": None}, {"k": "v"}])
    )
    facts.check(
        "li-chroma-none-as-empty",
        texts(nulls, filters=filters(("k", "==", ""))) == ["a"],
        "a None metadata value is stored as '' (a filter on '' finds it)",
    )

    any_ids = index_over(store(), nodes(["a", "b"], ids=["my-node", "n1"]))
    facts.check(
        "li-chroma-node-ids",
        sorted(h.node.node_id for h in retrieve(any_ids)) == ["my-node", "n1"],
        "any string is a node id",
    )
    any_ids.insert_nodes(nodes(["c"], ids=["n1"], metadata=[{"color": "green"}]))
    again = retrieve(any_ids, query="q")
    facts.check(
        "li-chroma-existing-id-ignored",
        {h.node.node_id: h.node.get_content() for h in again}["n1"] == "b",
        "inserting an existing node id is silently ignored: the first version stays",
    )
    duplicate = raised(lambda: index_over(store(), nodes(["a", "b"], ids=["d1", "d1"])))
    facts.check(
        "li-chroma-duplicate-in-add",
        duplicate[0] is DuplicateIDError and "found duplicates of: d1" in duplicate[1],
        f"the same id twice in one add: {name(duplicate[0])}: {duplicate[1]}",
    )

    def where(*items, condition="and") -> list[str] | tuple:
        try:
            return texts(l2, filters=filters(*items, condition=condition))
        except Exception as error:  # the probe records what the integration raises
            return type(error), str(error)

    matrix = {
        "color == red": where(("color", "==", "red")),
        "n == 1.0": where(("n", "==", 1.0)),
        "color != red": where(("color", "!=", "red")),
        "missing != x": where(("missing", "!=", "x")),
        "n > 3": where(("n", ">", 3)),
        "n <= 3": where(("n", "<=", 3)),
        "color > 3": where(("color", ">", 3)),
        "color in": where(("color", "in", ["red", "green"])),
        "color nin": where(("color", "nin", ["red", "green"])),
        "or": where(("color", "==", "green"), ("n", "==", 1), condition="or"),
        "condition None": where(("color", "==", "red"), condition=None),
    }
    facts.check(
        "li-chroma-filters",
        matrix
        == {
            "color == red": ["a", "c", "f"],
            "n == 1.0": ["a"],
            "color != red": ["b", "d", "e"],
            "missing != x": DOCS,
            "n > 3": ["d", "e", "f"],
            "n <= 3": ["a", "b", "c"],
            "color > 3": [],
            "color in": ["a", "c", "d", "f"],
            "color nin": ["b", "e"],
            "or": ["a", "d"],
            "condition None": ["a", "c", "f"],
        },
        f"== != > >= < <= in nin, AND/OR, with Chroma's semantics (!= matches a missing key; "
        f"condition None is AND): {matrix}",
    )
    unsupported = {
        op: where(("color", op, ["red"] if op in ("any", "all") else "red"))
        for op in ("any", "all", "contains", "text_match", "text_match_insensitive", "is_empty")
    }
    facts.check(
        "li-chroma-filter-unsupported",
        all(
            v == (ValueError, f"Filter operator FilterOperator.{op.upper()} not supported")
            for op, v in unsupported.items()
        ),
        "ANY, ALL, CONTAINS, TEXT_MATCH, TEXT_MATCH_INSENSITIVE, IS_EMPTY raise "
        "ValueError('Filter operator FilterOperator.X not supported')",
    )
    facts.check(
        "li-chroma-filter-not",
        where(("color", "==", "red"), condition="not")
        == (ValueError, "Filter condition FilterCondition.NOT not supported"),
        "NOT raises ValueError",
    )
    facts.check(
        "li-chroma-filter-in-string",
        where(("color", "in", "red,green"))[0] is ValueError,
        "IN with a comma-separated string is passed on and Chroma rejects it",
    )
    nested = raised(
        lambda: texts(
            l2,
            filters=filters(
                filters(("color", "==", "red"), ("n", "<", 3)),
                ("color", "==", "green"),
                condition="or",
            ),
        )
    )
    empty_nested = raised(
        lambda: texts(l2, filters=filters(MetadataFilters(filters=[]), ("n", ">", 1)))
    )
    facts.check(
        "li-chroma-filter-nested",
        nested == (None, "['a', 'd']")
        and empty_nested
        == (ValueError, "Expected where to have exactly one operator, got {} in query."),
        f"nested groups work; a nested empty group raises {empty_nested[1]}",
    )
    facts.check(
        "li-chroma-ids-ignored",
        texts(l2, doc_ids=["none"]) == DOCS,
        "doc_ids= on the retriever is ignored",
    )
    from llama_index.core.retrievers import VectorIndexRetriever

    by_ids = VectorIndexRetriever(l2, similarity_top_k=6, node_ids=[node_id("b")]).retrieve("q")
    facts.check(
        "li-chroma-node-ids-ignored",
        len(by_ids) == 6,
        "node_ids= (VectorIndexRetriever) is ignored",
    )
    not_int = {repr(k): raised(lambda k=k: texts(l2, k=k)) for k in (None, 2.0, 2.5)}
    facts.check(
        "li-chroma-top-k-not-int",
        all(
            got
            == (ValueError, f"Expected requested number of results to be a int, got {k} in query.")
            for k, got in not_int.items()
        )
        and texts(l2, k=True) == texts(l2, k=1),
        f"similarity_top_k that is no int raises Chroma's ValueError: {not_int}; True is 1",
    )
    nan = float("nan")
    nan_all = l2.vector_store.query(
        VectorStoreQuery(query_embedding=[nan] * 4, similarity_top_k=99)
    )
    nan_two = l2.vector_store.query(VectorStoreQuery(query_embedding=[nan] * 4, similarity_top_k=2))
    listed = l2.vector_store._collection.get()["ids"]
    facts.check(
        "li-chroma-nan-query",
        nan_all.ids == listed
        and len(nan_two.ids) == 2
        and all(math.isnan(s) for s in [*nan_all.similarities, *nan_two.similarities]),
        f"a NaN in the query vector scores every node nan, no error; a top_k over every node "
        f"answers them in insertion order ({nan_all.ids == listed}); a smaller one answers "
        f"{[n.get_content() for n in nan_two.nodes]} (the index's pick)",
    )
    inf = float("inf")
    inf_all = l2.vector_store.query(
        VectorStoreQuery(query_embedding=[inf, 0.0, 0.0, 1.0], similarity_top_k=99)
    )
    inf_two = l2.vector_store.query(
        VectorStoreQuery(query_embedding=[-inf, 0.0, 0.0, 1.0], similarity_top_k=2)
    )
    cos_inf = cosine.vector_store.query(
        VectorStoreQuery(query_embedding=[inf, 0.0, 0.0, 1.0], similarity_top_k=99)
    )
    facts.check(
        "li-chroma-inf-query",
        inf_all.ids == listed
        and len(inf_two.ids) == 2
        and all(s == 0.0 for s in [*inf_all.similarities, *inf_two.similarities])
        and cos_inf.ids == cosine.vector_store._collection.get()["ids"]
        and all(math.isnan(s) for s in cos_inf.similarities),
        f"an infinite component in the query vector raises nothing: l2 scores every node 0.0 "
        f"(exp(-inf)), cosine nan; a top_k over every node answers them in insertion order; a "
        f"smaller one answers {[n.get_content() for n in inf_two.nodes]} (the index's pick)",
    )
    native = texts(l2, vector_store_kwargs={"where": {"color": "blue"}})
    both = raised(
        lambda: texts(
            l2, filters=filters(("n", ">", 1)), vector_store_kwargs={"where": {"color": "blue"}}
        )
    )
    facts.check(
        "li-chroma-native-where",
        native == ["b", "e"]
        and both[0] is ValueError
        and both[1].startswith("Cannot specify metadata filters via both query and kwargs"),
        "vector_store_kwargs={'where': ...} is a native Chroma filter; with filters= too it raises",
    )
    mmr = retrieve(l2, k=3, vector_store_query_mode="mmr")
    facts.check(
        "li-chroma-mmr",
        [h.node.get_content() for h in mmr] == ["a", "b", "f"]
        and mmr[1].score == math.exp(-0.4000000059604645),
        f"mmr mode works: picks in pick order, exp(-d) scores: "
        f"{[(h.node.get_content(), h.score) for h in mmr]}",
    )
    store_only = l2.vector_store
    mmr_query = {"query_embedding": [1.0, 0.0, 0.0, 0.0], "similarity_top_k": 3, "mode": "mmr"}
    by_query = store_only.query(VectorStoreQuery(**mmr_query, mmr_threshold=0.1)).ids
    by_keyword = store_only.query(VectorStoreQuery(**mmr_query), mmr_threshold=0.1).ids
    default = store_only.query(VectorStoreQuery(**mmr_query)).ids
    facts.check(
        "li-chroma-mmr-threshold-keyword-only",
        by_query == default and by_keyword != default,
        "VectorStoreQuery(mmr_threshold=0.1) is ignored (the default 0.5 applies); the "
        f"mmr_threshold=0.1 keyword counts: {by_query}, {by_keyword}",
    )
    plain_query = {"query_embedding": [1.0, 0.0, 0.0, 0.0], "similarity_top_k": 3}
    outside = {
        name: raised(
            lambda name=name: store_only.query(VectorStoreQuery(**plain_query), **{name: 2})
        )
        for name in ("mmr_threshold", "mmr_prefetch_k", "mmr_prefetch_factor", "fetch_k")
    }
    listing = raised(
        lambda: store_only.query(VectorStoreQuery(similarity_top_k=3), mmr_threshold=0.3)
    )
    facts.check(
        "li-chroma-mmr-options-outside-mmr-raise",
        all(
            got == (TypeError, f"Collection.query() got an unexpected keyword argument '{name}'")
            for name, got in outside.items()
        )
        and listing
        == (TypeError, "Collection.get() got an unexpected keyword argument 'mmr_threshold'"),
        "outside MMR mode the keywords reach Collection.query (Collection.get without "
        f"embedding), which refuses the MMR options: {outside}, {listing}",
    )
    in_mmr = raised(lambda: store_only.query(VectorStoreQuery(**mmr_query), fetch_k=4))
    facts.check(
        "li-chroma-fetch-k-raises",
        in_mmr == (TypeError, "Collection.query() got an unexpected keyword argument 'fetch_k'"),
        f"fetch_k is no option of ChromaVectorStore, in MMR mode too: {in_mmr}",
    )
    clamped = {
        value: store_only.query(VectorStoreQuery(**mmr_query), mmr_prefetch_k=value).ids
        for value in (0, -5, 3.9, 3)
    }
    facts.check(
        "li-chroma-mmr-prefetch-k-clamped",
        all(ids == clamped[3] for ids in clamped.values()) and clamped[3] != default,
        "mmr_prefetch_k is int()-ed and raised to top_k: 0, -5 and 3.9 all prefetch 3, the "
        f"picks of mmr_prefetch_k=3 (the default prefetch gives {default}): {clamped}",
    )
    factors = {
        value: store_only.query(VectorStoreQuery(**mmr_query), mmr_prefetch_factor=value).ids
        for value in (0, -1.5, 0.5)
    }
    facts.check(
        "li-chroma-mmr-prefetch-factor-clamped",
        all(ids == clamped[3] for ids in factors.values()),
        "mmr_prefetch_factor is not validated: int(top_k * factor) raised to top_k, so 0, -1.5 "
        f"and 0.5 prefetch 3 as mmr_prefetch_k=3 does: {factors}",
    )
    sparse = store_only.query(
        VectorStoreQuery(query_embedding=None, similarity_top_k=2, mode="sparse")
    )
    hybrid = store_only.query(
        VectorStoreQuery(query_embedding=[1.0, 0.0, 0.0, 0.0], similarity_top_k=2, mode="hybrid")
    )
    facts.check(
        "li-chroma-modes",
        [n.get_content() for n in sparse.nodes] == ["a", "b"]
        and sparse.similarities in (None, [])
        and [n.get_content() for n in hybrid.nodes] == ["a", "b"],
        f"hybrid is served as dense; a query without embedding returns the first top_k in "
        f"insertion order without scores ({sparse.similarities})",
    )

    ties = index_over(
        store(),
        nodes(
            ["tie3", "tie1", "tie4", "tie0", "tie2"],
            ids=["03", "01", "04", "0a", "02"],
            metadata=[{}] * 5,
        ),
    )
    order = [h.node.node_id for h in retrieve(ties, query="qtie", k=5)]
    facts.check(
        "li-chroma-ties",
        order == ["03", "01", "04", "0a", "02"],
        f"ties in insertion order: {order}",
    )

    vs = store()
    index_over(vs)
    got = vs.get_nodes([node_id("c"), "zz", node_id("a")])
    facts.check(
        "li-chroma-get-nodes",
        [n.get_content() for n in got] == ["a", "c"] and len(vs.get_nodes([])) == 6,
        "get_nodes: insertion order, missing ids skipped; get_nodes([]) returns every node",
    )
    vs.delete_nodes(["zz"])
    facts.check(
        "li-chroma-delete-nodes",
        raised(lambda: vs.delete_nodes([]))[0] is ValueError
        and raised(lambda: vs.delete_nodes(None))[0] is ValueError
        and "Expected IDs to be a non-empty list" in raised(lambda: vs.delete_nodes([]))[1]
        and len(vs.get_nodes(None)) == 6,
        "delete_nodes: a missing id is a no-op; [] and None raise Chroma's ValueError",
    )
    vs.clear()
    facts.check(
        "li-chroma-clear",
        vs._collection.count() == 0 and raised(lambda: vs.get_nodes(None))[0] is None,
        "clear() deletes every node; the collection stays usable",
    )
    again = raised(vs.clear)
    fresh = raised(store().clear)
    facts.check(
        "li-chroma-clear-empty-raises",
        again == fresh == (ValueError, "Expected IDs to be a non-empty list, got 0 IDs in delete."),
        f"clear() of an empty collection (cleared, or never written) raises: {again[1]}",
    )
    facts.done()


if __name__ == "__main__":
    main()
