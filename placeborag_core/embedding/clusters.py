"""Declared clusters: texts a test says mean the same thing, placed by construction, not by luck.

Geometry, chosen so that a test author can compute similarities on paper:

- every cluster has an anchor; anchors are exactly orthonormal (random directions derived from the
  cluster name and the embedder's key, orthogonalised in name order, so declaration order does not
  matter);
- a member's vector is ``normalise(anchor + jitter * u)`` where ``u`` is a unit vector orthogonal to
  every anchor, derived from the member's text, and ``jitter`` is a fraction of ``cluster_spread``
  derived from the text alone. Hence ``cos(anchor, member) = 1 / sqrt(1 + jitter**2)`` whatever the
  dimension, and members rank against their anchor in the same order at every dimension.

Dot products that decide vectors use :func:`math.fsum` (exactly rounded), never BLAS, whose
summation order varies between machines.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from placeborag_core.embedding.hashing import derive_key, uniform_vector, unit_fraction

__all__ = ["ClusterMatch", "ClusterSpace", "build_cluster_space"]

ClusterMatch = Literal["exact", "substring"]
FloatArray = npt.NDArray[np.float64]

# The jitter of a member is derived from its text under this fixed key: never from the dimension
# or the model, so the anchor cosine of a member is the same in every space.
_JITTER_KEY = derive_key("cluster-jitter")
_MIN_JITTER_FRACTION = 0.25


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


def jitter(text: str, spread: float) -> float:
    """The jitter of a member text: in ``[spread / 4, spread)``, derived from the text alone."""
    fraction = _MIN_JITTER_FRACTION + (1.0 - _MIN_JITTER_FRACTION) * unit_fraction(
        text, _JITTER_KEY
    )
    return spread * fraction


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

    def member_vector(self, text: str, cluster: str) -> FloatArray:
        """The unit vector of ``text`` as a member of ``cluster`` (see the module docstring)."""
        direction = uniform_vector(self.dimensions, derive_key(self.key, "member", text))
        u = _unit(_orthogonalise(direction, list(self.anchors.values())))
        return _unit(self.anchors[cluster] + jitter(text, self.spread) * u)


def _validated_declaration(clusters: object) -> dict[str, list[str]]:
    if not isinstance(clusters, Mapping):
        raise TypeError(
            f"clusters must be a mapping of cluster name to a list of member texts, "
            f"got {type(clusters).__name__}"
        )
    declaration: dict[str, list[str]] = {}
    for name, members in clusters.items():
        if not isinstance(name, str) or not name:
            raise TypeError(f"cluster names must be non-empty strings, got {name!r}")
        if isinstance(members, str) or not isinstance(members, Sequence | set | frozenset):
            raise TypeError(
                f"cluster {name!r} must map to a list of member texts, "
                f"got {type(members).__name__} {members!r}"
            )
        texts: list[str] = []
        for member in members:
            if not isinstance(member, str) or not member:
                raise TypeError(
                    f"members of cluster {name!r} must be non-empty strings, got {member!r}"
                )
            if member not in texts:
                texts.append(member)
        if not texts:
            raise ValueError(
                f"cluster {name!r} has no member texts; a cluster needs at least one "
                f"(drop it from clusters= if it is not used)"
            )
        declaration[name] = sorted(texts)
    return declaration


def _check_separation(space: ClusterSpace, declaration: Mapping[str, list[str]]) -> None:
    """Every member must be nearer its own anchor and its own cluster's members than any text
    declared in another cluster (other anchors are orthogonal to it, so they never come nearer)."""
    texts = [(member, name) for name, members in declaration.items() for member in members]
    if len({name for _, name in texts}) < 2:
        return
    vectors = np.array([space.member_vector(text, name) for text, name in texts])
    similarity = vectors @ vectors.T
    clusters = np.array([name for _, name in texts])
    for i, (text, name) in enumerate(texts):
        other = clusters != name
        if not other.any():
            continue
        nearest = int(np.argmax(np.where(other, similarity[i], -np.inf)))
        own = [
            (1.0 / math.sqrt(1.0 + jitter(text, space.spread) ** 2), f"the anchor of {name!r}"),
            *(
                (float(similarity[i, k]), repr(texts[k][0]))
                for k in np.flatnonzero(clusters == name)
                if k != i
            ),
        ]
        farthest_value, farthest_label = min(own)
        if similarity[i, nearest] >= farthest_value:
            raise ValueError(
                f"cluster_spread={space.spread} cannot separate the clusters at "
                f"dimensions={space.dimensions}: {text!r} (cluster {name!r}) has cosine "
                f"{similarity[i, nearest]:.4f} with {texts[nearest][0]!r} (cluster "
                f"{texts[nearest][1]!r}) but only {farthest_value:.4f} with {farthest_label}; "
                f"lower cluster_spread or raise dimensions"
            )


def build_cluster_space(
    clusters: object,
    *,
    match: ClusterMatch,
    spread: float,
    key: int,
    dimensions: int,
) -> ClusterSpace:
    """Validate a cluster declaration and place its anchors; raise if the geometry cannot fit it."""
    declaration = _validated_declaration(clusters)
    members: dict[str, str] = {}
    for name in sorted(declaration):
        for member in declaration[name]:
            if member in members:
                raise ValueError(
                    f"{member!r} is declared in more than one cluster "
                    f"({members[member]!r} and {name!r}); a text can belong to one cluster only"
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
    _check_separation(space, declaration)
    return space
