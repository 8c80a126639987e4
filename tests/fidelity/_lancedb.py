"""LanceDB in the differential suite: the real engine, our lancedb profile, and drawn cases.

One ``lancedb.connect(<tmp dir>)`` serves the whole process (:func:`connection`); each side is a
table named from a counter, dropped when the side closes, and :func:`close` removes the directory
(the session fixture in ``conftest.py`` calls it; so does the report). A real side writes rows
``{"id", "vector", **metadata}``: ``upsert`` is ``merge_insert("id")`` (the table is created by
the first write), ``append`` is ``add``, a query is ``search(v).distance_type(metric)
.where(sql, prefilter=...).limit(k)``. The fake side is ``FakeVectorStore(profile="lancedb")``
with the same calls (``upsert_many``, ``append_many``, the SQL read by the profile's native filter
reader).

Records have typed metadata (a table has a schema): ``color`` and ``title`` strings, ``n`` an int
or a float column (or both, which pyarrow makes a double column), ``flag`` a bool, ``tags`` a list
of strings, and sometimes a value of another type or a key the table lacks (LanceDB casts, drops
or refuses it). Filters are SQL drawn from a grammar over those columns, unknown ones and every
literal type, so type errors, NULLs and lance's error order are compared as much as results.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._compare import Hit, TiePolicy, Verdict, compare_errors, compare_rankings
from ._draw import Draw

METRICS = ("l2", "cosine", "dot")
POLICY = TiePolicy(subset=None, order=None)
"""LanceDB returns ties in insertion order, as the profile does: no tie divergence."""

_state: dict[str, Any] = {}
_names = itertools.count()

Meta = dict[str, Any]


def connection() -> Any:
    """The process's LanceDB database in a temporary directory (created on first use)."""
    if "db" not in _state:
        import lancedb

        _state["dir"] = tempfile.mkdtemp(prefix="placeborag-lancedb-")
        _state["db"] = lancedb.connect(_state["dir"])
    return _state["db"]


def close() -> None:
    """Forget the database and remove its directory (nothing is left behind)."""
    _state.pop("db", None)
    directory = _state.pop("dir", None)
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)


def message(error: BaseException) -> str:
    """An error's message as compared: its first line, without the Python traceback pyarrow
    appends to an error raised inside a merge_insert reader (``. Detail: Python exception``)."""
    text = str(error).split(". Detail: Python exception", 1)[0]
    return text.split("\n", 1)[0] if "\n\tCandidate" not in text else text


def compare_lance_errors(ours: BaseException | None, theirs: BaseException | None) -> Verdict:
    """Errors must agree in kind (the engine's builtin base) and in message."""
    verdict = compare_errors(ours, theirs)
    if not verdict.agree or ours is None or theirs is None:
        return verdict
    if message(ours) != message(theirs):
        return Verdict(False, detail=f"messages differ:\n ours:   {ours}\n theirs: {theirs}")
    return verdict


