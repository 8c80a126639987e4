"""Why two texts are near each other under a ``FakeEmbedder``: ``explain(query, text)``.

A hashed vector is a sum of signed feature contributions, so the cosine of two texts splits exactly
into one term per feature they share (a word or character n-gram present in both) plus a remainder
from distinct features that happen to hash to the same bucket (collisions). For cluster members the
geometry is declared instead: the cosine splits into the part carried by the common anchor and the
part carried by the members' offsets from it (their jitter, along their own hashed vectors, so this
part grows with what the two texts share).

The result is an ``Explanation``: structured fields for a test to assert on, and a ``__str__`` meant
to be read in a notebook or in an assertion message.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from placeborag_core.arithmetic import cosine
from placeborag_core.messages import shown

if TYPE_CHECKING:
    from placeborag_core.embedding.embedder import FakeEmbedder

__all__ = ["Explanation", "SharedFeature", "explain"]

Relation = Literal["features", "same_cluster", "different_clusters", "one_clustered"]

# __str__ lists every shared word but only this many n-grams; the rest are summed on one line.
_NGRAMS_SHOWN = 6
_TEXT_SHOWN = 60


@dataclass(frozen=True)
class SharedFeature:
    """A feature present in both texts and the part of the cosine it accounts for."""

    name: str
    kind: str
    contribution: float
    """This feature's term of the cosine: its weight in one unit vector times that in the other."""
    share: float | None
    """``contribution / cosine``; ``None`` when the cosine is (numerically) zero."""


@dataclass(frozen=True)
class Explanation:
    """The decomposition of ``cosine(embed(query), embed(text))``.

    ``relation`` says which decomposition applies:

    - ``"features"``: neither text is a cluster member; ``cosine == sum(f.contribution for f in
      shared) + collision``.
    - ``"same_cluster"``: both belong to ``cluster``; ``cosine == anchor_part + jitter_part``, where
      ``anchor_part`` is the product of each text's cosine with the cluster anchor and
      ``jitter_part`` comes from the members' offsets (made from their hashed vectors).
    - ``"different_clusters"``: anchors are orthogonal, so everything is jitter (``jitter_part``).
    - ``"one_clustered"``: one text has a declared vector and the other a hashed one; the member's
      features reach its vector only through its offset from the anchor, so the cosine is not
      split by feature (the whole of it is reported as ``collision``).
    """

    query: str
    text: str
    cosine: float
    relation: Relation
    shared: tuple[SharedFeature, ...] = ()
    collision: float = 0.0
    query_cluster: str | None = None
    text_cluster: str | None = None
    anchor_part: float = 0.0
    jitter_part: float = 0.0

    @property
    def cluster(self) -> str | None:
        """The cluster both texts belong to, if they share one."""
        return self.query_cluster if self.relation == "same_cluster" else None

    @property
    def words(self) -> tuple[SharedFeature, ...]:
        """The shared word features, largest contribution first."""
        return tuple(f for f in self.shared if f.kind == "word")

    @property
    def ngrams(self) -> tuple[SharedFeature, ...]:
        """The shared character n-gram features, largest contribution first."""
        return tuple(f for f in self.shared if f.kind == "ngram")

    def __str__(self) -> str:
        lines = [f"cosine({_short(self.query)}, {_short(self.text)}) = {self.cosine:.4f}"]
        lines.extend(f"  {line}" for line in self._body())
        return "\n".join(lines)

    def _percent(self, part: float) -> str:
        if abs(self.cosine) < 1e-12:
            return ""
        return f"  ({_tidy(100.0 * part / self.cosine, 1):.1f}%)"

    def _body(self) -> list[str]:
        if self.relation == "same_cluster":
            anchor, jitter = self.anchor_part, self.jitter_part
            return [
                f"both are members of cluster {shown(self.query_cluster)}",
                f"through the shared anchor: {_tidy(anchor):+.4f}{self._percent(anchor)}",
                f"through their offsets:     {_tidy(jitter):+.4f}{self._percent(jitter)}",
            ]
        if self.relation == "different_clusters":
            return [
                (
                    f"members of different clusters ({shown(self.query_cluster)} and "
                    f"{shown(self.text_cluster)}); cluster anchors are orthogonal, so all of the "
                    "cosine comes from their jitter"
                ),
            ]
        if self.relation == "one_clustered":
            member, cluster = (
                ("query", self.query_cluster)
                if self.query_cluster is not None
                else ("text", self.text_cluster)
            )
            return [
                (
                    f"only the {member} is a member of a cluster ({shown(cluster)}); the other is "
                    "hashed, and the member's words reach its vector only through its offset "
                    "from the anchor, so the cosine is not split by feature"
                ),
            ]
        return self._feature_lines()

    def _feature_lines(self) -> list[str]:
        if not self.shared:
            lines = ["no shared words or n-grams"]
        else:
            lines = ["shared features and their part of the cosine:"]
            shown = [f for f in self.shared if f.kind != "ngram"]
            ngrams = self.ngrams
            shown.extend(ngrams[:_NGRAMS_SHOWN])
            width = max(len(repr(f.name)) for f in shown)
            for f in sorted(shown, key=lambda f: -f.contribution):
                lines.append(
                    f"  {f.kind:<6} {f.name!r:<{width}} {_tidy(f.contribution):+.4f}"
                    f"{self._percent(f.contribution)}"
                )
            rest = ngrams[_NGRAMS_SHOWN:]
            if rest:
                total = sum(f.contribution for f in rest)
                summary = f"{_tidy(total):+.4f}{self._percent(total)}"
                lines.append(f"  ... {len(rest)} more shared n-grams: {summary}")
        lines.append(
            f"hash collisions (different features, same bucket): {_tidy(self.collision):+.4f}"
            f"{self._percent(self.collision)}"
        )
        return lines


