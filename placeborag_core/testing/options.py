"""Route ``placeborag`` marker options to the object that understands them.

The marker accepts one flat set of keyword options; each one belongs either to the embedder, to the
store, or to an adapter plugin. Which is which is not written down anywhere: the names are read
from the ``FakeEmbedder`` and ``FakeVectorStore`` constructor signatures every time options are
routed, so a parameter added to either constructor is a marker option at once, with no list to
keep in sync.
The store's ``embedder`` parameter is not an option: the fixtures pass the embedder themselves.

This module is deliberately free of pytest so it can be unit-tested (and reused) on its own; the
pytest plugin only collects the marker keyword arguments and hands them over.

Adapter plugins
---------------
An adapter plugin that accepts options of its own (for instance ``namespace`` or
``collection_name``) passes their names as ``extra``::

    routed = route_options(layers, extra=("namespace", "collection_name"))
    store = FakeVectorStore(embedder, **routed.store)
    namespace = routed.extra.get("namespace", "")

``extra`` names land in ``RoutedOptions.extra`` and are otherwise opaque to the core. An extra name
may not shadow a constructor option (that would make the routing ambiguous): doing so is a
``ValueError``, a bug in the plugin rather than in the test. Inside a pytest run, prefer
``placeborag_core.testing.pytest_plugin.marker_options(request)``, which passes the extra names of
every
installed placeborag plugin, so a marker meant for another adapter is never rejected.

Only names are checked here. Values are left to the constructors, so a bad value fails with the
constructor's own message rather than a second, possibly diverging, validation.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from placeborag_core.messages import shown

__all__ = [
    "OptionError",
    "RoutedOptions",
    "embedder_option_names",
    "marker_signature",
    "route_options",
    "store_option_names",
]

# Constructor parameters that are wired by the fixtures, not chosen in a marker.
_NOT_OPTIONS = frozenset({"self", "embedder"})


class OptionError(TypeError):
    """A marker option name that neither constructor (nor any plugin) accepts.

    A ``TypeError``, like the one Python raises for an unexpected keyword argument. ``option`` is
    the offending name, ``suggestion`` the closest valid one (or ``None``), ``valid`` all of them.
    """

    def __init__(self, option: str, suggestion: str | None, valid: Sequence[str]) -> None:
        self.option = option
        self.suggestion = suggestion
        self.valid = tuple(valid)
        hint = f"; did you mean {shown(suggestion)}?" if suggestion else "."
        super().__init__(
            f"unknown placeborag option {shown(option)}{hint} Valid options: "
            f"{', '.join(self.valid)}"
        )


@dataclass(frozen=True)
class RoutedOptions:
    """Marker options split by destination: keyword arguments for each constructor, plus extras."""

    embedder: dict[str, Any] = field(default_factory=dict)
    store: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


def _parameter_names(cls: type) -> tuple[str, ...]:
    """Names of the keyword-passable constructor parameters of ``cls``, in declaration order."""
    usable = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(
        p.name
        for p in inspect.signature(cls).parameters.values()
        if p.kind in usable and p.name not in _NOT_OPTIONS
    )


def embedder_option_names() -> tuple[str, ...]:
    """The marker options routed to ``FakeEmbedder``, read from its constructor."""
    from placeborag_core.embedding.embedder import FakeEmbedder

    return _parameter_names(FakeEmbedder)


def store_option_names() -> tuple[str, ...]:
    """The marker options routed to ``FakeVectorStore``, read from its constructor."""
    from placeborag_core.store.vector_store import FakeVectorStore

    return _parameter_names(FakeVectorStore)


def _check_extra(extra: Collection[str], taken: Collection[str]) -> tuple[str, ...]:
    if isinstance(extra, str):
        raise TypeError(f"extra must be a collection of option names, not the str {shown(extra)}")
    for name in extra:
        if not isinstance(name, str):
            raise TypeError(f"extra option names must be str, got {type(name).__name__}")
        if name in taken:
            raise ValueError(
                f"extra option {shown(name)} shadows a constructor option of the same name; "
                "choose another name for the plugin option"
            )
    return tuple(sorted(set(extra)))


def route_options(
    layers: Sequence[Mapping[str, Any]], *, extra: Collection[str] = ()
) -> RoutedOptions:
    """Merge marker keyword arguments (closest layer first) and split them by destination.

    ``layers`` are the keyword arguments of the markers that apply to a test, closest first
    (function, then class, then module): a name set on a closer layer wins. A name both
    constructors accept goes to both. Raises ``OptionError`` for a name nobody accepts, naming the
    nearest valid one, before anything is built.
    """
    given: object = layers  # what a caller may pass in spite of the annotation
    if (
        not isinstance(given, Sequence)
        or isinstance(given, (str, bytes))
        or not all(isinstance(layer, Mapping) for layer in given)
    ):
        raise TypeError(
            f"route_options() takes a sequence of mappings (marker keyword arguments, closest "
            f"first), got {shown(layers)}; one layer is a list of one mapping"
        )
    embedder_names = embedder_option_names()
    store_names = store_option_names()
    extra_names = _check_extra(extra, {*embedder_names, *store_names})
    valid = sorted({*embedder_names, *store_names, *extra_names})

    merged: dict[str, Any] = {}
    for layer in reversed(layers):
        merged.update(layer)

    routed = RoutedOptions()
    for name, value in merged.items():
        known = False
        if name in embedder_names:
            routed.embedder[name] = value
            known = True
        if name in store_names:
            routed.store[name] = value
            known = True
        if name in extra_names:
            routed.extra[name] = value
            known = True
        if not known:
            close = difflib.get_close_matches(name, valid, n=1, cutoff=0.6)
            raise OptionError(name, close[0] if close else None, valid)
    return routed


def _signature_part(cls: type, names: Sequence[str]) -> list[str]:
    parameters = inspect.signature(cls).parameters
    parts = []
    for name in names:
        default = parameters[name].default
        shown = "..." if default is inspect.Parameter.empty else repr(default)
        parts.append(f"{name}={shown}")
    return parts


def marker_signature(extra: Collection[str] = ()) -> str:
    """The marker's call signature with every option and its default, e.g. for ``--markers``.

    Embedder options first, then store options, then ``extra`` names (shown as ``name=...``), all in
    declaration order, so the text follows the constructors as they change.
    """
    from placeborag_core.embedding.embedder import FakeEmbedder
    from placeborag_core.store.vector_store import FakeVectorStore

    embedder_names = embedder_option_names()
    store_names = [n for n in store_option_names() if n not in embedder_names]
    extra_names = _check_extra(extra, {*embedder_names, *store_names})
    parts = [
        *_signature_part(FakeEmbedder, embedder_names),
        *_signature_part(FakeVectorStore, store_names),
        *(f"{name}=..." for name in extra_names),
    ]
    return f"placeborag({', '.join(parts)})"