class LanceSide:
    """A real LanceDB table (created by its first write, dropped by ``close``)."""

    def __init__(self, metric: str, prefilter: bool = True) -> None:
        self.metric = metric
        self.prefilter = prefilter
        self.name = f"fidelity_{next(_names)}"
        self.table: Any = None

    def _rows(self, ids: Sequence[str], vectors: Any, metas: Sequence[Meta]) -> list[Meta]:
        return [
            {"id": i, "vector": [float(x) for x in v], **m}
            for i, v, m in zip(ids, vectors, metas, strict=True)
        ]

    def upsert(self, ids: Sequence[str], vectors: Any, metas: Sequence[Meta]) -> None:
        if not ids:
            return
        rows = self._rows(ids, vectors, metas)
        if self.table is None:
            self.table = connection().create_table(self.name, rows)
            return
        self.table.merge_insert("id").when_matched_update_all().when_not_matched_insert_all(
        ).execute(rows)  # fmt: skip

    def append(self, ids: Sequence[str], vectors: Any, metas: Sequence[Meta]) -> None:
        rows = self._rows(ids, vectors, metas)
        if self.table is None:
            self.table = connection().create_table(self.name, rows)
            return
        self.table.add(rows)

    def delete(self, ids: Sequence[str]) -> None:
        if self.table is None or not ids:
            return
        quoted = ", ".join("'" + i.replace("'", "''") + "'" for i in ids)
        self.table.delete(f"id IN ({quoted})")

    def query(
        self, vector: Any, k: Any, where: str | None = None, ids: Sequence[str] | None = None
    ) -> list[Hit]:
        if ids is not None:
            raise TypeError("LanceDB has no ids restriction (use SQL on the id column)")
        if self.table is None:
            return []
        search = self.table.search([float(x) for x in vector]).distance_type(self.metric)
        if where is not None:
            search = search.where(where, prefilter=self.prefilter)
        rows = search.limit(k).to_list()
        return [Hit(r["id"], float(r["_distance"])) for r in rows]

    def listing(self) -> list[tuple[str, Meta]]:
        if self.table is None:
            return []
        out = []
        for row in self.table.to_arrow().to_pylist():
            meta = {k: v for k, v in row.items() if k not in ("id", "vector") and v is not None}
            out.append((row["id"], meta))
        return out

    def close(self) -> None:
        if self.table is not None:
            connection().drop_table(self.name)
            self.table = None


class LanceFakeSide:
    """Our ``FakeVectorStore(profile="lancedb")`` behind the same calls."""

    def __init__(self, metric: str, prefilter: bool = True) -> None:
        from placeborag_core import FakeVectorStore

        self.store = FakeVectorStore(profile="lancedb", metric=metric)
        self.prefilter = prefilter

    @staticmethod
    def _records(ids: Sequence[str], vectors: Any, metas: Sequence[Meta]) -> list[Any]:
        return [
            (i, None, dict(m), np.asarray(v, dtype=np.float64))
            for i, v, m in zip(ids, vectors, metas, strict=True)
        ]

    def upsert(self, ids: Sequence[str], vectors: Any, metas: Sequence[Meta]) -> None:
        self.store.upsert_many(self._records(ids, vectors, metas))

    def append(self, ids: Sequence[str], vectors: Any, metas: Sequence[Meta]) -> None:
        self.store.append_many(self._records(ids, vectors, metas))

    def delete(self, ids: Sequence[str]) -> None:
        self.store.delete(list(ids))

    def query(
        self, vector: Any, k: Any, where: str | None = None, ids: Sequence[str] | None = None
    ) -> list[Hit]:
        predicate = None
        if where is not None:
            from placeborag_core.backends import PROFILES
            from placeborag_core.backends.lancedb.filters import ENGINE_LAYOUT

            reader = PROFILES["lancedb"].native_filter
            assert reader is not None
            predicate = reader(where, ENGINE_LAYOUT).where
        mode = "pre" if self.prefilter else "post"
        matches = self.store.query(vector, k, where=predicate, ids=ids, filter_mode=mode)
        return [Hit(m.id, float(m.score)) for m in matches]

    def listing(self) -> list[tuple[str, Meta]]:
        ids, _, metas, _ = self.store.snapshot()
        return [
            (i, {k: v for k, v in m.items() if v is not None})
            for i, m in zip(ids, metas, strict=True)
        ]

    def close(self) -> None:
        pass


# --------------------------------------------------------------------------- drawing cases

COLORS = ("red", "blue", "green", "", "Red", "it's", "a_b", "ré%")
TITLES = ("alpha beta", "Beta gamma", "gamma", "ALPHA")
INTS = (-1, 0, 1, 2, 5, 10)
FLOATS = (-1.5, 0.0, 1.0, 2.5, 5.0)
COLUMNS = ("color", "n", "flag", "tags", "title")


def draw_schema(d: Draw) -> dict[str, str]:
    """The kind of each metadata column of a table: ``n`` is int, float or mixed."""
    return {
        "color": "str",
        "n": d.choice(("int", "float", "mixed")),
        "flag": "bool",
        "tags": "list",
        "title": "str",
    }


