"""Probe: list-valued metadata of a deleted Chroma collection reappears in a later one.

Finding (this machine, chromadb 1.5.9, EphemeralClient): after ``delete_collection``, the list
values of its records come back on the records of a *new* collection that sit at the same
internal offset, whatever their ids, and ``$contains`` filters match them. Scalar values do not
leak. The fidelity harness therefore never deletes a Chroma collection. Run with
``python tests/fidelity/probes/chroma_deleted_collection_metadata.py``.
"""

from __future__ import annotations

import os

os.environ["ANONYMIZED_TELEMETRY"] = "False"

import chromadb
from chromadb.config import Settings


def main() -> None:
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
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
    print("stored  :", [{"color": "blue"}, {"color": "red"}])
    print("get()   :", new.get(include=["metadatas"])["metadatas"])
    print("$contains y ->", new.get(where={"tags": {"$contains": "y"}})["ids"], "(expected [])")


if __name__ == "__main__":
    main()
