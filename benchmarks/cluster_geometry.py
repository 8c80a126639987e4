"""How much textual geometry survives inside a declared cluster.

Run: ``python benchmarks/cluster_geometry.py``. Prints figures; asserts nothing. Deterministic
(fixed seeds), so two runs print the same numbers.

Inside a cluster a member is ``normalise(anchor + jitter * u)``. The figures compare three ways
of choosing ``u`` and ``jitter``:

- ``geometry 1``: ``u`` a random direction derived from the text, ``jitter`` derived from the
  text (the geometry before ``placeborag-clusters/2``, rebuilt here from its definition);
- ``offsets only``: ``u`` the text's hashed vector made orthogonal to the anchors, ``jitter``
  still derived from each text;
- ``geometry 2`` (``placeborag-clusters/2``, what ``FakeEmbedder`` does now): the hashed offset,
  and in substring mode one jitter per cluster, derived from its name.

Figures:
- the cosines of the example in the issue (a chunk, a near copy, an unrelated chunk);
- over generated pairs of chunks of one substring cluster, Spearman's rank correlation between
  the pair's cosine in the hashing space (``FakeEmbedder()`` without clusters) and in the
  cluster, at several dimensions; and the same over pairs of declared texts in exact mode;
- for generated queries that join the cluster, against a pool of its chunks: the mean rank
  correlation between a chunk's hashed cosine with the query and its score, and how often the
  chunk the hashing space ranks first is ranked first;
- the separation bounds of ``placeborag_core.embedding.clusters`` beside the extremes observed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from placeborag_core import FakeEmbedder, cosine_similarity
from placeborag_core.embedding.clusters import (
    ClusterSpace,
    _orthogonalise,
    _unit,
    jitter,
)
from placeborag_core.embedding.hashing import derive_key, uniform_vector

FloatArray = npt.NDArray[np.float64]

_VOCABULARY = (
    "returns within days customers items store credit receipt original packaging damaged label "
    "exchange warranty order account email support window processing bank card weeks electronics "
    "clothing digital purchase gift voucher courier tracking parcel invoice cancel subscription "
    "month year fee charge balance approved rejected request form manager policy terms"
)
_WORDS = _VOCABULARY.split(" ")
_CLUSTERS = {
    "refund": ["refund policy", "money back", "return my purchase"],
    "shipping": ["delivery times", "shipping costs"],
}
_EXAMPLE = (
    "refund policy applies to returns within 30 days",
    "refund policy applies to returns within 60 days",
    "refund policy and nothing else whatsoever here",
)
_PAIRS = 400
_QUERIES = 200
_POOL = 12

Member = Callable[[str, str], FloatArray]


def rank_correlation(x: list[float], y: list[float]) -> float:
    """Spearman's rank correlation (ties get their average rank)."""

    def ranks(values: list[float]) -> FloatArray:
        array = np.asarray(values)
        order = np.argsort(array, kind="stable")
        positions = np.empty(len(array))
        positions[order] = np.arange(len(array))
        _, group, sizes = np.unique(array, return_inverse=True, return_counts=True)
        averaged: FloatArray = (np.bincount(group, weights=positions) / sizes)[group]
        return averaged

    return float(np.corrcoef(ranks(x), ranks(y))[0, 1])


def space_of(embedder: FakeEmbedder) -> ClusterSpace:
    if embedder._clusters is None:
        raise LookupError(f"{embedder!r} declares no cluster")
    return embedder._clusters


def cluster_of(embedder: FakeEmbedder, text: str) -> str:
    cluster = embedder.cluster_of(text)
    if cluster is None:
        raise LookupError(f"{text!r} joins no cluster of {embedder!r}")
    return cluster


def geometry_1(embedder: FakeEmbedder) -> Member:
    """The member vectors before ``placeborag-clusters/2``: a random offset, a per-text jitter."""
    space = space_of(embedder)
    anchors = list(space.anchors.values())

    def member(text: str, cluster: str) -> FloatArray:
        derived = uniform_vector(space.dimensions, derive_key(space.key, "member", text))
        u = _unit(_orthogonalise(derived, anchors))
        return _unit(space.anchors[cluster] + jitter(text, space.spread) * u)

    return member


