"""FAISS's distance options: ``distance_strategy`` and ``normalize_L2``.

LangChain's ``FAISS`` names its distance with a ``DistanceStrategy`` rather than a metric:
COSINE, DOT_PRODUCT and JACCARD still build an L2 index, and the strategy alone decides the
relevance function and which way ``score_threshold`` compares. ``normalize_L2=True`` scales
stored and query vectors to unit length in float32, and warns under any strategy but
EUCLIDEAN_DISTANCE. An integration without such options (``IntegrationFacts.distance_settings``
empty, ``normalize_l2_quiet`` None) refuses them, and its setting is the core metric. Facts:
``docs/integrations/langchain.md#lc-faiss-cosine-strategy``, ``#lc-faiss-dot-jaccard``,
``#lc-faiss-threshold``, ``#lc-faiss-normalize-l2``, ``#lc-faiss-normalize-warning``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from placeborag_core.adapter_kit import require_unicode
from placeborag_core.backends import Profile
from placeborag_langchain.integration_facts import IntegrationFacts
from placeborag_langchain.relevance import RelevanceFn

__all__ = ["DistanceOptions", "requested_distance", "shown_setting"]


def requested_distance(
    facts: IntegrationFacts, metric: str | None, setting: Any
) -> tuple[str | None, str | None]:
    """The core metric and the integration's distance setting for a constructor's ``metric=``
    and ``distance_strategy=`` (either may be None: decided later by the store).

    FAISS takes any value: ``MAX_INNER_PRODUCT`` builds an inner-product index and everything
    else an L2 one (``facts.unknown_setting_metric``); a name without a relevance function fails
    only when relevance scores are asked for (``#lc-faiss-strategy-unknown``). Raises, before
    anything is built, TypeError for a setting that is neither a ``DistanceStrategy`` nor a str,
    and ValueError for a metric that contradicts the setting or an integration without
    distance settings.
    """
    if setting is None:
        return metric, None
    if not facts.distance_settings:
        raise ValueError(
            f"distance_strategy is FAISS's option; under profile {facts.profile!r} choose the "
            f"distance with metric= (got distance_strategy={setting!r})"
        )
    name = getattr(setting, "value", setting)  # DistanceStrategy is a str enum
    if not isinstance(name, str):
        raise TypeError(
            "distance_strategy must be a DistanceStrategy or its name (a str: "
            f"{', '.join(facts.distance_settings)}), got {type(setting).__name__} {setting!r}"
        )
    require_unicode(name, "distance_strategy")
    implied = facts.distance_settings.get(name, facts.unknown_setting_metric)
    if implied is None:
        raise ValueError(
            f"unknown distance_strategy {setting!r}; {facts.integration} takes one of: "
            f"{', '.join(facts.distance_settings)}"
        )
    if metric is not None and metric != implied:
        raise ValueError(
            f"distance_strategy={name} runs on metric {implied!r}; got metric={metric!r} "
            f"(give one of the two, or matching ones)"
        )
    return implied, name


def shown_setting(setting: Any) -> str | None:
    """How FAISS shows a given ``distance_strategy`` in its warning: ``f"{value}"`` (an enum
    member as ``DistanceStrategy.COSINE``, a plain str as itself)."""
    return None if setting is None else f"{setting}"


def _default_setting(facts: IntegrationFacts, metric: str) -> str:
    """The distance setting a store on ``metric`` has when the constructor named none."""
    for name, on in facts.distance_settings.items():
        if on == metric:
            return name
    return metric


@dataclass(frozen=True)
class DistanceOptions:
    """One store's distance setting (FAISS: the ``DistanceStrategy`` name; otherwise the core
    metric) and whether it scales vectors to unit length (FAISS's ``normalize_L2``)."""

    setting: str
    normalize: bool = False
    shown: str | None = None

    @classmethod
    def for_store(
        cls,
        facts: IntegrationFacts,
        metric: str,
        setting: str | None,
        normalize: bool,
        *,
        stacklevel: int,
        shown: str | None = None,
    ) -> DistanceOptions:
        """The options of a store on core ``metric``, for the ``setting`` resolved by
        `requested_distance` (None: the metric's default) and the ``normalize_L2`` value.

        Checks ``normalize_L2`` against the integration and warns where FAISS does;
        ``stacklevel`` is counted from the caller of this method, as for `warnings.warn`.
        """
        if not isinstance(normalize, bool):
            raise TypeError(f"normalize_L2 must be a bool, got {type(normalize).__name__}")
        setting = setting or _default_setting(facts, metric)
        quiet = facts.normalize_l2_quiet
        if normalize and quiet is None:
            raise ValueError(
                f"normalize_L2 is FAISS's option; {facts.integration} has no such option"
            )
        shown = shown or f"DistanceStrategy.{setting}"
        if normalize and quiet is not None and setting not in quiet:
            warnings.warn(
                facts.normalize_l2_warning.format(setting=shown),
                UserWarning,
                stacklevel=stacklevel + 1,
            )
        return cls(setting, normalize, shown)

    def unit(self, vectors: list[list[float]]) -> list[list[float]]:
        """``vectors`` as ``faiss.normalize_L2`` leaves them (float32, zero vectors unchanged)
        when the store normalises; otherwise as given."""
        if not self.normalize or not vectors:
            return vectors
        try:
            matrix = np.asarray(vectors, dtype=np.float32)
        except (TypeError, ValueError):
            return vectors  # malformed: the core's validation names the record at fault
        if matrix.ndim != 2:
            return vectors
        norms = np.sqrt(np.einsum("ij,ij->i", matrix, matrix))
        scale = np.ones_like(norms)
        np.divide(np.float32(1.0), norms, out=scale, where=norms > 0)
        unit: list[list[float]] = (matrix * scale[:, None]).tolist()
        return unit

    def unit_query(self, query: str | list[float]) -> str | list[float]:
        """A query vector as `unit` leaves it; a text query (embedded by the core) as is."""
        return query if isinstance(query, str) else self.unit([list(query)])[0]

    def keeps_higher(self, facts: IntegrationFacts, profile: Profile) -> bool:
        """Whether ``score_threshold`` keeps the scores above it (else those below)."""
        if facts.threshold_keeps_higher is None:
            return profile.higher_is_better
        return self.setting in facts.threshold_keeps_higher

    def relevance(self, facts: IntegrationFacts) -> RelevanceFn:
        """The integration's relevance function for this setting; ValueError (the
        integration's message) for a setting without one."""
        try:
            return facts.relevance[self.setting]
        except KeyError:
            raise ValueError(facts.relevance_error.format(metric=self.setting)) from None
