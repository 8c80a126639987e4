"""FakeEmbedder: a hashing-trick embedder whose geometry a test author can reason about.

A vector is a pure function of (normalised text, model name, dimensions, cluster declaration):

1. the text is normalised and split into tokens (:mod:`placeborag_core.embedding.text`);
2. each token contributes one *word* feature (weight 1) and its character 3- and 4-grams, taken
   with boundary markers (`` refund `` gives `` re``, ``ref``, ..., ``nd ``), as *n-gram* features
   (weight 1/2);
3. each feature is hashed under a key derived from the model name and the dimensions to a bucket
   and a sign; the signed weights are summed per bucket and the vector is L2-normalised.

Texts that share words or character n-grams therefore share buckets and have a positive cosine;
texts that share nothing are near-orthogonal (up to hash collisions). Because every weight is a
multiple of 1/2, the sums are exact in binary floating point, so the batch path and the single-text
path give bit-identical vectors in any order, on any machine.

Declared clusters place their members near a cluster anchor
(:mod:`placeborag_core.embedding.clusters`); a member's offset from its anchor is made from its
hashed vector, so members keep their textual geometry inside the cluster.

This module holds the public class and its single-text route; batches go through
:mod:`placeborag_core.embedding.batch`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from placeborag_core.embedding._speed.half_pools import HalfPools
from placeborag_core.embedding._speed.token_table import TokenTable
from placeborag_core.embedding._speed.token_units import TokenUnits
from placeborag_core.embedding.batch import BatchRows, BucketSums, fallback_vector
from placeborag_core.embedding.clusters import (
    GEOMETRY,
    ClusterMatch,
    ClusterSpace,
    build_cluster_space,
)
from placeborag_core.embedding.features import Feature, FeatureHasher, FeatureKind
from placeborag_core.embedding.hashing import derive_key
from placeborag_core.embedding.text import BOUNDARY, tokens
from placeborag_core.messages import shown
from placeborag_core.numbers import is_finite_real
from placeborag_core.unicode_text import require_unicode

__all__ = [
    "ALGORITHM",
    "DEFAULT_DIMENSIONS",
    "DEFAULT_MODEL_NAME",
    "MIN_DIMENSIONS",
    "FakeEmbedder",
    "Feature",
    "FeatureKind",
]

#: Names the vector algorithm; part of :attr:`FakeEmbedder.identity` and of the hashing key.
#: Changed whenever the hashed vectors change, with a CHANGELOG line, because users pin vectors
#: and rankings. The vectors of cluster members are versioned apart, by
#: :data:`placeborag_core.embedding.clusters.GEOMETRY`, so that a change to them leaves the
#: vectors (and identity) of embedders without clusters alone.
ALGORITHM = "placeborag-hash/1"
DEFAULT_MODEL_NAME = "placeborag-hash-v1"
#: The vector length of a ``FakeEmbedder()`` (that of the common small sentence-transformers), for
#: tests that size a store, a schema or a fixture vector without building an embedder.
DEFAULT_DIMENSIONS = 384
#: Below this a hashing space has so few buckets that unrelated texts collide more than they miss.
MIN_DIMENSIONS = 8
MAX_DIMENSIONS = 65536

_BLOCK = 1024  # texts per vectorised block in embed_many
_DEFAULT_SPREAD = 0.2


def _validated_texts(texts: object) -> list[str]:
    if isinstance(texts, str | bytes) or not isinstance(texts, Iterable):
        raise TypeError(
            f"embed_many takes a sequence of strings, got {type(texts).__name__}; "
            f"use embed() for a single text"
        )
    batch = list(texts)
    for index, text in enumerate(batch):
        if not isinstance(text, str):
            raise TypeError(
                f"texts[{index}] must be a str, got {type(text).__name__}: {shown(text)}"
            )
        require_unicode(text, f"texts[{index}]")
    return batch


class FakeEmbedder:
    """A deterministic embedder: the same text gives the same vector in every process and machine.

    Args:
        model_name: names the embedding space; a different name gives unrelated vectors, which is
            how a test exercises "the embedding model changed, reindex".
        dimensions: vector length, from 8 to 65536 (default :data:`DEFAULT_DIMENSIONS`, 384).
            Changing it also changes the space.
        clusters: optional ``{cluster name: [member texts]}`` (each cluster with at least one
            text); members get vectors near their cluster's anchor (``cos = 1/sqrt(1 +
            jitter**2)``, jitter at most ``cluster_spread``), offset from it along their own
            hashed vector, so inside a cluster texts are nearer the more they share. Texts not
            declared keep their hashed vectors: clusters are additive.
        cluster_match: ``"exact"`` (a text is a member only if it equals a declared member) or
            ``"substring"`` (a text containing a declared member joins its cluster; case-sensitive;
            the longest declared member found wins), for chunked pipelines.
        cluster_spread: upper bound of a member's jitter around its anchor; must be > 0 and finite.

    Raises:
        TypeError / ValueError: for any option outside what is allowed, and ``ValueError`` when the
        geometry cannot satisfy the cluster declaration (naming the texts and similarities).
    """

    __slots__ = (
        "_cluster_match",
        "_cluster_spread",
        "_clusters",
        "_declaration",
        "_dimensions",
        "_hasher",
        "_identity",
        "_key",
        "_model_name",
        "_pools",
        "_rows",
        "_sums",
        "_units",
    )

    def __init__(
        self,
        model_name: str = DEFAULT_MODEL_NAME,
        dimensions: int = DEFAULT_DIMENSIONS,
        clusters: Mapping[str, Sequence[str]] | None = None,
        cluster_match: ClusterMatch = "exact",
        cluster_spread: float = _DEFAULT_SPREAD,
    ) -> None:
        if not isinstance(model_name, str) or not model_name:
            raise TypeError(f"model_name must be a non-empty str, got {shown(model_name)}")
        require_unicode(model_name, "model_name")
        if isinstance(dimensions, bool) or not isinstance(dimensions, int | np.integer):
            raise TypeError(
                f"dimensions must be an int from {MIN_DIMENSIONS} to {MAX_DIMENSIONS}, "
                f"got {type(dimensions).__name__} {shown(dimensions)}"
            )
        if not MIN_DIMENSIONS <= dimensions <= MAX_DIMENSIONS:
            raise ValueError(
                f"dimensions must be from {MIN_DIMENSIONS} to {MAX_DIMENSIONS}, got {dimensions}"
            )
        if cluster_match not in ("exact", "substring"):
            raise ValueError(
                f"cluster_match must be 'exact' or 'substring', got {shown(cluster_match)}"
            )
        if not is_finite_real(cluster_spread) or cluster_spread <= 0:
            raise ValueError(
                f"cluster_spread must be a finite number > 0, got {shown(cluster_spread)}"
            )
        self._model_name = model_name
        self._dimensions = int(dimensions)
        self._cluster_match: ClusterMatch = cluster_match
        self._cluster_spread = float(cluster_spread)
        self._key = derive_key("embedder", ALGORITHM, model_name, self._dimensions)
        self._hasher = FeatureHasher(self._key, self._dimensions)
        table = TokenTable(self._hasher.hash_new_tokens, reserved=BOUNDARY)
        self._units = TokenUnits(table, self._dimensions)
        self._pools = HalfPools(max_length=self._dimensions)
        fallback = fallback_vector(self._key, self._dimensions)
        self._sums = BucketSums(table, self._dimensions, fallback)
        self._clusters: ClusterSpace | None = None
        self._declaration: dict[str, tuple[str, ...]] = {}
        if clusters is not None:
            self._clusters = build_cluster_space(
                clusters,
                match=cluster_match,
                spread=self._cluster_spread,
                key=self._key,
                dimensions=self._dimensions,
                hash_rows=self._sums.hashed_rows,
            )
            self._declaration = {
                name: tuple(sorted(m for m, c in self._clusters.members.items() if c == name))
                for name in self._clusters.names
            }
        self._rows = BatchRows(self._sums, self._pools, self._clusters)
        self._identity = self._compute_identity()

    # -- read-only configuration -----------------------------------------------------------

    @property
    def model_name(self) -> str:
        return self._model_name

    @property
    def dimensions(self) -> int:
        return self._dimensions

    @property
    def cluster_match(self) -> ClusterMatch:
        return self._cluster_match

    @property
    def cluster_spread(self) -> float:
        return self._cluster_spread

    @property
    def clusters(self) -> dict[str, tuple[str, ...]]:
        """A copy of the validated cluster declaration (members sorted, duplicates removed)."""
        return dict(self._declaration)

    @property
    def cluster_names(self) -> tuple[str, ...]:
        """Declared cluster names, sorted."""
        return tuple(self._declaration)

    @property
    def identity(self) -> str:
        """A short hex digest naming this embedding space.

        Two embedders with the same identity give the same vector for every text; anything that
        changes a vector (model name, dimensions, clusters, spread, match mode, the algorithm
        version, and with clusters the cluster geometry version
        :data:`~placeborag_core.embedding.clusters.GEOMETRY`) changes it. Seed manifests record
        it as the space's salt id.
        """
        return self._identity

    def __repr__(self) -> str:
        """One line for an assertion message: the model name, the dimensions and, with clusters,
        how many are declared (their names: :attr:`cluster_names`) and the matching options that
        differ from the defaults (without clusters they change nothing, so they are not shown)."""
        parts = [f"model_name={shown(self._model_name)}", f"dimensions={self._dimensions}"]
        if self._declaration:
            parts.append(f"clusters={len(self._declaration)}")
            if self._cluster_match != "exact":
                parts.append(f"cluster_match={shown(self._cluster_match)}")
            if self._cluster_spread != _DEFAULT_SPREAD:
                parts.append(f"cluster_spread={self._cluster_spread}")
        return f"FakeEmbedder({', '.join(parts)})"

    def __reduce__(self) -> tuple[type[FakeEmbedder], tuple[Any, ...]]:
        """Pickle as the constructor options: the space is rebuilt from them (same identity,
        same vectors), and no cache or lock is pickled."""
        clusters = {name: list(members) for name, members in self._declaration.items()}
        return (
            FakeEmbedder,
            (
                self._model_name,
                self._dimensions,
                clusters or None,
                self._cluster_match,
                self._cluster_spread,
            ),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FakeEmbedder) and other._identity == self._identity

    def __hash__(self) -> int:
        return hash(self._identity)

    # -- embedding ---------------------------------------------------------------------------

    def embed(self, text: str) -> list[float]:
        """Embed one text: a unit-length list of Python floats (so ``==`` compares vectors).

        The short route, bit-identical to :meth:`embed_many`: the text's vector in doubled
        integers is one ``bincount`` of its tokens' units
        (:class:`~placeborag_core.embedding._speed.token_units.TokenUnits`), and its floats come
        from
        :class:`~placeborag_core.embedding._speed.half_pools.HalfPools`. A few numpy calls
        whatever the number of tokens, and no float object created per entry.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}: {shown(text)}")
        require_unicode(text, "text")
        if self._clusters is not None:
            cluster = self._clusters.cluster_of(text)
            if cluster is not None:
                hashed = self._sums.hashed_rows([text])[0]
                member: list[float] = self._clusters.member_vector(text, cluster, hashed).tolist()
                return member
        token_list = tokens(text)
        if token_list:
            unit = self._pools.unit_list(self._units.doubled_sums(token_list))
            if unit is not None:
                return unit
        return self._rows.fallback_list()

    def embed_many(
        self, texts: Iterable[str], *, dtype: type[np.floating[Any]] = np.float64
    ) -> npt.NDArray[Any]:
        """Embed a batch, vectorised: row ``i`` equals ``embed(texts[i])`` exactly.

        ``dtype=numpy.float32`` gives the rows rounded to float32, converted block by block (what
        a vector store keeps, without a float64 copy of the whole batch). Large batches are
        processed in blocks of texts so the temporaries stay cache-sized.
        """
        try:
            floating = np.dtype(dtype).kind == "f"
        except TypeError:
            floating = False
        if not floating:
            raise TypeError(
                f"dtype must be a numpy floating type (numpy.float64, numpy.float32, ...), got "
                f"{shown(dtype)}"
            )
        batch = _validated_texts(texts)
        if len(batch) <= _BLOCK and dtype is np.float64:
            return self._rows.matrix(batch)
        matrix = np.empty((len(batch), self._dimensions), dtype=dtype)
        for start in range(0, len(batch), _BLOCK):
            block = batch[start : start + _BLOCK]
            out = matrix[start : start + len(block)]
            self._rows.unit_rows(block, self._sums.of(block), out=out)
        return matrix

    def embed_lists(self, texts: Iterable[str]) -> list[list[float]]:
        """Embed a batch as nested lists of Python floats, equal to ``embed_many(texts).tolist()``.

        For frameworks whose batch API returns ``list[list[float]]`` (LangChain's
        ``embed_documents``, LlamaIndex's batch embedding). Equal entries of a row share one
        float object, so this is faster than converting ``embed_many`` and keeps much less
        memory alive (``benchmarks/embed.py`` prints both).
        """
        batch = _validated_texts(texts)
        rows: list[list[float]] = []
        for start in range(0, len(batch), _BLOCK):
            rows.extend(self._rows.lists(batch[start : start + _BLOCK]))
        return rows

    def cluster_of(self, text: str) -> str | None:
        """The declared cluster ``text`` belongs to under this embedder's matching rule, or None."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}: {shown(text)}")
        require_unicode(text, "text")
        return None if self._clusters is None else self._clusters.cluster_of(text)

    def cluster_anchor(self, name: str) -> list[float]:
        """The anchor vector of a declared cluster (a unit vector orthogonal to the others).

        Raises ``TypeError`` for a name that is not a str and ``KeyError`` (naming the declared
        clusters) for a name no cluster has.
        """
        if not isinstance(name, str):
            raise TypeError(f"name must be a cluster name (str), got {type(name).__name__}")
        if self._clusters is None or name not in self._clusters.anchors:
            raise KeyError(
                f"no cluster named {shown(name)}; declared clusters: {list(self.cluster_names)}"
            )
        return cast(list[float], self._clusters.anchors[name].tolist())

    def features(self, text: str) -> list[Feature]:
        """The features ``text`` is made of, for explaining similarities.

        A cluster member is a single ``"cluster"`` feature (its vector comes from the cluster
        geometry: its hashed features only set its offset from the anchor); a text without any
        token is a single ``"fallback"`` feature.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}: {shown(text)}")
        require_unicode(text, "text")
        cluster = self.cluster_of(text)
        if cluster is not None:
            return [Feature(cluster, "cluster", -1, 1.0, 1.0)]
        found = self._hasher.features(tokens(text))
        return found or [Feature("", "fallback", -1, 1.0, 1.0)]

    # -- internals ---------------------------------------------------------------------------

    def _compute_identity(self) -> str:
        """The digest of everything a vector depends on (see :attr:`identity`).

        The cluster geometry version enters the spec only when clusters are declared: an
        embedder without clusters keeps the identity it always had (its vectors do not depend on
        the geometry), so manifests recorded with it do not report drift.
        """
        spec: dict[str, Any] = {
            "algorithm": ALGORITHM,
            "model_name": self._model_name,
            "dimensions": self._dimensions,
            "clusters": {name: list(members) for name, members in self._declaration.items()},
            "cluster_match": self._cluster_match if self._declaration else None,
            "cluster_spread": self._cluster_spread if self._declaration else None,
        }
        if self._declaration:
            spec["cluster_geometry"] = GEOMETRY
        encoded = json.dumps(spec, sort_keys=True, ensure_ascii=False).encode("utf-8")
        return hashlib.blake2b(encoded, digest_size=8).hexdigest()
