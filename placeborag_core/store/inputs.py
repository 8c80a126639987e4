"""Checking what callers hand the store: records, metadata, vectors, namespaces and profiles.

Each check raises before anything changes, with a message naming the record (or argument) at
fault and what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from placeborag_core.backends import PROFILES, Profile
from placeborag_core.limits import MAX_METADATA_DEPTH, nesting_depth_exceeds
from placeborag_core.messages import shown
from placeborag_core.numbers import real_array
from placeborag_core.records import Record
from placeborag_core.store.partition import copy_metadata
from placeborag_core.unicode_text import require_unicode

__all__ = [
    "RawRecord",
    "as_vector",
    "check_embedder",
    "check_metadata",
    "check_namespace",
    "check_record_id",
    "check_records",
    "check_store_options",
    "delete_ids",
    "given_vectors",
    "id_collection",
    "resolve_profile",
    "unpack",
]

RawRecord = tuple[str, str | None, dict[str, Any] | None, Any]
"""A record as unpacked from any accepted form: (id, text, metadata copy, vector or None)."""

_F32_MAX = float(np.finfo(np.float32).max)
_REAL_KINDS = frozenset("iuf")  # numpy dtype kinds of ints, unsigned ints and floats
_SCALARS = (str, int, float, bool)
_PLAIN = frozenset({str, int, float, bool, type(None)})


def resolve_profile(profile: str | Profile, metric: str | None) -> Profile:
    if isinstance(profile, Profile):
        chosen = profile
    elif isinstance(profile, str) and profile in PROFILES:
        chosen = PROFILES[profile]
    else:
        raise ValueError(
            f"unknown profile {shown(profile)}; allowed: {', '.join(repr(p) for p in PROFILES)} "
            "or a Profile instance"
        )
    return chosen if metric is None else chosen.with_metric(metric)


def check_namespace(namespace: Any) -> None:
    if not isinstance(namespace, str):
        raise TypeError(
            f"namespace must be a str, got {type(namespace).__name__} {shown(namespace)}"
        )
    if not namespace.isascii():
        require_unicode(namespace, "namespace")


def as_vector(value: Any, what: str, profile: Profile) -> npt.NDArray[np.float64]:
    """``value`` checked as one vector under ``profile`` (1-d, finite, float32-sized, and not
    zero unless the profile accepts zero vectors), as float64."""
    array = real_array(value, what).astype(np.float64, copy=False)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(
            f"{what} must be a non-empty 1-D sequence of numbers, got shape {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise ValueError(
            f"{what} contains NaN or infinite components; every component must be finite"
        )
    if np.max(np.abs(array)) > _F32_MAX:
        raise ValueError(f"{what} has a component too large for float32 storage")
    # the engine sees float32 values: components that all round to 0 make the zero vector
    if not profile.accepts_zero_vectors and not np.any(array.astype(np.float32)):
        accepting = ", ".join(p.name for p in PROFILES.values() if p.accepts_zero_vectors)
        rounded = " once rounded to float32" if np.any(array) else ""
        raise ValueError(
            f"{what} is the zero vector{rounded}, which has no direction (cosine undefined); the "
            f"{profile.name} profile rejects it, the profiles of engines that accept it "
            f"({accepting}) score it as their engine does"
        )
    return array


def given_vectors(
    raw: list[RawRecord],
    given: dict[int, Any],
    profile: Profile,
) -> npt.NDArray[np.float32]:
    """Validate caller-given vectors and stack them as float32 (one row each, in ``given`` order).

    One numpy pass when they stack cleanly; otherwise record by record, so the error names the
    record at fault.
    """
    if not given:
        return np.empty((0, 0), dtype=np.float32)
    values = list(given.values())
    if len(values) > 1:
        try:
            with np.errstate(over="ignore"):  # too-large components become inf: caught below
                if all(type(v) is np.ndarray and v.ndim == 1 for v in values):
                    real = all(v.dtype.kind in _REAL_KINDS for v in values)
                    stacked = np.stack(values, dtype=np.float32) if real else None
                else:
                    inferred = np.asarray(values)  # no dtype: strings must not be parsed
                    real = inferred.dtype.kind in _REAL_KINDS
                    stacked = inferred.astype(np.float32) if real else None
        except (TypeError, ValueError):
            stacked = None
        if (
            stacked is not None
            and stacked.ndim == 2
            and stacked.shape[1] > 0
            and np.isfinite(stacked).all()
            and (profile.accepts_zero_vectors or stacked.any(axis=1).all())
        ):
            return stacked
    checked = {
        i: as_vector(v, f"vector of record {shown(raw[i][0])}", profile) for i, v in given.items()
    }
    first, width = next(iter(checked)), len(next(iter(checked.values())))
    for index, vector in checked.items():
        if len(vector) != width:
            raise profile.dimension_error(
                f"vector dimension mismatch in one batch: record {shown(raw[index][0])} has "
                f"dimension {len(vector)}, record {shown(raw[first][0])} has {width}"
            )
    return np.stack(list(checked.values())).astype(np.float32)


def unpack(item: Any, index: int) -> RawRecord:
    parts: tuple[Any, ...]
    if type(item) is tuple and 2 <= len(item) <= 4:  # the common case first
        parts = (*item, None, None)[:4]
    elif isinstance(item, Record):
        parts = (item.id, item.text, item.metadata, item.vector)
    elif isinstance(item, Mapping):
        unknown = set(item) - {"id", "text", "metadata", "vector"}
        if unknown or "id" not in item:
            raise ValueError(
                f"record #{index}: a mapping needs key 'id' and may have 'text', 'metadata', "
                f"'vector'; got keys {sorted(map(str, item))}"
            )
        parts = (item["id"], item.get("text"), item.get("metadata"), item.get("vector"))
    elif isinstance(item, tuple) and 2 <= len(item) <= 4:
        parts = (*item, None, None)[:4]
    else:
        raise TypeError(
            f"record #{index}: expected a Record, a tuple (id, text[, metadata[, vector]]) or a "
            f"mapping, got {type(item).__name__}"
        )
    record_id, text, metadata, vector = parts
    if not isinstance(record_id, str):
        raise TypeError(
            f"record #{index}: id must be a str, got {type(record_id).__name__} {shown(record_id)}"
        )
    if not record_id:
        raise ValueError(f"record #{index}: id must be a non-empty str")
    require_unicode(record_id, f"record #{index}: id")
    if text is not None:
        if not isinstance(text, str):
            raise TypeError(
                f"record {shown(record_id)}: text must be a str or None, got {type(text).__name__}"
            )
        if not text.isascii():  # the message names the record: built only when it may be needed
            require_unicode(text, f"record {shown(record_id)}: text")
    if metadata is None:
        return record_id, text, None, vector
    if not isinstance(metadata, Mapping):
        raise TypeError(
            f"record {shown(record_id)}: metadata must be a mapping or None, "
            f"got {type(metadata).__name__}"
        )
    if nesting_depth_exceeds(metadata, MAX_METADATA_DEPTH + 1):
        raise ValueError(
            f"record {shown(record_id)}: metadata is nested more than {MAX_METADATA_DEPTH} levels "
            "deep (or contains itself); flatten it"
        )
    return record_id, text, copy_metadata(metadata), vector


def check_metadata(
    record_id: str, metadata: Mapping[str, Any] | None, nested: bool, *, owner: str = "record"
) -> None:
    """Keys: non-empty str not starting with '$'. Values: str, int, float, bool, None or a list of
    str/int/float/bool; with ``nested`` (profiles whose engine keeps JSON payloads) also any
    JSON-like nesting of dicts with str keys and lists. Messages name the ``owner`` (a record,
    or the document a record is cut from) by ``record_id``."""
    if not metadata:
        return
    for key, value in metadata.items():
        plain_key = type(key) is str and key.isascii() and key and key[0] != "$"
        if plain_key and type(value) in _PLAIN and (type(value) is not str or value.isascii()):
            continue
        name = f"{owner} {shown(record_id)}"
        if not isinstance(key, str) or not key or key.startswith("$"):
            raise ValueError(
                f"{name}: metadata keys must be non-empty str not starting with "
                f"'$', got {shown(key)}"
            )
        require_unicode(key, f"{name}: metadata key {shown(key)}")
        if value is None or isinstance(value, _SCALARS):
            _check_strings(value, name, key)
            continue
        if isinstance(value, list | tuple) and all(isinstance(v, _SCALARS) for v in value):
            _check_strings(value, name, key)
            continue
        if nested and _is_json(value):
            _check_strings(value, name, key)
            continue
        allowed = (
            "str, int, float, bool, None, or lists and str-keyed dicts of those"
            if nested
            else "str, int, float, bool, None or a list of str/int/float/bool"
        )
        raise TypeError(
            f"{name}: metadata[{shown(key)}] must be {allowed}, "
            f"got {type(value).__name__} {shown(value)}"
        )


def _check_strings(value: Any, name: str, key: str) -> None:
    """Every str in a metadata value (dict keys included) is valid Unicode."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            require_unicode(item, f"{name}: metadata[{shown(key)}]")
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)