def offsets_only(embedder: FakeEmbedder) -> Member:
    """The hashed offset with a per-text jitter (the direction changed, the jitter not)."""
    space = space_of(embedder)

    def member(text: str, cluster: str) -> FloatArray:
        u = space.offset_direction(text, embedder._sums.hashed_rows([text])[0])
        return _unit(space.anchors[cluster] + jitter(text, space.spread) * u)

    return member


def geometry_2(embedder: FakeEmbedder) -> Member:
    """What the embedder does now."""
    return lambda text, _cluster: np.array(embedder.embed(text))


def chunk(rng: random.Random, phrase: str) -> list[str]:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(6, 14))]
    words.insert(rng.randint(0, len(words)), phrase)
    return words


def chunk_pairs(rng: random.Random, count: int) -> list[tuple[str, str]]:
    """Pairs of chunks of the "refund" cluster: from near copies (a few words replaced) to
    unrelated chunks that share only a phrase of the cluster (maybe not the same one)."""
    phrases = _CLUSTERS["refund"]
    pairs = []
    for _ in range(count):
        first = chunk(rng, rng.choice(phrases))
        second = list(first)
        replaced = rng.randint(0, len(second))
        for i in rng.sample(range(len(second)), replaced):
            if second[i] not in phrases:
                second[i] = rng.choice(_WORDS)
        if rng.random() < 0.3:  # the same chunk around another phrase of the cluster
            second = [rng.choice(phrases) if w in phrases else w for w in second]
        pairs.append((" ".join(first), " ".join(second)))
    return pairs


def hashed_cosines(plain: FakeEmbedder, pairs: list[tuple[str, str]]) -> list[float]:
    return [cosine_similarity(plain.embed(a), plain.embed(b)) for a, b in pairs]


def member_cosines(
    embedder: FakeEmbedder, member: Member, pairs: list[tuple[str, str]]
) -> list[float]:
    cosines = []
    for a, b in pairs:
        first, second = member(a, cluster_of(embedder, a)), member(b, cluster_of(embedder, b))
        cosines.append(float(first @ second))
    return cosines


GEOMETRIES = (
    ("geometry 1", geometry_1),
    ("offsets only", offsets_only),
    ("geometry 2", geometry_2),
)
_LABEL = 40


def row(label: str, cells: list[str]) -> None:
    print(f"  {label:<{_LABEL}}" + "".join(f"{cell:>14}" for cell in cells))


def print_example() -> None:
    print("The issue's example (substring cluster {'refund': ['refund policy']}, 384 dimensions):")
    plain = FakeEmbedder()
    embedder = FakeEmbedder(clusters={"refund": ["refund policy"]}, cluster_match="substring")
    a, b, c = _EXAMPLE
    print(
        f"  hashing space    cos(a, b) = {hashed_cosines(plain, [(a, b)])[0]:.4f}   "
        f"cos(a, c) = {hashed_cosines(plain, [(a, c)])[0]:.4f}"
    )
    for label, make in GEOMETRIES:
        ab, ac = member_cosines(embedder, make(embedder), [(a, b), (a, c)])
        order = "b before c" if ab > ac else "c before b"
        print(f"  {label:<16} cos(a, b) = {ab:.4f}   cos(a, c) = {ac:.4f}   ({order})")


def print_pair_correlations() -> None:
    print(
        f"\nRank correlation, hashing-space cosine vs in-cluster cosine, {_PAIRS} pairs of "
        f"chunks (substring mode, cluster_spread=0.2):"
    )
    pairs = chunk_pairs(random.Random(2024), _PAIRS)
    row("", [label for label, _ in GEOMETRIES])
    for dimensions in (64, 384, 1024):
        plain = FakeEmbedder(dimensions=dimensions)
        embedder = FakeEmbedder(
            clusters=_CLUSTERS, cluster_match="substring", dimensions=dimensions
        )
        hashed = hashed_cosines(plain, pairs)
        figures = [
            rank_correlation(hashed, member_cosines(embedder, make(embedder), pairs))
            for _, make in GEOMETRIES
        ]
        row(f"dimensions={dimensions}", [f"{value:.4f}" for value in figures])
    same_phrase = [(a, b) for a, b in pairs if _phrase(a) == _phrase(b)]
    embedder = FakeEmbedder(clusters=_CLUSTERS, cluster_match="substring")
    hashed = hashed_cosines(FakeEmbedder(), same_phrase)
    figures = [
        rank_correlation(hashed, member_cosines(embedder, make(embedder), same_phrase))
        for _, make in GEOMETRIES
    ]
    row(f"384, the {len(same_phrase)} around one phrase", [f"{value:.4f}" for value in figures])

    rng = random.Random(7)
    declared = sorted({" ".join(chunk(rng, "refund")[: rng.randint(2, 6)]) for _ in range(40)})
    exact = FakeEmbedder(clusters={"refund": declared, "shipping": ["delivery times"]})
    exact_pairs = [(a, b) for i, a in enumerate(declared) for b in declared[i + 1 :]]
    hashed = hashed_cosines(FakeEmbedder(), exact_pairs)
    figures = [
        rank_correlation(hashed, member_cosines(exact, make(exact), exact_pairs))
        for _, make in GEOMETRIES
    ]
    row(
        f"exact mode, {len(exact_pairs)} pairs of {len(declared)} texts",
        [f"{value:.4f}" for value in figures],
    )
    print("  (exact mode keeps a jitter per declared text, so geometry 2 = offsets only there)")


