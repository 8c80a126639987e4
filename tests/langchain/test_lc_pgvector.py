"""`PlaceboVectorStore(profile="pgvector")` as a drop-in for `langchain_postgres.PGVector`:
its constructor, its own methods and its collection's life, pinned to the facts
`lc-pgvector-constructor-options`, `-mmr-with-score`, `-add-embeddings`,
`-from-existing-index` and `-collection-life` (docs/integrations/new_integrations.md, measured
by tests/fidelity/probes/lc_pgvector.py with this geometry)."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from langchain_core.documents import Document
from lc_geometry import DOCS, TableEmbeddings

from placeborag_langchain import PlaceboVectorStore
from placeborag_langchain.real_client import NeedsRealClientError

URL = "postgresql+psycopg://user:pw@localhost:5432/db"


def pgvector(name: str = "life", **kwargs: object) -> PlaceboVectorStore:
    """A store built with PGVector's own constructor keywords, holding a..f."""
    store = PlaceboVectorStore(
        profile="pgvector",
        embeddings=TableEmbeddings(),
        connection=URL,
        collection_name=name,
        use_jsonb=True,
        pre_delete_collection=True,
        create_extension=True,
        engine_args={"pool_pre_ping": True},
        collection_metadata={"owner": "test"},
        **kwargs,
    )
    store.add_texts(DOCS, ids=[f"{name}-{t}" for t in DOCS])
    return store


def test_pgvector_constructor_keywords_are_taken() -> None:
    store = pgvector(async_mode=False, embedding_length=4, logger=None)
    assert [d.id for d in store.similarity_search("q", k=2)] == ["life-a", "life-b"]
    with pytest.raises(NotImplementedError, match=r"^use_jsonb=False is no longer supported\.$"):
        PlaceboVectorStore(profile="pgvector", connection=URL, use_jsonb=False)
    with pytest.raises(TypeError, match="async_mode must be a bool"):
        PlaceboVectorStore(profile="pgvector", async_mode="yes")


def test_unknown_constructor_keyword_names_the_profile() -> None:
    with pytest.raises(TypeError, match=r"under profile 'pgvector' it takes .*PGVector's: "):
        PlaceboVectorStore(profile="pgvector", bogus=1)
    with pytest.raises(TypeError, match=r"\(profile 'default'\)"):
        PlaceboVectorStore(bogus=1)


def test_from_texts_takes_pgvector_keywords() -> None:
    store = PlaceboVectorStore.from_texts(
        ["a", "b"], TableEmbeddings(), profile="pgvector", connection=URL, use_jsonb=True
    )
    assert [d.page_content for d in store.similarity_search("q", k=1)] == ["a"]


def test_mmr_with_score_matches_pgvector() -> None:
    store = pgvector()
    got = [(d.id, s) for d, s in store.max_marginal_relevance_search_with_score("q", 2, 6)]
    assert [i for i, _ in got] == ["life-a", "life-b"]
    # PostgreSQL's <=> on float4 vectors gives 0.20000003576278336 (within float-rounding)
    assert [s for _, s in got] == pytest.approx([0.0, 0.20000003576278336], abs=1e-6)
    pairs = asyncio.run(store.amax_marginal_relevance_search_with_score("q", k=2, fetch_k=6))
    assert [(d.id, s) for d, s in pairs] == got


def test_add_embeddings_in_pgvector_form() -> None:
    store = pgvector()
    added = store.add_embeddings(["zz"], [[0.0, 0.0, 0.0, 1.0]], [{"m": 1}], ["life-zz"])
    assert added == ["life-zz"]
    assert [(d.page_content, d.metadata) for d in store.get_by_ids(["life-zz"])] == [
        ("zz", {"m": 1})
    ]
    again = asyncio.run(store.aadd_embeddings(texts=["yy"], embeddings=[[0.0, 0.0, 1.0, 0.0]]))
    assert len(again) == 1
    with pytest.raises(ValueError, match="2 texts and 1 embeddings"):
        store.add_embeddings(["x", "y"], [[0.0, 0.0, 1.0, 0.0]])
    # FAISS's form still works
    assert store.add_embeddings([("ww", [0.0, 1.0, 0.0, 0.0])], None, ["life-ww"]) == ["life-ww"]


