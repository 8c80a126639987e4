"""Saving and loading a `PlaceboVectorStore` without pickle: one JSON document.

`save_local` / `load_local` and `serialize_to_bytes` / `deserialize_from_bytes` (FAISS's names,
offered under every profile) and `pickle.dumps(store)` all go through this format. It holds
every namespace's records (id, text, metadata, vector), the store's options (profile, metric,
filter mode, the faults: recall, visibility, orphaned ids, and the failures `fail_next_query`
armed that have not fired), the LangChain options (namespace, collection name, FAISS's
distance strategy and `normalize_L2`, Qdrant's payload keys) and the counter of generated ids,
so a loaded store returns the same results, scores and future ids as the saved one.

Reading never executes anything from the file: it is parsed as JSON, checked field by field, and
only then turned into a store. An armed failure is saved as the name of an exception class
among Python's built-in exceptions and `placeborag_core.errors` (nothing else can be saved,
and nothing else is looked up when loading) with its arguments. Metadata values are saved as
JSON; values JSON has no form for are tagged (`{"$tuple": [...]}`, `{"$float": "nan"}`,
`{"$dict": [[key, value], ...]}` for a dict whose keys are not all str or start with "$"), and
a value of any other type (bytes, a datetime, an object) makes the save raise TypeError naming
the record and the key: a round trip never changes a value silently.

What is refused at save time, with a ValueError saying what to do: writes still pending under
`visibility="manual"` (call `refresh()`), orphaned ids under `orphaned_ids=True` (call
`compact()`). Errors reading a file are `StoreFileError` (a ValueError) naming the file.
"""

from __future__ import annotations

import builtins
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from placeborag_core import (
    DimensionError,
    FakeVectorStore,
    FilterError,
    RetrievalError,
    RetrievalTimeout,
)
from placeborag_core.adapter_kit import MAX_METADATA_DEPTH, nesting_depth_exceeds

__all__ = [
    "FORMAT",
    "VERSION",
    "StoreFileError",
    "core_state",
    "decode_state",
    "encode_state",
    "read_folder",
    "restore_core",
    "store_file",
]

FORMAT = "placeborag-langchain-store"
VERSION = 1
_PICKLE_MAGIC = b"\x80"


class StoreFileError(ValueError):
    """A saved store cannot be read: not a placeborag store file, corrupt, or from elsewhere
    (the message names the file, or "serialized bytes")."""


def store_file(folder_path: str | Path, index_name: str) -> Path:
    """The file `save_local(folder_path, index_name)` writes."""
    return Path(folder_path) / f"{index_name}.placeborag.json"


# --- values ------------------------------------------------------------------------------------

_TAGS = ("$tuple", "$float", "$dict")


