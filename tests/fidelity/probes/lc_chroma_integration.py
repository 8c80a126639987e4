"""Probe: what ``langchain_chroma.Chroma`` adds on top of Chroma.

Covers the ``lc-chroma-*`` facts of docs/integrations/langchain.md: the score per space and
the relevance function langchain-chroma picks for it (with LangChain's out-of-range warning),
filters passed through as Chroma ``where`` clauses, id handling (returned and generated ids,
errors, upsert of an existing id), ``delete``/``get_by_ids`` conventions and messages, MMR's
result order, ties and unknown keyword arguments. Run:
python tests/fidelity/probes/lc_chroma_integration.py
"""

from __future__ import annotations

import math
import uuid
import warnings

from _probe import Facts, chroma_client, name, raised
from _table import DOCS, META, langchain_embeddings

SQRT2 = math.sqrt(2.0)
WARNING = "Relevance scores must be between 0 and 1"


def main() -> None:
    facts = Facts("langchain-chroma on Chroma", "langchain-chroma", "langchain-core", "chromadb")
    from chromadb.errors import DuplicateIDError, InvalidArgumentError
    from langchain_chroma import Chroma

    client = chroma_client()

    def store(space: str | None = None, fill: bool = True) -> Chroma:
        made = Chroma(
            collection_name=f"lc-{uuid.uuid4().hex[:8]}",
            embedding_function=langchain_embeddings(),
            client=client,
            collection_metadata={"hnsw:space": space} if space else None,
        )
        if fill:
            made.add_texts(DOCS, metadatas=[META[t] for t in DOCS], ids=DOCS)
        return made

    def scored(made: Chroma, relevance: bool = False) -> tuple[dict[str, float], list[str]]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            search = (
                made.similarity_search_with_relevance_scores
                if relevance
                else made.similarity_search_with_score
            )
            pairs = search("q", k=6)
        return {d.page_content: s for d, s in pairs}, [str(w.message) for w in caught]

    l2 = store()
    score, _ = scored(l2)
    relevance, warned = scored(l2, relevance=True)
    facts.check(
        "lc-chroma-score-l2",
        score["a"] == 0.0
        and score["b"] == 0.4000000059604645
        and score["f"] == 4.0
        and type(score["b"]) is float,
        f"default space: squared L2 (2 - 2cos) as a Python float, ascending: {score}",
    )
    facts.check(
        "lc-chroma-relevance-l2",
        relevance["b"] == 1 - 0.4000000059604645 / SQRT2
        and relevance["f"] == 1 - 4.0 / SQRT2
        and any(WARNING in w for w in warned),
        f"l2 relevance = 1 - d/sqrt(2), negative values kept with a UserWarning: {relevance}",
    )
    cosine = store("cosine")
    score, _ = scored(cosine)
    relevance, _ = scored(cosine, relevance=True)
    facts.check(
        "lc-chroma-score-cosine",
        score["b"] == 0.19999998807907104 and score["f"] == 2.0,
        f"cosine space: 1 - cos: {score}",
    )
    facts.check(
        "lc-chroma-relevance-cosine",
        relevance["b"] == 1 - 0.19999998807907104 and relevance["f"] == -1.0,
        f"cosine relevance = 1 - d (the cosine): {relevance}",
    )
    ip = store("ip")
    relevance, _ = scored(ip, relevance=True)
    facts.check(
        "lc-chroma-relevance-ip",
        math.copysign(1.0, relevance["a"]) == -1.0
        and relevance["a"] == 0.0
        and relevance["f"] == -1.0,
        f"ip relevance = 1 - d if d > 0 else -d, so an exact match gets -0.0: {relevance}",
    )
    custom = Chroma(
        collection_name="lc-custom",
        embedding_function=langchain_embeddings(),
        client=client,
        relevance_score_fn=lambda d: 42 - d,
    )
    custom.add_texts(["a", "b"], ids=["a", "b"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pairs = custom.similarity_search_with_relevance_scores("q", k=2)
    relevance = {d.page_content: s for d, s in pairs}
    facts.check(
        "lc-chroma-relevance-custom",
        relevance == {"a": 42.0, "b": 42 - 0.4000000059604645},
        f"relevance_score_fn= replaces the automatic choice: {relevance}",
    )
    facts.check(
        "lc-chroma-k-above",
        len(l2.similarity_search("q", k=10)) == 6,
        "k above the count returns every document, no warning",
    )
    first = l2.similarity_search("q", k=1)[0]
    facts.check(
        "lc-chroma-document",
        first.id == "a" and first.metadata == META["a"],
        f"results are Documents with id and the stored metadata: {first!r}",
    )

    def texts(**kwargs) -> list[str]:
        return [d.page_content for d in l2.similarity_search("q", k=6, **kwargs)]

    facts.check(
        "lc-chroma-filter-where",
        texts(filter={"missing": {"$ne": "x"}}) == DOCS
        and texts(filter={"n": 1.0}) == ["a"]
        and texts(filter={"color": {"$gt": 3}}) == []
        and texts(filter={"color": {"$in": ["red", "green"]}}) == ["a", "c", "d", "f"],
        "filter= is a Chroma where clause with Chroma's semantics ($ne matches a missing key, "
        "1 == 1.0, a bound on a str matches nothing)",
    )
    facts.check(
        "lc-chroma-filter-prefilter",
        [d.page_content for d in l2.similarity_search("q", k=2, filter={"color": "red"})]
        == ["a", "c"],
        "the filter applies before the top-k cut",
    )
    facts.check(
        "lc-chroma-where-document",
        texts(where_document={"$contains": "b"}) == ["b"],
        "where_document= is passed to Chroma",
    )
    bad = {
        "{}": raised(lambda: l2.similarity_search("q", filter={})),
        "two keys": raised(lambda: l2.similarity_search("q", filter={"color": "red", "n": 1})),
        "$and single": raised(lambda: l2.similarity_search("q", filter={"$and": [{"n": 1}]})),
    }
    facts.check(
        "lc-chroma-filter-errors",
        bad["{}"] == (ValueError, "Expected where to have exactly one operator, got {} in query.")
        and bad["two keys"][0] is ValueError
        and "at least two where expressions" in bad["$and single"][1],
        f"malformed filters raise Chroma's ValueError: {bad['{}'][1]}",
    )
    unknown = raised(lambda: l2.similarity_search("q", k=2, bogus=1))
    facts.check(
        "lc-chroma-unknown-kwargs",
        unknown[0] is TypeError and "bogus" in unknown[1],
        f"unknown keyword arguments reach the client and raise: {name(unknown[0])}",
    )
    shape = (
        "Validation error: name: Expected a name containing 3-512 characters from "
        "[a-zA-Z0-9._-], starting and ending with a character in [a-zA-Z0-9]. Got: "
    )
    want = {bad: shape + bad for bad in ("zz", "has space", "-lead", "ab.", "a" * 600)}
    want["a..b"] = (
        "Validation error: name: Expected a name that does not contains two consecutive "
        "periods (..). Got a..b"
    )
    want["127.0.0.1"] = (
        "Validation error: name: Expected a name that is not a valid ip address. Got 127.0.0.1"
    )
    got_names = {
        bad: raised(
            lambda bad=bad: Chroma(
                collection_name=bad, embedding_function=langchain_embeddings(), client=client
            )
        )
        for bad in want
    }
    facts.check(
        "lc-chroma-collection-name",
        got_names == {bad: (InvalidArgumentError, text) for bad, text in want.items()},
        f"chromadb refuses {len(want)} names with its messages: "
        + "; ".join(f"{bad[:12]!r}: {name(kind)}" for bad, (kind, _) in got_names.items()),
    )
    fetch = raised(lambda: l2.as_retriever(search_kwargs={"k": 2, "fetch_k": 10}).invoke("q"))
    facts.check(
        "lc-chroma-search-fetch-k",
        fetch == (TypeError, "Collection.query() got an unexpected keyword argument 'fetch_k'"),
        f"a similarity retriever's search_kwargs fetch_k reaches the client: {fetch}",
    )

    ids = store(fill=False)
    returned = ids.add_texts(["a", "b"], ids=[None, "x2"])
    facts.check(
        "lc-chroma-ids-generated",
        returned[1] == "x2" and str(uuid.UUID(returned[0])) == returned[0],
        f"ids are returned as given; a None id becomes str(uuid4()) with dashes: {returned}",
    )
    errors = {
        "lc-chroma-ids-type": (
            raised(lambda: ids.add_texts(["c"], ids=[123])),
            (ValueError, "Expected ID to be a str, got 123 in upsert."),
        ),
        "lc-chroma-ids-empty": (
            raised(lambda: ids.add_texts(["c"], ids=[""])),
            (InvalidArgumentError, "Empty ID, ID must have at least one character"),
        ),
        "lc-chroma-ids-duplicate": (
            raised(lambda: ids.add_texts(["c", "d"], ids=["k", "k"])),
            (DuplicateIDError, "Expected IDs to be unique, found duplicates of: k in upsert."),
        ),
        "lc-chroma-delete-empty": (
            raised(lambda: ids.delete([])),
            (ValueError, "Expected IDs to be a non-empty list, got 0 IDs in delete."),
        ),
        "lc-chroma-delete-none": (
            raised(lambda: ids.delete(None)),
            (
                ValueError,
                "At least one of ids, where, or where_document must be provided in delete.",
            ),
        ),
        "lc-chroma-get-by-ids-duplicate": (
            raised(lambda: ids.get_by_ids(["x2", "x2"])),
            (DuplicateIDError, "Expected IDs to be unique, found duplicates of: x2 in get."),
        ),
        "lc-chroma-get-by-ids-empty": (
            raised(lambda: ids.get_by_ids([])),
            (ValueError, "Expected IDs to be a non-empty list, got 0 IDs in get."),
        ),
        "lc-chroma-metadata-nested": (
            (raised(lambda: ids.add_texts(["c"], metadatas=[{"d": {"x": 1}}], ids=["n"]))[0], ""),
            (ValueError, ""),
        ),
    }
    for fact_id, (got, expected) in errors.items():
        facts.check(fact_id, got == expected, f"{name(got[0])}: {got[1]}")

    hint = (
        "\n\nTry filtering complex metadata from the document using "
        "langchain_community.vectorstores.utils.filter_complex_metadata."
    )
    refused_value = (
        "Expected metadata value to be a str, int, float, bool, SparseVector, list, or None, got "
    )
    import datetime

    from langchain_core.documents import Document

    hinted = store(fill=False)
    when = "2024-01-02 00:00:00"
    wrapped = [
        raised(lambda: hinted.add_texts(["c"], metadatas=[{"d": {"x": 1}}], ids=["n"])),
        raised(lambda: hinted.add_documents([Document("c", metadata={"t": (1, 2)})], ids=["n"])),
        raised(lambda: hinted.add_texts(["c"], metadatas=[{"w": datetime.datetime(2024, 1, 2)}])),
    ]
    hinted.add_texts(["c"], metadatas=[{"k": 1}], ids=["u"])
    plain = [
        raised(lambda: hinted.add_texts(["c"], metadatas=[{"k": [1, "a"]}], ids=["n"])),
        raised(lambda: hinted.add_texts(["c"], metadatas=[{1: 1}], ids=["n"])),
        raised(lambda: hinted.update_documents(["u"], [Document("c", metadata={"d": {"x": 1}})])),
    ]
    facts.check(
        "lc-chroma-metadata-hint",
        wrapped
        == [
            (ValueError, refused_value + "{'x': 1} which is a dict in upsert." + hint),
            (ValueError, refused_value + "(1, 2) which is a tuple in upsert." + hint),
            (ValueError, f"{refused_value}{when} which is a datetime in upsert.{hint}"),
        ]
        and plain
        == [
            (
                ValueError,
                (
                    "Expected metadata list value for key 'k' to contain only str, int, float, "
                    "or bool and all elements must be the same type, got [1, 'a'] in upsert."
                ),
            ),
            (TypeError, "Expected metadata key to be a str, got 1 which is a int in upsert."),
            (ValueError, refused_value + "{'x': 1} which is a dict in update."),
        ]
        and hinted.get()["ids"] == ["u"],
        f"add_texts/add_documents append the hint to chromadb's refused-value ValueError: "
        f"{[w[1][-60:] for w in wrapped]}; list, key and update_documents errors unchanged: "
        f"{plain}; nothing added",
    )
    numbers = store(fill=False)
    given = [
        {"k": math.nan, "j": 1},
        {"k": math.inf, "j": 1},
        {"k": -math.inf},
        {"k": 2**63, "s": 2**63 - 1},
        {"k": -(2**63) - 1},
        {"k": [2**63, 1]},
    ]
    numbers.add_texts(["c"] * 6, metadatas=given, ids=[f"v{n}" for n in range(6)])
    back = numbers.get(ids=[f"v{n}" for n in range(6)])["metadatas"]
    facts.check(
        "lc-chroma-metadata-numbers",
        back
        == [
            {"j": 1},
            {"j": 1},
            None,
            {"k": 9.223372036854776e18, "s": 2**63 - 1},
            {"k": -9.223372036854776e18},
            {"k": [9.223372036854776e18, 1.0]},
        ]
        and type(back[3]["s"]) is int,
        f"NaN/inf values drop their key (none left: None); ints beyond int64 come back as floats "
        f"(a list of ints all floats): {back}",
    )
    ordered = store(fill=False)
    ordered.add_texts(["d", "a", "c"], metadatas=[{"k": 1}] * 3, ids=["zz", "aa", "mm"])
    ordered.add_texts(["b#2"], metadatas=[{"k": 2}], ids=["aa"])
    got = ordered.get_by_ids(["mm", "zz", "aa", "missing"])
    facts.check(
        "lc-chroma-upsert-existing",
        [d.id for d in got] == ["zz", "aa", "mm"]
        and got[1].page_content == "b#2"
        and got[1].metadata == {"k": 2},
        "add_texts of an existing id replaces text and metadata and keeps the position",
    )
    facts.check(
        "lc-chroma-get-by-ids-order",
        [d.id for d in got] == ["zz", "aa", "mm"],
        "get_by_ids returns storage order, not request order, and skips missing ids",
    )
    deleted = ordered.delete(["zz", "nope"])
    facts.check(
        "lc-chroma-delete-returns",
        deleted is None and [d.id for d in ordered.get_by_ids(["zz", "aa"])] == ["aa"],
        "delete returns None; a missing id is ignored",
    )
    ordered.add_texts(["e"], ids=["plain"])
    crash = raised(lambda: ordered.get_by_ids(["plain"]))
    facts.check(
        "lc-chroma-get-by-ids-no-metadata",
        crash[0] is not None and crash[0].__name__ == "ValidationError",
        f"get_by_ids fails on a document stored without metadata: {name(crash[0])}",
    )
    ordered.delete(where={"k": 2})
    facts.check(
        "lc-chroma-delete-where",
        [d.id for d in ordered.get_by_ids(["aa", "mm"])] == ["mm"],
        "delete(where=...) is passed to Chroma",
    )

    picks = [
        d.page_content
        for d in l2.max_marginal_relevance_search("q", k=3, fetch_k=6, lambda_mult=0.0)
    ]
    facts.check(
        "lc-chroma-mmr-order",
        picks == ["a", "d", "f"],
        f"MMR (lambda 0 picks a, f, d) returns the picks in distance order: {picks}",
    )
    ties = store(fill=False)
    ties.add_texts(["tie3", "tie1", "tie4", "tie0", "tie2"], ids=["t3", "t1", "t4", "t0", "t2"])
    order = [d.id for d in ties.similarity_search("qtie", k=5)]
    facts.check(
        "lc-chroma-ties",
        order == ["t3", "t1", "t4", "t0", "t2"],
        f"tied documents come back in insertion order: {order}",
    )
    gone = store()
    gone.delete_collection()
    message = (
        "Chroma collection not initialized. Use `reset_collection` to re-create and initialize "
        "the collection. "
    )
    after = [
        raised(lambda: gone.similarity_search("q")),
        raised(lambda: gone.add_texts(["a"])),
        raised(gone.delete_collection),
        raised(gone.reset_collection),
    ]
    facts.check(
        "lc-chroma-delete-collection",
        all(r == (ValueError, message) for r in after),
        f"after delete_collection every call, a second delete and reset_collection raise: {after}",
    )
    updated = store()
    updated.update_documents(
        ["b", "nope"], [Document("b#2", metadata={"n": 9}), Document("c#x", metadata={"n": 1})]
    )
    refused = raised(lambda: updated.update_documents(["a"], [Document("a#2")]))
    row = updated.get(ids=["b", "nope"])
    facts.check(
        "lc-chroma-update",
        row["documents"] == ["b#2"]
        and row["metadatas"] == [{**META["b"], "n": 9}]
        and refused
        == (
            ValueError,
            "Expected metadata to be a non-empty dict, got 0 metadata attributes in update.",
        ),
        f"update_documents merges metadata, ignores missing ids, refuses empty metadata: "
        f"{row['documents']} {row['metadatas']} {refused}",
    )
    updated.update_documents(["c"], [Document("c", metadata={"n": None, "extra": 1})])
    cleared = updated.get(ids=["c"])["metadatas"]
    facts.check(
        "lc-chroma-update-none",
        cleared == [{"color": "red", "price": 3.5, "extra": 1}],
        f"a None metadata value in an update (or upsert) removes the key: {cleared}",
    )
    plain = store()
    vectors = plain.similarity_search_with_vectors("q", k=2)
    by_vector = plain.similarity_search_by_vector_with_relevance_scores([1.0, 0.0, 0.0, 0.0], k=2)
    facts.check(
        "lc-chroma-vectors",
        [d.page_content for d, _ in vectors] == ["a", "b"]
        and type(vectors[0][1]).__name__ == "ndarray"
        and str(vectors[0][1].dtype) == "float64"
        and [s for _, s in by_vector] == [0.0, 0.4000000059604645],
        "similarity_search_with_vectors returns float64 numpy vectors; "
        f"similarity_search_by_vector_with_relevance_scores reports distances: {by_vector}",
    )
    empty = store(fill=False)
    adds = [raised(lambda: empty.add_texts([])), raised(lambda: empty.add_documents([]))]
    facts.check(
        "lc-chroma-empty-add",
        adds
        == [
            (
                ValueError,
                "Expected Embeddings to be non-empty list or numpy array, got [] in upsert.",
            )
        ]
        * 2,
        f"add_texts([]) and add_documents([]) raise: {adds}",
    )
    short = store(fill=False)
    padded = raised(lambda: short.add_texts(["a", "b"], metadatas=[{"k": 1}], ids=["m1", "m2"]))
    rows = short.get(ids=["m1", "m2"])
    facts.check(
        "lc-chroma-metadatas-short",
        padded == (None, "['m1', 'm2']")
        and rows["ids"] == ["m1", "m2"]
        and rows["documents"] == ["a", "b"]
        and rows["metadatas"] == [{"k": 1}, None],
        f"2 texts, 1 metadata: {padded}; both stored, the second without metadata: "
        f"{rows['metadatas']}",
    )
    with_metadatas = raised(
        lambda: short.add_texts(["c", "d"], metadatas=[{"k": 1}, {"k": 2}], ids=["i1"])
    )
    without = raised(lambda: short.add_texts(["c", "d"], ids=["j1"]))
    kept = short.get()["ids"]
    facts.check(
        "lc-chroma-ids-short",
        with_metadatas == (IndexError, "list index out of range")
        and without
        == (
            ValueError,
            "Unequal lengths for fields: ids: 1, embeddings: 2, documents: 2 in upsert.",
        )
        and kept == ["m1", "m2"],
        f"2 texts, 1 id: with 2 metadatas {name(with_metadatas[0])}: {with_metadatas[1]}; "
        f"without metadatas {name(without[0])}: {without[1]}; nothing added: {kept}",
    )
    facts.done()


if __name__ == "__main__":
    main()
