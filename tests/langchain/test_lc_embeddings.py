"""PlaceboEmbeddings: LangChain's Embeddings interface over the core FakeEmbedder."""

from __future__ import annotations

import math

import pytest

from placeborag_core import FakeEmbedder
from placeborag_langchain import PlaceboEmbeddings


def test_vectors_are_the_core_embedders_as_python_floats() -> None:
    emb = PlaceboEmbeddings(model_name="m", dimensions=48)
    core = FakeEmbedder(model_name="m", dimensions=48)
    docs = emb.embed_documents(["refund policy", "delivery times"])
    assert docs == [core.embed("refund policy"), core.embed("delivery times")]
    assert all(type(x) is float for row in docs for x in row)
    assert emb.embed_query("refund policy") == docs[0]
    assert math.isclose(math.fsum(x * x for x in docs[1]), 1.0, rel_tol=1e-9)


def test_constructor_options_reach_the_core_embedder() -> None:
    emb = PlaceboEmbeddings(
        model_name="x", dimensions=16, clusters={"refund": ["money back", "refund policy"]}
    )
    assert emb.core_embedder.model_name == "x"
    assert emb.dimensions == 16
    assert emb.core_embedder.cluster_of("money back") == "refund"
    assert emb.embed_query("a") != PlaceboEmbeddings(model_name="y", dimensions=16).embed_query("a")


def test_wraps_a_given_embedder_and_rejects_anything_else() -> None:
    core = FakeEmbedder(dimensions=8)
    assert PlaceboEmbeddings(embedder=core).core_embedder is core
    with pytest.raises(TypeError, match="FakeEmbedder"):
        PlaceboEmbeddings(embedder="not an embedder")  # type: ignore[arg-type]


def test_bad_options_fail_with_the_core_message() -> None:
    with pytest.raises(ValueError, match="dimensions"):
        PlaceboEmbeddings(dimensions=0)


def test_a_bare_string_is_not_a_batch() -> None:
    with pytest.raises(TypeError, match="single str"):
        PlaceboEmbeddings().embed_documents("oops")  # type: ignore[arg-type]


def test_empty_batch() -> None:
    assert PlaceboEmbeddings().embed_documents([]) == []


async def test_async_twins_give_the_same_vectors() -> None:
    emb = PlaceboEmbeddings(dimensions=24)
    assert await emb.aembed_documents(["a b", "c"]) == emb.embed_documents(["a b", "c"])
    assert await emb.aembed_query("a b") == emb.embed_query("a b")


def test_repr_names_the_space() -> None:
    assert repr(PlaceboEmbeddings(model_name="m", dimensions=8)) == (
        "PlaceboEmbeddings(model_name='m', dimensions=8)"
    )


def test_embed_documents_is_one_batch_call(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    original = FakeEmbedder.embed_lists

    def spy(self: FakeEmbedder, texts: list[str]) -> list[list[float]]:
        calls.append(len(texts))
        return original(self, texts)

    monkeypatch.setattr(FakeEmbedder, "embed_lists", spy)
    monkeypatch.setattr(FakeEmbedder, "embed", lambda self, text: pytest.fail("per-text path"))
    assert len(PlaceboEmbeddings().embed_documents([f"text {i}" for i in range(7)])) == 7
    assert calls == [7]