def draw_value(d: Draw, key: str, kinds: dict[str, str]) -> Any:
    kind = kinds[key]
    if kind == "int" or (kind == "mixed" and d.chance(0.5)):
        return d.choice(INTS)
    if kind in ("float", "mixed"):
        return d.choice(FLOATS)
    if key == "flag":
        return d.chance(0.5)
    if key == "tags":
        return sorted({d.choice(("x", "y", "z")) for _ in range(d.integer(0, 2))})
    if key == "title":
        return d.choice(TITLES)
    return d.choice(COLORS)


ODD_VALUES: tuple[Any, ...] = (5, 2.5, "7", "x", True, ["q"], None)
"""Values of another type than a column's, written now and then: LanceDB casts some and
refuses others."""


def draw_meta(d: Draw, kinds: dict[str, str], *, odd: float = 0.0, extra: float = 0.0) -> Meta:
    """A record's metadata: each column present with some probability (missing is NULL); with
    probability ``odd`` one value of another type, ``extra`` a key the table lacks."""
    meta: Meta = {}
    for key in COLUMNS:
        if d.chance(0.75):
            meta[key] = draw_value(d, key, kinds)
    if meta and d.chance(odd):
        meta[d.choice(sorted(meta))] = d.choice(ODD_VALUES)
    if d.chance(extra):
        meta["extra"] = d.choice((1, "x"))
    return meta


def draw_vectors(d: Draw, n: int, dim: int) -> np.ndarray:
    """Small-integer grid vectors (exact arithmetic, many ties), or gaussian ones."""
    rng = np.random.default_rng(d.integer(0, 2**32 - 1))
    if d.chance(0.6):
        out = rng.integers(-2, 3, size=(n, dim)).astype(np.float64)
        out[~np.any(out != 0, axis=1), 0] = 1.0
        return out
    return rng.standard_normal((n, dim)) * d.choice((0.5, 1.0, 4.0))


NAMES = (
    "color", "n", "flag", "tags", "title", "id", "missing", "Color", "COLOR", '"color"',
    '"Color"', "`n`", "Nosuch",
)  # fmt: skip
LITERALS = (
    "1", "2", "2.5", "-1", "0", "1.0", "-1.5", "1e1", "'red'", "'blue'", "''", "'1'", "'x'",
    "'it''s'", "'Red'", "true", "false", "NULL",
)  # fmt: skip
TYPED = {
    "color": ("'red'", "'blue'", "''", "'Red'", "'it''s'", "'a_b'", "NULL"),
    "title": ("'gamma'", "'ALPHA'", "'alpha beta'"),
    "n": ("1", "2.5", "0", "-1", "5", "1e1", "NULL"),
    "flag": ("true", "false"),
    "id": ("'1'", "'3'", "'10'"),
}
PATTERNS = ("%e%", "r%", "R%", "_", "%", "a\\_b", "gam%", "it''s", "%a")
COMPARISONS = ("=", "==", "!=", "<>", "<", "<=", ">", ">=")


def _typed_condition(d: Draw, column: str) -> str:
    literal = lambda: d.choice(TYPED[column])  # noqa: E731 - a local shorthand
    shape = d.integer(0, 9)
    if shape < 5:
        return f"{column} {d.choice(COMPARISONS)} {literal()}"
    if shape < 6:
        items = ", ".join(literal() for _ in range(d.integer(1, 3)))
        return f"{column} {d.choice(('IN', 'NOT IN'))} ({items})"
    if shape < 7:
        return f"{column} {d.choice(('BETWEEN', 'NOT BETWEEN'))} {literal()} AND {literal()}"
    if shape < 8 and column in ("color", "title", "id"):
        word = d.choice(("LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE"))
        return f"{column} {word} '{d.choice(PATTERNS)}'"
    if column == "flag":
        return f"flag IS {d.choice(('NULL', 'NOT NULL', 'TRUE', 'FALSE', 'NOT TRUE', 'NOT FALSE'))}"
    return f"{column} IS {d.choice(('NULL', 'NOT NULL'))}"


