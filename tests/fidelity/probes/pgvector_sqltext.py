"""Probe: PostgreSQL conditions written as SQL text on a ``json`` column, and their order.

What llama-index's ``PGVectorStore`` writes (``(metadata_->>'k')::float > 3.0``,
``metadata_->>'k' IN ('a')``, ``?|``, ``@>``, ``LIKE``, ``IS NULL``) meets PostgreSQL's
``float8in`` (which texts are numbers), a collation (which text is smaller) and the planner's
order of the WHERE clause's conditions (which decides whether a cast error is raised). The
profile's predicates (``placeborag_core/backends/pgvector/sqltext.py``) are checked against each.
Run: python tests/fidelity/probes/pgvector_sqltext.py
"""

from __future__ import annotations

import time

import psycopg
from _probe import check, finish
from _probe_pg import postgres

from placeborag_core.backends.pgvector.sqltext import PgvectorCastError, float8in

STARTED = time.perf_counter()

TEXTS = ["1", " 1 ", "\t2\n", "", "0x10", "1e400", "1e-400", "4e-320", ".5", "5.", "+3",
         "1_000", "NaN", "-nan", "Infinity", "inf", "+INF", "true", "1.5.5", "1e", "\u0661", "1,5",
         "[1, 2]", "2.5e-324", "1.8e308"]  # fmt: skip


def main() -> None:
    with postgres() as server, psycopg.connect(server.get_uri(), autocommit=True) as con:
        mismatches = []
        for text in TEXTS:
            try:
                engine = repr(con.execute("SELECT %s::text::float8", (text,)).fetchone()[0])
            except psycopg.Error as error:
                engine = f"{error.sqlstate} {str(error).splitlines()[0]}"
            try:
                ours = repr(float8in(text))
            except PgvectorCastError as error:
                ours = f"{error.sqlstate} {error}"
            if engine != ours:
                mismatches.append((text, engine, ours))
        # Blanks around a number, NaN/Infinity/inf in any case and C99 hex floats are numbers;
        # underscores, "true", Unicode digits are not; beyond double precision: 22003.
        check("pgvector-float8in", mismatches, [])
        check(
            "pgvector-text-collation-c",
            con.execute(
                "SELECT datcollate, 'B' < 'a', 'é' > 'z' FROM pg_database "
                "WHERE datname = current_database()"
            ).fetchone(),
            ("C.UTF-8", True, True),
        )
        con.execute("CREATE TABLE t (id bigserial PRIMARY KEY, node_id varchar, metadata_ json)")

        def filter_of(where: str) -> str:
            plan = con.execute(f"EXPLAIN (VERBOSE) SELECT id FROM t WHERE {where}").fetchall()
            return next(row[0].split(": ", 1)[1] for row in plan if "Filter" in row[0])

        f = "((t.metadata_ ->> 'n'::text))::double precision"
        c = "(t.metadata_ ->> 'c'::text)"
        n = "t.node_id"
        # Cheapest first (stable): IS NULL 1, IN of two 2, LIKE 2, text = 2, the cast 4, ?| and
        # @> on a json column 4, IN of six 4.
        check(
            "pgvector-qual-order-by-cost",
            filter_of(
                "metadata_->>'c' IN ('red', 'x') AND (metadata_->>'n')::float > 3.0 AND "
                "metadata_->>'c' LIKE '%r%' AND metadata_->>'c' IS NULL AND "
                "metadata_::jsonb->'tags' ?| array['x'] AND metadata_::jsonb->'tags' @> '[\"x\"]' "
                "AND metadata_->>'c' IN ('a','b','c','d','e','f')"
            ),
            f"(({c} IS NULL) AND ({c} = ANY ('{{red,x}}'::text[])) AND ({c} ~~ '%r%'::text) AND "
            f"({f} > '3'::double precision) AND (((t.metadata_)::jsonb -> 'tags'::text) ?| "
            "'{x}'::text[]) AND (((t.metadata_)::jsonb -> 'tags'::text) @> '[\"x\"]'::jsonb) AND "
            f"({c} = ANY ('{{a,b,c,d,e,f}}'::text[])))",
        )
        # "expression = constant" is taken into an equivalence class and emitted after the
        # other conditions: at equal cost it comes last.
        check(
            "pgvector-qual-order-equality-last",
            filter_of("(metadata_->>'n')::float = 2.0 AND (metadata_->>'x')::float != 2.5"),
            "((((t.metadata_ ->> 'x'::text))::double precision <> '2.5'::double precision) AND "
            f"({f} = '2'::double precision))",
        )
        # IN of one item is "=" (cost 2, an equivalence class); node ids: = ANY of n, cost n/2.
        check(
            "pgvector-qual-in-one-is-equality",
            filter_of("metadata_->>'c' IN ('5') AND metadata_->>'k' != 'x'"),
            f"(((t.metadata_ ->> 'k'::text) <> 'x'::text) AND ({c} = '5'::text))",
        )
        check(
            "pgvector-qual-node-ids-cost",
            filter_of("node_id IN ('a','b','c') AND (metadata_->>'n')::float > 3.0"),
            f"((({n})::text = ANY ('{{a,b,c}}'::text[])) AND ({f} > '3'::double precision))",
        )
        # Two constants for one expression: nothing is read (and so no cast can fail).
        plan = con.execute(
            "EXPLAIN SELECT id FROM t WHERE (metadata_->>'n')::float = 2.5 AND "
            "(metadata_->>'n')::float = 7.0"
        ).fetchall()
        check(
            "pgvector-qual-contradiction-reads-nothing",
            any("One-Time Filter: false" in row[0] for row in plan),
            True,
        )
        # The cast error depends on the data: the same filter passes until a row holds a text
        # that is no number, and a cheaper false condition before the cast spares that row.
        con.execute("""INSERT INTO t (node_id, metadata_) VALUES ('a', '{"n": 1, "c": "red"}')""")
        check(
            "pgvector-cast-error-on-data",
            con.execute("SELECT count(*) FROM t WHERE (metadata_->>'n')::float > 0").fetchone(),
            (1,),
        )
        con.execute("""INSERT INTO t (node_id, metadata_) VALUES ('b', '{"n": true}')""")
        try:
            con.execute("SELECT count(*) FROM t WHERE (metadata_->>'n')::float > 0").fetchone()
            raised = None
        except psycopg.Error as error:
            raised = (type(error).__name__, str(error).splitlines()[0])
        check(
            "pgvector-cast-error-message",
            raised,
            ("InvalidTextRepresentation", 'invalid input syntax for type double precision: "true"'),
        )
        check(
            "pgvector-cast-error-spared-by-cheaper-condition",
            con.execute(
                "SELECT count(*) FROM t WHERE (metadata_->>'n')::float > 0 AND "
                "metadata_->>'c' = 'red'"
            ).fetchone(),
            (1,),
        )
    finish(STARTED)


if __name__ == "__main__":
    main()
