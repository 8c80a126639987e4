"""Which fixtures read each adapter marker option: placeborag's own adapters' options and their
reader fixtures, known without importing the adapters.

An adapter plugin declares its marker options through the ``pytest_placeborag_extra_options``
hook, but a plugin whose framework is not installed cannot be imported, so its hook never runs.
Its options must still be accepted (a marker written for ``langchain_vector_store`` should fail
that test with the ``pip install`` line, not with "unknown option"), so the option names of the
adapters shipped with placeborag are kept here, in a module that imports no framework:
``ADAPTER_OPTIONS`` maps each adapter's plugin module (as named in the ``placeborag.fixtures``
entry-point group) to its option names, each with the fixtures that read it (the vector-store
fixture; the embedding fixtures read none of them), and the adapter plugins declare exactly these
names.

An option that only adapter fixtures read is silently ignored by every other fixture.
``unread_options`` finds the ones a test sets on itself but cannot have meant, because it requests
placeborag fixtures and none of those that read the option. This module is free of pytest so the
rule can be tested on its own.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from types import MappingProxyType

__all__ = ["ADAPTER_OPTIONS", "OptionReaders", "unread_options"]

_LANGCHAIN_STORE = ("langchain_vector_store",)
_LLAMAINDEX_STORE = ("llamaindex_vector_store",)

ADAPTER_OPTIONS: Mapping[str, Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "placeborag_langchain.pytest_plugin": MappingProxyType(
            {
                "collection_name": _LANGCHAIN_STORE,
                "distance_strategy": _LANGCHAIN_STORE,
                "namespace": _LANGCHAIN_STORE,
            }
        ),
        "placeborag_llamaindex.pytest_plugin": MappingProxyType({"namespace": _LLAMAINDEX_STORE}),
    }
)
"""Adapter plugin module -> {option name: the fixtures of that plugin that read the option}."""

OptionReaders = Mapping[str, frozenset[str] | None]
"""For each extra option name, the fixtures that read it, or None when a plugin whose fixtures
are not known (a ``conftest.py``, a plugin outside the entry-point group) declares it."""


def unread_options(
    own: Iterable[str],
    readers: OptionReaders,
    requested: Collection[str],
    placeborag_fixtures: Collection[str],
) -> list[tuple[str, list[str]]]:
    """The options of ``own`` that no requested fixture reads, each with the fixtures that would.

    ``own`` are the option names set on the test itself (its function marker or
    ``pytest.param(marks=...)``); ``requested`` the test's fixture closure. Only extra names with
    known readers are judged, and only in a test that requests a placeborag fixture
    (``placeborag_fixtures``): a test that uses none of them builds nothing the option could be
    lost on. An option inherited from a class or module marker is not judged either, since one
    ``pytestmark`` may serve the core and the adapter fixtures of different tests.
    """
    if not any(name in placeborag_fixtures for name in requested):
        return []
    unread = []
    for name in sorted(set(own)):
        fixtures = readers.get(name)
        if fixtures and not any(fixture in requested for fixture in fixtures):
            unread.append((name, sorted(fixtures)))
    return unread