def _any_condition(d: Draw) -> str:
    column = d.choice(NAMES)
    shape = d.integer(0, 11)
    if shape < 4:
        return f"{column} {d.choice(COMPARISONS)} {d.choice(LITERALS)}"
    if shape < 5:
        items = ", ".join(d.choice(LITERALS) for _ in range(d.integer(1, 3)))
        return f"{column} {d.choice(('IN', 'NOT IN'))} ({items})"
    if shape < 6:
        low, high = d.choice(LITERALS), d.choice(LITERALS)
        return f"{column} {d.choice(('BETWEEN', 'NOT BETWEEN'))} {low} AND {high}"
    if shape < 7:
        word = d.choice(("LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE"))
        pattern = d.choice((*LITERALS, *("'" + p + "'" for p in PATTERNS)))
        return f"{column} {word} {pattern}"
    if shape < 8:
        test = d.choice(("NULL", "NOT NULL", "TRUE", "FALSE", "NOT TRUE", "NOT FALSE"))
        return f"{column} IS {test}"
    if shape < 9:
        return f"{d.choice(('array_has', 'array_contains'))}(tags, {d.choice(LITERALS)})"
    if shape < 10:
        return d.choice(("flag", "color", "n", "true", "false", "NULL", "1 = 1", "'a' < 'b'"))
    return f"{column} {d.choice(COMPARISONS)} {d.choice(NAMES)}"


def draw_sql(d: Draw, depth: int = 2) -> str:
    """A filter: mostly well-typed conditions, combined with AND/OR/NOT and parentheses; some
    with type mismatches, unknown columns and NULLs, a few malformed."""
    if depth > 0 and d.chance(0.3):
        word = d.choice(("AND", "OR", "and", "or"))
        return f"{draw_sql(d, depth - 1)} {word} {draw_sql(d, depth - 1)}"
    if depth > 0 and d.chance(0.12):
        return f"NOT {draw_sql(d, depth - 1)}"
    if depth > 0 and d.chance(0.12):
        return f"({draw_sql(d, depth - 1)})"
    if d.chance(0.7):
        column = d.choice(tuple(TYPED))
        return _typed_condition(d, column)
    return _any_condition(d)


def mangle(d: Draw, sql: str) -> str:
    """Now and then a malformed filter (a dangling AND, an open parenthesis, an unterminated
    string) or trailing tokens lance ignores."""
    shape = d.integer(0, 39)
    if shape == 0:
        return sql + " AND"
    if shape == 1:
        return "(" + sql
    if shape == 2 and "'" in sql:
        return sql.replace("'", "", 1)
    if shape == 3:
        return sql + " junk"
    return sql


def tolerance(vectors: np.ndarray, query: np.ndarray) -> float:
    reach = float(np.sqrt(max(1.0, float(np.max(np.sum(vectors**2, axis=1)))))) + float(
        np.linalg.norm(query)
    )
    return 1e-5 * reach * reach + 1e-6


def attempt(call: Any) -> tuple[Any, BaseException | None]:
    try:
        return call(), None
    except Exception as error:  # the engine raises anything; errors are compared
        return None, error


def compare_query(
    fake: LanceFakeSide,
    real: LanceSide,
    vector: Any,
    k: Any,
    where: str | None,
    size: int,
    tol: float,
) -> Verdict:
    """One query on both sides: the same error (kind and message), or the same ranking."""
    ours, our_error = attempt(lambda: fake.query(vector, k, where=where))
    theirs, their_error = attempt(lambda: real.query(vector, k, where=where))
    if our_error is not None or their_error is not None:
        return compare_lance_errors(our_error, their_error)
    assert isinstance(ours, list)
    assert isinstance(theirs, list)
    every = real.query(vector, max(1, size), where=where)
    if len({h.id for h in every}) < len(every):
        return compare_with_duplicates(ours, theirs, tol)
    exhaustive = {h.id: h.score for h in every}
    mine = {h.id: h.score for h in fake.query(vector, max(1, size), where=where)}
    return compare_rankings(
        ours, theirs, k=k, candidates=exhaustive, tol=tol, policy=POLICY, our_candidates=mine
    )


