"""Probe: LlamaIndex's in-memory ``SimpleVectorStore`` (llama-index-core), the reference a fake
without an engine behind it is compared with.

Covers the ``li-simple-*`` facts of docs/integrations/llamaindex.md: float64 cosine scores,
its tie rule (a heap on (score, id): the largest ids survive, in heap order), ``node_ids=[]``
versus None, ignored ``doc_ids``, the filter rules of ``build_metadata_filter_fn`` (missing key,
nesting), ``delete_nodes`` with neither ids nor filters, and the MMR rule (a candidate is
penalised by its similarity to the latest pick only). Run:
python tests/fidelity/probes/li_simple_store.py
"""

from __future__ import annotations

import math

import numpy as np
from _llamaindex import filters
from _probe import Facts, raised


def main() -> None:
    facts = Facts("LlamaIndex SimpleVectorStore", "llama-index-core", "numpy")
    from llama_index.core.schema import TextNode
    from llama_index.core.vector_stores import SimpleVectorStore
    from llama_index.core.vector_stores.types import MetadataFilters, VectorStoreQuery

    def store(vectors: dict[str, list[float]], metadata=None) -> SimpleVectorStore:
        made = SimpleVectorStore()
        made.add(
            [
                TextNode(
                    id_=key, text=key, embedding=vector, metadata=(metadata or {}).get(key, {})
                )
                for key, vector in vectors.items()
            ]
        )
        return made

    def query(made, embedding, k=10, **kwargs):
        return made.query(VectorStoreQuery(query_embedding=embedding, similarity_top_k=k, **kwargs))

    rng = np.random.default_rng(11)
    vectors = {f"n{i}": rng.normal(size=8).tolist() for i in range(20)}
    made = store(vectors)
    q = rng.normal(size=8).tolist()
    got = query(made, q, k=20)
    matrix = np.array([vectors[i] for i in got.ids])
    expected = matrix @ np.array(q) / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(q))
    facts.check(
        "li-simple-score",
        all(type(s) in (float, np.float64) for s in got.similarities)
        and np.max(np.abs(np.array(got.similarities) - expected)) < 1e-15
        and got.nodes is None,
        "scores are float64 cosines (not clamped), results carry ids and no nodes",
    )
    tied = store({key: [1.0, 1.0] for key in ["b", "d", "a", "e", "c", "f"]})
    top3, top10 = query(tied, [1.0, 1.0], k=3).ids, query(tied, [1.0, 1.0], k=10).ids
    facts.check(
        "li-simple-ties",
        top3 == ["d", "f", "e"] and top10 == ["a", "c", "b", "e", "d", "f"],
        f"ties: the largest ids survive the cut, in heap order: top3 {top3}, top10 {top10}",
    )
    facts.check(
        "li-simple-node-ids",
        query(made, q, node_ids=[]).ids == [] and len(query(made, q, node_ids=None).ids) == 10,
        "node_ids=[] returns nothing; None means no restriction",
    )
    facts.check(
        "li-simple-doc-ids-ignored",
        len(query(made, q, doc_ids=["nothing"]).ids) == 10,
        "doc_ids is ignored",
    )
    meta = {"x": {"k": 1}, "y": {"k": None}, "z": {}}
    small = store({"x": [1.0, 0.0], "y": [0.9, 0.1], "z": [0.8, 0.2]}, meta)

    def where(*items, condition="and"):
        try:
            return sorted(
                query(small, [1.0, 0.0], filters=filters(*items, condition=condition)).ids
            )
        except Exception as error:  # the probe records what the store raises
            return type(error), str(error)

    facts.check(
        "li-simple-filter-missing",
        where(("k", "!=", 1)) == ["y", "z"]
        and where(("k", "nin", [1])) == ["y", "z"]
        and where(("k", "==", 1)) == ["x"]
        and where(("k", "is_empty", None)) == ["y", "z"],
        "a missing key and None are the same; only != and nin (and is_empty) match them",
    )
    facts.check(
        "li-simple-filter-nested",
        where(filters(("k", "==", 1)), ("k", "==", 1))
        == (ValueError, "Nested MetadataFilters are not supported."),
        "nested MetadataFilters raise ValueError",
    )
    facts.check(
        "li-simple-filter-contains",
        sorted(
            query(
                store({"s": [1.0, 0.0]}, {"s": {"t": "xyz"}}),
                [1.0, 0.0],
                filters=filters(("t", "contains", "y")),
            ).ids
        )
        == ["s"],
        "CONTAINS is Python's 'in': a substring test on a str value",
    )
    everything = store({"x": [1.0, 0.0], "y": [0.0, 1.0]})
    everything.delete_nodes(None, filters=MetadataFilters(filters=[]))
    facts.check(
        "li-simple-delete-nodes-none",
        everything.data.embedding_dict == {},
        "delete_nodes() without ids or filters deletes every node",
    )

    mmr = query(made, q, k=5, mode="mmr", mmr_threshold=0.5)
    sim = {
        key: float(np.dot(v, q) / (np.linalg.norm(v) * np.linalg.norm(q)))
        for key, v in vectors.items()
    }

    def cos(a: str, b: str) -> float:
        va, vb = np.array(vectors[a]), np.array(vectors[b])
        return float(va @ vb / (np.linalg.norm(va) * np.linalg.norm(vb)))

    def replay(worst_of_all: bool) -> list[str]:
        picks = [max(sim, key=lambda key: sim[key])]
        while len(picks) < 5:
            rest = [key for key in vectors if key not in picks]
            penalty = {
                key: max(cos(key, p) for p in picks) if worst_of_all else cos(key, picks[-1])
                for key in rest
            }
            picks.append(max(rest, key=lambda key: 0.5 * sim[key] - 0.5 * penalty[key]))
        return picks

    facts.check(
        "li-simple-mmr-latest-pick",
        mmr.ids == replay(worst_of_all=False)
        and mmr.ids != replay(worst_of_all=True)
        and abs(mmr.similarities[0] - 0.5 * sim[mmr.ids[0]]) < 1e-12,
        f"MMR penalises a candidate by its similarity to the latest pick only (not the closest "
        f"pick); reported scores are MMR scores (the first is 0.5 x cos): {mmr.ids}",
    )
    by_query = query(made, q, k=5, mode="mmr", mmr_threshold=0.1)
    by_keyword = made.query(
        VectorStoreQuery(query_embedding=q, similarity_top_k=5, mode="mmr"), mmr_threshold=0.1
    )
    default = query(made, q, k=5, mode="mmr")
    facts.check(
        "li-simple-mmr-threshold-keyword-only",
        by_query.ids == default.ids and by_keyword.ids != default.ids,
        f"VectorStoreQuery(mmr_threshold=0.1) is ignored ({by_query.ids}, as the default 0.5); "
        f"the keyword mmr_threshold=0.1 counts ({by_keyword.ids})",
    )
    plain = query(made, q, k=3).ids
    top3 = VectorStoreQuery(query_embedding=q, similarity_top_k=3)
    outside = [made.query(top3, mmr_threshold=t).ids for t in (1.5, -0.1, "x")]
    wide = made.query(
        VectorStoreQuery(query_embedding=q, similarity_top_k=3, mode="mmr"), mmr_threshold=1.5
    )
    facts.check(
        "li-simple-mmr-threshold-unchecked",
        all(ids == plain for ids in outside) and wide.ids is not None and len(wide.ids) == 3,
        f"outside MMR mode mmr_threshold is ignored, whatever it is ({outside}); MMR mode takes "
        f"1.5 unchecked and answers: {wide.ids}, {wide.similarities}",
    )
    zero = raised(lambda: query(store({"z": [0.0, 0.0], "x": [1.0, 0.0]}), [1.0, 0.0]))
    facts.check(
        "li-simple-zero-vector",
        zero[0] is None and "nan" in zero[1],
        "a stored zero vector scores nan (numpy warns), no error",
    )
    six = store({f"n{i}": [1.0, float(i)] for i in range(6)})
    nan = float("nan")
    answers = {k: query(six, [nan, 0.5], k=k) for k in (1, 2, 4, 7)}
    facts.check(
        "li-simple-nan-query",
        {k: r.ids for k, r in answers.items()}
        == {
            1: ["n5"],
            2: ["n4", "n5"],
            4: ["n4", "n1", "n5", "n3"],
            7: ["n0", "n1", "n2", "n3", "n4", "n5"],
        }
        and all(math.isnan(s) for r in answers.values() for s in r.similarities),
        "a NaN in the query vector scores every node nan, no error; the heap of "
        f"get_top_k_embeddings keeps a function of insertion order and k: "
        f"{ {k: r.ids for k, r in answers.items()} }",
    )
    inf = float("inf")
    infinite = {
        (tuple(q), k): query(six, q, k=k)
        for q in ([inf, 0.5], [-inf, 0.5], [0.1, inf], [inf, inf])
        for k in (1, 2, 4, 7)
    }
    facts.check(
        "li-simple-inf-query",
        all(r.ids == answers[k].ids for (_, k), r in infinite.items())
        and all(math.isnan(s) for r in infinite.values() for s in r.similarities),
        "an infinite component in the query vector (inf or -inf, one or every) answers as a NaN "
        f"one: every node scores nan, the same heap picks: "
        f"{ {key: r.ids for key, r in infinite.items() if key[1] == 2} }",
    )
    stores_text(facts)
    facts.done()


