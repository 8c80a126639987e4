"""Probe: a LanceDB table's schema (pyarrow's inference, the casts of ``add`` and
``merge_insert``), merge_insert's updates, and the stages lance plans a SQL filter in.

Covers the facts of docs/engines/lancedb.md under "Schema and writes" and "Filter semantics and
errors" (``lancedb-schema-*``, ``lancedb-add-*``, ``lancedb-merge-*``, ``lancedb-k-types``,
``lancedb-inf-vector-stored``, ``lancedb-sql-*``). Engine in process (``lancedb.connect`` on a
temporary directory, removed at the end).
Run: python tests/fidelity/probes/lancedb_schema.py
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from typing import Any

import lancedb
import pyarrow as pa
from _probe import Facts

FACTS = Facts("LanceDB schema, writes and SQL filter stages", "lancedb", "pyarrow")
V = [1.0, 0.0]
PATH = "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f"
_tables = iter(range(10_000))


def outcome(call: Callable[[], Any]) -> Any:
    """What ``call`` returns, or ``(exception class name, first line of its message)``."""
    try:
        return call()
    except Exception as error:  # the probe records what the engine raises
        text = str(error).split(". Detail: Python exception", 1)[0]
        return type(error).__name__, text.splitlines()[0]


def check(fact: str, got: Any, want: Any) -> None:
    FACTS.check(fact, got == want, repr(got))


def table(db: Any, rows: list[dict[str, Any]]) -> Any:
    return db.create_table(f"t{next(_tables)}", rows)


def rows_of(t: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "vector"} for r in t.to_arrow().to_pylist()]


def upsert(t: Any, rows: list[dict[str, Any]]) -> Any:
    return (
        t.merge_insert("id").when_matched_update_all().when_not_matched_insert_all().execute(rows)
    )


def main() -> None:
    root = tempfile.mkdtemp(prefix="probe-lancedb-schema-")
    try:
        db = lancedb.connect(root)
        schema(db)
        add_casts(db)
        merge(db)
        limits(db)
        sql(db)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    FACTS.done()


def schema(db: Any) -> None:
    t = table(db, [{"id": "a", "vector": V}, {"id": "b", "vector": V, "m": 1, "n": 2}])
    check("lancedb-schema-first-row-keys", t.schema.names, ["id", "vector"])
    t = table(db, [{"id": "a", "vector": V, "i": 1}])
    t.add([{"id": "b", "vector": V}, {"id": "c", "vector": V, "x3": 1}])
    extra = outcome(lambda: t.add([{"id": "d", "vector": V, "x1": 1}]))
    check(
        "lancedb-schema-later-keys-dropped",
        [t.schema.names, extra],
        [
            ["id", "vector", "i"],
            ("ValueError", "Invalid input, field 'x1' does not exist in table schema"),
        ],
    )

    def inferred(values: list[Any]) -> Any:
        return outcome(lambda: str(pa.array(values).type))

    check(
        "lancedb-schema-pyarrow-inference-order",
        [inferred(v) for v in ([1, True], [True, 1], [1, 1.5, True], [1, True, 1.5], ["x", 1])],
        [
            ("ArrowTypeError", "Expected integer, got bool"),
            ("ArrowInvalid", "Could not convert 1 with type int: tried to convert to boolean"),
            "double",
            ("ArrowTypeError", "Expected integer, got bool"),
            ("ArrowTypeError", "Expected bytes, got a 'int' object"),
        ],
    )
    t = table(db, [{"id": "a", "vector": V, "z": None, "l": []}])
    check(
        "lancedb-schema-null-column",
        [
            str(t.schema.field("z").type),
            outcome(lambda: t.add([{"id": "b", "vector": V, "z": 1}])),
            outcome(lambda: t.add([{"id": "b", "vector": V, "l": ["x"]}])),
        ],
        [
            "null",
            ("ValueError", "Invalid input, cannot cast field 'z' from Int64 to Null"),
            ("ValueError", "Invalid input, cannot cast field 'l' from List(Utf8) to List(Null)"),
        ],
    )


CAST = "lance error: LanceError(Arrow): Cast error: Cannot cast"
UTILS = f"{PATH}/lance-datafusion-13.0.0/src/utils.rs:51:31"
BAD_VECTORS = (
    "Set on_bad_vectors='drop' to remove them, set on_bad_vectors='fill' and "
    "fill_value=<value> to replace them, or set on_bad_vectors='null' to replace them with null."
)
FIRST = {"id": "a", "vector": V, "i": 1, "f": 1.5, "s": "x", "b": True, "l": ["x"]}


def add_casts(db: Any) -> None:
    t = table(db, [FIRST])
    t.add([{"id": "b", "vector": V, "i": 2.5, "f": 2, "s": 5, "b": 1, "l": "y"}])
    t.add([{"id": "c", "vector": V, "i": "3", "f": True, "s": True, "b": "true", "l": ["z"]}])
    t.add([{"id": "d", "vector": V, "s": ["q"]}])
    check(
        "lancedb-add-casts-leniently",
        rows_of(t)[1:],
        [
            {"id": "b", "i": 2, "f": 2.0, "s": "5", "b": True, "l": ["y"]},
            {"id": "c", "i": 3, "f": 1.0, "s": "true", "b": True, "l": ["z"]},
            {"id": "d", "i": None, "f": None, "s": "[q]", "b": None, "l": None},
        ],
    )
    t = table(db, [FIRST])
    t.add([{"id": "b", "vector": V, "l": 2.5}, {"id": "c", "vector": V}])
    check("lancedb-add-wraps-null-in-list", [r["l"] for r in rows_of(t)], [["x"], ["2.5"], [None]])
    check(
        "lancedb-add-cast-errors",
        [
            outcome(lambda: t.add([{"id": "e", "vector": V, "i": "x"}])),
            outcome(lambda: t.add([{"id": "e", "vector": V, "b": "x"}])),
        ],
        [
            ("ValueError", f"{CAST} string 'x' to value of Int64 type, {UTILS}"),
            ("ValueError", f"{CAST} value 'x' to value of Boolean type, {UTILS}"),
        ],
    )
    check(
        "lancedb-add-empty-raises",
        outcome(lambda: t.add([])),
        ("ValueError", "Cannot create table from empty list without a schema"),
    )
    t.add([{"id": "inf", "vector": [float("inf"), 0.0]}])
    check(
        "lancedb-inf-vector-stored",
        [r["_distance"] for r in t.search([1.0, 0.0]).where("id = 'inf'").limit(1).to_list()],
        [float("inf")],
    )


def merge(db: Any) -> None:
    prefix = "Arrow error: C Data interface error: "
    parse = f"{prefix}Invalid: Failed to parse string:"
    t = table(db, [FIRST])
    two = [{"id": "b", "vector": V, "i": "x"}, {"id": "c", "vector": V, "i": "y"}]
    check(
        "lancedb-merge-casts-safely",
        [
            outcome(lambda: upsert(t, [{"id": "b", "vector": V, "i": 2.5}])),
            outcome(lambda: upsert(t, [{"id": "b", "vector": V, "i": "x"}])),
            outcome(lambda: upsert(t, two)),
            outcome(lambda: upsert(t, [{"id": "b", "vector": V, "l": 2.5}])),
        ],
        [
            (
                "RuntimeError",
                f"{prefix}Invalid: Float value 2.500000 was truncated converting to int64",
            ),
            ("RuntimeError", f"{parse} 'x' as a scalar of type int64"),
            ("RuntimeError", f"{parse} 'y' as a scalar of type int64"),
            (
                "RuntimeError",
                (
                    f"{prefix}NotImplemented: Unsupported cast from double to list using function "
                    "cast_list"
                ),
            ),
        ],
    )
    upsert(t, [{"id": "a", "vector": V, "s": None}, {"id": "n", "vector": V, "i": 7}])
    check(
        "lancedb-merge-updates-written-columns",
        rows_of(t),
        [
            {"id": "a", "i": 1, "f": 1.5, "s": None, "b": True, "l": ["x"]},
            {"id": "n", "i": None, "f": None, "s": None, "b": None, "l": None},
        ],
    )
    w = table(db, [{"id": i, "vector": V, "n": k} for k, i in enumerate("abcde")])
    upsert(w, [{"id": i, "vector": V, "n": 9} for i in ("c", "z", "a")])
    check(
        "lancedb-merge-order",
        [r["id"] for r in rows_of(w)],
        ["b", "d", "e", "c", "a", "z"],
    )
    w.add([{"id": "b", "vector": V, "n": 0}])
    twice = [{"id": "c", "vector": V, "n": 1}, {"id": "c", "vector": V, "n": 2}]
    check(
        "lancedb-merge-errors",
        [
            outcome(lambda: upsert(w, twice)),
            outcome(lambda: upsert(w, [{"id": "q", "vector": V, "x1": 1}])),
            outcome(lambda: upsert(w, [{"id": "q", "vector": [float("nan"), 0.0]}])),
            outcome(lambda: upsert(w, [{"id": "q", "vector": [1.0, 0.0, 0.0]}])),
        ],
        [
            (
                "ValueError",
                (
                    "Invalid input, Ambiguous merge inserts are prohibited: multiple source rows "
                    'match the same target row on (id = "c"). Please ensure each target row is '
                    "matched by at most one source row."
                ),
            ),
            ("ValueError", "Field 'x1' not found in target schema"),
            ("RuntimeError", f"{prefix}Invalid: Vector column 'vector' has NaNs. {BAD_VECTORS}"),
            (
                "RuntimeError",
                (
                    f"{prefix}Invalid: Vector column 'vector' has variable length vectors. "
                    f"{BAD_VECTORS}"
                ),
            ),
        ],
    )


def limits(db: Any) -> None:
    t = table(db, [{"id": "a", "vector": V}, {"id": "b", "vector": [0.0, 1.0]}])

    def top(k: Any) -> Any:
        return outcome(lambda: [r["id"] for r in t.search(V).limit(k).to_list()])

    got = [top(1.5), top("2"), top(True)]
    check(
        "lancedb-k-types",
        [got[0][0], got[0][1], got[1], got[2]],
        [
            "ValidationError",
            "1 validation error for Query",
            ("TypeError", "'<=' not supported between instances of 'str' and 'int'"),
            ["a"],
        ],
    )


ROWS = [
    {
        "id": "r1",
        "vector": [1.0, 0.0],
        "color": "green",
        "n": 1.0,
        "i": 1,
        "flag": True,
        "tags": ["x"],
        "s": "a_b",
    },
    {
        "id": "r2",
        "vector": [0.9, 0.1],
        "color": "5",
        "n": float("nan"),
        "i": 2,
        "flag": None,
        "tags": ["1"],
        "s": "Émile",
    },
    {
        "id": "r3",
        "vector": [0.0, 1.0],
        "color": None,
        "n": -0.0,
        "i": None,
        "flag": False,
        "tags": None,
        "s": "a%b",
    },
]


def sql(db: Any) -> None:
    t = table(db, ROWS)

    def where(expr: str, prefilter: bool = True, k: int = 10) -> Any:
        search = t.search([1.0, 0.0]).where(expr, prefilter=prefilter).limit(k)
        return outcome(lambda: [r["id"] for r in search.to_list()])

    def error(expr: str) -> str:
        got = where(expr)
        return got[1].replace(PATH, "<rust>") if isinstance(got, tuple) else repr(got)

    def starts(expr: str, prefix: str) -> bool:
        return error(expr).startswith(prefix)

    resolving = "Invalid input, Error resolving filter expression"
    literal = "Invalid user input: Received literal"
    check(
        "lancedb-sql-literal-resolution",
        [where("n = 1"), error("i = 1.0"), error("i = 'x'")],
        [
            ["r1"],
            (
                f"{resolving} i = 1.0: {literal} Float64(1) and could not convert to literal of "
                "type 'Int64', <rust>/lance-datafusion-13.0.0/src/logical_expr.rs:23:88"
            ),
            (
                f"{resolving} i = 'x': {literal} Utf8(\"x\") and could not convert to literal of "
                "type 'Int64', <rust>/lance-datafusion-13.0.0/src/logical_expr.rs:23:88"
            ),
        ],
    )
    check(
        "lancedb-sql-not-skips-resolution",
        [where("NOT (i = 2.5)"), where("NOT (i = '1')"), error("NOT (i = 'x')")],
        [
            ["r1", "r2"],
            ["r2"],
            (
                "Invalid input, Error optimizing sql filter: NOT (i = 'x') (LanceError(Arrow): "
                "Cast error: Cannot cast string 'x' to value of Int64 type, "
                "<rust>/lance-datafusion-13.0.0/src/signed_zero.rs:99:8)"
            ),
        ],
    )
    fields = "`id`, `vector`, `color`, `n`, `i`, `flag`, `tags`, `s`"
    check(
        "lancedb-sql-error-order",
        [
            starts("nosuch = 1 AND i = 1.5", resolving),
            error("bb = 1 AND aa = 1"),
            error("i = 1 OR i"),
        ],
        [
            True,
            f"Invalid input, Schema error: No field named bb. Valid fields are {fields}.",
            (
                "Invalid input, Error during planning: Cannot infer common argument type for "
                "logical boolean operation Boolean OR Int64"
            ),
        ],
    )
    schema_error = "Invalid input, Schema error: No field named"
    check(
        "lancedb-sql-not-nullable-walk",
        [
            starts("NOT (bb = color)", f"{schema_error} bb."),
            starts("NOT (color = bb)", "Invalid input, Error optimizing sql filter: NOT (color"),
            starts("NOT (color = bb) OR aa = 1", f"{schema_error} aa."),
        ],
        [True, True, True],
    )
    hidden = (
        "id, vector, color, n, i, flag, tags, s, _rowid, _rowaddr, _row_last_updated_at_version, "
        "_row_created_at_version, _rowoffset, _distance"
    )
    check(
        "lancedb-sql-is-null-unknown-column",
        [error("nosuch IS NULL"), error('"Color" IS NULL')],
        [
            (
                "Invalid input, Error optimizing sql filter: nosuch IS NULL (Invalid user input: "
                f"Schema error: No field named nosuch. Valid fields are {hidden}., "
                "<rust>/lance-datafusion-13.0.0/src/planner.rs:1087:20)"
            ),
            (
                "Invalid input, Error optimizing sql filter: `Color` IS NULL (Invalid user input: "
                'Schema error: No field named "Color". Column names are case sensitive. You can '
                'use double quotes to refer to the ""Color"" column or set the '
                "datafusion.sql_parser.enable_ident_normalization configuration. Did you mean "
                "'color'?., <rust>/lance-datafusion-13.0.0/src/planner.rs:1087:20)"
            ),
        ],
    )
    check(
        "lancedb-sql-identifiers",
        [
            where("COLOR = 'green'"),
            where("\"color\" = 'green'"),
            where("`color` = 'green'"),
            starts("\"Color\" = 'green'", f'{schema_error} "Color". Valid fields'),
        ],
        [["r1"], ["r1"], ["r1"], True],
    )
    check(
        "lancedb-sql-trailing-tokens-ignored",
        [
            where("i = 1 junk"),
            where("i = 1)"),
            starts("i = 1 AND AND i = 2", f'{schema_error} "AND".'),
        ],
        [["r1"], ["r1"], True],
    )
    cast = "Cast error: Cannot cast string 'green' to value of Int64 type"
    check(
        "lancedb-sql-string-column-cast-at-execution",
        [error("NOT (color > 1)"), where("NOT (color > 1)", False)],
        [
            (
                "lance error: Query Execution error: Error applying filter expression to batch: "
                f"Arrow error: {cast}, <rust>/lance-13.0.0/src/io/exec/filtered_read.rs:1639:33"
            ),
            (
                "RuntimeError",
                (
                    f"lance error: LanceError(Arrow): {cast}, "
                    f"{PATH}/lance-13.0.0/src/dataset/scanner.rs:8155:66"
                ),
            ),
        ],
    )
    check(
        "lancedb-sql-short-circuits",
        [
            where("id = 'zz' AND array_has(tags, 2.5)"),
            where("i > 1 AND array_has(tags, 2.5)")[0],
            where("NOT (color > 1) AND 'x' < 'a'"),
            where("array_has(tags, 0) OR 2 = 2"),
        ],
        [[], "RuntimeError", [], ["r1", "r2", "r3"]],
    )
    check(
        "lancedb-sql-three-valued",
        [
            where("flag IS NOT FALSE"),
            where("NOT NULL"),
            where("i NOT IN (1, NULL)"),
            where("NOT (flag AND NULL)"),
            where("color != 'x'"),
        ],
        [["r1", "r2"], [], [], ["r3"], ["r1", "r2"]],
    )
    check(
        "lancedb-sql-nan-and-signed-zero",
        [where("n > 100"), where("n = n"), where("n = 0")],
        [["r2"], ["r1", "r2", "r3"], ["r3"]],
    )
    check(
        "lancedb-sql-like",
        [
            where("s LIKE 'a\\_b'"),
            where("s LIKE 'a\\%b'"),
            where("s ILIKE 'émile'"),
            where("s LIKE 'a_b'"),
        ],
        [["r1"], ["r3"], ["r2"], ["r1", "r3"]],
    )


if __name__ == "__main__":
    main()
