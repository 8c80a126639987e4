"""Declared clusters: texts a test says mean the same thing, placed by construction, not by luck.

Geometry, chosen so that a test author can compute similarities on paper:

- every cluster has an anchor; anchors are exactly orthonormal (random directions derived from the
  cluster name and the embedder's key, orthogonalised in name order, so declaration order does not
  matter);
- a member's vector is ``normalise(anchor + jitter * u)``. ``u``, the member's *offset direction*,
  is the text's own hashed vector (what it would be without clusters) made orthogonal to every
  anchor, so members keep their textual geometry inside the cluster; when nothing is left of it
  (the hashed vector lies in the span of the anchors) ``u`` is a random direction derived from the
  text, orthogonalised the same way. ``jitter`` is derived from the member's text in exact mode and
  from the cluster's name in substring mode (every chunk of a cluster at the same angle, so the
  chunks rank among themselves by what they share, not by their jitters), a fraction in
  ``[spread / 4, spread)`` that never depends on the dimension or the model. Hence
  ``cos(anchor, member) = 1 / sqrt(1 + jitter**2)`` whatever the dimension.

With ``theta = atan(jitter)`` (so ``cos(anchor, member) = cos(theta)``) and ``s = spread``, every
member of cluster A and member of cluster B != A, declared or matched as a substring, satisfy:

- ``cos(member, anchor_A) = cos(theta) >= 1 / sqrt(1 + s**2)``, ``cos(member, anchor_B) = 0``;
- ``cos(member_A, member_B) = sin(theta_A) sin(theta_B) (u_A . u_B)``, so its absolute value is
  below ``s**2 / (1 + s**2)``;
- two members of A: ``cos = cos(theta) cos(theta') + sin(theta) sin(theta') (u . u')``, at least
  ``cos(theta + theta') > (1 - s**2) / (1 + s**2)``; in substring mode (one jitter per cluster)
  it is ``(1 + jitter**2 (u . u')) / (1 + jitter**2)``, increasing with what the two texts share.

So below ``spread = 1 / sqrt(2)`` every text of a cluster is nearer its anchor and every other
text of its cluster than any text of another cluster, whatever the texts; at larger spreads the
construction-time check verifies it for the declared texts (the chunks a substring cluster will
match are not known then).

Dot products that decide vectors use :func:`math.fsum` (exactly rounded), never BLAS, whose
summation order varies between machines.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from placeborag_core.arithmetic import dot64
from placeborag_core.embedding.hashing import derive_key, uniform_vector, unit_fraction
from placeborag_core.messages import shown
from placeborag_core.unicode_text import require_unicode

__all__ = ["GEOMETRY", "ClusterMatch", "ClusterSpace", "build_cluster_space"]

#: Names the member geometry; part of the identity of an embedder that declares clusters (only:
#: the vectors of an embedder without clusters do not depend on it). Changed whenever a member's
#: vector changes, with a CHANGELOG line.
GEOMETRY = "placeborag-clusters/2"

ClusterMatch = Literal["exact", "substring"]
FloatArray = npt.NDArray[np.float64]
#: The hashed unit vectors of a batch of texts, one row each: how the embedder lends the cluster
#: space its hashing (the offset directions of members are made from it).
HashRows = Callable[[list[str]], FloatArray]

# The jitter of a member is derived from its text (or its cluster's name) under these fixed keys:
# never from the dimension or the model, so the anchor cosine of a member is the same in every
# space.
_JITTER_KEY = derive_key("cluster-jitter")
_CLUSTER_JITTER_KEY = derive_key("cluster-jitter", "cluster")
_MIN_JITTER_FRACTION = 0.25
# A hashed vector (unit length) whose part orthogonal to the anchors is shorter than this has no
# usable direction left: the offset falls back to the direction derived from the text.
_MIN_RESIDUAL = 1e-6


def _dot(a: FloatArray, b: FloatArray) -> float:
    return math.fsum(np.multiply(a, b).tolist())


def _unit(vector: FloatArray) -> FloatArray:
    return vector / math.sqrt(_dot(vector, vector))


def _orthogonalise(vector: FloatArray, basis: Sequence[FloatArray]) -> FloatArray:
    """Remove the components of ``vector`` along the orthonormal ``basis`` (twice, for accuracy)."""
    for _ in range(2):
        for direction in basis:
            vector = vector - _dot(vector, direction) * direction
    return vector


def _jitter(fraction: float, spread: float) -> float:
    return spread * (_MIN_JITTER_FRACTION + (1.0 - _MIN_JITTER_FRACTION) * fraction)


def jitter(text: str, spread: float) -> float:
    """The jitter of an exact-mode member: in ``[spread / 4, spread)``, derived from its text."""
    return _jitter(unit_fraction(text, _JITTER_KEY), spread)


def cluster_jitter(name: str, spread: float) -> float:
    """The jitter of every member of a substring-mode cluster: in ``[spread / 4, spread)``,
    derived from the cluster's name."""
    return _jitter(unit_fraction(name, _CLUSTER_JITTER_KEY), spread)


