"""Malformed values for the bad-input suite, and the judgement of what a call did with them.

``JUNK`` draws values no public parameter accepts as they are (or that only some do): wrong
types, None, NaN and infinities, huge integers, lone surrogates, deep and self-containing
containers, dates, complex numbers, sets, bytes, arbitrary objects. ``judge`` runs a call and
checks the categories the library promises for bad input: either the call succeeds, or it raises
one of the documented error types with a message, and never an internal exception.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st

from placeborag_core import FakeVectorStore

ALLOWED: tuple[type[BaseException], ...] = (TypeError, ValueError, FileNotFoundError, OSError)
"""What a malformed input may raise (FilterError, DimensionError, ManifestError,
DocumentsFileError, OptionError and the FAISS profile's errors are among these)."""

INTERNAL: tuple[type[BaseException], ...] = (
    RecursionError,
    AttributeError,
    IndexError,
    KeyError,
    UnicodeError,  # a ValueError subclass that names no parameter
    ZeroDivisionError,
    OverflowError,
    np.exceptions.AxisError,
)
"""Exceptions that mean the library failed, not the caller: never acceptable."""


def _nested(depth: int, leaf: Any) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def _cyclic() -> dict[str, Any]:
    cycle: dict[str, Any] = {"k": 1}
    cycle["self"] = [cycle]
    return cycle


class _Opaque:
    def __repr__(self) -> str:
        return "<opaque>"


SCALAR_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.complex_numbers(max_magnitude=10, allow_nan=False),
    st.text(max_size=6),
    st.sampled_from(["\ud800", "ok\udfff", "", " ", "$bad", "1.5", "0.5", "yes"]),
    st.binary(max_size=4),
    st.just(datetime.datetime(2026, 1, 1)),
    st.just(np.datetime64("2026-01-01")),
    st.just(_Opaque()),
    st.just(10**400),
)

JUNK = st.one_of(
    SCALAR_JUNK,
    st.lists(SCALAR_JUNK, max_size=3),
    st.tuples(SCALAR_JUNK, SCALAR_JUNK),
    st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), SCALAR_JUNK, max_size=2),
    st.frozensets(st.integers(), max_size=2),
    st.sampled_from([_nested(2_000, 1), _nested(2_000, {"k": 1}), _cyclic()]),
)


def state(store: FakeVectorStore) -> tuple[Any, ...]:
    """Everything a store holds that a failed call must leave alone."""
    spaces = [(name, store.snapshot(name)) for name in store.namespaces()]
    flat = [
        (name, ids, texts, metas, vectors.tobytes())
        for name, (ids, texts, metas, vectors) in spaces
    ]
    return (flat, store.dimension, store.pending_writes)


def judge(call: Callable[[], object], store: FakeVectorStore | None = None) -> BaseException | None:
    """Run ``call``; assert it succeeded or raised a documented error with a message, leaving
    ``store`` (if given) exactly as it was. Returns the exception raised, if any."""
    before = state(store) if store is not None else None
    caught: BaseException | None = None
    try:
        call()
    except INTERNAL as error:
        message = f"internal exception escaped: {type(error).__name__}: {str(error)[:300]}"
        raise AssertionError(message) from None
    except ALLOWED as error:
        caught = error
    if caught is not None:
        assert str(caught).strip(), f"{type(caught).__name__} without a message"
        if store is not None:
            assert state(store) == before, f"{type(caught).__name__} left the store changed"
    return caught
