"""Probe: PostgreSQL's JSONB semantics behind the pgvector profile's ``where=`` dialect.

``jsonb_path_match(meta, '$.n <op> $value')`` in lax mode over values of every JSON type
(true, false or NULL = unknown), SQL's three-valued NOT, the text form ``->>`` gives numbers,
and LIMIT's cast to bigint. Run: python tests/fidelity/probes/pgvector_jsonb.py
"""

from __future__ import annotations

import json
import time

import psycopg
from _probe import check, error_of, finish
from _probe_pg import postgres

STARTED = time.perf_counter()

VALUES = [1, 1.0, "1", True, None, "<missing>", [1, "x"], ["x", "y"], {"a": 1}, [], [[1]]]


def main() -> None:
    with postgres() as server, psycopg.connect(server.get_uri(), autocommit=True) as con:

        def match(value: object, op: str, operand: object) -> object:
            doc = {} if value == "<missing>" else {"n": value}
            row = con.execute(
                "SELECT jsonb_path_match(%s::jsonb, %s::jsonpath, %s::jsonb)",
                (json.dumps(doc), f"$.n {op} $value", json.dumps({"value": operand})),
            ).fetchone()
            return row[0]

        check(
            "pgvector-jsonb-path-eq",
            [match(v, "==", 1) for v in VALUES],
            [True, True, None, None, False, False, True, None, None, False, None],
        )
        check(
            "pgvector-jsonb-path-ne",
            [match(v, "!=", 1) for v in VALUES],
            [False, False, None, None, True, False, None, None, None, False, None],
        )
        check(
            "pgvector-jsonb-path-ne-null",
            [match(v, "!=", None) for v in VALUES],
            [True, True, True, True, False, False, True, True, True, False, True],
        )
        check(
            "pgvector-jsonb-path-lt-null-false",
            [match(None, "<", 1), match(1, "<", None)],
            [False, False],
        )
        check(
            "pgvector-jsonb-path-list-operand-unwrapped",
            [match(1, "==", [2, 1]), match("x", "==", [1, "x"]), match(3, "!=", [3])],
            [True, True, False],
        )
        check(
            "pgvector-jsonb-strings-by-code-point",
            [match("B", "<", "a"), match("é", ">", "z"), match(False, "<", True)],
            [True, True, True],
        )
        check(
            "pgvector-jsonb-not-unknown-stays-unknown",
            con.execute(
                """SELECT NOT jsonb_path_match('{"n": "x"}', '$.n == 1'),
                          NOT jsonb_path_match('{}', '$.n == 1')"""
            ).fetchone(),
            (None, True),
        )
        texts = [
            con.execute("SELECT (%s::jsonb)->>'k'", (json.dumps({"k": v}),)).fetchone()[0]
            for v in (1, 1.0, 1e20, 1e-05, -0.0, True, ["x", 1], None)
        ]
        check(
            "pgvector-jsonb-text-forms",
            texts,
            ["1", "1.0", "100000000000000000000", "0.00001", "0.0", "true", '["x", 1]', None],
        )
        check(
            "pgvector-jsonb-exists-null-key",
            con.execute("""SELECT '{"a": null}'::jsonb ? 'a', '{}'::jsonb ? 'a'""").fetchone(),
            (True, False),
        )
        con.execute("CREATE TABLE k (i int)")
        con.execute("INSERT INTO k SELECT generate_series(1, 10)")
        counts = [
            len(con.execute("SELECT * FROM k LIMIT %s", (k,)).fetchall())
            for k in (1.5, 2.5, "2", 0.4)
        ]
        check("pgvector-k-coerced-to-bigint", counts, [2, 2, 2, 0])
        boolean = error_of(lambda: con.execute("SELECT * FROM k LIMIT %s", (True,)))
        check(
            "pgvector-k-bool-rejected",
            boolean,
            ("DatatypeMismatch", "argument of LIMIT must be type bigint, not type boolean"),
        )
    finish(STARTED)


if __name__ == "__main__":
    main()