@dataclass(frozen=True)
class ClusterSpace:
    """The validated cluster declaration of one embedder, with its anchors."""

    match: ClusterMatch
    spread: float
    key: int
    dimensions: int
    members: Mapping[str, str]  # declared member text -> cluster name
    anchors: Mapping[str, FloatArray]
    _by_length: tuple[str, ...]  # declared members, longest first, for substring matching

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.anchors)

    def cluster_of(self, text: str) -> str | None:
        """The cluster ``text`` belongs to, or None.

        Exact mode compares the raw text with the declared members. Substring mode is
        case-sensitive and picks the longest declared member the text contains (ties between
        equally long members go to the alphabetically first).
        """
        if self.match == "exact":
            return self.members.get(text)
        for member in self._by_length:
            if member in text:
                return self.members[member]
        return None

    def jitter_of(self, text: str, cluster: str) -> float:
        """The jitter of ``text`` as a member of ``cluster``: its own in exact mode, the
        cluster's in substring mode (see the module docstring)."""
        if self.match == "exact":
            return jitter(text, self.spread)
        return cluster_jitter(cluster, self.spread)

    def offset_direction(self, text: str, hashed: FloatArray) -> FloatArray:
        """The unit offset direction of member ``text`` whose hashed unit vector is ``hashed``:
        ``hashed`` made orthogonal to every anchor, or, when that leaves (numerically) nothing,
        the direction derived from the text, orthogonalised the same way."""
        anchors = list(self.anchors.values())
        residual = _orthogonalise(hashed, anchors)
        if math.sqrt(_dot(residual, residual)) > _MIN_RESIDUAL:
            return _unit(residual)
        derived = uniform_vector(self.dimensions, derive_key(self.key, "member", text))
        return _unit(_orthogonalise(derived, anchors))

    def member_vector(self, text: str, cluster: str, hashed: FloatArray) -> FloatArray:
        """The unit vector of ``text`` as a member of ``cluster``, given its hashed unit vector
        (see the module docstring)."""
        u = self.offset_direction(text, hashed)
        return _unit(self.anchors[cluster] + self.jitter_of(text, cluster) * u)


def _validated_declaration(clusters: object) -> dict[str, list[str]]:
    if not isinstance(clusters, Mapping):
        raise TypeError(
            f"clusters must be a mapping of cluster name to a list of member texts, "
            f"got {type(clusters).__name__}"
        )
    declaration: dict[str, list[str]] = {}
    for name, members in clusters.items():
        if not isinstance(name, str) or not name:
            raise TypeError(f"cluster names must be non-empty strings, got {shown(name)}")
        require_unicode(name, f"cluster name {shown(name)}")
        if isinstance(members, str) or not isinstance(members, Sequence | set | frozenset):
            raise TypeError(
                f"cluster {shown(name)} must map to a list of member texts, "
                f"got {type(members).__name__} {shown(members)}"
            )
        texts: list[str] = []
        for member in members:
            if not isinstance(member, str) or not member:
                raise TypeError(
                    f"members of cluster {shown(name)} must be non-empty strings, got "
                    f"{shown(member)}"
                )
            require_unicode(member, f"a member of cluster {shown(name)}")
            if member not in texts:
                texts.append(member)
        if not texts:
            raise ValueError(
                f"cluster {shown(name)} has no member texts; a cluster needs at least one "
                f"(drop it from clusters= if it is not used)"
            )
        declaration[name] = sorted(texts)
    return declaration