def compare_with_duplicates(ours: list[Hit], theirs: list[Hit], tol: float) -> Verdict:
    """Rankings with repeated ids (appended rows): rank by rank the same id and score, except
    that ids may swap within a run of scores equal within ``tol`` (float rounding)."""
    both = f"ours={ours} theirs={theirs}"
    if len(ours) != len(theirs):
        return Verdict(False, detail=f"count differs: {both}")
    if any(abs(a.score - b.score) > tol for a, b in zip(ours, theirs, strict=True)):
        return Verdict(False, detail=f"scores differ: {both}")
    if [h.id for h in ours] == [h.id for h in theirs]:
        return Verdict(True)
    start = 0
    found = False
    for end in range(1, len(theirs) + 1):
        if end == len(theirs) or abs(theirs[end].score - theirs[start].score) > tol:
            if sorted(h.id for h in ours[start:end]) != sorted(h.id for h in theirs[start:end]):
                return Verdict(False, detail=f"different ids at ranks {start + 1}..: {both}")
            found = found or [h.id for h in ours[start:end]] != [h.id for h in theirs[start:end]]
            start = end
    from ._divergences import FLOAT_ROUNDING

    return Verdict(True, divergences=(FLOAT_ROUNDING,) if found else (), detail=both)


# --------------------------------------------------------------------------- runners


def _outcome(metric: str, behaviour: str, verdict: Verdict, case: str) -> Any:
    from ._runners import Outcome

    return Outcome("lancedb", metric, behaviour, verdict, case)


def compare_writes(fake: Any, real: Any, call: str, *args: Any) -> Verdict:
    """A write on both sides: the same error, or success on both; then the same table."""
    _, our_error = attempt(lambda: getattr(fake, call)(*args))
    _, their_error = attempt(lambda: getattr(real, call)(*args))
    verdict = compare_lance_errors(our_error, their_error)
    if not verdict.agree:
        return verdict
    return compare_state(fake, real)


def compare_state(fake: Any, real: Any) -> Verdict:
    ours, theirs = fake.listing(), real.listing()
    if ours != theirs:
        return Verdict(False, detail=f"tables differ:\n ours:   {ours}\n theirs: {theirs}")
    return Verdict(True)


def ranking_case(d: Draw, metric: str) -> list[Any]:
    """A drawn table (one or two writes) and 1-4 queries, most filtered, pre- or post-filter."""
    kinds = draw_schema(d)
    dim = d.choice((2, 3, 4, 8))
    n = d.integer(1, 24)
    vectors = draw_vectors(d, n, dim)
    order = list(range(n))
    if d.chance(0.8):
        order = [int(i) for i in np.random.default_rng(d.integer(0, 999)).permutation(n)]
    ids = [str(i) for i in order]
    metas = [draw_meta(d, kinds, odd=0.03) for _ in range(n)]
    fake, real = LanceFakeSide(metric), LanceSide(metric)
    outcomes = []
    try:
        split = n if d.chance(0.6) else d.integer(1, n)
        for start, stop in ((0, split), (split, n)):
            if start == stop:
                continue
            call = "upsert" if start == 0 or d.chance(0.5) else "append"
            args = (ids[start:stop], vectors[start:stop], metas[start:stop])
            verdict = compare_writes(fake, real, call, *args)
            label = f"{call} {metas[start:stop]}"
            outcomes.append(_outcome(metric, "writes: schema and casts", verdict, label))
            if not verdict.agree or real.table is None:
                return outcomes  # a disagreement, or no table to query (its write failed)
        for _ in range(d.integer(1, 4)):
            rng = np.random.default_rng(d.integer(0, 2**32 - 1))
            if d.chance(0.3):
                query = vectors[d.integer(0, n - 1)].copy()
            else:
                query = rng.integers(-2, 3, size=dim).astype(np.float64)
            k = d.choice((1, 2, 3, 5, 10, n, n + 5))
            where = mangle(d, draw_sql(d)) if d.chance(0.8) else None
            prefilter = d.chance(0.7)
            fake.prefilter = real.prefilter = prefilter
            verdict = compare_query(fake, real, query, k, where, n, tolerance(vectors, query))
            behaviour = "ranking" if where is None else "sql filters"
            if where is not None and not prefilter:
                behaviour = "sql filters, post-filter"
            case = f"metas={metas} ids={ids} k={k} where={where!r} prefilter={prefilter}"
            outcomes.append(_outcome(metric, behaviour, verdict, case))
    finally:
        real.close()
    return outcomes