def test_from_existing_index_finds_the_live_collection() -> None:
    store = pgvector("existing-index")
    found = PlaceboVectorStore.from_existing_index(
        TableEmbeddings(), collection_name="existing-index", connection=URL, profile="pgvector"
    )
    assert [d.id for d in found.similarity_search("q", k=2)] == [
        "existing-index-a",
        "existing-index-b",
    ]
    found.add_texts(["c"], ids=["shared"])
    assert [d.id for d in store.get_by_ids(["shared"])] == ["shared"]
    missing = PlaceboVectorStore.from_existing_index(
        TableEmbeddings(), collection_name="no-such-index", profile="pgvector"
    )
    assert missing.similarity_search("q", k=2) == []
    emptied = PlaceboVectorStore.from_existing_index(
        TableEmbeddings(),
        collection_name="existing-index",
        pre_delete_collection=True,
        profile="pgvector",
    )
    assert emptied.similarity_search("q", k=2) == []
    assert store.similarity_search("q", k=2) == []


def test_collection_life_follows_pgvector() -> None:
    store = pgvector()
    store.delete_collection()
    assert store.delete_collection() is None  # a second delete only logs in PGVector
    for call in (
        lambda: store.similarity_search("q", k=1),
        lambda: store.add_texts(["a"], ids=["life-a"]),
    ):
        with pytest.raises(ValueError, match=r"^Collection not found$"):
            call()
    assert store.create_collection() is None
    assert store.similarity_search("q", k=1) == []
    store.create_collection()  # get-or-create: nothing changes
    store.create_tables_if_not_exists()
    store.create_vector_extension()
    with pytest.raises(NeedsRealClientError, match="drop_tables"):
        store.drop_tables()
    with pytest.raises(NeedsRealClientError, match="get_collection"):
        store.get_collection(None)


def test_chroma_still_raises_on_a_second_delete_collection() -> None:
    store = PlaceboVectorStore(TableEmbeddings(), profile="chroma")
    store.delete_collection()
    with pytest.raises(ValueError, match="Chroma collection not initialized"):
        store.delete_collection()


def test_from_documents_ignores_document_ids_as_pgvector_does() -> None:
    # lc-pgvector-from-documents-ids (FINDINGS LC4): langchain-postgres passes only ids= on.
    docs = [Document(page_content=t, id=f"doc-{t}") for t in DOCS[:2]]
    made = PlaceboVectorStore.from_documents(docs, TableEmbeddings(), profile="pgvector")
    assert made.get_by_ids(["doc-a", "doc-b"]) == []
    assert all(uuid.UUID(i) for i in made.core_store.ids())
    given = PlaceboVectorStore.from_documents(
        docs, TableEmbeddings(), profile="pgvector", ids=["x", "y"]
    )
    assert sorted(given.core_store.ids()) == ["x", "y"]
    later = asyncio.run(
        PlaceboVectorStore.afrom_documents(docs, TableEmbeddings(), profile="pgvector")
    )
    assert later.get_by_ids(["doc-a"]) == []


@pytest.mark.parametrize("profile", ["default", "chroma", "faiss"])
def test_from_documents_keeps_document_ids_under_other_profiles(profile: str) -> None:
    docs = [Document(page_content=t, id=f"doc-{t}") for t in DOCS[:2]]
    made = PlaceboVectorStore.from_documents(docs, TableEmbeddings(), profile=profile)
    assert [d.id for d in made.get_by_ids(["doc-a", "doc-b"])] == ["doc-a", "doc-b"]
    later = asyncio.run(
        PlaceboVectorStore.afrom_documents(docs, TableEmbeddings(), profile=profile)
    )
    assert sorted(later.core_store.ids()) == ["doc-a", "doc-b"]
