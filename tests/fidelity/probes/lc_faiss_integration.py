"""Probe: what langchain-community's ``FAISS`` vector store adds on top of faiss.

Covers the ``lc-faiss-*`` facts of docs/integrations/langchain.md: which index each
``DistanceStrategy`` builds and which relevance function it gets, ``numpy.float32`` scores,
``normalize_L2``, the inclusive ``score_threshold``, the dict/callable filter dialect applied
after the search over ``fetch_k`` candidates, id and delete errors (and the corruption after
adding an existing id), ``get_by_ids``, MMR order and its two bugs, ties, and unknown keyword
arguments. Run: python tests/fidelity/probes/lc_faiss_integration.py
"""

from __future__ import annotations

import math
import sys
import warnings

import numpy as np
from _probe import Facts, name, raised
from _table import DOCS, META, langchain_embeddings

SQRT2 = math.sqrt(2.0)
F32 = np.float32


def main() -> None:
    facts = Facts(
        "langchain-community FAISS on faiss", "langchain-community", "langchain-core", "faiss-cpu"
    )
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    from langchain_community.vectorstores import FAISS
    from langchain_community.vectorstores.utils import DistanceStrategy

    def store(texts=DOCS, **kwargs) -> FAISS:
        return FAISS.from_texts(
            list(texts),
            langchain_embeddings(),
            metadatas=[META.get(t, {}) for t in texts],
            ids=list(texts),
            **kwargs,
        )

    def scored(made: FAISS, relevance: bool = False, **kwargs) -> dict[str, float]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            search = (
                made.similarity_search_with_relevance_scores
                if relevance
                else made.similarity_search_with_score
            )
            return {d.page_content: s for d, s in search("q", k=6, **kwargs)}

    default = store()
    score, relevance = scored(default), scored(default, relevance=True)
    facts.check(
        "lc-faiss-score-l2",
        type(score["b"]) is np.float32
        and score["b"] == F32(0.40000004)
        and score["f"] == 4.0
        and type(default.index).__name__ == "IndexFlatL2",
        f"default (EUCLIDEAN_DISTANCE, IndexFlatL2): squared L2 as numpy.float32: {score}",
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        default.similarity_search_with_relevance_scores("q", k=6)
    facts.check(
        "lc-faiss-relevance-l2",
        type(relevance["b"]) is np.float32
        and relevance["b"] == F32(1 - F32(0.40000004) / SQRT2)
        and relevance["f"] < 0
        and any("Relevance scores must be between 0 and 1" in str(w.message) for w in caught),
        f"relevance = 1 - d/sqrt(2), still numpy.float32, LangChain warns when < 0: {relevance}",
    )
    big = FAISS.from_texts(
        ["big", "a"], langchain_embeddings(), ids=["big", "a"], normalize_L2=True
    )
    facts.check(
        "lc-faiss-normalize-l2",
        scored(big) == {"big": 0.0, "a": 0.0},
        "normalize_L2=True scales stored and query vectors to unit length ([2,0,0,0] scores 0)",
    )
    mip = store(distance_strategy=DistanceStrategy.MAX_INNER_PRODUCT)
    score, relevance = scored(mip), scored(mip, relevance=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kept = [
            d.page_content
            for d, _ in mip.similarity_search_with_relevance_scores("q", k=6, score_threshold=0.5)
        ]
    facts.check(
        "lc-faiss-mip",
        type(mip.index).__name__ == "IndexFlatIP"
        and score["a"] == 1.0
        and relevance["a"] == 0.0
        and relevance["f"] == 1.0
        and sorted(kept) == ["e", "f"],
        f"MAX_INNER_PRODUCT: IndexFlatIP, dot scores; the max-inner-product relevance on a "
        f"similarity inverts the ranking ({relevance}); threshold 0.5 keeps {kept}",
    )
    cosine = store(distance_strategy=DistanceStrategy.COSINE)
    relevance = scored(cosine, relevance=True)
    facts.check(
        "lc-faiss-cosine-strategy",
        type(cosine.index).__name__ == "IndexFlatL2"
        and relevance["a"] == 1.0
        and relevance["f"] == -3.0
        and relevance["d"] == -1.0,
        f"COSINE still builds IndexFlatL2; relevance 1 - d = 2cos - 1: {relevance}",
    )
    errors = {}
    for strategy in (DistanceStrategy.DOT_PRODUCT, DistanceStrategy.JACCARD):
        made = store(distance_strategy=strategy)
        errors[strategy.value] = (
            type(made.index).__name__,
            raised(lambda made=made: made.similarity_search_with_relevance_scores("q", k=1)),
        )
    message = "Unknown distance strategy, must be cosine, max_inner_product, or euclidean"
    facts.check(
        "lc-faiss-dot-jaccard",
        all(v == ("IndexFlatL2", (ValueError, message)) for v in errors.values()),
        f"DOT_PRODUCT and JACCARD build IndexFlatL2 and have no relevance function: {message}",
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        store(distance_strategy=DistanceStrategy.MAX_INNER_PRODUCT, normalize_L2=True)
    texts = [str(w.message) for w in caught if w.category is UserWarning]
    facts.check(
        "lc-faiss-normalize-warning",
        texts
        == ["Normalizing L2 is not applicable for metric type: DistanceStrategy.MAX_INNER_PRODUCT"]
        or texts == ["Normalizing L2 is not applicable for metric type: max_inner_product"],
        f"normalize_L2 under another strategy warns (Python {sys.version_info[:2]}) "
        f"and normalises anyway: {texts}",
    )
    thresholds = {
        "l2 <= 0.8": sorted(scored(default, score_threshold=0.8)),
        "mip >= 0.6": sorted(scored(mip, score_threshold=0.6)),
        "jaccard >= 0.8": sorted(
            scored(store(distance_strategy=DistanceStrategy.JACCARD), score_threshold=0.8)
        ),
    }
    facts.check(
        "lc-faiss-threshold",
        thresholds
        == {
            "l2 <= 0.8": ["a", "b", "c"],
            "mip >= 0.6": ["a", "b", "c"],
            "jaccard >= 0.8": ["c", "d", "e", "f"],
        },
        f"score_threshold is inclusive and applied after the search; >= for MIP and JACCARD: "
        f"{thresholds}",
    )

    def found(**kwargs) -> list[str]:
        return [d.page_content for d in default.similarity_search("q", k=6, **kwargs)]

    dialect = {
        "$neq missing": found(filter={"missing": {"$neq": "x"}}),
        "bare list": found(filter={"color": ["red", "green"]}),
        "$or []": found(filter={"$or": []}),
        "$and []": found(filter={"$and": []}),
        "{}": found(filter={}),
        "$or hides siblings": found(filter={"color": "red", "$or": [{"n": 4}]}),
        "callable": found(filter=lambda metadata: metadata["n"] > 4),
        "$not": found(filter={"$not": {"color": "red"}}),
    }
    facts.check(
        "lc-faiss-filter-dialect",
        dialect
        == {
            "$neq missing": DOCS,
            "bare list": ["a", "c", "d", "f"],
            "$or []": [],
            "$and []": DOCS,
            "{}": DOCS,
            "$or hides siblings": ["d"],
            "callable": ["e", "f"],
            "$not": ["b", "d", "e"],
        },
        f"FAISS's own dict dialect and callables on metadata: {dialect}",
    )
    rejected = {
        "$ne": raised(lambda: found(filter={"color": {"$ne": "red"}})),
        "type": raised(lambda: found(filter={"n": {"$gt": "3"}}))[0],
    }
    facts.check(
        "lc-faiss-filter-errors",
        rejected["$ne"] == (ValueError, "filter contains unsupported operator: $ne")
        and rejected["type"] is TypeError,
        f"Mongo's $ne is rejected ({rejected['$ne'][1]}); comparing a str bound raises TypeError",
    )
    near = [f"c#{i}" for i in range(30)]
    crowded = FAISS.from_texts(
        [*near, "f"],
        langchain_embeddings(),
        metadatas=[{"color": "blue"}] * 30 + [{"color": "red"}],
    )
    facts.check(
        "lc-faiss-postfilter",
        crowded.similarity_search("q", k=1, filter={"color": "red"}) == []
        and [
            d.page_content
            for d in crowded.similarity_search("q", k=1, filter={"color": "red"}, fetch_k=31)
        ]
        == ["f"],
        "the filter runs after fetching fetch_k=20 candidates: a far match is lost unless "
        "fetch_k reaches it",
    )
    facts.check(
        "lc-faiss-unknown-kwargs",
        found(bogus=1) == DOCS,
        "unknown keyword arguments are ignored",
    )

    ids = store(["a", "b"])
    facts.check(
        "lc-faiss-ids-duplicate",
        raised(lambda: ids.add_texts(["c", "d"], ids=["x", "x"]))
        == (ValueError, "Duplicate ids found in the ids list."),
        "the same id twice in one call raises before anything is written",
    )
    facts.check(
        "lc-faiss-delete",
        raised(lambda: ids.delete(["a", "zz"]))
        == (
            ValueError,
            "Some specified ids do not exist in the current store. Ids not found: {'zz'}",
        )
        and ids.index.ntotal == 2
        and raised(lambda: ids.delete(None)) == (ValueError, "No ids provided to delete.")
        and raised(lambda: ids.delete([]))
        == (ValueError, "Tried to delete ids that does not  exist: []")
        and ids.delete(["b"]) is True,
        "delete: a missing id raises and nothing is deleted; None and [] raise; success is True",
    )
    got = ids.get_by_ids(["a", "zz", "a"])
    facts.check(
        "lc-faiss-get-by-ids",
        [d.id for d in got] == ["a", "a"],
        "get_by_ids: request order, repeated ids repeated, missing ids skipped",
    )
    existing = raised(lambda: ids.add_texts(["c"], ids=["a"]))
    broken = raised(lambda: ids.similarity_search("q", k=2))
    facts.check(
        "lc-faiss-ids-existing",
        existing == (ValueError, "Tried to add ids that already exist: {'a'}")
        and ids.index.ntotal == 2
        and broken[0] is KeyError,
        f"adding an existing id raises after the vector entered the index; the next search "
        f"fails with KeyError {broken[1]}",
    )
    orphan = store(["a", "b"])
    orphan.docstore.delete(["a"])
    facts.check(
        "lc-faiss-orphan",
        raised(lambda: orphan.similarity_search("q", k=1))
        == (ValueError, "Could not find document for id a, got ID a not found."),
        "a position whose document is gone raises 'Could not find document for id ...'",
    )

    picks = default.max_marginal_relevance_search_with_score_by_vector(
        [1.0, 0.0, 0.0, 0.0], k=3, fetch_k=6, lambda_mult=0.0
    )
    facts.check(
        "lc-faiss-mmr",
        [d.page_content for d, _ in picks] == ["a", "f", "d"]
        and [float(s) for _, s in picks] == [0.0, 4.0, 2.0],
        f"MMR picks in pick order with their raw squared-L2 scores: "
        f"{[(d.page_content, s) for d, s in picks]}",
    )
    filtered = default.max_marginal_relevance_search_with_score_by_vector(
        [1.0, 0.0, 0.0, 0.0], k=2, fetch_k=6, lambda_mult=1.0, filter={"color": "red"}
    )
    facts.check(
        "lc-faiss-mmr-filter-scores",
        [(d.page_content, float(s)) for d, s in filtered]
        == [("a", 0.0), ("c", float(F32(0.40000004)))],
        f"with a filter, MMR reports scores of the wrong positions (c gets b's distance): "
        f"{[(d.page_content, s) for d, s in filtered]}",
    )
    unnormalised = FAISS.from_texts(["a", "b"], langchain_embeddings(), normalize_L2=True)
    picks = unnormalised.max_marginal_relevance_search_with_score_by_vector(
        [2.0, 0.0, 0.0, 0.0], k=1, fetch_k=2
    )
    facts.check(
        "lc-faiss-mmr-normalize",
        float(picks[0][1]) == 1.0,
        f"the MMR path does not normalise the query under normalize_L2 ([2,0,0,0] vs a: "
        f"{float(picks[0][1])})",
    )
    ties = FAISS.from_texts(
        ["tie3", "tie1", "tie4", "tie0", "tie2"],
        langchain_embeddings(),
        ids=["t3", "t1", "t4", "t0", "t2"],
    )
    ties_ip = FAISS.from_texts(
        ["tie3", "tie1", "tie4", "tie0", "tie2"],
        langchain_embeddings(),
        ids=["t3", "t1", "t4", "t0", "t2"],
        distance_strategy=DistanceStrategy.MAX_INNER_PRODUCT,
    )
    order = (
        [d.id for d in ties.similarity_search("qtie", k=3)],
        [d.id for d in ties_ip.similarity_search("qtie", k=3)],
    )
    facts.check(
        "lc-faiss-ties",
        order == (["t3", "t1", "t4"], ["t4", "t1", "t3"]),
        f"ties: the first inserted, ascending for L2 and descending for inner product: {order}",
    )
    nones = FAISS.from_texts(
        ["a", "b", "c"],
        langchain_embeddings(),
        metadatas=[{"page": None}, {"page": 1}, {}],
        ids=["none", "one", "missing"],
    )

    def hits(flt):
        return sorted(d.id for d in nones.similarity_search("q", k=3, filter=flt))

    got = {
        "eq": hits({"page": None}),
        "in": hits({"page": {"$in": [None]}}),
        "neq": hits({"page": {"$neq": None}}),
        "gt": name(raised(lambda: hits({"page": {"$gt": 0}}))[0]),
    }
    facts.check(
        "lc-faiss-filter-none",
        got
        == {
            "eq": ["missing", "none"],
            "in": ["missing", "none"],
            "neq": ["one"],
            "gt": "TypeError",
        },
        f"a stored None and a missing key are both None to the filter: {got}",
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fake = store(distance_strategy="fake", normalize_L2=True)
    fake_scores = scored(fake)
    facts.check(
        "lc-faiss-strategy-unknown",
        type(fake.index).__name__ == "IndexFlatL2"
        and fake_scores["a"] == 0.0
        and raised(lambda: fake.similarity_search_with_relevance_scores("q"))[0] is ValueError
        and [str(w.message) for w in caught]
        == ["Normalizing L2 is not applicable for metric type: fake"],
        "distance_strategy='fake' builds IndexFlatL2, warns with the str as given, and only "
        "relevance scores raise",
    )
    target = store(texts=["a", "b"])
    merged = store(texts=["c", "a"])
    before = target.index.ntotal
    error = raised(lambda: target.merge_from(merged))
    facts.check(
        "lc-faiss-merge-existing",
        error == (ValueError, "Tried to add ids that already exist: {'a'}")
        and target.index.ntotal == before + 2,
        f"merge_from with a shared id raises {error} after the index grew to {target.index.ntotal}",
    )
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        store(distance_strategy=DistanceStrategy.MAX_INNER_PRODUCT).save_local(folder)
        loaded = FAISS.load_local(
            folder, langchain_embeddings(), allow_dangerous_deserialization=True
        )
    facts.check(
        "lc-faiss-persist-settings",
        type(loaded.index).__name__ == "IndexFlatIP"
        and loaded.distance_strategy == DistanceStrategy.EUCLIDEAN_DISTANCE,
        "load_local keeps the index (IndexFlatIP) but not the strategy: "
        f"{loaded.distance_strategy}",
    )
    short = store(["a"])
    lengths = [
        raised(lambda: short.add_texts(["b", "c"], metadatas=[{"k": 1}], ids=["b", "c"])),
        raised(lambda: short.add_texts(["b", "c"], metadatas=[{"k": 1}, {"k": 2}], ids=["b"])),
    ]
    unequal = (
        "texts and metadatas expected to be equal length but len(texts)=2 and len(metadatas)=1"
    )
    facts.check(
        "lc-faiss-metadatas-short",
        lengths[0] == (ValueError, unequal) and short.index.ntotal == 1,
        f"2 texts, 1 metadata: {lengths[0]}; nothing added",
    )
    facts.check(
        "lc-faiss-ids-short",
        lengths[1]
        == (
            ValueError,
            "texts and ids expected to be equal length but len(texts)=2 and len(ids)=1",
        )
        and short.index.ntotal == 1
        and list(short.docstore._dict) == ["a"],
        f"2 texts, 1 id: {lengths[1]}; nothing added",
    )
    loose = store(["a"])
    added = [loose.add_texts(["b"], ids=[5]), loose.add_texts(["c"], ids=[""])]
    by_int = [(d.id, d.page_content) for d in loose.get_by_ids([5])]
    by_str = loose.get_by_ids(["5"])
    empty = [(d.id, d.page_content) for d in loose.get_by_ids([""])]
    keys = list(loose.docstore._dict)
    found_ids = [d.id for d in loose.similarity_search("q", k=3)]
    facts.check(
        "lc-faiss-ids-loose",
        added == [[5], [""]]
        and keys == ["a", 5, ""]
        and by_int == [("5", "b")]
        and by_str == []
        and empty == [("", "c")]
        and found_ids == ["a", "5", ""],
        f"ids 5 and '' are accepted and returned {added}, kept as docstore keys {keys}; "
        f"get_by_ids([5]) -> {by_int} (Document.id a str), get_by_ids(['5']) -> {by_str}, "
        f"get_by_ids(['']) -> {empty}; a search reports ids {found_ids}",
    )
    from langchain_core.documents import Document

    unsized = store(["a"])
    refused = [
        raised(lambda: unsized.add_texts(["b", "c"], ids=(i for i in ["b", "c"]))),
        raised(lambda: unsized.add_documents([Document(page_content="b")], ids=iter(["b"]))),
    ]
    facts.check(
        "lc-faiss-ids-unsized",
        refused
        == [
            (TypeError, "object of type 'generator' has no len()"),
            (TypeError, "object of type 'list_iterator' has no len()"),
        ]
        and unsized.index.ntotal == 1
        and list(unsized.docstore._dict) == ["a"]
        and unsized.add_texts(["b"], ids=("b",)) == ("b",),
        f"ids without a length: {refused}; nothing added; a tuple is taken (and returned)",
    )
    import datetime

    kept_as_given = {
        "when": datetime.datetime(2024, 1, 2),
        "raw": b"ab",
        "bag": {1},
        "pair": (1, 2),
        "keys": {1: "x"},
    }
    objects = store(["a"])
    objects.add_texts(["b"], metadatas=[kept_as_given], ids=["b"])
    got = objects.get_by_ids(["b"])[0].metadata
    facts.check(
        "lc-faiss-metadata-objects",
        got == kept_as_given and type(got["pair"]) is tuple and type(got["bag"]) is set,
        f"metadata values are kept as the Python objects given: {got}",
    )
    import copy
    import uuid

    shared = store(["a", "b"])
    shared.similarity_search("a", k=1)[0].metadata["score"] = 1.0
    shared.get_by_ids(["b"])[0].metadata["seen"] = True
    annotated = [d.metadata for d in shared.get_by_ids(["a", "b"])]
    by_filter = [d.page_content for d in shared.similarity_search("a", k=2, filter={"score": 1.0})]
    facts.check(
        "lc-faiss-shared-documents",
        annotated == [{**META["a"], "score": 1.0}, {**META["b"], "seen": True}]
        and by_filter == ["a"],
        f"results are the docstore's own Documents: metadata set on a search or get_by_ids "
        f"result is stored ({annotated}) and filtered on ({by_filter})",
    )
    original = store(["a"])
    twin = copy.copy(original)
    twin.add_texts(["b"], ids=["b"])
    facts.check(
        "lc-faiss-copy-shares",
        original.index.ntotal == 2 and [d.id for d in original.get_by_ids(["b"])] == ["b"],
        "copy.copy(store) shares index and docstore: an add through the copy is in the original",
    )
    fallback = store(["a"])
    generated = [
        fallback.add_texts(["b", "c"], ids=[]),
        fallback.add_documents([Document(page_content="d", id="doc-d")], ids=[]),
    ]
    facts.check(
        "lc-faiss-ids-empty",
        [len(g) for g in generated] == [2, 1]
        and all(str(uuid.UUID(i)) == i for g in generated for i in g)
        and fallback.get_by_ids(["doc-d"]) == []
        and raised(lambda: store(["a"]).add_texts([], ids=[]))
        == (ValueError, "not enough values to unpack (expected 2, got 1)"),
        f"ids=[] gives each text a uuid4 (Document.id unused): {generated}; no texts: ValueError",
    )
    lenient = store(["a"])
    none_meta = raised(lambda: lenient.add_texts(["b", "c"], metadatas=[None, {"k": 1}]))
    gone = raised(lambda: lenient.delete(i for i in ["a"]))
    facts.check(
        "lc-faiss-refuses-none-metadata-and-iterator-delete",
        none_meta[0] is not None
        and none_meta[0].__name__ == "ValidationError"
        and none_meta[1].startswith("1 validation error for Document\nmetadata\n")
        and gone[0] is ValueError
        and gone[1].startswith("Tried to delete ids that does not  exist: <generator object")
        and lenient.index.ntotal == 1
        and list(lenient.docstore._dict) == ["a"],
        f"a None metadata: {name(none_meta[0])}; delete(<generator>): {gone[1][:45]}...; "
        "nothing added or deleted",
    )
    keyed = store(["a"])
    mixed = keyed.add_documents([Document(page_content="b", id="b"), Document(page_content="c")])
    by_none = [(d.id, d.page_content) for d in keyed.get_by_ids([None])]
    again = raised(lambda: keyed.add_texts(["d"], ids=[None]))
    twice = raised(lambda: store(["a"]).add_texts(["b", "c"], ids=[None, None]))
    facts.check(
        "lc-faiss-ids-none",
        mixed == ["b", None]
        and list(keyed.docstore._dict) == ["a", "b", None]
        and by_none == [(None, "c")]
        and again == (ValueError, "Tried to add ids that already exist: {None}")
        and twice == (ValueError, "Duplicate ids found in the ids list."),
        f"add_documents of a Document with an id and one without returns {mixed} and keys the "
        f"docstore by None (get_by_ids([None]) -> {by_none}); a second None id: {again}; "
        f"[None, None]: {twice}",
    )
    facts.done()


if __name__ == "__main__":
    main()
