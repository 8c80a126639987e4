"""Declared clusters: additive, exact or substring matching, and geometry you can compute."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Collection

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core import FakeEmbedder, FakeVectorStore, cosine_similarity
from placeborag_core.embedding.clusters import ClusterMatch, cluster_jitter, jitter
from placeborag_core.embedding.hashing import derive_key, uniform_vector

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


# -- member geometry: offsets along the members' own hashed vectors -----------------------------

EXAMPLE = {"refund": ["refund policy"]}
A = "refund policy applies to returns within 30 days"
B = "refund policy applies to returns within 60 days"
C = "refund policy and nothing else whatsoever here"
WORDS = [
    "returns",
    "within",
    "days",
    "customers",
    "items",
    "store",
    "credit",
    "receipt",
    "original",
    "packaging",
    "damaged",
    "label",
    "exchange",
    "warranty",
    "order",
    "account",
    "email",
    "support",
    "window",
    "processing",
    "bank",
    "card",
    "weeks",
]


def offset(embedder: FakeEmbedder, text: str) -> np.ndarray:
    """A member's unit offset direction, read back from its vector: ``(m - cos a) / sin``."""
    cluster = embedder.cluster_of(text)
    assert cluster is not None
    anchor, member = np.array(embedder.cluster_anchor(cluster)), np.array(embedder.embed(text))
    along = float(anchor @ member)
    return (member - along * anchor) / math.sqrt(1.0 - along * along)


def hashed_offset(embedder: FakeEmbedder, text: str) -> np.ndarray:
    """The text's hashed vector (what it is without clusters) made orthogonal to every anchor."""
    plain = FakeEmbedder(model_name=embedder.model_name, dimensions=embedder.dimensions)
    vector = np.array(plain.embed(text))
    for name in embedder.cluster_names:
        anchor = np.array(embedder.cluster_anchor(name))
        vector = vector - float(anchor @ vector) * anchor
    return vector / float(np.linalg.norm(vector))


def rank_correlation(x: list[float], y: list[float]) -> float:
    """Spearman's rank correlation (ties get their average rank)."""

    def ranks(values: list[float]) -> np.ndarray:
        array = np.asarray(values)
        order = np.argsort(array, kind="stable")
        positions = np.empty(len(array))
        positions[order] = np.arange(len(array))
        _, group, sizes = np.unique(array, return_inverse=True, return_counts=True)
        return (np.bincount(group, weights=positions) / sizes)[group]

    return float(np.corrcoef(ranks(x), ranks(y))[0, 1])


def test_the_chunk_that_shares_more_is_nearer_inside_a_cluster() -> None:
    embedder = FakeEmbedder(clusters=EXAMPLE, cluster_match="substring")
    a, b, c = (embedder.embed(text) for text in (A, B, C))
    assert cosine_similarity(a, b) > cosine_similarity(a, c)
    plain = FakeEmbedder()
    assert cos_plain(plain, A, B) > cos_plain(plain, A, C)  # the order of the hashing space


def cos_plain(embedder: FakeEmbedder, first: str, second: str) -> float:
    return cosine_similarity(embedder.embed(first), embedder.embed(second))


@pytest.mark.parametrize("match", ["exact", "substring"])
def test_a_members_offset_is_its_hashed_vector_orthogonal_to_every_anchor(
    match: ClusterMatch,
) -> None:
    embedder = FakeEmbedder(clusters=CLUSTERS, cluster_match=match)
    texts = [member for members in CLUSTERS.values() for member in members]
    if match == "substring":
        texts += [
            f"{phrase} for orders {i}" for i, phrase in enumerate(["refund policy", "money back"])
        ]
    anchors = np.array([embedder.cluster_anchor(name) for name in embedder.cluster_names])
    for text in texts:
        direction = offset(embedder, text)
        assert np.allclose(anchors @ direction, 0.0, atol=1e-14)
        assert np.allclose(direction, hashed_offset(embedder, text), atol=1e-12, rtol=0)