def _is_json(value: Any, depth: int = 0) -> bool:
    if depth > MAX_METADATA_DEPTH:
        return False
    if value is None or isinstance(value, _SCALARS):
        return not (isinstance(value, float) and math.isnan(value))  # NaN is not JSON
    if isinstance(value, list | tuple):
        return all(_is_json(item, depth + 1) for item in value)
    if isinstance(value, Mapping):
        return all(isinstance(k, str) and _is_json(v, depth + 1) for k, v in value.items())
    return False


def check_store_options(
    filter_mode: object, recall: object, visibility: object, orphaned_ids: object
) -> None:
    """Raise for a ``FakeVectorStore`` option outside what it accepts."""
    if filter_mode not in ("pre", "post"):
        raise ValueError(f"filter_mode must be 'pre' or 'post', got {shown(filter_mode)}")
    if isinstance(recall, bool) or not isinstance(recall, int | float):
        raise TypeError(f"recall must be a float in [0, 1], got {shown(recall)}")
    if not 0.0 <= recall <= 1.0:
        raise ValueError(f"recall must be in [0, 1], got {shown(recall)}")
    if visibility not in ("immediate", "manual"):
        raise ValueError(f"visibility must be 'immediate' or 'manual', got {shown(visibility)}")
    if not isinstance(orphaned_ids, bool):
        raise TypeError(f"orphaned_ids must be a bool, got {shown(orphaned_ids)}")


