"""Probe: Chroma's write semantics, id rules, k rules and dimension/NaN errors.

Covers ``chroma-write-*``, ``chroma-ids-*``, ``chroma-k-*`` and ``chroma-dim-*`` of
docs/engines/chroma.md: add of an existing id is silently ignored, upsert merges metadata,
update with None removes a key, missing ids are no-ops, deletes are visible at once, the
messages of bad ids, bad k, wrong widths and NaN components. Run:
python tests/fidelity/probes/chroma_writes.py
"""

from __future__ import annotations

import math

from _probe import Facts, chroma_client, name, raised


def main() -> None:
    facts = Facts("Chroma writes and errors", "chromadb")
    from chromadb.errors import DuplicateIDError, InvalidArgumentError

    client = chroma_client()
    made = client.create_collection("writes", embedding_function=None)
    made.add(ids=["a"], embeddings=[[1.0, 0.0]], metadatas=[{"k": 1}], documents=["first"])
    result = raised(
        lambda: made.add(
            ids=["a"], embeddings=[[0.0, 1.0]], metadatas=[{"k": 2}], documents=["second"]
        )
    )
    kept = made.get(ids=["a"], include=["embeddings", "metadatas", "documents"])
    facts.check(
        "chroma-write-add-existing-ignored",
        result[0] is None
        and kept["documents"] == ["first"]
        and kept["metadatas"] == [{"k": 1}]
        and list(kept["embeddings"][0]) == [1.0, 0.0],
        "add() of an existing id raises nothing and changes nothing (first write wins)",
    )
    made.upsert(ids=["a"], embeddings=[[1.0, 0.0]], metadatas=[{"b": 2}])
    merged = made.get(ids=["a"], include=["metadatas", "documents"])
    facts.check(
        "chroma-write-upsert-merges",
        merged["metadatas"] == [{"k": 1, "b": 2}] and merged["documents"] == ["first"],
        f"upsert merges metadata and, without documents, keeps the document: {merged['metadatas']}",
    )
    made.update(ids=["a"], metadatas=[{"k": None}])
    facts.check(
        "chroma-write-update-none-removes",
        made.get(ids=["a"])["metadatas"] == [{"b": 2}],
        "update() with a None value removes that key",
    )
    made.upsert(ids=["a"], embeddings=[[1.0, 0.0]], metadatas=[{"b": None, "c": 3}])
    made.upsert(ids=["n"], embeddings=[[0.5, 0.5]], metadatas=[{"y": None, "w": 1}])
    upserted = made.get(ids=["a", "n"])["metadatas"]
    added = raised(lambda: made.add(ids=["m"], embeddings=[[0.5, 0.5]], metadatas=[{"y": None}]))
    facts.check(
        "chroma-write-none-removes-key",
        upserted == [{"c": 3}, {"w": 1}] and added[0] is TypeError,
        "upsert() with a None value removes that key from an existing record and stores nothing "
        f"for it in a new one ({upserted}); add() refuses None values: {added}",
    )
    made.delete(ids=["n"])
    made.update(ids=["a"], metadatas=[{"b": 2, "c": None}])
    missing = [
        raised(lambda: made.update(ids=["zz"], metadatas=[{"x": 1}])),
        raised(lambda: made.delete(ids=["zz"])),
    ]
    facts.check(
        "chroma-write-missing-noop",
        all(kind is None for kind, _ in missing) and made.count() == 1,
        "update() and delete() of a missing id do nothing and raise nothing",
    )
    made.add(ids=["b", "c"], embeddings=[[0.9, 0.1], [0.8, 0.2]])
    made.delete(ids=["b"])
    seen = made.query(query_embeddings=[[0.9, 0.1]], n_results=3)["ids"][0]
    facts.check(
        "chroma-write-visible",
        seen == ["c", "a"] and made.get(ids=["b"])["ids"] == [],
        f"writes and deletes are visible to the next query and get(): {seen}",
    )
    errors = {
        "chroma-write-delete-nothing": (
            raised(made.delete),
            (
                ValueError,
                "At least one of ids, where, or where_document must be provided in delete.",
            ),
        ),
        "chroma-write-delete-empty": (
            raised(lambda: made.delete(ids=[])),
            (ValueError, "Expected IDs to be a non-empty list, got 0 IDs in delete."),
        ),
        "chroma-write-duplicate-ids": (
            raised(lambda: made.add(ids=["q", "q"], embeddings=[[1.0, 0.0]] * 2)),
            (DuplicateIDError, "Expected IDs to be unique, found duplicates of: q in add."),
        ),
        "chroma-write-duplicate-ids-upsert": (
            raised(lambda: made.upsert(ids=["q", "q"], embeddings=[[1.0, 0.0]] * 2)),
            (DuplicateIDError, "Expected IDs to be unique, found duplicates of: q in upsert."),
        ),
        "chroma-ids-int": (
            raised(lambda: made.add(ids=[1], embeddings=[[1.0, 0.0]])),
            (ValueError, "Expected ID to be a str, got 1 in add."),
        ),
        "chroma-ids-none": (
            raised(lambda: made.add(ids=[None], embeddings=[[1.0, 0.0]])),
            (ValueError, "Expected ID to be a str, got None in add."),
        ),
        "chroma-ids-empty": (
            raised(lambda: made.add(ids=[""], embeddings=[[1.0, 0.0]])),
            (InvalidArgumentError, "Empty ID, ID must have at least one character"),
        ),
        "chroma-k-zero": (
            raised(lambda: made.query(query_embeddings=[[1.0, 0.0]], n_results=0)),
            (TypeError, "Number of requested results 0, cannot be negative, or zero. in query."),
        ),
        "chroma-k-negative": (
            raised(lambda: made.query(query_embeddings=[[1.0, 0.0]], n_results=-1)),
            (TypeError, "Number of requested results -1, cannot be negative, or zero. in query."),
        ),
        "chroma-k-not-int": (
            raised(lambda: made.query(query_embeddings=[[1.0, 0.0]], n_results=1.5)),
            (ValueError, "Expected requested number of results to be a int, got 1.5 in query."),
        ),
        "chroma-dim-write": (
            raised(lambda: made.add(ids=["w"], embeddings=[[1.0, 0.0, 0.0]])),
            (InvalidArgumentError, "Collection expecting embedding with dimension of 2, got 3"),
        ),
        "chroma-dim-query": (
            raised(lambda: made.query(query_embeddings=[[1.0, 0.0, 0.0]], where={"x": 1})),
            (InvalidArgumentError, "Collection expecting embedding with dimension of 2, got 3"),
        ),
        "chroma-dim-mixed-batch": (
            raised(lambda: made.add(ids=["m1", "m2"], embeddings=[[1.0, 0.0], [1.0]])),
            (InvalidArgumentError, "Inconsistent dimensions in provided embeddings"),
        ),
        "chroma-dim-nan": (
            raised(lambda: made.add(ids=["n"], embeddings=[[math.nan, 0.0]])),
            (
                InvalidArgumentError,
                "Validation error: embeddings: Embeddings must not contain NaN or Infinity values",
            ),
        ),
    }
    for fact_id, (got, expected) in errors.items():
        facts.check(
            fact_id,
            got == expected,
            f"{name(got[0])}: {got[1]}",
        )
    facts.check(
        "chroma-ids-any-str",
        raised(lambda: made.add(ids=[" é x "], embeddings=[[1.0, 0.0]]))[0] is None
        and made.get(ids=[" é x "])["ids"] == [" é x "],
        "any non-empty str is an id, whitespace and unicode kept verbatim",
    )
    facts.check(
        "chroma-k-above-count",
        len(made.query(query_embeddings=[[1.0, 0.0]], n_results=50)["ids"][0]) == made.count(),
        "n_results above the count returns every record, silently",
    )

    empty = client.create_collection("writes-empty", embedding_function=None)
    on_empty = raised(lambda: empty.query(query_embeddings=[[1.0, 2.0, 3.0]], n_results=3))
    empty.add(ids=["x"], embeddings=[[1.0, 0.0, 0.0]])
    empty.delete(ids=["x"])
    emptied = raised(lambda: empty.add(ids=["y"], embeddings=[[1.0, 0.0]]))
    facts.check(
        "chroma-dim-empty",
        on_empty[0] is None and "'ids': [[]]" in on_empty[1],
        "a query on a never-filled collection returns [[]] for any width",
    )
    facts.check(
        "chroma-dim-kept-when-emptied",
        emptied[0] is InvalidArgumentError and "dimension of 3, got 2" in emptied[1],
        f"a collection emptied by delete keeps its width: {emptied[1]}",
    )
    bad_metadata = {
        "nested dict": {"d": {"x": 1}},
        "int key": {1: "x"},
        "empty list": {"tags": []},
        "mixed list": {"tags": [1, "a"]},
        "list of dicts": {"tags": [{"x": 1}]},
        "reserved key": {"chroma:document": "x"},
    }
    refused = {
        label: raised(
            lambda meta=meta: made.upsert(ids=["m"], embeddings=[[1.0, 0.0]], metadatas=[meta])
        )
        for label, meta in bad_metadata.items()
    }
    seen = {label: (name(kind), text) for label, (kind, text) in refused.items()}
    facts.check(
        "chroma-metadata-values",
        seen
        == {
            "nested dict": (
                "ValueError",
                (
                    "Expected metadata value to be a str, int, float, bool, SparseVector, list, or "
                    "None, got {'x': 1} which is a dict in upsert."
                ),
            ),
            "int key": (
                "TypeError",
                "Expected metadata key to be a str, got 1 which is a int in upsert.",
            ),
            "empty list": (
                "ValueError",
                "Expected metadata list value for key 'tags' to be non-empty in upsert.",
            ),
            "mixed list": (
                "ValueError",
                (
                    "Expected metadata list value for key 'tags' to contain only str, int, "
                    "float, or bool and all elements must be the same type, got [1, 'a'] in "
                    "upsert."
                ),
            ),
            "list of dicts": (
                "ValueError",
                (
                    "Expected metadata list value for key 'tags' to contain only str, int, "
                    "float, or bool and all elements must be the same type, got [{'x': 1}] in "
                    "upsert."
                ),
            ),
            "reserved key": (
                "ValueError",
                "Expected metadata to not contain the reserved key chroma:document in upsert.",
            ),
        }
        and made.get(ids=["m"])["ids"] == [],
        f"metadata values and keys chromadb's validate_metadata refuses, nothing written: {seen}",
    )
    facts.check(
        "chroma-filter-no-match",
        made.query(query_embeddings=[[1.0, 0.0]], n_results=3, where={"x": 1})["ids"] == [[]],
        "a filter that matches nothing gives [[]], no error",
    )
    facts.done()


if __name__ == "__main__":
    main()