def _tidy(value: float, digits: int = 4) -> float:
    """``value`` rounded for display, with a negative zero shown as zero."""
    return round(value, digits) + 0.0


def _short(text: str) -> str:
    if len(text) <= _TEXT_SHOWN:
        return repr(text)
    return repr(text[: _TEXT_SHOWN - 1] + "…")


def _signed_weights(
    embedder: FakeEmbedder, text: str
) -> tuple[dict[tuple[str, str, int], float], float]:
    """Per-feature summed signed weight, and the norm of the unnormalised vector they add up to."""
    weights: dict[tuple[str, str, int], float] = {}
    vector = np.zeros(embedder.dimensions, dtype=np.float64)
    for feature in embedder.features(text):
        key = (feature.kind, feature.name, feature.bucket)
        weights[key] = weights.get(key, 0.0) + feature.sign * feature.weight
        vector[feature.bucket] += feature.sign * feature.weight
    # multiples of 1/2: the squares and their sum are exact, so this is the correctly rounded norm
    return weights, math.sqrt(math.fsum((vector * vector).tolist()))


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """The cosine the store reports as ``Match.similarity`` (in float64): the same everywhere."""
    return cosine(a, b)


def _explain_features(embedder: FakeEmbedder, query: str, text: str, cosine: float) -> Explanation:
    query_weights, query_norm = _signed_weights(embedder, query)
    text_weights, text_norm = _signed_weights(embedder, text)
    shared = []
    for key in query_weights.keys() & text_weights.keys():
        kind, name, _bucket = key
        contribution = query_weights[key] * text_weights[key] / (query_norm * text_norm)
        share = contribution / cosine if abs(cosine) >= 1e-12 else None
        shared.append(SharedFeature(name=name, kind=kind, contribution=contribution, share=share))
    shared.sort(key=lambda f: (-f.contribution, f.kind, f.name))
    collision = cosine - sum(f.contribution for f in shared)
    return Explanation(query, text, cosine, "features", tuple(shared), collision)


def explain(query: str, text: str, embedder: FakeEmbedder | None = None) -> Explanation:
    """Explain the cosine between ``query`` and ``text`` (embedder default: ``FakeEmbedder()``).

    Works anywhere: ``print(explain("refund policy", "our refund policy"))`` in a notebook, or
    ``assert explain(q, doc).words`` in a test. Raises ``TypeError`` for a non-str text.
    """
    for label, value in (("query", query), ("text", text)):
        if not isinstance(value, str):
            raise TypeError(f"explain() needs str {label}, got {type(value).__name__}")
    from placeborag_core.embedding.embedder import FakeEmbedder

    if embedder is None:
        embedder = FakeEmbedder()
    elif not isinstance(embedder, FakeEmbedder):
        raise TypeError(
            f"explain() needs a placeborag FakeEmbedder (its features are what it explains), "
            f"got {type(embedder).__name__}"
        )
    cosine = _cosine(embedder.embed(query), embedder.embed(text))
    query_cluster, text_cluster = embedder.cluster_of(query), embedder.cluster_of(text)
    if query_cluster is None and text_cluster is None:
        return _explain_features(embedder, query, text, cosine)
    if query_cluster is None or text_cluster is None:
        return Explanation(
            query, text, cosine, "one_clustered", (), cosine, query_cluster, text_cluster
        )
    if query_cluster != text_cluster:
        return Explanation(
            query,
            text,
            cosine,
            "different_clusters",
            query_cluster=query_cluster,
            text_cluster=text_cluster,
            jitter_part=cosine,
        )
    anchor = embedder.cluster_anchor(query_cluster)
    anchor_part = _cosine(anchor, embedder.embed(query)) * _cosine(anchor, embedder.embed(text))
    return Explanation(
        query,
        text,
        cosine,
        "same_cluster",
        anchor_part=anchor_part,
        jitter_part=cosine - anchor_part,
        query_cluster=query_cluster,
        text_cluster=text_cluster,
    )
