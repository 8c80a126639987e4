"""PlaceboEmbedding: a BaseEmbedding whose vectors are the FakeEmbedder's."""

from __future__ import annotations

import pytest
from llama_index.core import Settings
from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import ValidationError

from placeborag_core import FakeEmbedder
from placeborag_llamaindex import PlaceboEmbedding

TEXTS = ["refund policy", "money back", "delivery times", "", "Ünïcödé text"]


def test_vectors_are_the_core_embedders():
    embed = PlaceboEmbedding(dimensions=64, model_name="m")
    core = FakeEmbedder(dimensions=64, model_name="m")
    assert embed.get_text_embedding("refund policy") == core.embed("refund policy")
    assert embed.get_query_embedding("refund policy") == core.embed("refund policy")
    assert embed.get_text_embedding_batch(TEXTS) == [core.embed(t) for t in TEXTS]


def test_options_reach_the_core_embedder():
    embed = PlaceboEmbedding(
        model_name="space",
        dimensions=32,
        clusters={"refund": ["refund policy", "money back"]},
        cluster_match="substring",
        cluster_spread=0.1,
    )
    core = embed.core_embedder
    assert (core.model_name, core.dimensions, core.cluster_match, core.cluster_spread) == (
        "space",
        32,
        "substring",
        0.1,
    )
    assert core.cluster_of("see our refund policy here") == "refund"


def test_bad_options_raise_at_construction():
    with pytest.raises(ValueError, match="dimensions"):
        PlaceboEmbedding(dimensions=0)
    with pytest.raises(ValidationError):
        PlaceboEmbedding(cluster_match="fuzzy")
    with pytest.raises(ValueError, match="more than one cluster"):
        PlaceboEmbedding(clusters={"a": ["same"], "b": ["same"]})


def test_batch_path_is_vectorised_not_per_text(monkeypatch):
    embed = PlaceboEmbedding(embed_batch_size=4)
    calls = []
    original = FakeEmbedder.embed_lists

    def spy(self, texts):
        calls.append(len(texts))
        return original(self, texts)

    monkeypatch.setattr(FakeEmbedder, "embed_lists", spy)
    monkeypatch.setattr(FakeEmbedder, "embed", lambda self, text: pytest.fail("per-text path used"))
    result = embed.get_text_embedding_batch([f"text {i}" for i in range(10)])
    assert len(result) == 10
    assert calls == [4, 4, 2]


def test_default_batch_size_is_256_and_the_largest_llamaindex_allows_is_accepted():
    assert PlaceboEmbedding().embed_batch_size == 256
    assert PlaceboEmbedding(embed_batch_size=2048).embed_batch_size == 2048


async def test_async_methods_match_sync():
    embed = PlaceboEmbedding(dimensions=16)
    assert await embed.aget_query_embedding("q") == embed.get_query_embedding("q")
    assert await embed.aget_text_embedding("t") == embed.get_text_embedding("t")
    assert await embed.aget_text_embedding_batch(TEXTS) == embed.get_text_embedding_batch(TEXTS)


def test_no_vector_is_zero_and_every_vector_is_a_list_of_floats():
    for vector in PlaceboEmbedding(dimensions=16).get_text_embedding_batch(TEXTS):
        assert isinstance(vector, list)
        assert all(type(x) is float for x in vector)
        assert sum(x * x for x in vector) == pytest.approx(1.0)


def test_serialisation_round_trip_keeps_fields_and_rebuilds_the_embedder():
    embed = PlaceboEmbedding(dimensions=16, clusters={"c": ["x", "y"]})
    data = embed.to_dict()
    assert data["class_name"] == "PlaceboEmbedding"
    assert (data["dimensions"], data["clusters"]) == (16, {"c": ["x", "y"]})
    again = PlaceboEmbedding.from_dict(data)
    assert again.get_text_embedding("x") == embed.get_text_embedding("x")
    assert again.core_embedder is not embed.core_embedder


def test_is_a_base_embedding_usable_as_settings_embed_model():
    embed = PlaceboEmbedding()
    assert isinstance(embed, BaseEmbedding)
    Settings.embed_model = embed
    assert Settings.embed_model is embed


def test_similarity_reflects_shared_words():
    embed = PlaceboEmbedding()
    query = embed.get_query_embedding("refund policy")
    near = embed.get_text_embedding("our refund policy allows returns")
    far = embed.get_text_embedding("delivery times to remote islands")
    assert embed.similarity(query, near) > embed.similarity(query, far)


def test_embedder_options_are_frozen_but_llamaindex_can_set_the_callback_manager():
    from llama_index.core.callbacks import CallbackManager

    embed = PlaceboEmbedding()
    with pytest.raises(ValidationError, match="frozen"):
        embed.dimensions = 8
    embed.callback_manager = CallbackManager([])
    embed.embed_batch_size = 16
    assert embed.get_text_embedding_batch(["a", "b"]) == [embed.get_text_embedding(t) for t in "ab"]