def _check_separation(
    space: ClusterSpace, declaration: Mapping[str, list[str]], hash_rows: HashRows
) -> None:
    """Every declared member must be nearer its own anchor and its own cluster's members than any
    text declared in another cluster (other anchors are orthogonal to it, so they never come
    nearer).

    The bounds of the module docstring make this hold for any texts below ``spread = 1/sqrt(2)``;
    above it, this check is what vouches for the declared texts.
    """
    texts = [(member, name) for name, members in declaration.items() for member in members]
    if len({name for _, name in texts}) < 2:
        return
    hashed = hash_rows([text for text, _ in texts])
    vectors = np.array(
        [space.member_vector(text, name, hashed[i]) for i, (text, name) in enumerate(texts)]
    )
    dots = _DotTable(vectors)
    clusters = np.array([name for _, name in texts])
    for i, (text, name) in enumerate(texts):
        other = clusters != name
        if not other.any():
            continue
        # the first other-cluster text of largest cosine; the own text (or anchor) of smallest
        nearest, nearest_value = max(
            dots.near(i, np.flatnonzero(other), largest=True), key=lambda pair: pair[1]
        )
        mates = np.flatnonzero(clusters == name)
        own = [
            (
                1.0 / math.sqrt(1.0 + space.jitter_of(text, name) ** 2),
                f"the anchor of {shown(name)}",
            ),
            *(
                (value, repr(texts[k][0]))
                for k, value in dots.near(i, mates[mates != i], largest=False)
            ),
        ]
        farthest_value, farthest_label = min(own)
        if nearest_value >= farthest_value:
            raise ValueError(
                f"cluster_spread={space.spread} cannot separate the clusters at "
                f"dimensions={space.dimensions}: {shown(text)} (cluster {shown(name)}) has cosine "
                f"{nearest_value:.4f} with {shown(texts[nearest][0])} (cluster "
                f"{shown(texts[nearest][1])}) but only {farthest_value:.4f} with {farthest_label}; "
                f"lower cluster_spread or raise dimensions"
            )


class _DotTable:
    """Dot products of unit vectors, the same on every machine: a BLAS product (error at most
    ``n * 2**-52`` here) finds the candidates for an extreme, and those are computed exactly
    (``arithmetic.dot64``), so every comparison is decided on correctly rounded values."""

    def __init__(self, vectors: FloatArray) -> None:
        self.vectors = vectors
        self.approx = vectors @ vectors.T
        self.margin = 4 * vectors.shape[1] * 2.0**-52

    def near(
        self, i: int, among: npt.NDArray[np.intp], *, largest: bool
    ) -> list[tuple[int, float]]:
        """(row, exact dot with row ``i``) for the rows of ``among`` (ascending) that may hold
        the largest (or smallest) dot: every other row is certainly beyond them."""
        if not len(among):
            return []
        approx = self.approx[i, among]
        edge = approx.max() if largest else approx.min()
        near = among[np.abs(approx - edge) <= 2 * self.margin]
        return [(j, dot64(self.vectors[i], self.vectors[j])) for j in near.tolist()]


def build_cluster_space(
    clusters: object,
    *,
    match: ClusterMatch,
    spread: float,
    key: int,
    dimensions: int,
    hash_rows: HashRows,
) -> ClusterSpace:
    """Validate a cluster declaration and place its anchors; raise if the geometry cannot fit it.

    ``hash_rows`` gives the hashed unit vectors of texts (the embedder's, without clusters); the
    check of the declared members needs their vectors.
    """
    declaration = _validated_declaration(clusters)
    members: dict[str, str] = {}
    for name in sorted(declaration):
        for member in declaration[name]:
            if member in members:
                raise ValueError(
                    f"{shown(member)} is declared in more than one cluster "
                    f"({shown(members[member])} and {shown(name)}); a text can belong to one "
                    f"cluster only"
                )
            members[member] = name
    if len(declaration) > dimensions - 1:
        raise ValueError(
            f"{len(declaration)} clusters need at least {len(declaration) + 1} dimensions "
            f"(one orthogonal anchor each, plus room for the members' jitter), "
            f"got dimensions={dimensions}"
        )
    anchors: dict[str, FloatArray] = {}
    for name in sorted(declaration):
        direction = uniform_vector(dimensions, derive_key(key, "anchor", name))
        anchors[name] = _unit(_orthogonalise(direction, list(anchors.values())))
    space = ClusterSpace(
        match=match,
        spread=spread,
        key=key,
        dimensions=dimensions,
        members=members,
        anchors=anchors,
        _by_length=tuple(sorted(members, key=lambda member: (-len(member), member))),
    )
    _check_separation(space, declaration, hash_rows)
    return space