SEQUENCE_POOL = tuple(str(i) for i in range(8))


def write_sequence_case(d: Draw, metric: str, steps: int = 10) -> list[Any]:
    """Drawn upserts (merge_insert), appends (add), deletes and queries; the table is compared
    after every write (row order, duplicates, NULLs, cast values)."""
    kinds = draw_schema(d)
    fake, real = LanceFakeSide(metric), LanceSide(metric)
    log: list[str] = []
    outcomes = []
    try:
        for _ in range(steps):
            action = d.choice(("upsert", "upsert", "append", "delete", "query"))
            ids = [d.choice(SEQUENCE_POOL) for _ in range(d.integer(1, 3))]
            if action in ("upsert", "append"):
                vectors = draw_vectors(d, len(ids), 3)
                metas = [draw_meta(d, kinds, odd=0.1, extra=0.05) for _ in ids]
                if action == "upsert" and len(set(ids)) < len(ids) and d.chance(0.7):
                    ids = list(dict.fromkeys(ids))
                    vectors, metas = vectors[: len(ids)], metas[: len(ids)]
                log.append(f"{action} {ids} {metas}")
                verdict = compare_writes(fake, real, action, ids, vectors, metas)
                outcomes.append(
                    _outcome(metric, f"write sequences: {action}", verdict, "; ".join(log))
                )
            elif action == "delete":
                log.append(f"delete {ids}")
                verdict = compare_writes(fake, real, "delete", ids)
                outcomes.append(
                    _outcome(metric, "write sequences: delete", verdict, "; ".join(log))
                )
            else:
                query = draw_vectors(d, 1, 3)[0]
                where = draw_sql(d, depth=1) if d.chance(0.5) else None
                k = d.integer(1, 10)
                verdict = compare_query(fake, real, query, k, where, 30, 1e-4)
                label = "; ".join([*log, f"query k={k} where={where!r}"])
                outcomes.append(_outcome(metric, "write sequences: queries", verdict, label))
            if outcomes and not outcomes[-1].verdict.agree:
                break
    finally:
        real.close()
    return outcomes


ILLEGAL_SQL = (
    "flag = 1", "n = '1'", "color = 1", "color = red", "nosuch = 1", "n >", "(n = 1",
    "n IN ()", "n IN (1,)", "n = 'x' AND nosuch = 1", "nosuch = 1 AND n = 'x'", "NOT n",
    "n AND true", "n LIKE 'x'", "color LIKE 1", "NULL", "1", "n", "nosuch IS NULL",
    '"Color" IS NULL', "color = 'a", 'color = "a', "n <=> 1", "n = +1", "n IS DISTINCT FROM 1",
    "flag IS UNKNOWN", "n = (1, 2)", "color IS 'x'", "n BETWEEN 1", "array_has(nosuch, 'x')",
    "array_has(tags, true)", "NOT (n = 'x')", "NOT (color = 1)", "tags = 'x'", "1 = 'a'",
)  # fmt: skip
"""Filters LanceDB rejects, one per stage and message kind (``docs/engines/lancedb.md``)."""


