"""A filter dialect: which operators an engine's ``where=`` accepts and what they mean there.

Engines disagree on the meaning of the same filter (does a missing key match ``$ne``? is
``1 == 1.0``? does equality look inside a list?). A :class:`FilterDialect` states those choices as
data; each backend profile carries one, and the compiler and predicates read it, never the
profile's name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from placeborag_core.messages import shown

if TYPE_CHECKING:
    from placeborag_core.filters.predicates import Predicate

__all__ = [
    "BOOL_OPERANDS",
    "BOUNDS",
    "CORE_FIELD_OPERATORS",
    "CORE_LOGIC_OPERATORS",
    "LIST_OPERANDS",
    "SCALAR_OPERANDS",
    "STR_OPERANDS",
    "FilterDialect",
    "FilterNodes",
    "FilterReader",
]

CORE_FIELD_OPERATORS: tuple[str, ...] = (
    "$eq",
    "$ne",
    "$gt",
    "$gte",
    "$lt",
    "$lte",
    "$in",
    "$nin",
    "$contains",
    "$not_contains",
    "$any",
    "$all",
    "$text_match",
    "$text_match_insensitive",
    "$is_empty",
    "$exists",
)
CORE_LOGIC_OPERATORS: tuple[str, ...] = ("$and", "$or", "$not")

BOUNDS = frozenset({"$gt", "$gte", "$lt", "$lte"})
LIST_OPERANDS = frozenset({"$in", "$nin", "$any", "$all"})
SCALAR_OPERANDS = frozenset({"$eq", "$ne", "$contains", "$not_contains"})
STR_OPERANDS = frozenset({"$text_match", "$text_match_insensitive"})
BOOL_OPERANDS = frozenset({"$is_empty", "$exists"})


class FilterNodes(Protocol):
    """The predicate nodes the core compiler's walk
    (:func:`~placeborag_core.filters.compiler.read_core_filter`) builds: the core's own, or an
    engine's whose meaning the dialect's options cannot state (the ``pgvector`` profile: SQL's
    three-valued logic over JSONB). Each returns a compiled
    :class:`~placeborag_core.filters.predicates.Predicate`; the walk has validated the clause
    and its operands first."""

    def field(self, key: str, op: str, operand: Any) -> Predicate:
        """The test ``{key: {op: operand}}``."""
        ...

    def all_of(self, children: Sequence[Predicate]) -> Predicate:
        """``$and`` of compiled children (also several keys or operators in one mapping)."""
        ...

    def any_of(self, children: Sequence[Predicate]) -> Predicate:
        """``$or`` of compiled children."""
        ...

    def negation(self, child: Predicate) -> Predicate:
        """``$not`` of a compiled child."""
        ...


FilterReader = Callable[[Any, "FilterDialect"], "Predicate"]
"""An engine's own reading of a ``where=`` filter (``FilterDialect.reader``): called with the
filter, as the user gave it, and the dialect, after ``validate``; returns the compiled predicate or
raises the engine's error."""