def delete_ids(ids: object) -> list[str]:
    """The distinct ids a ``delete`` names, in order (a single str is one id; None is none)."""
    if ids is None:
        return []
    if isinstance(ids, str):
        return [ids]
    return list(dict.fromkeys(id_collection(ids, "ids to delete")))


def id_collection(ids: object, what: str = "ids") -> list[str]:
    """``ids`` as a list of str: an iterable of str (not one str, which would be read as its
    characters)."""
    if isinstance(ids, str | bytes) or not isinstance(ids, Iterable):
        raise TypeError(
            f"{what} must be a collection of str (a list, tuple or set), "
            f"got {type(ids).__name__} {shown(ids)}"
        )
    listed = list(ids)
    for record_id in listed:
        if not isinstance(record_id, str):
            raise TypeError(
                f"{what} must hold str ids, got {type(record_id).__name__} {shown(record_id)}"
            )
    return listed


def check_record_id(record_id: object) -> str:
    """A single record id argument (``get``): a str."""
    if not isinstance(record_id, str):
        raise TypeError(
            f"id must be a str, got {type(record_id).__name__} {shown(record_id)}"
            + (
                "; to read several records use select(ids=...)"
                if isinstance(record_id, list)
                else ""
            )
        )
    return record_id


def check_records(records: object) -> None:
    """The argument of ``upsert_many``: an iterable of records (not one record)."""
    if (
        records is None
        or isinstance(records, str | bytes | Mapping | Record)
        or not isinstance(records, Iterable)
    ):
        raise TypeError(
            "records must be an iterable of records (Record, (id, text[, metadata[, vector]]) "
            f"tuples or mappings), got {type(records).__name__}; use upsert() for one record"
        )


def check_embedder(embedder: object) -> None:
    """The store's ``embedder``: None or an object with ``embed_many`` (a ``FakeEmbedder``)."""
    if embedder is not None and not callable(getattr(embedder, "embed_many", None)):
        raise TypeError(
            "embedder must be a FakeEmbedder (or None for the default one), "
            f"got {type(embedder).__name__} {shown(embedder)}"
        )
