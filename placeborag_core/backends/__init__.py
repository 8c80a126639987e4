"""The backends layer: what each imitated engine does, as data and small functions, one module
(or, for Qdrant, one package) per engine.

The store pipeline and the adapters read an engine only through its
:class:`~placeborag_core.backends.profile.Profile`; they never name one. Adding an engine is
adding its module (a ``PROFILE`` built from the pieces in ``profile``, ``formulas`` and ``ties``,
with the engine's messages and error types), listing it in :data:`ENGINES`, and adding its fidelity
fixture; see CONTRIBUTING.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from placeborag_core.backends import chroma, default, faiss, weaviate
from placeborag_core.backends.lancedb import profile as lancedb
from placeborag_core.backends.milvus import profile as milvus
from placeborag_core.backends.pgvector import profile as pgvector
from placeborag_core.backends.profile import (
    ColumnRule,
    IdRule,
    KRule,
    MetricVariant,
    NativeFilter,
    NativeWhere,
    PayloadLayout,
    Profile,
    registry,
)
from placeborag_core.backends.qdrant import profile as qdrant
from placeborag_core.backends.ties import TieRule

__all__ = [
    "ENGINES",
    "PROFILES",
    "ColumnRule",
    "IdRule",
    "KRule",
    "MetricVariant",
    "NativeFilter",
    "NativeWhere",
    "PayloadLayout",
    "Profile",
    "TieRule",
]

ENGINES = (default, chroma, qdrant, faiss, weaviate, milvus, pgvector, lancedb)
"""The engine modules, each with a ``PROFILE`` (and, if it has more than one, the others in
``MORE_PROFILES``), in the order profiles are listed."""

PROFILES: Mapping[str, Profile] = MappingProxyType(
    registry(
        tuple(
            profile
            for engine in ENGINES
            for profile in (engine.PROFILE, *getattr(engine, "MORE_PROFILES", ()))
        )
    )
)
"""The built-in profiles by name: ``default``, ``chroma``, ``qdrant``, ``faiss``, ``weaviate``,
``milvus``, ``milvus_int64``, ``pgvector``, ``lancedb``."""