def _phrase(text: str) -> str:
    return next(p for p in sorted(_CLUSTERS["refund"], key=len, reverse=True) if p in text)


def print_query_rankings() -> None:
    print(
        f"\n{_QUERIES} queries that join the 'refund' cluster, each against {_POOL} of its "
        f"chunks (384 dimensions):"
    )
    rng = random.Random(99)
    plain = FakeEmbedder()
    embedder = FakeEmbedder(clusters=_CLUSTERS, cluster_match="substring")
    makers = [(label, make(embedder)) for label, make in GEOMETRIES]
    correlations: dict[str, list[float]] = {label: [] for label, _ in makers}
    firsts: dict[str, int] = {label: 0 for label, _ in makers}
    for _ in range(_QUERIES):
        pool = [" ".join(chunk(rng, rng.choice(_CLUSTERS["refund"]))) for _ in range(_POOL)]
        source = rng.choice(pool).split(" ")
        query = " ".join(source[: max(3, len(source) // 2)])
        if embedder.cluster_of(query) is None:
            query = f"{query} {rng.choice(_CLUSTERS['refund'])}"
        hashed = [cosine_similarity(plain.embed(query), plain.embed(text)) for text in pool]
        for label, member in makers:
            q = member(query, "refund")
            scores = [float(q @ member(text, "refund")) for text in pool]
            correlations[label].append(rank_correlation(hashed, scores))
            firsts[label] += int(np.argmax(scores) == np.argmax(hashed))
    row("", [label for label, _ in makers])
    row(
        "mean rank correlation with hashing",
        [f"{np.mean(correlations[label]):.4f}" for label, _ in makers],
    )
    row(
        "the hashing space's first ranked first",
        [f"{firsts[label] / _QUERIES:.1%}" for label, _ in makers],
    )


def print_bounds() -> None:
    print(
        "\nSeparation, substring mode, 384 dimensions: bounds of the module docstring vs observed"
    )
    rng = random.Random(5)
    chunks = [
        " ".join(chunk(rng, rng.choice([*_CLUSTERS["refund"], *_CLUSTERS["shipping"]])))
        for _ in range(300)
    ]
    for spread in (0.2, 0.5, 0.7):
        embedder = FakeEmbedder(
            clusters=_CLUSTERS, cluster_match="substring", cluster_spread=spread
        )
        vectors = embedder.embed_many(chunks)
        labels = np.array([embedder.cluster_of(text) for text in chunks])
        cosines = vectors @ vectors.T
        same = labels[:, None] == labels[None, :]
        np.fill_diagonal(same, False)
        cross = labels[:, None] != labels[None, :]
        print(
            f"  cluster_spread={spread}: same cluster min {cosines[same].min():.4f} "
            f"(bound > {(1 - spread**2) / (1 + spread**2):.4f}), other cluster max "
            f"{np.abs(cosines[cross]).max():.4f} (bound < {spread**2 / (1 + spread**2):.4f})"
        )


def main() -> None:
    print_example()
    print_pair_correlations()
    print_query_rankings()
    print_bounds()
    print(f"\n(1 / sqrt(2) = {1 / math.sqrt(2):.4f}: below it the bounds separate every text.)")


if __name__ == "__main__":
    main()
