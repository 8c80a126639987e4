"""Case generators: records, queries, k and filters, shared by the tests and the report.

Structural choices (sizes, kinds of vectors, filter shapes) are asked of a ``Draw``; the
numbers inside vectors come from a numpy ``Generator`` seeded by one drawn integer, so a case
stays cheap to draw and fully determined by its draws.

Ids are decimal strings (``"0"``, ``"7"``, ``"12"``), inserted in a shuffled order: insertion
order and id order then differ, which is what tells the engines' tie rules apart. They are
legal Qdrant point ids as they stand (the qdrant profile accepts only unsigned ints and UUIDs),
and the Qdrant harness sends ``int(id)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._draw import Draw

VECTOR_KINDS = ("embedder", "grid", "gauss", "unit", "dyadic", "duplicates", "zeros")
"""How record vectors are made: FakeEmbedder output (unit), small-integer grid (non-unit,
exact arithmetic, many ties), gaussian with random scale (non-unit), unit gaussian, +-0.5
entries (exactly representable), a few distinct vectors repeated (large tie groups)."""

PHRASES = (
    "refund policy",
    "refund policy for digital purchases",
    "shipping times",
    "delivery times to remote islands",
    "money back guarantee",
    "opening hours",
    "password reset",
    "reset your password",
    "",
    "hogyan kérek vissza pénzt",
)

COLORS = ("red", "blue", "green", "")
TAGS = ("x", "y", "z")
TITLES = ("alpha beta", "Beta gamma", "gamma", "delta alpha", "ALPHA")
NUMBERS: tuple[Any, ...] = (-1, 0, 1, 2, 5, 1.0, 2.5, 5.0, "5", True, False)
BOUNDS: tuple[int | float, ...] = (-1, 0, 1, 1.0, 2, 2.5, 3, 5, 10)
KEYS = ("color", "n", "flag", "tags", "title", "missing")
EMBEDDER_DIMS = (8, 16, 32)
"""FakeEmbedder's smallest dimension is 8."""


@dataclass
class Dataset:
    """Records in insertion order, plus the text each vector came from (None if raw)."""

    kind: str
    dim: int
    ids: list[str]
    vectors: np.ndarray
    metadatas: list[dict[str, Any]]
    texts: list[str | None] = field(default_factory=list)

    @property
    def scale(self) -> float:
        """Largest squared norm among the vectors, for score tolerances (at least 1)."""
        if len(self.vectors) == 0:
            return 1.0
        return float(max(1.0, float(np.max(np.sum(self.vectors**2, axis=1)))))


def make_id(number: int) -> str:
    """The record id for a number."""
    return str(number)


