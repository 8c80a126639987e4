"""Probe: what ``langchain_qdrant.QdrantVectorStore`` adds on top of Qdrant's local mode.

Covers the ``lc-qdrant-*`` facts of docs/integrations/langchain.md: scores and the relevance
function per distance (DOT's inverts the ranking, MANHATTAN has none), the strict
``score_threshold``, ``models.Filter`` as the only filter and the ``metadata.`` key prefix, the
Document shape (no ``id``, ``_id`` and ``_collection_name`` in metadata), point-id rules and
generated ids, ``delete``/``get_by_ids`` conventions, the engine MMR with its inverted
``lambda_mult``, the embedding call that learns the width, and ties. Run:
python tests/fidelity/probes/lc_qdrant_integration.py
"""

from __future__ import annotations

import math
import uuid
import warnings

import numpy as np
from _probe import Facts, raised
from _table import DOCS, META, RANDOM_TEXTS, langchain_embeddings, vector

SQRT2 = math.sqrt(2.0)


def point(n: int) -> str:
    """A UUID whose order follows n."""
    return str(uuid.UUID(int=n))


IDS = {t: point(i + 1) for i, t in enumerate(DOCS)}


def main() -> None:
    facts = Facts(
        "langchain-qdrant on Qdrant local mode",
        "langchain-qdrant",
        "langchain-core",
        "qdrant-client",
    )
    from langchain_core.vectorstores.utils import maximal_marginal_relevance
    from langchain_qdrant import QdrantVectorStore
    from qdrant_client import QdrantClient, models

    client = QdrantClient(":memory:")

    def store(distance=models.Distance.COSINE, fill: bool = True, embeddings=None):
        name = f"lc-{uuid.uuid4().hex[:8]}"
        client.create_collection(name, models.VectorParams(size=4, distance=distance))
        made = QdrantVectorStore(
            client=client,
            collection_name=name,
            embedding=embeddings or langchain_embeddings(),
            distance=distance,
        )
        if fill:
            made.add_texts(DOCS, metadatas=[META[t] for t in DOCS], ids=[IDS[t] for t in DOCS])
        return made

    def scored(made, relevance: bool = False, **kwargs) -> dict[str, float]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            search = (
                made.similarity_search_with_relevance_scores
                if relevance
                else made.similarity_search_with_score
            )
            return {d.page_content: s for d, s in search("q", k=6, **kwargs)}

    cosine = store()
    score, relevance = scored(cosine), scored(cosine, relevance=True)
    facts.check(
        "lc-qdrant-score-cosine",
        score["a"] == 1.0 and score["b"] == 0.800000011920929 and score["f"] == -1.0,
        f"COSINE: the cosine similarity, descending: {score}",
    )
    facts.check(
        "lc-qdrant-relevance-cosine",
        relevance["a"] == 1.0
        and relevance["b"] == (0.800000011920929 + 1) / 2
        and relevance["d"] == 0.5
        and relevance["f"] == 0.0,
        f"COSINE relevance = (cos + 1) / 2, in [0, 1]: {relevance}",
    )
    dot = store(models.Distance.DOT)
    relevance = scored(dot, relevance=True)
    kept = [
        d.page_content
        for d, _ in dot.similarity_search_with_relevance_scores("q", k=6, score_threshold=0.8)
    ]
    facts.check(
        "lc-qdrant-relevance-dot",
        relevance["a"] == 0.0 and relevance["f"] == 1.0 and kept == ["f"],
        f"DOT relevance = 1 - s if s > 0 else -s on a similarity, which inverts the ranking: "
        f"{relevance}; score_threshold=0.8 keeps {kept}",
    )
    euclid = store(models.Distance.EUCLID)
    score, relevance = scored(euclid), scored(euclid, relevance=True)
    facts.check(
        "lc-qdrant-score-euclid",
        score["a"] == 0.0
        and score["b"] == 0.6324555508823199
        and score["f"] == 2.0
        and relevance["b"] == 1 - 0.6324555508823199 / SQRT2,
        f"EUCLID: the L2 distance (not squared), relevance 1 - d/sqrt(2): {score}",
    )
    manhattan = store(models.Distance.MANHATTAN)
    error = raised(lambda: manhattan.similarity_search_with_relevance_scores("q", k=2))
    facts.check(
        "lc-qdrant-relevance-manhattan",
        error == (ValueError, "Unknown distance strategy, must be COSINE, DOT, or EUCLID."),
        f"MANHATTAN has no relevance function: {error[1]}",
    )
    thresholds = {t: sorted(scored(cosine, score_threshold=t)) for t in (0.6, 0.6000000238418579)}
    facts.check(
        "lc-qdrant-threshold-strict",
        thresholds == {0.6: ["a", "b", "c"], 0.6000000238418579: ["a", "b"]},
        f"similarity_search_with_score(score_threshold=t) keeps score > t, in the engine: "
        f"{thresholds}",
    )
    facts.check(
        "lc-qdrant-relevance-threshold",
        sorted(scored(cosine, relevance=True, score_threshold=0.5)) == ["a", "b", "c", "d"],
        "the relevance threshold is LangChain's: relevance >= t (d's 0.5 is kept at t=0.5)",
    )

    first = cosine.similarity_search("q", k=1)[0]
    facts.check(
        "lc-qdrant-document",
        first.id is None
        and first.metadata
        == {**META["a"], "_id": IDS["a"], "_collection_name": cosine.collection_name},
        f"Document.id is None; metadata gains _id and _collection_name: {first.metadata}",
    )

    def texts(given) -> list[str]:
        return [d.page_content for d in cosine.similarity_search("q", k=6, filter=given)]

    flt, cond, value = models.Filter, models.FieldCondition, models.MatchValue
    facts.check(
        "lc-qdrant-filter-prefix",
        texts(flt(must=[cond(key="metadata.color", match=value(value="red"))])) == ["a", "c", "f"]
        and texts(flt(must=[cond(key="color", match=value(value="red"))])) == []
        and texts(flt(must=[cond(key="page_content", match=value(value="c"))])) == ["c"],
        "metadata sits under the payload key 'metadata' (key 'metadata.color'); a bare key "
        "matches nothing, silently; 'page_content' is the text",
    )
    facts.check(
        "lc-qdrant-filter-missing",
        texts(flt(must_not=[cond(key="metadata.missing", match=value(value="x"))])) == DOCS,
        "must_not on a missing key matches every document",
    )
    error = raised(lambda: cosine.similarity_search("q", filter={"color": "red"}))
    facts.check(
        "lc-qdrant-filter-dict",
        error == (AttributeError, "'dict' object has no attribute 'must'"),
        f"a dict filter is not translated: {error}",
    )
    unknown = raised(lambda: cosine.similarity_search("q", k=2, bogus=1))
    facts.check(
        "lc-qdrant-unknown-kwargs",
        unknown == (AssertionError, "Unknown arguments: ['bogus']"),
        f"unknown keyword arguments reach local mode, which asserts: {unknown}",
    )
    fetch = raised(lambda: cosine.as_retriever(search_kwargs={"k": 2, "fetch_k": 10}).invoke("q"))
    facts.check(
        "lc-qdrant-search-fetch-k",
        fetch == (AssertionError, "Unknown arguments: ['fetch_k']"),
        f"a similarity retriever's search_kwargs fetch_k reaches local mode: {fetch}",
    )

    table = langchain_embeddings()
    ids = store(fill=False, embeddings=table)
    facts.check(
        "lc-qdrant-embedding-probe",
        table.calls == [("documents", ["dummy_text"])],
        f"the constructor embeds ['dummy_text'] to learn the width: {table.calls}",
    )
    generated = ids.add_texts(["a", "b"])
    stored = {d.metadata["_id"] for d in ids.similarity_search("q", k=2)}
    facts.check(
        "lc-qdrant-ids-generated",
        all(len(i) == 32 and "-" not in i for i in generated)
        and stored == {str(uuid.UUID(i)) for i in generated},
        f"generated ids are uuid4().hex (no dashes); results report the dashed form: {generated}",
    )
    as_given = ids.add_texts(["c", "d"], ids=[7, uuid.UUID(int=9).hex.upper()])
    facts.check(
        "lc-qdrant-ids-returned",
        as_given == [7, uuid.UUID(int=9).hex.upper()],
        f"given ids are returned unchanged (ints, upper-case or dashless UUIDs): {as_given}",
    )
    facts.check(
        "lc-qdrant-ids-invalid",
        raised(lambda: ids.add_texts(["c"], ids=["id_c"]))
        == (ValueError, "Point id id_c is not a valid UUID"),
        "a str id that is not a UUID raises ValueError",
    )
    dup = ids.add_texts(["e", "f"], metadatas=[{"v": 1}, {"v": 2}], ids=[point(50), point(50)])
    facts.check(
        "lc-qdrant-ids-duplicate",
        dup == [point(50)] * 2 and ids.get_by_ids([point(50)])[0].page_content == "f",
        "the same id twice in one call: the last wins, both are returned",
    )
    from langchain_core.documents import Document
    from pydantic import ValidationError

    count = ids.client.count(ids.collection_name).count
    mixed = [Document(page_content="a", id=point(60)), Document(page_content="b")]
    refused = [
        raised(lambda: ids.add_documents(mixed)),
        raised(lambda: ids.add_texts(["a"], ids=[None])),
    ]
    pydantic_error = "3 validation errors for PointStruct\nid.int"
    facts.check(
        "lc-qdrant-ids-none",
        all(kind is ValidationError and text.startswith(pydantic_error) for kind, text in refused)
        and ids.client.count(ids.collection_name).count == count,
        f"a None among the ids (add_documents where one Document has no id): {refused[0][0]}: "
        f"{refused[0][1].splitlines()[0]}; nothing added",
    )
    facts.check(
        "lc-qdrant-generator-no-ids",
        ids.add_texts(t for t in ["a"]) == [],
        "a generator of texts without ids adds nothing and returns [] (silently)",
    )
    import datetime

    given = {
        "when": datetime.datetime(2024, 1, 2, 3, 4, 5),
        "day": datetime.date(2024, 1, 2),
        "pair": (1, 2),
        "bag": {1},
        "keys": {1: "x", 1.5: "y", False: 0, None: 2},
        "f64": np.float64(1.5),
        "raw": b"ab",
        "nan": math.nan,
    }
    ids.add_texts(["a"], metadatas=[given], ids=[point(70)])
    back = {k: v for k, v in ids.get_by_ids([point(70)])[0].metadata.items() if k in given}
    want = {
        "when": "2024-01-02T03:04:05",
        "day": "2024-01-02",
        "pair": [1, 2],
        "bag": [1],
        "keys": {"1": "x", "1.5": "y", "false": 0, "null": 2},
        "f64": 1.5,
        "raw": "ab",
    }
    refused = [
        raised(lambda: ids.add_texts(["a"], metadatas=[{"n": np.int64(3)}], ids=[point(71)])),
        raised(lambda: ids.add_texts(["a"], metadatas=[{"t": {(1, 2): 0}}], ids=[point(72)])),
    ]
    facts.check(
        "lc-qdrant-metadata-json",
        {k: v for k, v in back.items() if k != "nan"} == want
        and type(back["f64"]) is float
        and math.isnan(back["nan"])
        and [(kind.__name__ if kind else None, text) for kind, text in refused]
        == [
            (
                "PydanticSerializationError",
                "Unable to serialize unknown type: <class 'numpy.int64'>",
            ),
            ("TypeError", "keys must be str, int, float, bool or None, not tuple"),
        ]
        and ids.get_by_ids([point(71), point(72)]) == [],
        f"metadata comes back as its JSON round-trip: {back}; numpy int and tuple key: "
        f"{refused}; nothing added",
    )
    empty = [
        ids.add_texts(["a"], ids=[]),
        ids.add_documents([Document(page_content="b", id=point(80))], ids=[]),
    ]
    before = ids.client.count(ids.collection_name).count
    gone = [
        raised(lambda: ids.delete(i for i in [point(70)])),
        raised(lambda: ids.delete((point(70),))),
    ]
    facts.check(
        "lc-qdrant-ids-empty",
        [len(e) for e in empty] == [1, 1]
        and all(len(e[0]) == 32 and e[0] != point(80).replace("-", "") for e in empty)
        and ids.get_by_ids([point(80)]) == [],
        f"ids=[] gives each text a generated hex id (Document.id unused): {empty}",
    )
    facts.check(
        "lc-qdrant-delete-selector",
        gone
        == [
            (ValueError, "Unsupported selector type: <class 'generator'>"),
            (ValueError, "Unsupported selector type: <class 'tuple'>"),
        ]
        and ids.client.count(ids.collection_name).count == before,
        f"delete of ids that are not a list: {gone}; nothing deleted",
    )
    got = ids.get_by_ids([point(50), "nope", point(50), "not-a-uuid"])
    facts.check(
        "lc-qdrant-get-by-ids",
        [d.metadata["_id"] for d in got] == [point(50), point(50)]
        and got[0].id is None
        and ids.get_by_ids([]) == [],
        "get_by_ids: request order, repeated ids repeated, missing or invalid ids skipped",
    )
    facts.check(
        "lc-qdrant-delete",
        ids.delete([point(50), point(999)]) is True
        and raised(lambda: ids.delete([])) == (ValueError, "Empty update request")
        and raised(lambda: ids.delete(None))
        == (ValueError, "Unsupported selector type: <class 'NoneType'>"),
        "delete returns True even for missing ids; [] and None raise ValueError",
    )

    randoms = store(fill=False)
    randoms.add_texts(RANDOM_TEXTS, ids=[point(100 + i) for i in range(12)])
    query = vector("qr")
    candidates = np.array([vector(t) for t in RANDOM_TEXTS])
    inverted = True
    for lam in (0.0, 0.25, 0.5, 0.75, 1.0):
        engine = [
            d.page_content
            for d in randoms.max_marginal_relevance_search_by_vector(
                query, k=4, fetch_k=12, lambda_mult=lam
            )
        ]
        core = [
            RANDOM_TEXTS[i]
            for i in maximal_marginal_relevance(np.array(query), candidates, 1 - lam, 4)
        ]
        inverted &= engine == core
    with_scores = randoms.max_marginal_relevance_search_with_score_by_vector(query, k=2, fetch_k=12)
    facts.check(
        "lc-qdrant-mmr",
        inverted
        and all(
            abs(s - float(np.dot(vector(d.page_content), query))) < 1e-6 for d, s in with_scores
        ),
        "MMR runs in the engine with diversity = lambda_mult: its picks (in pick order) are "
        "LangChain's MMR at 1 - lambda_mult; *_with_score reports the raw cosine",
    )
    table.calls.clear()
    ids.max_marginal_relevance_search("q", k=1)
    facts.check(
        "lc-qdrant-embedding-probe-mmr",
        ("documents", ["dummy_text"]) in table.calls,
        f"a text MMR search embeds ['dummy_text'] again: {table.calls}",
    )

    ties = store(fill=False)
    ties.add_texts(
        ["tie3", "tie1", "tie4", "tie0", "tie2"],
        ids=[point(3), point(1), point(4), point(0), point(2)],
    )
    order = [d.page_content for d in ties.similarity_search("qtie", k=5)]
    facts.check(
        "lc-qdrant-ties",
        order == ["tie2", "tie0", "tie4", "tie1", "tie3"],
        f"COSINE ties come back in reverse insertion order (local mode): {order}",
    )
    nested = store(fill=False)
    nested.add_texts(
        ["a", "b"],
        metadatas=[{"details": {"page": 2}}, {"details": [{"page": 2}]}],
        ids=[point(1), point(2)],
    )

    def on(key):
        flt = models.Filter(must=[models.FieldCondition(key=key, match=models.MatchValue(value=2))])
        return [d.page_content for d in nested.similarity_search("q", k=2, filter=flt)]

    got = {key: on(key) for key in ("metadata.details.page", "metadata.details[].page")}
    facts.check(
        "lc-qdrant-filter-nested",
        got == {"metadata.details.page": ["a"], "metadata.details[].page": ["b"]},
        f"nested keys follow objects; arrays of objects need []: {got}",
    )
    name = f"lc-{uuid.uuid4().hex[:8]}"
    keyed = QdrantVectorStore.from_texts(
        ["a", "b"],
        langchain_embeddings(),
        metadatas=[{"color": "red"}, {"color": "blue"}],
        ids=[point(1), point(2)],
        location=":memory:",
        collection_name=name,
        content_payload_key="body",
        metadata_payload_key="meta",
    )

    def keyed_hits(key, value):
        flt = models.Filter(
            must=[models.FieldCondition(key=key, match=models.MatchValue(value=value))]
        )
        return [d.page_content for d in keyed.similarity_search("q", k=2, filter=flt)]

    got = (keyed_hits("meta.color", "red"), keyed_hits("metadata.color", "red"))
    facts.check(
        "lc-qdrant-payload-keys",
        got == (["a"], []),
        f"with metadata_payload_key='meta' filters use meta.*, not metadata.*: {got}",
    )
    missing = raised(
        lambda: QdrantVectorStore.from_existing_collection(
            "nope", langchain_embeddings(), location=":memory:"
        )
    )
    facts.check(
        "lc-qdrant-existing-collection",
        missing == (ValueError, "Collection nope not found"),
        f"from_existing_collection of a collection the client lacks: {missing}",
    )
    short = store(fill=False)
    metadatas = raised(
        lambda: short.add_texts(["a", "b"], metadatas=[{"k": 1}], ids=[point(1), point(2)])
    )
    after_metadatas = client.count(short.collection_name).count
    fewer = raised(
        lambda: short.add_texts(["c", "d"], metadatas=[{"k": 1}, {"k": 2}], ids=[point(3)])
    )
    points = [(p.id, p.payload) for p in client.scroll(short.collection_name)[0]]
    facts.check(
        "lc-qdrant-metadatas-short",
        metadatas == (IndexError, "list index out of range") and after_metadatas == 0,
        f"2 texts, 1 metadata: {metadatas}; points stored: {after_metadatas}",
    )
    facts.check(
        "lc-qdrant-ids-short",
        fewer == (None, repr([point(3)]))
        and points == [(point(3), {"page_content": "c", "metadata": {"k": 1}})],
        f"2 texts, 1 id: returns {fewer[1]}, stores only the first text: {points}",
    )
    facts.done()


if __name__ == "__main__":
    main()
