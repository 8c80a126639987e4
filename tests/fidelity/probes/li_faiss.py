"""Probe: llama-index ``FaissVectorStore`` -- raw faiss scores, positional ids, ties, gaps.

Integration: llama-index-vector-stores-faiss 0.7.0 on faiss-cpu (IndexFlatL2 / IndexFlatIP), in
process. The store keeps only vectors; the nodes live in the docstore and are mapped back by
position. Unit-vector table embedding from _probe_geometry.
Run: python tests/fidelity/probes/li_faiss.py
"""

from __future__ import annotations

import time
import warnings

import _probe_geometry as common
import faiss
import numpy as np
from _probe import check, check_error, error_of, finish
from _probe_geometry import META, li_embedding
from llama_index.core import StorageContext, VectorStoreIndex
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores import MetadataFilter, MetadataFilters
from llama_index.core.vector_stores.types import VectorStoreQuery
from llama_index.vector_stores.faiss import FaissVectorStore

STARTED = time.perf_counter()


def main() -> None:
    warnings.simplefilter("ignore")
    for kind in ("l2", "ip"):
        index = faiss.IndexFlatL2(4) if kind == "l2" else faiss.IndexFlatIP(4)
        vs = FaissVectorStore(faiss_index=index)
        nodes = [TextNode(text=t, id_=t, metadata=dict(META[t])) for t in META]
        nodes += [TextNode(text="tie", id_=f"tie{i}") for i in range(5)]
        vi = VectorStoreIndex(
            nodes,
            storage_context=StorageContext.from_defaults(vector_store=vs),
            embed_model=li_embedding(),
        )
        got = vi.as_retriever(similarity_top_k=6).retrieve("q")
        want = {
            "l2": [
                ("a", 0.0),
                ("b", 0.40000003576278687),
                ("c", 0.800000011920929),
                ("d", 2.0),
                ("tie0", 2.0),
                ("tie1", 2.0),
            ],
            "ip": [
                ("a", 1.0),
                ("b", 0.800000011920929),
                ("c", 0.6000000238418579),
                ("tie1", 0.0),
                ("tie0", 0.0),
                ("d", 0.0),
            ],
        }[kind]
        check(
            f"li-faiss-score-raw-{kind}-heap-ties", [(n.node.node_id, n.score) for n in got], want
        )
        check(f"li-faiss-score-python-float-{kind}", type(got[0].score).__name__, "float")
        check(
            f"li-faiss-text-in-docstore-{kind}",
            [vs.stores_text, len(vi.docstore.docs), len(vi.index_struct.nodes_dict)],
            [False, 11, 11],
        )
        ties = [n.node.node_id for n in vi.as_retriever(similarity_top_k=3).retrieve("qtie")]
        check(
            f"li-faiss-pure-ties-{kind}",
            ties,
            ["tie0", "tie1", "tie2"] if kind == "l2" else ["tie2", "tie1", "tie0"],
        )
        check(
            f"li-faiss-k-above-n-{kind}",
            len(vi.as_retriever(similarity_top_k=50).retrieve("q")),
            11,
        )
        check_error(
            f"li-faiss-filters-{kind}",
            error_of(
                lambda vi=vi: vi.as_retriever(
                    similarity_top_k=3,
                    filters=MetadataFilters(filters=[MetadataFilter(key="color", value="red")]),
                ).retrieve("q")
            ),
            "ValueError",
            "Metadata filters not implemented for Faiss yet.",
        )
        res = vs.query(VectorStoreQuery(query_embedding=common.UNIT["q"], similarity_top_k=3))
        check(
            f"li-faiss-store-ids-positions-np-float32-{kind}",
            [res.ids, type(res.similarities[0]) is np.float32],
            [["0", "1", "2"], True],
        )
        check(
            f"li-faiss-k-0-{kind}",
            error_of(lambda vi=vi: vi.as_retriever(similarity_top_k=0).retrieve("q")),
            ("AssertionError", ""),
        )
        check(
            f"li-faiss-wrong-dimension-{kind}",
            error_of(
                lambda vs=vs: vs.query(
                    VectorStoreQuery(query_embedding=[1.0, 0.0], similarity_top_k=1)
                )
            ),
            ("AssertionError", ""),
        )
        check(
            f"li-faiss-add-returns-position-{kind}",
            vs.add([TextNode(text="z", id_="z", embedding=common.UNIT["a"])]),
            ["11"],
        )
        check(
            f"li-faiss-delete-{kind}",
            error_of(lambda vs=vs: vs.delete("a")),
            ("NotImplementedError", "Delete not yet implemented for Faiss index."),
        )
        check(
            f"li-faiss-delete-nodes-{kind}",
            error_of(lambda vs=vs: vs.delete_nodes(["a"])),
            ("NotImplementedError", "delete_nodes not implemented"),
        )
        check(
            f"li-faiss-get-nodes-{kind}",
            error_of(lambda vs=vs: vs.get_nodes(["a"])),
            ("NotImplementedError", "get_nodes not implemented"),
        )
    finish(STARTED)


if __name__ == "__main__":
    main()
