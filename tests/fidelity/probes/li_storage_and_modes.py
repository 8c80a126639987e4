"""Probe: what LlamaIndex's real vector stores do when pickled, persisted and reloaded, asked for a
query mode they have no index for, and asked for their client or a limited ``get_nodes``.

Covers the ``li-*-pickle``, ``li-simple-persist-dir``, ``li-simple-to-dict``, ``li-*-modes-*``,
``li-*-client`` and ``li-qdrant-get-nodes-limit`` facts of docs/integrations/llamaindex.md, the
evidence of the parity tables in docs/integrations/llamaindex-parity.md. Run:
python tests/fidelity/probes/li_storage_and_modes.py
"""

from __future__ import annotations

import logging
import pickle
import uuid
import warnings

from _probe import Facts, chroma_client, name, raised, scratch_dir

warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)  # BaseComponent logs each private attribute it drops

VECTORS = [[1.0, 0.0, 0.0, 0.0], [0.8, 0.6, 0.0, 0.0], [0.6, 0.8, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
IDS = [str(uuid.UUID(int=i + 1)) for i in range(len(VECTORS))]


def main() -> None:
    facts = Facts(
        "LlamaIndex stores: pickling, persistence, modes",
        "llama-index-core",
        "llama-index-vector-stores-chroma",
        "llama-index-vector-stores-qdrant",
    )
    from llama_index.core import StorageContext, VectorStoreIndex, load_index_from_storage
    from llama_index.core.embeddings import MockEmbedding
    from llama_index.core.schema import TextNode
    from llama_index.core.vector_stores import SimpleVectorStore
    from llama_index.core.vector_stores.types import VectorStoreQuery, VectorStoreQueryMode
    from llama_index.vector_stores.chroma import ChromaVectorStore
    from llama_index.vector_stores.qdrant import QdrantVectorStore
    from qdrant_client import QdrantClient

    def nodes() -> list[TextNode]:
        return [
            TextNode(id_=i, text=t, embedding=v, metadata={"n": n})
            for n, (i, t, v) in enumerate(zip(IDS, "abcd", VECTORS, strict=True))
        ]

    def stores() -> dict[str, object]:
        collection = chroma_client().create_collection(f"c{uuid.uuid4().hex[:8]}")
        made = {
            "simple": SimpleVectorStore(),
            "chroma": ChromaVectorStore(chroma_collection=collection),
            "qdrant": QdrantVectorStore(collection_name="c", client=QdrantClient(":memory:")),
        }
        for store in made.values():
            store.add(nodes())
        return made

    query = VectorStoreQuery(query_embedding=VECTORS[0], similarity_top_k=3)
    made = stores()
    expected = IDS[:3]
    for key in ("simple", "qdrant"):
        kind, got = raised(lambda s=made[key]: pickle.loads(pickle.dumps(s)).query(query).ids)
        facts.check(
            f"li-{key}-pickle",
            kind is None and got == repr(expected),
            f"pickle round trip keeps the records: {got}",
        )
    restored = pickle.loads(pickle.dumps(made["chroma"]))
    kind, message = raised(lambda: restored.query(query))
    facts.check(
        "li-chroma-pickle",
        kind is AttributeError and "_collection" in message,
        f"the pickle drops _collection; the first use raises {name(kind)}: {message}",
    )

    simple = SimpleVectorStore()
    index = VectorStoreIndex(
        nodes(),
        storage_context=StorageContext.from_defaults(vector_store=simple),
        embed_model=MockEmbedding(embed_dim=4),
    )
    with scratch_dir("li-storage") as directory:
        index.storage_context.persist(persist_dir=str(directory))
        context = StorageContext.from_defaults(persist_dir=str(directory))
        reloaded = load_index_from_storage(context, embed_model=MockEmbedding(embed_dim=4))
    kept = sorted(reloaded.vector_store.data.embedding_dict)
    facts.check(
        "li-simple-persist-dir",
        type(context.vector_store) is SimpleVectorStore and kept == IDS,
        f"StorageContext.from_defaults(persist_dir=...) reloads SimpleVectorStore with {kept}",
    )
    again = SimpleVectorStore.from_dict(made["simple"].to_dict())
    facts.check(
        "li-simple-to-dict",
        again.query(query).ids == expected,
        "SimpleVectorStore.to_dict() holds its data; from_dict() restores it",
    )

    outcomes: dict[str, dict[str, str]] = {}
    for key, store in made.items():
        outcomes[key] = {}
        for mode in VectorStoreQueryMode:
            if mode in (VectorStoreQueryMode.DEFAULT, VectorStoreQueryMode.MMR):
                continue
            moded = VectorStoreQuery(query_embedding=VECTORS[0], similarity_top_k=3, mode=mode)
            kind, got = raised(lambda s=store, q=moded: s.query(q).ids)
            outcomes[key][mode.value] = "dense" if got == repr(expected) else f"{name(kind)}"
    learners = ("svm", "logistic_regression", "linear_regression")
    simple_modes = outcomes["simple"]
    facts.check(
        "li-simple-modes",
        all(simple_modes[m] == "ValueError" for m in simple_modes if m not in learners),
        f"sparse and hybrid modes raise ValueError (Invalid query mode); learners: "
        f"{ {m: simple_modes[m] for m in learners} } (scikit-learn needed): {simple_modes}",
    )
    facts.check(
        "li-chroma-modes-dense",
        set(outcomes["chroma"].values()) == {"dense"},
        f"every mode is served as a dense query: {outcomes['chroma']}",
    )
    qdrant_modes = outcomes["qdrant"]
    facts.check(
        "li-qdrant-modes-dense",
        qdrant_modes.pop("hybrid") == "ValueError" and set(qdrant_modes.values()) == {"dense"},
        f"hybrid raises ValueError, every other mode is served as a dense query: {qdrant_modes}",
    )
    clients = {key: type(store.client).__name__ for key, store in made.items()}
    facts.check(
        "li-store-client",
        clients == {"simple": "NoneType", "chroma": "Collection", "qdrant": "QdrantClient"},
        f"client is the engine's handle: {clients}",
    )
    qdrant = made["qdrant"]
    capped = [n.node_id for n in qdrant.get_nodes(limit=2)]
    among = [n.node_id for n in qdrant.get_nodes([IDS[2], IDS[0]], limit=1)]
    facts.check(
        "li-qdrant-get-nodes-limit",
        capped == IDS[:2] and among == IDS[:1],
        f"get_nodes(limit=2) -> the first 2 in id order {capped}; with ids, the first of "
        f"them in id order {among}",
    )
    facts.done()


if __name__ == "__main__":
    main()
