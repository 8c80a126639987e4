"""langchain-milvus's collection schema: typed metadata fields fixed by the first batch.

`langchain_milvus.Milvus` creates its collection on the first `add_texts` that has texts. Unless
`enable_dynamic_field=True`, every key of the *first* record's metadata becomes a typed scalar
field (str VARCHAR, int INT64, float DOUBLE, bool BOOL, dict JSON); the primary key
(`primary_field`, VARCHAR), the text (`text_field`, VARCHAR) and the vector are fields too.
From then on every record must give every metadata field a value its type takes (pymilvus
refuses the row otherwise, naming the field) and keys that are not fields are dropped. Searches
before the collection exists return nothing, and filters are Milvus expressions over the typed
fields (an unknown name is an error). Measured on Milvus Lite 2.5 with langchain-milvus 0.3.3
(facts `lc-milvus-*`):
`docs/integrations/new_integrations.md#langchain-langchain-milvus-milvus-lc_milvus_integrationpy`.

`FieldRules` is the integration's row data (the field names and messages); `Collections` is
one store's state: the schema of each namespace (the collection) once its first batch fixed it.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from placeborag_core.backends.milvus import (
    MilvusDataError,
    MilvusError,
    MilvusParamError,
    Schema,
)

if TYPE_CHECKING:
    from placeborag_core import FakeVectorStore

__all__ = ["Collections", "FieldRules", "FieldType", "store_collections"]

FieldType = Literal["varchar", "int64", "double", "bool", "json"]

_INT64 = (-(2**63), 2**63 - 1)
_C_LONG = (-(2**63), 2**63 - 1)
_SHOWN = {"varchar": "varchar", "int64": "int64", "double": "double", "bool": "bool"}


@dataclass(frozen=True)
class FieldRules:
    """How an integration lays a document out in typed fields (langchain-milvus's defaults;
    the constructor's `primary_field`, `text_field`, `vector_field` and `enable_dynamic_field`
    replace them)."""

    primary_field: str = "pk"
    text_field: str = "text"
    vector_field: str = "vector"
    dynamic: bool = False
    no_collection_relevance_error: str = (
        "No index params provided. Could not determine relevance function."
    )
    mmr_without_candidates: bool = True
    """MMR fetches the candidates' vectors with ``pk in [...]``; with no candidate that query
    fails in the Milvus core (``#lc-milvus-mmr-no-candidates``)."""


def _infer(key: str, value: Any) -> FieldType:
    """pymilvus's `infer_dtype_bydata` as langchain-milvus applies it to the first record."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int64"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "varchar"
    if isinstance(value, Mapping):
        return "json"
    if isinstance(value, list | tuple):
        # pymilvus takes a list for a float vector; the server then fails to create the field.
        raise MilvusError(
            2000,
            'Assert "type_map.count("dim")"  => dim not found at /workspace/milvus-lite/'
            "thirdparty/milvus/internal/core/src/common/FieldMeta.cpp:90\n: segcore error",
        )
    raise ValueError(f"Unrecognized datatype for {key}.")


def _mismatch(key: str, kind: FieldType, value: Any, detail: str) -> MilvusDataError:
    return MilvusDataError(
        "The Input data type is inconsistent with defined schema, "
        f"{{{key}}} field should be a {_SHOWN[kind]}, but got a {{{type(value)}}} instead. "
        f"Detail: {detail}"
    )


def _convert(key: str, kind: FieldType, value: Any) -> Any:
    """`value` as the field stores it, or pymilvus's error for it (measured per type)."""
    name = type(value).__name__
    if kind == "varchar":
        if isinstance(value, str):
            return value
        if isinstance(value, list) and value:
            raise MilvusParamError(f"field ({key}) expects string input, got: {type(value[0])}")
        detail = (
            "bad argument type for built-in operation"
            if isinstance(value, Mapping)
            else f"'{name}' object is not iterable"
        )
        raise _mismatch(key, kind, value, detail)
    if kind == "int64":
        if isinstance(value, bool):
            detail = "Field milvus.proto.schema.LongArray.data: Expected an int, got a boolean."
            raise _mismatch(key, kind, value, detail)
        if isinstance(value, int):
            if not _INT64[0] <= value <= _INT64[1]:
                raise _mismatch(key, kind, value, f"Value out of range: {value}")
            return value
        raise _mismatch(key, kind, value, f"'{name}' object cannot be interpreted as an integer")
    if kind == "double":
        if isinstance(value, bool | int | float):
            return float(value)
        raise _mismatch(key, kind, value, f"must be real number, not {name}")
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            if not _C_LONG[0] <= value <= _C_LONG[1]:
                raise MilvusError(
                    1, "Unexpected error, message=<Python int too large to convert to C long>"
                )
            return bool(value)
        raise _mismatch(key, kind, value, f"'{name}' object cannot be interpreted as an integer")
    if isinstance(value, str):
        raise NotImplementedError(
            f"a str for the JSON field {key!r}: pymilvus parses it as JSON text, which "
            "placeborag does not imitate; pass the value itself"
        )
    return value


class Collections:
    """The typed-field schema of each namespace of one store (see the module docstring).

    A namespace's collection exists once an add with texts was attempted there (the real
    integration creates it before it inserts, so a refused first batch still fixes the
    schema), or once the core store holds records there (a wrapped, seeded store: the schema is
    then read from its first record).
    """

    def __init__(
        self, rules: FieldRules, first_record: Callable[[str], Mapping[str, Any] | None]
    ) -> None:
        self.rules = rules
        self._first_record = first_record
        self._schemas: dict[str, dict[str, FieldType]] = {}
        self._lock = threading.Lock()

    def exists(self, namespace: str) -> bool:
        """Whether the namespace's collection exists (searches before then find nothing)."""
        self._adopt(namespace)
        return namespace in self._schemas

    def fields(self, namespace: str) -> Mapping[str, FieldType]:
        """The typed metadata fields of the namespace (empty before the first batch)."""
        self._adopt(namespace)
        return dict(self._schemas.get(namespace, {}))

    def _adopt(self, namespace: str) -> None:
        """Fix the schema of a namespace whose records came from elsewhere (a wrapped, seeded
        core store) from its first record."""
        if namespace in self._schemas:
            return
        first = self._first_record(namespace)
        if first is None:
            return
        try:
            self._define(namespace, first)
        except (ValueError, MilvusError):
            with self._lock:
                self._schemas.setdefault(namespace, {})

    def _define(self, namespace: str, first: Mapping[str, Any] | None) -> dict[str, FieldType]:
        with self._lock:
            schema = self._schemas.get(namespace)
            if schema is not None:
                return schema
            rules = self.rules
            fields: dict[str, FieldType] = {}
            if not rules.dynamic:
                reserved = (rules.primary_field, rules.text_field, rules.vector_field)
                for key, value in (first or {}).items():
                    if key in reserved:
                        raise ValueError(f"Metadata key {key} is reserved.")
                    fields[str(key)] = _infer(key, value)
            self._schemas[namespace] = fields
            return fields

    def rows(self, namespace: str, metadatas: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The metadata each record stores, in order; the first error pymilvus would raise.

        The first batch fixes the schema (even when a row of it is then refused). Per row, the
        row's own keys are checked in their order, then the first schema field it lacks is
        named; keys that are not fields are dropped. With `dynamic`, metadata is kept whole.
        """
        if not metadatas:
            return []
        self._adopt(namespace)
        fields = self._define(namespace, metadatas[0])
        if self.rules.dynamic:
            return [dict(m) for m in metadatas]
        out = []
        for meta in metadatas:
            row: dict[str, Any] = {}
            for key, value in meta.items():
                kind = fields.get(key)
                if kind is not None:
                    if value is None:
                        raise NotImplementedError(
                            f"None for the typed field {key!r}: the Milvus server measured "
                            "(milvus-lite 2.5) crashes on it; placeborag refuses it instead"
                        )
                    row[key] = _convert(key, kind, value)
            for key in fields:
                if key not in row:
                    raise MilvusDataError(
                        f"Insert missed an field `{key}` to collection without set "
                        "nullable==true or set default_value"
                    )
            out.append({key: row[key] for key in fields})
        return out

    def no_candidates_error(self) -> MilvusError | None:
        """The error of an MMR search whose filter leaves no candidate (None: it returns [])."""
        if not self.rules.mmr_without_candidates:
            return None
        return MilvusError(
            2000,
            'Assert "fields_.find(field_id) != fields_.end()"  => Cannot find field with '
            "field_id: 0 at /workspace/milvus-lite/thirdparty/milvus/internal/core/src/common/"
            "Schema.h:178\n: segcore error",
        )

    def schema(self, namespace: str, id_type: Literal["varchar", "int64"] = "varchar") -> Schema:
        """The filter schema of the namespace: the key and text fields, the typed metadata
        fields (JSON fields are read as dynamic keys), dynamic names only with
        `enable_dynamic_field`."""
        self._adopt(namespace)
        fields = self._schemas.get(namespace, {})
        typed = {k: v for k, v in fields.items() if v != "json"}
        return Schema(
            id_field=self.rules.primary_field,
            id_type=id_type,
            text_field=self.rules.text_field,
            fields=typed,
            dynamic=self.rules.dynamic or len(typed) != len(fields),
        )


def store_collections(
    rules: FieldRules | None,
    profile: str,
    core: FakeVectorStore,
    field_names: Mapping[str, Any] | None,
) -> Collections | None:
    """The typed-field schemas of a store whose integration fixes them (langchain-milvus:
    `IntegrationFacts.typed_fields`), with the constructor's field names."""
    if rules is None:
        if field_names:
            raise TypeError(f"profile {profile!r} has no typed fields")
        return None
    rules = dataclasses.replace(rules, **(field_names or {}))

    def first_record(namespace: str) -> Mapping[str, Any] | None:
        ids = core.ids(namespace)
        record = core.get(ids[0], namespace=namespace) if ids else None
        return None if record is None else record.metadata

    return Collections(rules, first_record)
