"""``ReadOnlyDict``: a ``dict`` that refuses changes, for the metadata of frozen plain data.

A ``types.MappingProxyType`` is read-only too, but it is not a ``dict``: ``json.dumps``, ``pickle``,
``copy.deepcopy`` and ``dataclasses.asdict`` refuse it, and code under test that serialises a
chunk's metadata (citations, logs) would break on canned data where a real retriever's dict works.
A ``dict`` subclass passes everywhere a dict does, and only its mutating methods raise.
"""

from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["ReadOnlyDict"]


class ReadOnlyDict(dict[str, Any]):
    """A dict whose items cannot be set, deleted or updated after construction (shallow: a list
    value stays a list). Pickles and deep-copies as itself; ``dict(d)`` is a mutable copy."""

    __slots__ = ()

    def _refuse(self, *_args: Any, **_kwargs: Any) -> NoReturn:
        raise TypeError("this metadata is read-only; copy it with dict(...) to change it")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type[ReadOnlyDict], tuple[dict[str, Any]]]:
        """Rebuild from a plain dict: the default protocol would set the items one by one."""
        return (type(self), (dict(self),))

    def __copy__(self) -> ReadOnlyDict:
        return self  # immutable: a shallow copy may share it
