"""explain(): the cosine of two texts, split into what each shared feature (or the cluster) adds."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core import Explanation, FakeEmbedder, cosine_similarity, explain

QUERY = "refund policy"
RELATED = "what is your refund policy for orders"
CLUSTERS = {"refund": ["refund policy", "money back"], "shipping": ["delivery times"]}


def test_cosine_is_the_embedders_cosine() -> None:
    embedder = FakeEmbedder()
    explanation = explain(QUERY, RELATED, embedder)
    expected = cosine_similarity(embedder.embed(QUERY), embedder.embed(RELATED))
    assert explanation.cosine == pytest.approx(expected, abs=1e-12)
    assert explanation.relation == "features"


def test_default_embedder_is_a_default_fake_embedder() -> None:
    default = FakeEmbedder()
    expected = cosine_similarity(default.embed(QUERY), default.embed(RELATED))
    assert explain(QUERY, RELATED).cosine == pytest.approx(expected, abs=1e-12)


def test_the_given_embedder_is_used() -> None:
    small = FakeEmbedder(dimensions=16, model_name="other")
    expected = cosine_similarity(small.embed(QUERY), small.embed(RELATED))
    assert explain(QUERY, RELATED, small).cosine == pytest.approx(expected, abs=1e-12)
    assert explain(QUERY, RELATED, small).cosine != pytest.approx(explain(QUERY, RELATED).cosine)


def test_shared_words_are_exactly_the_common_tokens() -> None:
    explanation = explain(QUERY, RELATED)
    assert sorted(f.name for f in explanation.words) == ["policy", "refund"]
    assert all(f.kind == "word" for f in explanation.words)


def test_shared_ngrams_come_from_common_character_sequences() -> None:
    names = {f.name for f in explain("refunds", "refunded").ngrams}
    assert "ref" in names
    assert "fund" in names
    assert all(f.kind == "ngram" for f in explain("refunds", "refunded").ngrams)


def test_contributions_and_collisions_add_up_to_the_cosine() -> None:
    explanation = explain(QUERY, RELATED)
    total = sum(f.contribution for f in explanation.shared) + explanation.collision
    assert total == pytest.approx(explanation.cosine, abs=1e-12)
    assert explanation.shared == tuple(sorted(explanation.shared, key=lambda f: -f.contribution))


def test_share_is_the_fraction_of_the_cosine() -> None:
    explanation = explain(QUERY, RELATED)
    for feature in explanation.shared:
        assert feature.share == pytest.approx(feature.contribution / explanation.cosine)


def test_texts_without_common_features_owe_everything_to_collisions() -> None:
    explanation = explain("xyz", "abc")
    assert explanation.shared == ()
    assert explanation.collision == pytest.approx(explanation.cosine, abs=1e-12)
    assert "no shared words or n-grams" in str(explanation)


def test_same_cluster_splits_into_anchor_and_jitter() -> None:
    embedder = FakeEmbedder(clusters=CLUSTERS)
    explanation = explain("refund policy", "money back", embedder)
    anchor = embedder.cluster_anchor("refund")
    expected_anchor = cosine_similarity(anchor, embedder.embed("refund policy")) * (
        cosine_similarity(anchor, embedder.embed("money back"))
    )
    assert explanation.relation == "same_cluster"
    assert explanation.cluster == "refund"
    assert explanation.shared == ()
    assert explanation.anchor_part == pytest.approx(expected_anchor, abs=1e-12)
    assert explanation.anchor_part + explanation.jitter_part == pytest.approx(explanation.cosine)
    assert "both are members of cluster 'refund'" in str(explanation)


def test_different_clusters_are_reported_with_both_names() -> None:
    explanation = explain("refund policy", "delivery times", FakeEmbedder(clusters=CLUSTERS))
    assert explanation.relation == "different_clusters"
    assert explanation.cluster is None
    assert (explanation.query_cluster, explanation.text_cluster) == ("refund", "shipping")
    assert explanation.jitter_part == explanation.cosine
    assert "different clusters ('refund' and 'shipping')" in str(explanation)


def test_one_clustered_text_shares_nothing_with_a_hashed_one() -> None:
    embedder = FakeEmbedder(clusters=CLUSTERS)
    explanation = explain("refund policy exceptions", "refund policy", embedder)
    assert explanation.relation == "one_clustered"
    assert (explanation.query_cluster, explanation.text_cluster) == (None, "refund")
    assert explanation.shared == ()
    assert "only the text is a member of a cluster ('refund')" in str(explanation)


def test_str_lists_words_and_summarises_the_tail_of_ngrams() -> None:
    explanation = explain(QUERY, RELATED)
    text = str(explanation)
    assert text.splitlines()[0] == f"cosine({QUERY!r}, {RELATED!r}) = {explanation.cosine:.4f}"
    assert "word   'refund'" in text
    assert "word   'policy'" in text
    hidden = len(explanation.ngrams) - 6
    assert f"... {hidden} more shared n-grams" in text
    assert "hash collisions (different features, same bucket)" in text


def test_str_shortens_long_texts() -> None:
    long_text = "refund " * 40
    header = str(explain(QUERY, long_text)).splitlines()[0]
    assert "…" in header
    assert len(header) < 150


def test_empty_texts_share_the_fallback_vector() -> None:
    explanation = explain("", "")
    assert explanation.cosine == pytest.approx(1.0)
    assert [f.kind for f in explanation.shared] == ["fallback"]
    assert math.isclose(explanation.shared[0].contribution, 1.0)


@pytest.mark.parametrize(("query", "text"), [(b"refund", "refund"), ("refund", None)])
def test_non_str_input_is_a_type_error(query: object, text: object) -> None:
    message = r"explain\(\) needs str (query|text), got (bytes|NoneType)"
    with pytest.raises(TypeError, match=message):
        explain(query, text)  # type: ignore[arg-type]


def test_explanation_is_an_immutable_value() -> None:
    explanation = explain(QUERY, RELATED)
    assert isinstance(explanation, Explanation)
    assert explanation == explain(QUERY, RELATED)
    with pytest.raises(AttributeError):
        explanation.cosine = 0.0  # type: ignore[misc]


WORDS = ["refund", "policy", "returns", "shipping", "money", "back", "szállítási", "idő", "30"]


@settings(max_examples=40, derandomize=True, deadline=None)
@given(
    st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join),
    st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join),
)
def test_decomposition_is_exact_and_names_only_common_features(query: str, text: str) -> None:
    embedder = FakeEmbedder(dimensions=64)
    explanation = explain(query, text, embedder)
    expected = cosine_similarity(embedder.embed(query), embedder.embed(text))
    assert explanation.cosine == pytest.approx(expected, abs=1e-12)
    total = sum(f.contribution for f in explanation.shared) + explanation.collision
    assert total == pytest.approx(explanation.cosine, abs=1e-12)
    query_features = {(f.kind, f.name) for f in embedder.features(query)}
    text_features = {(f.kind, f.name) for f in embedder.features(text)}
    assert {(f.kind, f.name) for f in explanation.shared} == query_features & text_features
    assert all(f.contribution > 0 for f in explanation.shared)


def test_explain_refuses_an_embedder_it_cannot_read() -> None:
    with pytest.raises(
        TypeError, match=r"explain\(\) needs a placeborag FakeEmbedder .*got object"
    ):
        explain("refund policy", "refund", embedder=object())  # type: ignore[arg-type]
