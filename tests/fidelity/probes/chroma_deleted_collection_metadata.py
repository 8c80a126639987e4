"""Probe: list-valued metadata of a deleted Chroma collection reappears in a later one.

Finding (this machine, chromadb 1.5.9, EphemeralClient): after ``delete_collection``, the list
values of its records come back on the records of a *new* collection that sit at the same
internal offset, whatever their ids, and ``$contains`` filters match them. Scalar values do not
leak. The fidelity harness therefore never deletes a Chroma collection. The probe asserts that
the leak is still there (fact ``chroma-deleted-collection-leak`` of docs/engines/chroma.md):
when it fails, Chroma fixed it and the harness may delete collections again. Run with
``python tests/fidelity/probes/chroma_deleted_collection_metadata.py``.
"""

from __future__ import annotations

from _probe import Facts, chroma_client


def main() -> None:
    facts = Facts("Chroma deleted-collection metadata", "chromadb")
    client = chroma_client()
    old = client.create_collection("old-one", embedding_function=None)
    old.add(
        ids=["p", "q"],
        embeddings=[[1.0, 0.0], [0.0, 1.0]],
        metadatas=[{"tags": ["x"], "k": 1}, {"tags": ["y"], "k": 2}],
    )
    client.delete_collection("old-one")
    new = client.create_collection("new-one", embedding_function=None)
    new.add(
        ids=["a", "b"],
        embeddings=[[1.0, 0.0], [0.0, 1.0]],
        metadatas=[{"color": "blue"}, {"color": "red"}],
    )
    listed = new.get(include=["metadatas"])["metadatas"]
    found = new.get(where={"tags": {"$contains": "y"}})["ids"]
    print("stored  :", [{"color": "blue"}, {"color": "red"}])
    print("get()   :", listed)
    print("$contains y ->", found, "(a correct engine: [])")
    facts.check(
        "chroma-deleted-collection-leak",
        listed == [{"color": "blue", "tags": ["x"]}, {"color": "red", "tags": ["y"]}]
        and found == ["b"],
        "the deleted collection's list values show up on the new records, and filters see them",
    )
    facts.done()


if __name__ == "__main__":
    main()