def _encode(value: Any, where: str) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return {"$float": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
    if isinstance(value, list):
        return [_encode(v, where) for v in value]
    if isinstance(value, tuple):
        return {"$tuple": [_encode(v, where) for v in value]}
    if isinstance(value, Mapping):
        plain = all(isinstance(k, str) and not k.startswith("$") for k in value)
        if plain:
            return {k: _encode(v, where) for k, v in value.items()}
        return {"$dict": [[_encode(k, where), _encode(v, where)] for k, v in value.items()]}
    raise TypeError(
        f"{where} holds a {type(value).__name__} ({value!r}), which a saved store cannot hold "
        "without pickle; store str, int, float, bool, None, lists, tuples or dicts of them"
    )


def _decode(value: Any, where: str) -> Any:
    if isinstance(value, list):
        return [_decode(v, where) for v in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        ((tag, inner),) = value.items()
        if tag == "$tuple":
            return tuple(_decode(v, where) for v in _checked(list, inner, f"{where} $tuple"))
        if tag == "$float":
            if inner not in ("nan", "inf", "-inf"):
                raise StoreFileError(f"{where}: $float must be 'nan', 'inf' or '-inf'")
            return float(inner)
        if tag == "$dict":
            out = {}
            for pair in _checked(list, inner, f"{where} $dict"):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise StoreFileError(f"{where}: $dict holds [key, value] pairs")
                key = _decode(pair[0], where)
                try:
                    out[key] = _decode(pair[1], where)
                except TypeError:
                    raise StoreFileError(f"{where}: $dict key {key!r} is unhashable") from None
            return out
    return {k: _decode(v, where) for k, v in value.items()}


# --- failures ----------------------------------------------------------------------------------


_CORE_ERRORS = {
    cls.__name__: cls for cls in (DimensionError, FilterError, RetrievalError, RetrievalTimeout)
}
"""The exceptions of ``placeborag_core.errors``, by name."""


def _failure_class(name: str) -> type[BaseException] | None:
    for namespace in (_CORE_ERRORS, vars(builtins)):
        found = namespace.get(name)
        if isinstance(found, type) and issubclass(found, BaseException):
            return found
    return None


def _encode_failure(error: BaseException | type[BaseException], times: int) -> dict[str, Any]:
    cls = error if isinstance(error, type) else type(error)
    if _failure_class(cls.__name__) is not cls:
        raise TypeError(
            f"an armed failure of type {cls.__module__}.{cls.__qualname__} cannot be saved: "
            "only Python's built-in exceptions and placeborag_core.errors are (a saved store "
            "never imports a class named in a file); arm a RetrievalTimeout, TimeoutError, ... "
            "or let the failure fire before saving"
        )
    entry: dict[str, Any] = {"type": cls.__name__, "times": times, "instance": False}
    if isinstance(error, BaseException):
        entry["instance"] = True
        entry["args"] = _encode(list(error.args), f"the armed {cls.__name__}'s args")
    return entry


# --- the whole store ---------------------------------------------------------------------------


def core_state(core: FakeVectorStore) -> dict[str, Any]:
    """The records, options and faults of `core`, as JSON-ready data; ValueError for pending
    writes or orphans, TypeError for a value that cannot be saved."""
    if core.pending_writes:
        raise ValueError(
            f"the store has {core.pending_writes} pending writes (visibility='manual'); call "
            "refresh() before saving it"
        )
    namespaces = []
    for name in core.namespaces():
        ids, texts, metas, vectors = core.snapshot(name)
        _refuse_orphans(core, name, vectors)
        records = []
        for n, record_id in enumerate(ids):
            where = f"record {record_id!r} (namespace {name!r}) metadata"
            records.append(
                {
                    "id": record_id,
                    "text": texts[n],
                    "metadata": _encode(metas[n], where),
                    "vector": vectors[n].astype(np.float64).tolist(),
                }
            )
        namespaces.append({"name": name, "records": records})
    profile = core.profile
    return {
        "profile": profile.name,
        "metric": profile.metric,
        "filter_mode": core.filter_mode,
        "recall": core.recall,
        "visibility": core.visibility,
        "orphaned_ids": core.orphaned_ids,
        "failures": [_encode_failure(e, t) for e, t in core.armed_failures()],
        "namespaces": namespaces,
    }


def _refuse_orphans(core: FakeVectorStore, namespace: str, vectors: Any) -> None:
    if not core.orphaned_ids or core.dimension is None:
        return
    probe = np.zeros(core.dimension)
    probe[0] = 1.0
    orphans = [t.id for t in core.trace(probe, namespace=namespace) if t.status == "orphaned"]
    if orphans:
        raise ValueError(
            f"namespace {namespace!r} holds {len(orphans)} orphaned ids (orphaned_ids=True): "
            "call compact() before saving the store"
        )


def encode_state(state: Mapping[str, Any]) -> bytes:
    """`state` (the wrapper's options and `core_state`) as the file's bytes."""
    document = {"format": FORMAT, "version": VERSION, **state}
    return json.dumps(document, ensure_ascii=False, allow_nan=False).encode("utf-8")


_TOP = {
    "format": str,
    "version": int,
    "profile": str,
    "metric": str,
    "filter_mode": str,
    "recall": float,
    "visibility": str,
    "orphaned_ids": bool,
    "failures": list,
    "namespaces": list,
    "options": dict,
    "generated": int,
}


def decode_state(data: bytes, source: str) -> dict[str, Any]:
    """The checked state in `data`; StoreFileError naming `source` for anything else."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"serialized must be bytes, got {type(data).__name__}")
    data = bytes(data)
    if data.startswith(_PICKLE_MAGIC):
        raise StoreFileError(
            f"{source}: this is a pickle (LangChain FAISS's serialize_to_bytes or save_local "
            "writes one); placeborag never unpickles: save the store with placeborag"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise StoreFileError(
            f"{source}: not a placeborag store file (not UTF-8 text: {error.reason} at byte "
            f"{error.start})"
        ) from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise StoreFileError(
            f"{source}:{error.lineno}: not a placeborag store file (invalid JSON: {error.msg})"
        ) from None
    except (RecursionError, ValueError) as error:
        reason = "nested too deep" if isinstance(error, RecursionError) else str(error)
        raise StoreFileError(f"{source}: cannot read the JSON ({reason})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise StoreFileError(f'{source}: not a placeborag store file (no "format": "{FORMAT}")')
    if document.get("version") != VERSION:
        raise StoreFileError(
            f"{source}: store file version {document.get('version')!r}; this placeborag reads "
            f"version {VERSION}"
        )
    for key, kind in _TOP.items():
        if key not in document:
            raise StoreFileError(f"{source}: missing field {key!r}")
        document[key] = _checked(kind, document[key], f"{source}: field {key!r}")
    unknown = sorted(set(document) - set(_TOP))
    if unknown:
        raise StoreFileError(f"{source}: unknown fields {unknown}")
    document["failures"] = [_failure(f, f"{source}: failures[{n}]")
                            for n, f in enumerate(document["failures"])]  # fmt: skip
    document["namespaces"] = [
        _namespace(ns, f"{source}: namespaces[{n}]") for n, ns in enumerate(document["namespaces"])
    ]
    return document


def _checked(kind: type, value: Any, where: str) -> Any:
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        raise StoreFileError(f"{where} must be {kind.__name__}, got {type(value).__name__}")
    return value


def _failure(entry: Any, where: str) -> tuple[BaseException | type[BaseException], int]:
    entry = _checked(dict, entry, where)
    name = _checked(str, entry.get("type"), f"{where}.type")
    times = _checked(int, entry.get("times"), f"{where}.times")
    cls = _failure_class(name)
    if cls is None:
        raise StoreFileError(
            f"{where}: {name!r} is not a built-in exception or one of placeborag_core.errors"
        )
    if not _checked(bool, entry.get("instance"), f"{where}.instance"):
        return cls, times
    args = _decode(_checked(list, entry.get("args"), f"{where}.args"), f"{where}.args")
    try:
        return cls(*args), times
    except Exception as error:  # the class refuses the saved arguments
        raise StoreFileError(f"{where}: cannot rebuild {name}{tuple(args)!r}: {error}") from None


def _namespace(entry: Any, where: str) -> tuple[str, list[tuple[Any, ...]]]:
    entry = _checked(dict, entry, where)
    name = _checked(str, entry.get("name"), f"{where}.name")
    rows = _checked(list, entry.get("records"), f"{where}.records")
    records = []
    for n, raw in enumerate(rows):
        at = f"{where}.records[{n}]"
        row = _checked(dict, raw, at)
        record_id = _checked(str, row.get("id"), f"{at}.id")
        text = row.get("text")
        if text is not None:
            _checked(str, text, f"{at}.text")
        metadata = _checked(dict, row.get("metadata"), f"{at}.metadata")
        if nesting_depth_exceeds(metadata, 2 * MAX_METADATA_DEPTH + 2):
            raise StoreFileError(f"{at}.metadata nests too deep")
        vector = _checked(list, row.get("vector"), f"{at}.vector")
        for value in vector:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise StoreFileError(f"{at}.vector must hold numbers, got {value!r}")
        records.append((record_id, text, _decode(metadata, f"{at}.metadata"), vector))
    return name, records


def restore_core(state: Mapping[str, Any], embedder: Any, source: str) -> FakeVectorStore:
    """A core store holding `state`'s records, options and armed failures."""
    try:
        core = FakeVectorStore(
            embedder=embedder,
            profile=state["profile"],
            metric=state["metric"],
            filter_mode=state["filter_mode"],
            recall=state["recall"],
            visibility=state["visibility"],
            orphaned_ids=state["orphaned_ids"],
        )
        with core.batch() as batch:
            for name, records in state["namespaces"]:
                batch.upsert_many(records, namespace=name)
    except (TypeError, ValueError) as error:
        raise StoreFileError(f"{source}: the saved store is invalid: {error}") from None
    core.refresh()
    for failure, times in state["failures"]:
        core.fail_next_query(failure, times=times)
    return core


def read_folder(folder_path: str | Path, index_name: str) -> tuple[bytes, str]:
    """The bytes of the store `save_local(folder_path, index_name)` wrote, and the file's
    name; StoreFileError naming what is there instead when it is missing."""
    path = store_file(folder_path, index_name)
    if not path.is_file():
        folder = Path(folder_path)
        foreign = [folder / f"{index_name}.{ext}" for ext in ("faiss", "pkl")]
        present = [str(p) for p in foreign if p.exists()]
        if present:
            raise StoreFileError(
                f"{' and '.join(present)}: written by LangChain FAISS.save_local (a faiss index "
                "and a pickle); placeborag never unpickles and reads only the "
                f"{path.name} a PlaceboVectorStore saves"
            )
        raise FileNotFoundError(f"{path}: no saved PlaceboVectorStore (save_local writes it)")
    return path.read_bytes(), str(path)
