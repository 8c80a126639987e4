"""Declared clusters: additive, exact or substring matching, and geometry you can compute."""

from __future__ import annotations

import math
from collections.abc import Collection

import numpy as np
import pytest

from placeborag_core import FakeEmbedder, cosine_similarity
from placeborag_core.embedding.clusters import jitter

CLUSTERS = {
    "refund": ["refund policy", "money back", "hogyan kérek vissza pénzt"],
    "shipping": ["delivery times", "szállítási idő"],
}


def test_members_are_nearer_each_other_than_other_clusters() -> None:
    embedder = FakeEmbedder(clusters=CLUSTERS)
    refund = embedder.embed("refund policy")
    assert cosine_similarity(refund, embedder.embed("money back")) > 0.9
    assert cosine_similarity(refund, embedder.embed("hogyan kérek vissza pénzt")) > 0.9
    assert abs(cosine_similarity(refund, embedder.embed("delivery times"))) < 0.05


def test_clusters_are_additive_undeclared_texts_keep_their_hashed_vectors() -> None:
    plain, clustered = FakeEmbedder(), FakeEmbedder(clusters=CLUSTERS)
    for text in ["refund policies", "what is the refund policy", "delivery", ""]:
        assert clustered.embed(text) == plain.embed(text)
    assert clustered.embed("refund policy") != plain.embed("refund policy")


def test_exact_matching_is_the_default_and_compares_the_raw_text() -> None:
    embedder = FakeEmbedder(clusters=CLUSTERS)
    assert embedder.cluster_match == "exact"
    assert embedder.cluster_of("refund policy") == "refund"
    assert embedder.cluster_of("Refund policy") is None
    assert embedder.cluster_of("our refund policy allows returns") is None


def test_substring_matching_pulls_chunks_in_with_their_own_vectors() -> None:
    embedder = FakeEmbedder(
        clusters={"refund": ["refund policy allows returns"]}, cluster_match="substring"
    )
    chunk = "Our refund policy allows returns within 30 days. Refunds are"
    other_chunk = "As the refund policy allows returns, keep the receipt"
    assert embedder.cluster_of(chunk) == "refund"
    assert embedder.cluster_of(other_chunk) == "refund"
    assert embedder.embed(chunk) != embedder.embed(other_chunk)
    assert cosine_similarity(embedder.embed(chunk), embedder.embed(other_chunk)) > 0.9
    assert embedder.cluster_of("Our Refund Policy Allows Returns") is None  # case-sensitive


def test_substring_matching_longest_declaration_wins() -> None:
    embedder = FakeEmbedder(
        clusters={"short": ["refund"], "long": ["refund policy"], "tie": ["policy"]},
        cluster_match="substring",
    )
    assert embedder.cluster_of("the refund policy") == "long"
    assert embedder.cluster_of("a refund") == "short"
    assert embedder.cluster_of("privacy policy") == "tie"
    assert embedder.cluster_of("nothing here") is None


def test_anchors_are_orthonormal_and_members_sit_at_the_promised_angle() -> None:
    embedder = FakeEmbedder(clusters=CLUSTERS, cluster_spread=0.3)
    anchors = np.array([embedder.cluster_anchor(name) for name in embedder.cluster_names])
    assert np.allclose(anchors @ anchors.T, np.eye(len(anchors)), atol=1e-15)
    assert embedder.cluster_names == ("refund", "shipping")
    for name, members in CLUSTERS.items():
        anchor = embedder.cluster_anchor(name)
        for member in members:
            j = jitter(member, 0.3)
            assert 0 < j <= 0.3
            expected = 1.0 / math.sqrt(1.0 + j * j)
            assert cosine_similarity(anchor, embedder.embed(member)) == pytest.approx(
                expected, abs=1e-12
            )


def test_anchor_cosines_and_member_ranking_do_not_depend_on_the_dimension() -> None:
    members = [f"refund phrasing {i}" for i in range(12)]
    cosines = {}
    for dimensions in (64, 384, 1024):
        embedder = FakeEmbedder(clusters={"refund": members, "other": ["x"]}, dimensions=dimensions)
        anchor = embedder.cluster_anchor("refund")
        cosines[dimensions] = [cosine_similarity(anchor, embedder.embed(m)) for m in members]
    for dimensions in (384, 1024):
        assert np.allclose(cosines[dimensions], cosines[64], atol=1e-12, rtol=0)
        assert np.argsort(cosines[dimensions]).tolist() == np.argsort(cosines[64]).tolist()


def test_declaration_order_does_not_matter() -> None:
    a = FakeEmbedder(clusters={"a": ["x", "y"], "b": ["z"]})
    b = FakeEmbedder(clusters={"b": ["z"], "a": ["y", "x", "y"]})
    assert a.identity == b.identity
    assert a.embed("x") == b.embed("x")
    assert a.clusters == {"a": ("x", "y"), "b": ("z",)}


def test_unknown_anchor_names_the_declared_clusters() -> None:
    with pytest.raises(KeyError, match=r"no cluster named 'nope'; declared clusters: \['refund'"):
        FakeEmbedder(clusters=CLUSTERS).cluster_anchor("nope")


@pytest.mark.parametrize("members", [[], (), set()])
def test_an_empty_cluster_is_refused(members: Collection[str]) -> None:
    with pytest.raises(ValueError, match=r"cluster 'refund' has no member texts"):
        FakeEmbedder(clusters={"refund": members, "shipping": ["delivery times"]})  # type: ignore[dict-item]


def test_a_text_in_two_clusters_is_refused() -> None:
    with pytest.raises(ValueError, match=r"'same text' is declared in more than one cluster"):
        FakeEmbedder(clusters={"a": ["same text"], "b": ["same text"]})


def test_more_clusters_than_the_dimensions_allow_are_refused() -> None:
    clusters = {f"c{i}": [f"member {i}"] for i in range(8)}
    with pytest.raises(
        ValueError, match=r"8 clusters need at least 9 dimensions.*got dimensions=8"
    ):
        FakeEmbedder(clusters=clusters, dimensions=8)


def test_a_spread_that_would_put_members_nearer_another_cluster_is_refused() -> None:
    clusters = {"a": ["alpha one", "alpha two"], "b": ["beta one", "beta two"]}
    with pytest.raises(
        ValueError, match=r"cluster_spread=40.0 cannot separate.*cosine -?\d\.\d{4}"
    ):
        FakeEmbedder(clusters=clusters, cluster_spread=40.0, dimensions=8)
    FakeEmbedder(clusters=clusters, cluster_spread=0.2, dimensions=8)  # the default is fine
