"""The engine interface: everything the store pipeline and the adapters read about an engine.

An engine module (``backends/<engine>.py``) builds one :class:`Profile` from these pieces: the
metrics it offers (each a score :class:`~placeborag_core.backends.formulas.Formula`, a direction
and a :class:`~placeborag_core.backends.ties.TieRule`), its filter dialect, its id and ``k``
rules with the engine's own messages and error types, and its write semantics. The pipeline
never asks which engine it is serving; it reads these fields.

Every dataclass here checks itself when built (``dataclasses.replace`` included): a profile that
cannot mean anything raises ``ValueError`` or ``TypeError`` naming the field, instead of ranking
silently wrong.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from placeborag_core.backends.formulas import Formula
from placeborag_core.backends.ties import TieRule
from placeborag_core.errors import DimensionError
from placeborag_core.filters.dialect import FilterDialect
from placeborag_core.messages import Shown, shown

__all__ = [
    "ColumnRule",
    "IdRule",
    "KRule",
    "MetricVariant",
    "NativeFilter",
    "Profile",
    "UpsertPosition",
]

UpsertPosition = Literal["keep", "end", "end_in_order"]
"""Where an upsert of a stored id leaves it (see :class:`Profile`)."""


def _check_choice(owner: str, name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(
            f"{owner}.{name} must be one of {', '.join(map(repr, allowed))}, got {shown(value)}"
        )


def _check_type(owner: str, name: str, value: object, kind: type | tuple[type, ...]) -> None:
    if not isinstance(value, kind):
        wanted = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise TypeError(f"{owner}.{name} must be a {wanted}, got {type(value).__name__}")


def _check_exception_type(owner: str, name: str, value: object) -> None:
    if not (isinstance(value, type) and issubclass(value, Exception)):
        raise TypeError(f"{owner}.{name} must be an Exception subclass, got {shown(value)}")


@dataclass(frozen=True)
class MetricVariant:
    """One selectable metric of an engine: how a score is computed, which way is better, and how
    equal scores are ordered. ``normalise_on_upsert``: stored vectors are scaled to unit length
    on write (Qdrant's cosine collections). ``zero_vectors_unranked``: a zero vector has no
    score, so a zero stored vector is never a result and a zero query finds nothing (LanceDB's
    cosine)."""

    name: str
    formula: Formula
    higher_is_better: bool
    ties: TieRule
    normalise_on_upsert: bool = False
    zero_vectors_unranked: bool = False
    description: str = ""
    evidence: str = ""

    def __post_init__(self) -> None:
        _check_type("MetricVariant", "name", self.name, str)
        _check_type("MetricVariant", "formula", self.formula, Formula)
        _check_type("MetricVariant", "higher_is_better", self.higher_is_better, bool)
        _check_type("MetricVariant", "ties", self.ties, TieRule)
        _check_type("MetricVariant", "normalise_on_upsert", self.normalise_on_upsert, bool)
        _check_type("MetricVariant", "zero_vectors_unranked", self.zero_vectors_unranked, bool)


@dataclass(frozen=True)
class KRule:
    """How ``k`` is checked: the error for a non-positive ``k`` and for a ``k`` that is not an int
    (types and messages; ``{k}`` in a message is the value given), and an optional upper
    ``limit`` with its own error (Milvus: top-k at most 16384). ``zero_returns_empty``: ``k=0``
    is no error and returns nothing (pgvector's ``LIMIT 0``); then only a negative ``k`` raises
    ``error``. ``none_is_missing``: a ``None`` k gets the non-positive error (LanceDB: "Limit is
    required")."""

    error: type[Exception]
    message: str
    type_message: str
    type_error: type[Exception] = TypeError
    none_is_missing: bool = False
    evidence: str = ""
    limit: int | None = None
    limit_error: type[Exception] = ValueError
    limit_message: str = ""
    zero_returns_empty: bool = False

    def __post_init__(self) -> None:
        _check_exception_type("KRule", "error", self.error)
        _check_exception_type("KRule", "type_error", self.type_error)
        _check_exception_type("KRule", "limit_error", self.limit_error)
        if self.limit is not None and (
            isinstance(self.limit, bool) or not isinstance(self.limit, int) or self.limit < 1
        ):
            raise ValueError(f"KRule.limit must be a positive int or None, got {shown(self.limit)}")

    def check(self, k: Any) -> None:
        """Raise the engine's error if ``k`` is not a positive int (or is above the limit)."""
        if k is None and self.none_is_missing:
            raise self.error(self.message.format(k=Shown(k)))
        if isinstance(k, bool) or not isinstance(k, int):
            raise self.type_error(self.type_message.format(k=Shown(k)))
        if k < 0 or (k == 0 and not self.zero_returns_empty):
            raise self.error(self.message.format(k=Shown(k)))
        if self.limit is not None and k > self.limit:
            raise self.limit_error(self.limit_message.format(k=Shown(k)))


def _any_id(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class IdRule:
    """Which record ids an engine accepts and how it orders and spells them.

    ``canonical`` maps an id as the engine's client takes it (a str, or an int where the engine
    allows one: Qdrant's point ids) to the store's record id, or None when the engine rejects it;
    ``message`` (``{id}``) is the engine's error for a rejected id. The store's own API takes str
    ids only: ``record_canonical`` reads those (None: as ``canonical`` does; Qdrant: a str of
    digits stands for the unsigned-int point id). ``order_key`` orders record ids for listings and
    id-ordered ties (None: insertion order). ``external`` is a record id as the engine reports it
    back (Qdrant reports unsigned-int ids as ints).
    """

    canonical: Callable[[object], str | None] = _any_id
    message: str = "id must be a non-empty str, got {id!r}"
    record_canonical: Callable[[str], str | None] | None = None
    order_key: Callable[[str], Any] | None = None
    external: Callable[[str], object] = str
    evidence: str = ""

    def check(self, record_id: str) -> str:
        """The canonical spelling of a store record id; ``ValueError`` with the engine's message
        if the engine would reject it."""
        read = self.canonical if self.record_canonical is None else self.record_canonical
        canonical = read(record_id)
        if canonical is None:
            raise ValueError(self.message.format(id=Shown(record_id)))
        return canonical

    def lookup(self, record_id: str) -> str:
        """The spelling a stored record has for ``record_id`` (the id itself if the engine would
        reject it: such an id names no record)."""
        read = self.canonical if self.record_canonical is None else self.record_canonical
        canonical = read(record_id)
        return record_id if canonical is None else canonical


@dataclass(frozen=True)
class PayloadLayout:
    """Where an integration keeps a record's parts in an engine's payload: the prefix of a
    metadata field's key (``"metadata."`` for langchain-qdrant, ``""`` when metadata keys are
    the payload's own), the key of the text (None if the text is not a field of its own), and
    how a payload id becomes a record id (None: no record can have it).

    ``table_columns``: for engines whose errors list a table's columns (LanceDB), the table's
    columns in order, ``"{metadata}"`` standing for the metadata (its keys as columns of their
    own when ``metadata_prefix`` is empty, else one struct column named by the prefix).
    ``id_key``: the column that holds the record id, where a filter can name it (Milvus's
    primary key: ``"pk"`` in langchain-milvus)."""

    metadata_prefix: str = ""
    text_key: str | None = None
    canonical_id: Callable[[Any], str | None] = str
    table_columns: tuple[str, ...] = ()
    id_key: str = "id"


class ColumnRule:
    """Typed metadata columns, for engines whose tables have a schema (LanceDB).

    A namespace's first write fixes the schema (:meth:`create`); every write, the first
    included, is checked and cast to it (:meth:`conform`) before anything is stored, raising the
    engine's error for a key the table lacks or a value that does not cast. The schema is kept
    while the namespace lives, even when its last record is deleted (the table stays). Filters
    that depend on types (an engine's SQL) read it from the partition (``ColumnView.schema``).
    """

    def create(self, metas: Sequence[Mapping[str, Any] | None]) -> Any:
        """The schema the first write of a namespace gives it."""
        raise NotImplementedError

    def conform(
        self, schema: Any, metas: Sequence[Mapping[str, Any] | None], append: bool
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The metadata each record of a write stores (merged into a record it updates), and
        the metadata a new record starts from. ``append``: the write appends rows (an engine's
        ``add``) rather than upserting them."""
        raise NotImplementedError


@dataclass(frozen=True)
class NativeWhere:
    """An engine-native filter in core terms: ``where`` (None: no condition left) and ``ids`` (an
    id restriction; None: none; empty: the filter matches nothing)."""

    where: Any = None
    ids: frozenset[str] | None = None


NativeFilter = Callable[[Any, PayloadLayout], NativeWhere]
"""Reads an engine's own filter object (e.g. a ``qdrant_client.models.Filter``) into core terms,
for integrations that hand the user's native filter to the engine."""


@dataclass(frozen=True)
class Profile:
    """An engine's behaviour as data. Use :meth:`with_metric` to select another of its metrics.

    ``filters``: the ``where=`` dialect. ``upsert_metadata``: an upsert ``"replace"``s the record
    or ``"merge"``s metadata into it (and keeps the text when none is given).
    ``none_removes_key``: a ``None`` metadata value in a write removes that key (and is never
    stored) instead of being stored as ``None``.
    ``duplicate_ids_in_batch``: a repeated id in one write is an ``"error"``
    (``duplicate_ids_message``, ``{ids}``), the ``"last_wins"``, or ``"keep_new"``: every copy
    of a new id is inserted and an id already stored may not repeat (``duplicate_ids_message``;
    LanceDB's ``merge_insert``). ``upsert_position``: an upsert of a stored id ``"keep"``s its
    row, or moves it to the end, the last place of listings and ties: ``"end"`` re-appends the
    updated records before a batch's new ones (LanceDB's merge_insert), ``"end_in_order"``
    appends every record of the batch in batch order (PostgreSQL writes an updated row's new
    version at the end of the heap; Milvus's upsert is a delete and an insert of the batch).
    ``append_writes``: the engine also appends rows without a primary key (LanceDB's ``add``:
    ``FakeVectorStore.append_many``; ids may then repeat). ``columns``: the engine's typed
    metadata columns (None: schemaless). ``nan_queries_match_nothing``: a query vector with a
    NaN component returns no result instead of raising (LanceDB). ``nested_metadata``: whether
    metadata values may be dicts and nested lists (JSON payloads). ``accepts_zero_vectors``:
    whether the all-zero vector may be stored and queried (its cosine is 0).
    ``dimension_error``: the exception type for a vector of the wrong width.
    ``native_filter``: reads the engine's own filter objects, if integrations pass them.
    ``keeps_deleted_rows``: a namespace whose last record is deleted stays (its deleted rows
    stay in the engine's segment, and a filter that fails as it runs still fails; Milvus).
    ``metadata_rule``: the engine's own check of one record's metadata, run before the generic
    one so that what the engine refuses raises its exception type and message (Chroma's
    ``validate_metadata``); None: the generic check alone.
    """

    name: str
    metric: str
    variants: tuple[MetricVariant, ...]
    filters: FilterDialect
    upsert_metadata: Literal["replace", "merge"]
    duplicate_ids_in_batch: Literal["error", "last_wins", "keep_new"]
    duplicate_ids_message: str
    ids: IdRule
    k: KRule
    dimension_error: type[DimensionError] = DimensionError
    nested_metadata: bool = True
    none_removes_key: bool = False
    accepts_zero_vectors: bool = False
    native_filter: NativeFilter | None = None
    upsert_position: UpsertPosition = "keep"
    append_writes: bool = False
    nan_queries_match_nothing: bool = False
    columns: ColumnRule | None = None
    keeps_deleted_rows: bool = False
    metadata_rule: Callable[[Mapping[str, Any]], None] | None = None
    evidence: tuple[tuple[str, str], ...] = ()
    _variant: MetricVariant = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_type("Profile", "name", self.name, str)
        if not self.name:
            raise ValueError("Profile.name must be a non-empty str")
        _check_type("Profile", "variants", self.variants, tuple)
        if not self.variants:
            raise ValueError(f"profile {shown(self.name)}: variants must hold at least one metric")
        for variant in self.variants:
            _check_type("Profile", "variants[]", variant, MetricVariant)
        names = [v.name for v in self.variants]
        if len(set(names)) != len(names):
            raise ValueError(f"profile {shown(self.name)}: metric names repeat in {names}")
        chosen = [v for v in self.variants if v.name == self.metric]
        if not chosen:
            raise ValueError(
                f"profile {shown(self.name)} has no metric {shown(self.metric)}; "
                f"allowed: {', '.join(repr(m) for m in names)}"
            )
        _check_type("Profile", "filters", self.filters, FilterDialect)
        _check_choice("Profile", "upsert_metadata", self.upsert_metadata, ("replace", "merge"))
        _check_choice(
            "Profile",
            "duplicate_ids_in_batch",
            self.duplicate_ids_in_batch,
            ("error", "last_wins", "keep_new"),
        )
        _check_choice(
            "Profile", "upsert_position", self.upsert_position, ("keep", "end", "end_in_order")
        )
        _check_type("Profile", "append_writes", self.append_writes, bool)
        _check_type("Profile", "nan_queries_match_nothing", self.nan_queries_match_nothing, bool)
        if self.columns is not None:
            _check_type("Profile", "columns", self.columns, ColumnRule)
        _check_type("Profile", "ids", self.ids, IdRule)
        _check_type("Profile", "k", self.k, KRule)
        if not (
            isinstance(self.dimension_error, type)
            and issubclass(self.dimension_error, DimensionError)
        ):
            raise TypeError(
                f"Profile.dimension_error must be a DimensionError subclass, "
                f"got {shown(self.dimension_error)}"
            )
        _check_type("Profile", "nested_metadata", self.nested_metadata, bool)
        _check_type("Profile", "none_removes_key", self.none_removes_key, bool)
        _check_type("Profile", "accepts_zero_vectors", self.accepts_zero_vectors, bool)
        _check_type("Profile", "keeps_deleted_rows", self.keeps_deleted_rows, bool)
        object.__setattr__(self, "_variant", chosen[0])

    @property
    def variant(self) -> MetricVariant:
        """The selected metric's formula, direction and tie rule."""
        return self._variant

    @property
    def higher_is_better(self) -> bool:
        """Whether a larger reported score is a better match (similarities) or a smaller one
        (distances), under the selected metric."""
        return self._variant.higher_is_better

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metric names this profile accepts."""
        return tuple(v.name for v in self.variants)

    @property
    def tie_rule(self) -> TieRule:
        """How equal scores are ordered under the selected metric."""
        return self._variant.ties

    def with_metric(self, metric: str) -> Profile:
        """This profile with another of its engine's metrics selected."""
        if not isinstance(metric, str) or metric not in self.metrics:
            raise ValueError(
                f"profile {shown(self.name)} has no metric {shown(metric)}; "
                f"allowed: {', '.join(repr(m) for m in self.metrics)}"
            )
        return dataclasses.replace(self, metric=metric)


def registry(profiles: tuple[Profile, ...]) -> Mapping[str, Profile]:
    """Profiles by name, checking that names are unique."""
    by_name: dict[str, Profile] = {}
    for profile in profiles:
        if profile.name in by_name:
            raise ValueError(f"two profiles are named {shown(profile.name)}")
        by_name[profile.name] = profile
    return by_name
