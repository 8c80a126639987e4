"""Tie-aware comparison of two rankings, and type-aware comparison of two errors.

Rankings (in the manner of qdrant-client's congruence tests): scores are compared per id and
per rank within a float32 tolerance; ranks are cut into groups of tied scores; groups must hold
the same ids, and inside a group the order must match unless the engine's tie rule is a known
divergence. The last group may be cut by k: then each side's ids must be tied candidates.

Errors: an engine raises its own classes (``chromadb.errors.InvalidArgumentError`` is not a
``ValueError``; qdrant's pydantic ``ValidationError`` is one). We compare by the *nearest
builtin ancestor* of the engine's exception: code written against the engine catches that
builtin (or ``Exception`` for Chroma's own errors), so our exception must be an instance of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._divergences import FLOAT_ROUNDING


@dataclass(frozen=True)
class Hit:
    """One result: id and the score the engine reports."""

    id: str
    score: float


@dataclass(frozen=True)
class TiePolicy:
    """Which known divergence (if any) explains a different tie subset or tie order."""

    subset: str | None
    order: str | None
    whole_sort: bool = False
    """The engine orders equal scores by a sort over every candidate (PostgreSQL's tuplesort):
    where the last bits make other candidates equal, or ordered the other way, on one side only,
    the sort compares differently and the order inside an exact tie may change
    (``float-rounding``)."""


def weak_order(scores: Mapping[str, float]) -> list[frozenset[str]]:
    """The candidates in score order, equal (bit-identical; NaN last and equal to NaN, as a sort
    has it) ones grouped: two sides whose weak orders differ make a sort compare differently."""
    groups: dict[Any, set[str]] = {}
    for key, value in scores.items():
        groups.setdefault((1, 0.0) if value != value else (0, value), set()).add(key)
    return [frozenset(groups[value]) for value in sorted(groups)]


@dataclass(frozen=True)
class Verdict:
    """Outcome of one comparison."""

    agree: bool
    divergences: tuple[str, ...] = ()
    detail: str = ""


def _close(a: float, b: float, tol: float) -> bool:
    if a != a or b != b:  # NaN: pgvector cosine distance of a zero vector
        return a != a and b != b
    return abs(a - b) <= tol


def _groups(hits: Sequence[Hit], tol: float) -> list[list[int]]:
    """Consecutive ranks whose scores chain within ``tol``."""
    groups: list[list[int]] = []
    for i, hit in enumerate(hits):
        if groups and _close(hit.score, hits[i - 1].score, tol):
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _exact_tie(hits: Sequence[Hit], ranks: Sequence[int]) -> bool:
    scores = {hits[i].score for i in ranks}
    return len(scores) == 1 or all(s != s for s in scores)  # all NaN


def _show(hits: Sequence[Hit]) -> str:
    return "[" + ", ".join(f"{h.id}:{h.score:.9g}" for h in hits) + "]"


def compare_rankings(
    ours: Sequence[Hit],
    theirs: Sequence[Hit],
    *,
    k: int,
    candidates: Mapping[str, float],
    tol: float,
    policy: TiePolicy,
    our_candidates: Mapping[str, float] | None = None,
) -> Verdict:
    """Compare our result list with the engine's for the same query, filter and k.

    ``candidates`` is the engine's exhaustive answer (every record passing the filter, with
    its score); it decides which records are tied at a cut and what each id should score.
    ``our_candidates`` is ours: where we score the engine's exactly tied records a few ulps
    apart, float rounding, not the tie rule, picked the records kept at the cut.
    """
    both = f"ours={_show(ours)} theirs={_show(theirs)}"
    if len(ours) != len(theirs):
        return Verdict(False, detail=f"count {len(ours)} != {len(theirs)}: {both}")
    for hit in ours:
        if hit.id not in candidates:
            return Verdict(False, detail=f"{hit.id} is not a candidate of the engine: {both}")
        if not _close(hit.score, candidates[hit.id], tol):
            return Verdict(
                False,
                detail=f"score of {hit.id}: ours {hit.score!r}, engine {candidates[hit.id]!r}",
            )
    for rank, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        if not _close(a.score, b.score, tol):
            return Verdict(False, detail=f"rank {rank + 1} scores differ: {both}")
    if [h.id for h in ours] == [h.id for h in theirs]:
        return Verdict(True)

    found: set[str] = set()
    groups = _groups(theirs, tol)
    for index, ranks in enumerate(groups):
        our_ids = [ours[i].id for i in ranks]
        their_ids = [theirs[i].id for i in ranks]
        if our_ids == their_ids:
            continue
        rounding = not (_exact_tie(theirs, ranks) and _exact_tie(ours, ranks))
        if set(our_ids) == set(their_ids):
            if rounding or (
                policy.whole_sort
                and our_candidates is not None
                and weak_order(candidates) != weak_order(our_candidates)
            ):
                found.add(FLOAT_ROUNDING)
            elif policy.order is not None:
                found.add(policy.order)
            else:
                return Verdict(False, detail=f"tie order at ranks {ranks[0] + 1}..: {both}")
            continue
        boundary = theirs[ranks[0]].score
        tied = {i for i, s in candidates.items() if _close(s, boundary, tol)}
        is_cut = index == len(groups) - 1 and len(theirs) == k and len(tied) > len(ranks)
        if not (is_cut and set(our_ids) <= tied):
            return Verdict(False, detail=f"different ids at ranks {ranks[0] + 1}..: {both}")
        # At a cut, rounding decides if either side does not see the tied records as exactly
        # equal (the engine's scores, or ours when our exhaustive ranking is given).
        seen = {our_candidates[i] for i in tied | set(our_ids)} if our_candidates else set()
        if rounding or len({candidates[i] for i in tied}) > 1 or len(seen) > 1:
            found.add(FLOAT_ROUNDING)
        elif policy.subset is not None:
            found.add(policy.subset)
        else:
            return Verdict(False, detail=f"different tie subset at the cut: {both}")
    return Verdict(True, divergences=tuple(sorted(found)), detail=both)


def builtin_base(exc_type: type[BaseException]) -> type[BaseException]:
    """The nearest ancestor of an exception class that is a builtin."""
    for klass in exc_type.__mro__:
        if klass.__module__ == "builtins" and issubclass(klass, BaseException):
            return klass
    return BaseException  # pragma: no cover - every exception has a builtin ancestor


def compare_errors(ours: BaseException | None, theirs: BaseException | None) -> Verdict:
    """Both succeed, or both fail and ours is catchable as the engine's builtin base."""
    if ours is None and theirs is None:
        return Verdict(True)
    if theirs is None:
        return Verdict(False, detail=f"we raise {ours!r}; the engine accepts")
    if ours is None:
        return Verdict(False, detail=f"we accept; the engine raises {theirs!r}")
    base = builtin_base(type(theirs))
    if isinstance(ours, base):
        return Verdict(True, detail=f"{type(ours).__name__} ~ {type(theirs).__name__}")
    return Verdict(
        False,
        detail=(
            f"we raise {type(ours).__name__}: {ours}; the engine raises "
            f"{type(theirs).__name__} (catchable as {base.__name__}): {theirs}"
        ),
    )