def _diverging(verdict: Verdict, key: str, expected: str) -> Verdict:
    """A disagreement of the ``expected`` shape (``types``: both raise, catchable differently or
    with other words; ``ours``: only we raise; ``theirs``: only the engine raises) counted as
    the known divergence ``key``."""
    if verdict.agree and not verdict.detail.startswith("messages differ"):
        return verdict
    shapes = {
        "types": verdict.detail.startswith(("messages differ", "we raise"))
        and "accepts" not in verdict.detail,
        "ours": "the engine accepts" in verdict.detail,
        "theirs": verdict.detail.startswith("we accept"),
    }
    if shapes[expected]:
        return Verdict(True, divergences=(key,), detail=verdict.detail)
    return verdict


def error_cases(metric: str, dim: int = 3) -> list[Any]:
    """Bad k, wrong widths, NaN and infinite vectors, empty writes and illegal SQL on a loaded
    table; after a rejected write both tables must be unchanged."""
    from ._divergences import LANCEDB_BAD_VECTORS, LANCEDB_K_TYPES, LANCEDB_MESSAGES

    rng = np.random.default_rng(11)
    vectors = rng.standard_normal((4, dim))
    ids = ["3", "1", "2", "0"]
    metas: list[Meta] = [
        {"color": "red", "n": 1, "flag": True, "tags": ["x"]},
        {"n": 2.5},
        {"flag": False},
        {},
    ]
    good = vectors[0]
    outcomes: list[Any] = []

    def both(behaviour: str, label: str, call: Any, known: tuple[str, str] | None = None) -> None:
        fake, real = LanceFakeSide(metric), LanceSide(metric)
        try:
            fake.upsert(ids, vectors, metas)
            real.upsert(ids, vectors, metas)
            _, ours = attempt(lambda: call(fake))
            _, theirs = attempt(lambda: call(real))
            verdict = compare_lance_errors(ours, theirs)
            if known is not None:
                verdict = _diverging(verdict, *known)
            if verdict.agree and not verdict.divergences:
                state = compare_state(fake, real)
                verdict = verdict if state.agree else state
            outcomes.append(_outcome(metric, behaviour, verdict, label))
        finally:
            real.close()

    for k in (0, -1, None):
        both("k errors", f"k={k!r}", lambda s, k=k: s.query(good, k))
    for k, shape in ((1.5, "types"), ("2", "types"), (True, "ours")):
        both("k errors", f"k={k!r}", lambda s, k=k: s.query(good, k), (LANCEDB_K_TYPES, shape))
    for width in (dim - 1, dim + 1):
        wrong = np.ones(width)
        messages = (LANCEDB_MESSAGES, "types")
        both("dimension errors", f"query dim {width}", lambda s, w=wrong: s.query(w, 2), messages)
        for call in ("upsert", "append"):
            both(
                "dimension errors", f"{call} dim {width}",
                lambda s, w=wrong, c=call: getattr(s, c)(["9"], w[None, :], [{}]), messages,
            )  # fmt: skip
    nan = np.full((1, dim), np.nan)
    both("vector errors", "NaN query", lambda s: s.query(nan[0], 2))
    both(
        "vector errors",
        "append NaN",
        lambda s: s.append(["9"], nan, [{}]),
        (LANCEDB_MESSAGES, "types"),
    )
    both(
        "vector errors",
        "upsert NaN",
        lambda s: s.upsert(["9"], nan, [{}]),
        (LANCEDB_BAD_VECTORS, "types"),
    )
    inf = np.full((1, dim), np.inf)
    both(
        "vector errors",
        "append inf",
        lambda s: s.append(["9"], inf, [{}]),
        (LANCEDB_BAD_VECTORS, "ours"),
    )
    both(
        "vector errors",
        "append nothing",
        lambda s: s.append([], np.zeros((0, dim)), []),
        (LANCEDB_BAD_VECTORS, "theirs"),
    )
    for where in ILLEGAL_SQL:
        both("filter errors", f"where={where!r}", lambda s, w=where: s.query(good, 2, where=w))
    return outcomes