def test_substring_members_share_their_clusters_jitter() -> None:
    embedder = FakeEmbedder(clusters=CLUSTERS, cluster_match="substring", cluster_spread=0.3)
    anchor = embedder.cluster_anchor("refund")
    j = cluster_jitter("refund", 0.3)
    assert 0.3 / 4 <= j < 0.3
    chunks = [A, B, C, "money back within 14 days", "refund policy"]
    for chunk in chunks:
        assert cosine_similarity(anchor, embedder.embed(chunk)) == pytest.approx(
            1.0 / math.sqrt(1.0 + j * j), abs=1e-12
        )
    # one jitter for the whole cluster: two members' cosine is a function of their offsets only
    for first, second in itertools.combinations(chunks, 2):
        shared = float(offset(embedder, first) @ offset(embedder, second))
        assert cosine_similarity(embedder.embed(first), embedder.embed(second)) == pytest.approx(
            (1.0 + j * j * shared) / (1.0 + j * j), abs=1e-12
        )


def test_exact_members_keep_their_own_jitter_and_declared_texts_the_same_vector_in_both_modes() -> (
    None
):
    exact = FakeEmbedder(clusters=CLUSTERS)
    substring = FakeEmbedder(clusters=CLUSTERS, cluster_match="substring")
    for name, members in CLUSTERS.items():
        for member in members:
            for embedder, j in (
                (exact, jitter(member, 0.2)),
                (substring, cluster_jitter(name, 0.2)),
            ):
                assert cosine_similarity(
                    embedder.cluster_anchor(name), embedder.embed(member)
                ) == pytest.approx(1.0 / math.sqrt(1.0 + j * j), abs=1e-12)
            assert np.allclose(offset(exact, member), offset(substring, member), atol=1e-12)