def stores_text(facts: Facts) -> None:
    """``stores_text`` is False: ``VectorStoreIndex`` keeps the nodes in its docstore."""
    from llama_index.core import Document, StorageContext, VectorStoreIndex
    from llama_index.core.embeddings import MockEmbedding
    from llama_index.core.vector_stores import SimpleVectorStore

    embed = MockEmbedding(embed_dim=4)
    simple = SimpleVectorStore()
    index = VectorStoreIndex.from_documents(
        [Document(id_="doc-1", text="a", metadata={"t": (1, 2)}), Document(id_="doc-2", text="b")],
        storage_context=StorageContext.from_defaults(vector_store=simple),
        embed_model=embed,
    )
    before = index.as_retriever(similarity_top_k=5)
    index.insert(Document(id_="doc-3", text="c"))
    old = sorted(str(n.node.ref_doc_id) for n in before.retrieve("a"))
    top = index.as_retriever(similarity_top_k=5).retrieve("a")
    metadata = [n.node.metadata for n in top if n.node.ref_doc_id == "doc-1"]
    refused = raised(lambda: VectorStoreIndex.from_vector_store(simple, embed_model=embed))
    facts.check(
        "li-simple-stores-text",
        simple.stores_text is False
        and len(index.docstore.docs) == 3
        and sorted(index.ref_doc_info) == ["doc-1", "doc-2", "doc-3"]
        and old == ["doc-1", "doc-2"]
        and len(top) == 3
        and metadata == [{"t": (1, 2)}]
        and refused
        == (ValueError, "Cannot initialize from a vector store that does not store text."),
        "stores_text is False: the index keeps the nodes in its docstore (ref_doc_info lists "
        f"them), a retriever built before insert passes node_ids and sees {old}, metadata "
        f"comes back as the docstore's objects {metadata}; "
        f"from_vector_store raises: {refused[1]}",
    )


if __name__ == "__main__":
    import warnings

    warnings.simplefilter("ignore", RuntimeWarning)
    main()