def draw_vectors(d: Draw, kind: str, n: int, dim: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` vectors of a kind. Only kind ``"zeros"`` has zero vectors (about a third of its
    rows, and of the fresh queries drawn from it): the engines accept them (cosine 0)."""
    if n == 0:
        return np.zeros((0, dim))
    if kind == "embedder":
        from placeborag_core import FakeEmbedder

        texts = [PHRASES[int(i)] for i in rng.integers(0, len(PHRASES), size=n)]
        return np.asarray(FakeEmbedder(dimensions=dim).embed_many(texts), dtype=np.float64)
    if kind == "grid":
        out = rng.integers(-2, 3, size=(n, dim)).astype(np.float64)
    elif kind == "gauss":
        out = rng.standard_normal((n, dim)) * rng.choice([0.1, 1.0, 3.0, 10.0], size=(n, 1))
    elif kind == "unit":
        out = rng.standard_normal((n, dim))
        out /= np.linalg.norm(out, axis=1, keepdims=True)
    elif kind == "dyadic":
        out = rng.choice([-0.5, 0.5], size=(n, dim))
    elif kind == "zeros":
        out = rng.integers(-1, 2, size=(n, dim)).astype(np.float64)
        out[rng.random(n) < 0.35] = 0.0
        return out
    elif kind == "duplicates":
        distinct = rng.integers(-1, 2, size=(max(1, d.integer(1, 3)), dim)).astype(np.float64)
        out = distinct[rng.integers(0, len(distinct), size=n)]
    else:  # pragma: no cover - guarded by VECTOR_KINDS
        raise ValueError(kind)
    zero = ~np.any(out != 0, axis=1)
    out[zero, 0] = 1.0
    return out


def draw_metadata(rng: np.random.Generator) -> dict[str, Any]:
    """Metadata with keys sometimes missing and ``n`` of mixed types (int, float, str, bool)."""
    meta: dict[str, Any] = {}
    if rng.random() < 0.8:
        meta["color"] = COLORS[int(rng.integers(len(COLORS)))]
    if rng.random() < 0.8:
        meta["n"] = NUMBERS[int(rng.integers(len(NUMBERS)))]
    if rng.random() < 0.5:
        meta["flag"] = bool(rng.random() < 0.5)
    if rng.random() < 0.4:
        size = int(rng.integers(1, 3))
        meta["tags"] = sorted({TAGS[int(i)] for i in rng.integers(0, len(TAGS), size=size)})
    if rng.random() < 0.5:
        meta["title"] = TITLES[int(rng.integers(len(TITLES)))]
    return meta


def draw_dataset(
    d: Draw,
    *,
    kinds: tuple[str, ...] = VECTOR_KINDS,
    min_n: int = 0,
    max_n: int = 30,
    dims: tuple[int, ...] = (2, 3, 4, 8, 16),
) -> Dataset:
    """A collection to load into both sides."""
    kind = d.choice(kinds)
    dim = d.choice(dims if kind != "embedder" else EMBEDDER_DIMS)
    n = d.integer(min_n, max_n)
    rng = np.random.default_rng(d.integer(0, 2**32 - 1))
    vectors = draw_vectors(d, kind, n, dim, rng)
    order = rng.permutation(n) if d.chance(0.8) else np.arange(n)
    ids = [make_id(int(i)) for i in order]
    metadatas = [draw_metadata(rng) for _ in range(n)]
    return Dataset(kind=kind, dim=dim, ids=ids, vectors=vectors, metadatas=metadatas)


def draw_query(d: Draw, data: Dataset) -> np.ndarray:
    """A query vector: a stored vector (exact ties and zero distances), or a fresh one."""
    rng = np.random.default_rng(d.integer(0, 2**32 - 1))
    if len(data.vectors) and d.chance(0.3):
        return np.array(data.vectors[d.integer(0, len(data.vectors) - 1)], dtype=np.float64)
    kind = data.kind if data.kind != "embedder" or d.chance(0.5) else "unit"
    return draw_vectors(d, kind, 1, data.dim, rng)[0]


def draw_k(d: Draw, n: int) -> int:
    """A valid k: small, exactly n, or above the collection size."""
    return d.choice((1, 2, 3, 5, 10, max(1, n), n + 5))


# --- filters -----------------------------------------------------------------------------


def _scalar_for(d: Draw, key: str) -> Any:
    if key == "color":
        return d.choice(COLORS)
    if key == "flag":
        return d.choice((True, False))
    if key == "tags":
        return d.choice(TAGS)
    if key == "title":
        return d.choice(TITLES)
    if key == "missing":
        return d.choice(("x", 1))
    return d.choice(NUMBERS)


def _same_type_list(d: Draw, key: str) -> list[Any]:
    first = _scalar_for(d, key)
    values = [first]
    for _ in range(d.integer(0, 2)):
        other = _scalar_for(d, key)
        if type(other) is type(first) and other not in values:
            values.append(other)
    return values


CHROMA_FIELD_OPS = (
    "bare", "$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$contains", "$not_contains",
)  # fmt: skip
"""Operators Chroma's ``where`` accepts (``bare`` is ``{"key": value}``)."""

CORE_FIELD_OPS = (
    *CHROMA_FIELD_OPS,
    "$any",
    "$all",
    "$text_match",
    "$text_match_insensitive",
    "$is_empty",
    "$exists",
)
"""Every field operator of the core dialect."""


PGVECTOR_FIELD_OPS = (
    "bare", "$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists", "$contains",
)  # fmt: skip
"""The pgvector dialect's operators (``bare`` is ``{"key": value}``), and ``$contains``, which
it lacks (the profile must refuse it)."""


def draw_field_clause(d: Draw, ops: tuple[str, ...]) -> dict[str, Any]:
    """One ``{"key": ...}`` clause with an operator from ``ops``."""
    key = d.choice(KEYS)
    op = d.choice(ops)
    if op == "bare":
        return {key: _scalar_for(d, key)}
    if op in ("$eq", "$ne"):
        operand: Any = _scalar_for(d, key)
    elif op in ("$gt", "$gte", "$lt", "$lte"):
        operand = d.choice(BOUNDS)
    elif op in ("$in", "$nin", "$any", "$all"):
        operand = _same_type_list(d, key)
    elif op in ("$contains", "$not_contains"):
        operand = d.choice(("x", "y", "re", "alpha", 1)) if key != "tags" else d.choice(TAGS)
    elif op in ("$text_match", "$text_match_insensitive"):
        operand = d.choice(("alpha", "Beta", "ALPHA", "re", "gamma"))
    elif op == "$is_empty":
        operand = True
    else:  # $exists
        operand = d.choice((True, False))
    return {key: {op: operand}}


def draw_where(d: Draw, ops: tuple[str, ...], *, depth: int = 2) -> dict[str, Any]:
    """A legal filter: a field clause, or ``$and``/``$or`` of 2-3 filters (nested to depth)."""
    if depth > 0 and d.chance(0.3):
        logic = d.choice(("$and", "$or"))
        return {logic: [draw_where(d, ops, depth=depth - 1) for _ in range(d.integer(2, 3))]}
    return draw_field_clause(d, ops)


CHROMA_ILLEGAL_WHERE: tuple[dict[str, Any], ...] = (
    {"color": {"$foo": "red"}},
    {"$not": {"color": "red"}},
    {"color": {"$in": "red"}},
    {"color": {"$nin": "red"}},
    {"color": {"$in": []}},
    {"n": {"$in": [1, "5"]}},
    {"color": {"$gt": "a"}},
    {"flag": {"$gt": False}},
    {"color": {"$eq": ["red"]}},
    {"color": {"$eq": None}},
    {"color": None},
    {"$and": []},
    {"$or": []},
    {"$and": [{"color": "red"}]},
    {"$and": {"color": "red"}},
    {"color": "red", "n": 1},
    {},
    {"n": {"$gt": 1, "$lt": 9}},
    {"color": ["red", "blue"]},
)
"""Filters Chroma rejects (docs/engines/chroma.md, chroma-filter-error-*)."""


# --- Milvus expressions ----------------------------------------------------------------------

MILVUS_FIELD_OPS = ("bare", "$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$contains")
"""Core dict operators the milvus profile translates into an expression (``expression_of``)."""

_LIKE_PATTERNS = ("r%", "%e%", "%", "_e_", "re_", "%a", "Beta%", "", "%e%e%", "red", "A%")
_MILVUS_NAMES = ("color", "n", "flag", "tags", "title", "missing", '$meta["color"]', "tags[0]")


def _milvus_literal(d: Draw, name: str) -> str:
    from placeborag_core.backends.milvus.filters import literal_text

    key = {'$meta["color"]': "color", "tags[0]": "tags"}.get(name, name)
    value = _scalar_for(d, key) if d.chance(0.85) else d.choice((2.5, -1, "red", True, 0.0))
    return literal_text(value)


def _milvus_id_literal(d: Draw, int_ids: bool) -> str:
    number = d.integer(0, 31)
    return str(number) if int_ids else f'"{number}"'


_PLAN_ERRORS = (
    'not (color == "red")', "color", "exists color", "1 < n < 5", "n + 1 == 2", "n in []",
    'tags == ["x"]', "json_contains_all(tags, [])", "color is null",
    "n >= 1 && n <= 5 || !(n == 1)",
)  # fmt: skip
"""Expressions Milvus rejects while it reads them, wherever they stand."""

_RECOVERED = (
    'color == "red" AND n == 1',
    "(n > 1",
    'color like "r\\%"',
    "n == 0x1",
    'color == "red" and',
)
"""Text the engine's ANTLR parser recovers from (or not), drawn only as a whole filter: there
the rest is dropped from the first token that cannot continue the expression. Inside
parentheses the reader recovers as ANTLR does, but ``0x1`` there is lexed otherwise by the
engine (docs/engines/milvus.md#milvus-parser-recovery-nested)."""


def _milvus_condition(d: Draw, int_ids: bool, top: bool = True) -> str:
    roll = d.integer(0, 99)
    name = d.choice(_MILVUS_NAMES)
    if roll < 35:
        op = d.choice(("==", "!=", "<", "<=", ">", ">="))
        literal = _milvus_literal(d, name)
        return f"{literal} {op} {name}" if d.chance(0.2) else f"{name} {op} {literal}"
    if roll < 50:
        # One kind of literal (mixed kinds fail only once rows are read: see MILVUS_ILLEGAL_WHERE)
        first = _milvus_literal(d, name)
        items = [first] + [
            item
            for item in (_milvus_literal(d, name) for _ in range(d.integer(0, 2)))
            if _literal_kind(item) == _literal_kind(first)
        ]
        neg = "not in" if d.chance(0.4) else "in"
        return f"{name} {neg} [{', '.join(items)}]"
    if roll < 58:
        return f"{d.choice(('color', 'title', 'n'))} like {_quoted(d.choice(_LIKE_PATTERNS))}"
    if roll < 68:
        func = d.choice(("json_contains", "array_contains", "json_contains_any",
                         "json_contains_all"))  # fmt: skip
        if func.endswith(("_any", "_all")):
            items = sorted({d.choice(TAGS) for _ in range(d.integer(1, 2))})
            return f"{func}(tags, [{', '.join(_quoted(t) for t in items)}])"
        return f"{func}(tags, {_quoted(d.choice(TAGS))})"
    if roll < 73:
        return f"array_length(tags) {d.choice(('==', '!='))} {d.integer(0, 2)}"
    if roll < 85:
        literal = _milvus_id_literal(d, int_ids)
        form = d.integer(0, 3)
        if form == 0:
            return f"id {d.choice(('==', '!=', '<', '>='))} {literal}"
        if form == 1:
            items = ", ".join(_milvus_id_literal(d, int_ids) for _ in range(d.integer(1, 4)))
            return f"id {d.choice(('in', 'not in'))} [{items}]"
        if form == 2:
            return f"{literal} < id <= {_milvus_id_literal(d, int_ids)}"
        return f"{literal} == id"
    if top and d.chance(0.4):
        return d.choice(_RECOVERED)
    return d.choice((*_PLAN_ERRORS, "id == 5" if not int_ids else 'id == "5"'))


def _literal_kind(text: str) -> str:
    """The kind of a Milvus literal's text: str, bool, float or int."""
    if text.startswith('"'):
        return "str"
    if text in ("true", "false"):
        return "bool"
    return "float" if any(c in text for c in ".eE") else "int"


def _quoted(text: str) -> str:
    from placeborag_core.backends.milvus.filters import quote

    return quote(text)


def draw_milvus_expression(d: Draw, *, int_ids: bool = False, depth: int = 2) -> str:
    """A Milvus filter expression: comparisons (a literal on either side), ``in``/``not in``,
    ``like``, ``json_contains*``, ``array_length``, conditions on the primary key, ``and``/
    ``or``/``&&``/``||`` with parentheses, and now and then one the engine rejects while it
    reads the expression (``not``, a bare name, ``exists``, arithmetic, an empty ``in``...).
    Errors the engine raises only while it evaluates rows (two keys compared, mixed kinds in
    ``in``) are left to ``MILVUS_ILLEGAL_WHERE``: whether they fire depends on which rows a
    pooled collection's segment still holds."""
    return _draw_expression(d, int_ids, depth, top=True)


def _draw_expression(d: Draw, int_ids: bool, depth: int, top: bool) -> str:
    if depth > 0 and d.chance(0.3):
        parts = [_draw_expression(d, int_ids, depth - 1, top=False)
                 for _ in range(d.integer(2, 3))]  # fmt: skip
        joiner = d.choice((" and ", " or ", " && ", " || "))
        return "(" + joiner.join(parts) + ")"
    return _milvus_condition(d, int_ids, top)