def generated_pairs(count: int, seed: int) -> list[tuple[str, str]]:
    """Pairs of chunks of one cluster, from near copies to unrelated texts around the phrase."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        words = [rng.choice(WORDS) for _ in range(rng.randint(5, 12))]
        phrase = rng.choice(["refund policy", "money back"])
        first = [*words]
        first.insert(rng.randint(0, len(first)), phrase)
        second = [*words]
        for i in rng.sample(range(len(second)), rng.randint(0, len(second))):
            second[i] = rng.choice(WORDS)
        second.insert(rng.randint(0, len(second)), rng.choice(["refund policy", "money back"]))
        pairs.append((" ".join(first), " ".join(second)))
    return pairs


def test_in_cluster_cosine_follows_the_hashing_space_rank_for_rank() -> None:
    embedder = FakeEmbedder(clusters=CLUSTERS, cluster_match="substring")
    plain = FakeEmbedder()
    pairs = generated_pairs(300, seed=0)
    assert all(embedder.cluster_of(text) == "refund" for pair in pairs for text in pair)
    hashed = [cos_plain(plain, first, second) for first, second in pairs]
    clustered = [cos_plain(embedder, first, second) for first, second in pairs]
    assert rank_correlation(hashed, clustered) > 0.99  # benchmarks/cluster_geometry.py: ~0.999


def test_a_query_that_joins_a_cluster_ranks_its_members_by_what_they_share() -> None:
    embedder = FakeEmbedder(clusters=CLUSTERS, cluster_match="substring")
    store = FakeVectorStore(embedder)
    chunks = {
        "answer": "our refund policy: returns within 60 days of delivery, money to your card",
        "near": "our refund policy: returns within 30 days of purchase",
        "other": "money back guarantee on electronics bought in store",
        "far": "refund policy and nothing else whatsoever here",
        "unrelated": "store opening hours are nine to five",
    }
    store.upsert_many(list(chunks.items()))
    query = "can I get my money back within 60 days of delivery to my card?"
    assert embedder.cluster_of(query) == "refund"
    plain = FakeEmbedder()
    members = [key for key, text in chunks.items() if embedder.cluster_of(text) == "refund"]
    by_shared_text = sorted(members, key=lambda key: -cos_plain(plain, query, chunks[key]))
    ranked = [match.id for match in store.query(query, k=len(chunks))]
    assert ranked[: len(members)] == by_shared_text == ["answer", "near", "other", "far"]


def test_a_query_outside_every_cluster_sees_members_through_the_anchor_geometry() -> None:
    embedder = FakeEmbedder(clusters=CLUSTERS, cluster_match="substring")
    plain = FakeEmbedder()
    query = "what is the refund window for returns"
    assert embedder.cluster_of(query) is None
    assert embedder.embed(query) == plain.embed(query)
    q = np.array(embedder.embed(query))
    for text in [A, B, C, "money back within 14 days", "delivery times are short"]:
        name = embedder.cluster_of(text)
        assert name is not None
        anchor, member = np.array(embedder.cluster_anchor(name)), np.array(embedder.embed(text))
        along = float(anchor @ member)  # cos(theta): the anchor's share of the member
        # whatever the member's text, the query sees it as the anchor does, to within sin(theta)
        assert abs(float(q @ member) - along * float(q @ anchor)) <= math.sqrt(1 - along**2)


def test_member_vectors_are_bit_identical_on_every_route() -> None:
    embedder = FakeEmbedder(clusters=CLUSTERS, cluster_match="substring", dimensions=96)
    texts = [A, B, C, "", "refund policy", "delivery times", "plain text", "money back!", *WORDS]
    texts = (texts * (1100 // len(texts) + 1))[:1100]  # past one block of embed_many
    single = [
        FakeEmbedder(clusters=CLUSTERS, cluster_match="substring", dimensions=96).embed(t)
        for t in texts
    ]
    assert embedder.embed_many(texts).tolist() == single
    assert embedder.embed_many(texts[:50]).tolist() == single[:50]
    assert embedder.embed_lists(texts) == single
    assert (
        embedder.embed_many(texts, dtype=np.float32) == np.array(single, dtype=np.float32)
    ).all()


def test_the_offset_falls_back_to_the_derived_direction_when_nothing_is_left() -> None:
    embedder = FakeEmbedder(clusters=CLUSTERS, dimensions=16)
    space = embedder._clusters
    assert space is not None
    anchor = space.anchors["refund"]
    in_span = (space.anchors["refund"] + space.anchors["shipping"]) / math.sqrt(2.0)
    direction = space.offset_direction("money back", in_span)
    derived = uniform_vector(16, derive_key(space.key, "member", "money back"))
    for other in space.anchors.values():
        derived = derived - float(derived @ other) * other
    assert np.allclose(direction, derived / np.linalg.norm(derived), atol=1e-12)
    vector = space.member_vector("money back", "refund", in_span)
    j = jitter("money back", 0.2)
    assert float(vector @ anchor) == pytest.approx(1.0 / math.sqrt(1.0 + j * j), abs=1e-12)


phrases = st.sampled_from(["refund policy", "money back", "delivery times", "szállítási idő"])
chunk_texts = st.builds(
    lambda words, phrase, at: " ".join([*words[:at], phrase, *words[at:]]),
    st.lists(st.sampled_from(WORDS), max_size=10),
    phrases,
    st.integers(0, 10),
)


@settings(max_examples=60, deadline=None)
@given(
    chunks=st.lists(chunk_texts, min_size=2, max_size=8),
    spread=st.floats(0.01, 1.5),
    dimensions=st.sampled_from([16, 64, 384]),
    match=st.sampled_from(["exact", "substring"]),
)
def test_the_promised_bounds_hold_for_every_member_declared_or_not(
    chunks: list[str], spread: float, dimensions: int, match: ClusterMatch
) -> None:
    try:
        embedder = FakeEmbedder(
            clusters=CLUSTERS, cluster_match=match, cluster_spread=spread, dimensions=dimensions
        )
    except ValueError:
        return  # the construction-time check refused the declared texts
    texts = chunks if match == "substring" else [m for ms in CLUSTERS.values() for m in ms]
    vectors = {text: np.array(embedder.embed(text)) for text in texts}
    tiny = 1e-12
    cross_bound = spread**2 / (1 + spread**2)
    same_bound = (1 - spread**2) / (1 + spread**2)
    for text, vector in vectors.items():
        name = embedder.cluster_of(text)
        assert name is not None
        for other in embedder.cluster_names:
            along = float(vector @ np.array(embedder.cluster_anchor(other)))
            if other == name:
                assert along >= 1 / math.sqrt(1 + spread**2) - tiny
            else:
                assert abs(along) <= tiny
    for first, second in itertools.combinations(vectors, 2):
        cosine = float(vectors[first] @ vectors[second])
        if embedder.cluster_of(first) == embedder.cluster_of(second):
            assert cosine >= same_bound - tiny
        else:
            assert abs(cosine) <= cross_bound + tiny
            if spread < 1 / math.sqrt(2):  # hence every text nearer its own cluster's texts
                assert cosine < same_bound
