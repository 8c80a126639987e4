"""What an adapter package needs from the core besides the store: small shared helpers.

The LangChain and LlamaIndex adapters (and an adapter of your own) import the core only through
its public modules: this one, the package itself, ``embedding``, ``store``, ``filters``,
``backends`` (with each engine's package: ``backends.lancedb``, ``backends.milvus``,
``backends.pgvector``) and ``pytest_plugin``. These helpers keep an adapter's messages, limits
and package plumbing the same as the core's: ``shown`` (a value in a message, bounded),
``require_unicode`` (a str argument that can be encoded), the nesting limits of filters and
metadata, ``lazy_exports``/``require_framework`` (a package ``__init__`` that stays cheap and
names the missing extra) and the demo corpus the ``placeborag demo`` rows run on.

Importing this module stays cheap (pytest imports every plugin, and a plugin its package): the
demo corpus, whose module imports the store, is imported on first read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from placeborag_core.lazy_imports import lazy_exports, require_framework
from placeborag_core.limits import MAX_FILTER_DEPTH, MAX_METADATA_DEPTH, nesting_depth_exceeds
from placeborag_core.messages import shown
from placeborag_core.unicode_text import require_unicode

if TYPE_CHECKING:
    from placeborag_core.demo import KNOWLEDGE_BASE, QUERY

__all__ = [
    "KNOWLEDGE_BASE",
    "MAX_FILTER_DEPTH",
    "MAX_METADATA_DEPTH",
    "QUERY",
    "lazy_exports",
    "nesting_depth_exceeds",
    "require_framework",
    "require_unicode",
    "shown",
]

_DEMO_CORPUS = ("KNOWLEDGE_BASE", "QUERY")


def __getattr__(name: str) -> Any:
    """The demo corpus (``KNOWLEDGE_BASE``, ``QUERY``), read from ``placeborag_core.demo`` on
    first use."""
    if name not in _DEMO_CORPUS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from placeborag_core import demo

    value = getattr(demo, name)
    globals()[name] = value
    return value