@dataclass(frozen=True)
class FilterDialect:
    """How one engine reads a ``where=`` filter. Each backend profile carries one.

    ``validate``: the engine's own check of a whole filter, raising ``FilterError`` with the
    engine's messages (Chroma: exactly one key per mapping, one operator per expression,
    ``$and``/``$or`` need two clauses), run before the filter is compiled; None leaves the checks to
    the core compiler, whose messages name the clause path and the allowed operators (and where an
    empty mapping means no filter). ``missing_key_matches`` lists the field operators that match a
    record lacking the key. ``numeric_equality``: ``"numeric"`` makes ``1 == 1.0``; ``"int_exact"``
    makes an int operand match int values only (a float operand still matches any equal number).
    ``list_values``: ``"whole"`` compares a list value as one value; ``"any_element"`` lets
    equality, ``$in``, bounds, exclusions and text matches look at each element.
    ``text_match``: ``"substring"`` or ``"tokens"`` (every lower-cased word of the operand is a
    word of the value).
    ``empty_values``: what ``$is_empty`` treats as empty besides a missing key, None and ``[]``.
    ``match_operands``: ``"str_or_int"`` restricts the operands of ``$in``, ``$nin`` and ``$ne`` to
    all-str or all-int (Qdrant's MatchAny/MatchExcept). ``bool_bounds``: a bool bound counts as 0/1
    instead of being rejected. ``exists``: ``"key"`` (the key is present) or ``"not_empty"`` (Qdrant
    has no presence test; ``$exists: false`` is IsEmpty: missing, None or ``[]``).
    ``int_vs_float_operand``: ``"exact"`` compares an int value with a float operand as numbers;
    ``"truncate"`` first truncates the float operand toward zero, saturating at the int64 range
    (Chroma's Rust ``as i64``), so ``2.5`` equals ``2`` and ``$lt 2.5`` excludes ``2``. It applies
    to ``$eq``, ``$ne``, ``$in``, ``$nin`` and the bounds against a scalar int value (never a bool,
    never a float value), not to ``$contains``/``$any``/``$all`` on list elements.
    ``contains_elements``: how ``$contains``/``$not_contains`` compare a number with the elements of
    a list value: ``"numeric"`` (``2 == 2.0``) or ``"same_type"`` (an int operand finds only int
    elements, a float operand only float elements, as in Chroma).
    ``numpy_operands``: numpy bool, integer and floating scalars in a filter (``np.int64(3)``) are
    read as the Python ``bool``, ``int`` or ``float`` of the same value, before ``reader`` and the
    core compiler's walk (after ``validate``, which judges the filter as given); False refuses
    them (Chroma's client rejects all but ``np.float64``, a ``float`` subclass).
    ``reader``: the engine's own reading of a filter (a :data:`FilterReader`), for an engine
    whose filters the options above cannot state. It gets every ``where=`` but None (and, without
    ``validate``, an empty mapping), after ``validate``, and returns the compiled predicate. It
    may translate the filter (Milvus: expression strings, and core dicts as expressions; LanceDB:
    core dicts as SQL) or run the core compiler's walk with predicate nodes of its own
    (pgvector: ``read_core_filter(where, dialect, JSONB_NODES)``, SQL's three-valued logic over
    JSONB). None: the core compiler's walk with the core's nodes, whose meaning the fields above
    set (a reader may ignore them).
    """

    name: str
    field_ops: frozenset[str]
    logic_ops: frozenset[str]
    validate: Callable[[Any], None] | None = None
    missing_key_matches: frozenset[str] = frozenset()
    numeric_equality: Literal["numeric", "int_exact"] = "numeric"
    list_values: Literal["whole", "any_element"] = "whole"
    contains_substring: bool = True
    text_match: Literal["substring", "tokens"] = "substring"
    empty_values: tuple[Any, ...] = ("",)
    match_operands: Literal["any", "str_or_int"] = "any"
    bool_bounds: bool = False
    exists: Literal["key", "not_empty"] = "key"
    int_vs_float_operand: Literal["exact", "truncate"] = "exact"
    contains_elements: Literal["numeric", "same_type"] = "numeric"
    error_suffix: str = ""  # ends validation messages; "{call}" names the call (query, get)
    reader: FilterReader | None = None
    numpy_operands: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"FilterDialect.name must be a non-empty str, got {shown(self.name)}")
        known = frozenset(CORE_FIELD_OPERATORS)
        for field_name, given, allowed in (
            ("field_ops", self.field_ops, known),
            ("logic_ops", self.logic_ops, frozenset(CORE_LOGIC_OPERATORS)),
            ("missing_key_matches", self.missing_key_matches, known),
        ):
            if not isinstance(given, frozenset) or not given <= allowed:
                raise ValueError(
                    f"FilterDialect.{field_name} must be a frozenset of {sorted(allowed)}, "
                    f"got {shown(given)}"
                )
        for field_name, allowed_values in _CHOICES.items():
            value = getattr(self, field_name)
            if value not in allowed_values:
                raise ValueError(
                    f"FilterDialect.{field_name} must be one of "
                    f"{', '.join(map(repr, allowed_values))}, got {shown(value)}"
                )
        for hook in ("validate", "reader"):
            value = getattr(self, hook)
            if value is not None and not callable(value):
                raise TypeError(
                    f"FilterDialect.{hook} must be callable or None, got {shown(value)}"
                )


_CHOICES: dict[str, tuple[object, ...]] = {
    "numeric_equality": ("numeric", "int_exact"),
    "list_values": ("whole", "any_element"),
    "contains_substring": (True, False),
    "text_match": ("substring", "tokens"),
    "match_operands": ("any", "str_or_int"),
    "bool_bounds": (True, False),
    "exists": ("key", "not_empty"),
    "int_vs_float_operand": ("exact", "truncate"),
    "contains_elements": ("numeric", "same_type"),
    "numpy_operands": (True, False),
}
