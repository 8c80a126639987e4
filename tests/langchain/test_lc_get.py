"""PlaceboVectorStore.get: langchain_chroma.Chroma's raw read, under every profile.

test_lc_fidelity.py compares the chroma profile with the live langchain-chroma call by call.
"""

from __future__ import annotations

import numpy as np
import pytest
from lc_geometry import DOCS, META, TableEmbeddings

from placeborag_langchain import PlaceboVectorStore

IDS = [f"id_{t}" for t in DOCS]


def build(profile: str = "default") -> PlaceboVectorStore:
    store = PlaceboVectorStore(TableEmbeddings(), profile=profile)
    store.add_texts(DOCS, [META[t] for t in DOCS], ids=IDS)
    store.add_texts(["tie-g"], [{}], ids=["id_g"])
    return store


def test_default_read_is_ids_documents_and_metadata_in_storage_order() -> None:
    got = build().get()
    assert list(got) == ["ids", "embeddings", "documents", "uris", "included", "data", "metadatas"]
    assert got["ids"] == [*IDS, "id_g"]
    assert got["documents"] == [*DOCS, "tie-g"]
    assert got["metadatas"] == [*(META[t] for t in DOCS), None]
    assert got["included"] == ["metadatas", "documents"]
    assert got["embeddings"] is None


def test_filters_paging_and_embeddings() -> None:
    store = build()
    got = store.get(
        where={"color": "red"},
        where_document={"$not_contains": "c"},
        include=["embeddings"],
        offset=1,
    )
    assert got["ids"] == ["id_f"]
    assert got["documents"] is None
    assert isinstance(got["embeddings"], np.ndarray)
    assert got["embeddings"].tolist() == [TableEmbeddings().embed_query("f")]
    assert store.get(ids="id_b", limit=5)["ids"] == ["id_b"]
    assert store.get(ids=["missing"], include=["embeddings"])["embeddings"].shape == (0,)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        ({"limit": -1}, ValueError, "limit must be >= 0, got -1"),
        ({"offset": "2"}, TypeError, "offset must be an int or None"),
        ({"include": ["distances"]}, ValueError, "Include item cannot be one of distances"),
        ({"ids": ("id_a",)}, ValueError, "Expected ID to be a str, got ('id_a',) in get."),
        ({"ids": [1]}, ValueError, "Expected ID to be a str, got 1 in get."),
        ({"where_document": {"$contains": 1}}, ValueError, "to be a str, got 1"),
    ],
)
def test_bad_arguments_are_refused_before_reading(
    call: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        build().get(**call)  # type: ignore[arg-type]
