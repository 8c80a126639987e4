"""Probe: what a differential CI suite would pay per engine -- start, stop, and 200 cases.

A "case" is what the fidelity comparisons do per drawn example: a fresh table/collection, an
upsert of 20 random 8-d records with metadata, 3 top-5 queries (one with a metadata filter), a
delete of 2 ids and a listing, then the table is dropped. The engine process (pgserver, Milvus
Lite) is started once, as a session-scoped fixture would. Prints seconds; asserts only that every
case saw its records. ``milvus-reuse`` runs every case in one shared collection instead.
Run: python tests/fidelity/probes/ci_cost.py [pgvector|milvus|milvus-reuse|lancedb]...
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from _probe_common import check, finish, milvus, postgres, scratch_dir

STARTED = time.perf_counter()
CASES = 200


def draw(rng: np.random.Generator) -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    ids = [f"r{i}" for i in range(20)]
    return (
        ids,
        rng.normal(size=(20, 8)).astype(np.float32),
        [str(c) for c in rng.choice(["red", "blue"], 20)],
        rng.normal(size=(3, 8)),
    )


def timed(label: str, fn: Callable[[], Any]) -> Any:
    t = time.perf_counter()
    out = fn()
    print(f"     {label}: {time.perf_counter() - t:.3f} s")
    return out


def run_pgvector() -> list[int]:
    import psycopg

    counts: list[int] = []
    t = time.perf_counter()
    with postgres() as server:
        print(f"     start (pgserver + CREATE EXTENSION): {time.perf_counter() - t:.3f} s")
        with psycopg.connect(server.get_uri(), autocommit=True) as con:
            rng = np.random.default_rng(0)
            t = time.perf_counter()
            for case in range(CASES):
                ids, x, colors, qs = draw(rng)
                table = f"c{case}"
                con.execute(
                    f"CREATE TABLE {table} (id text PRIMARY KEY, embedding vector(8), meta jsonb)"
                )
                with con.cursor() as cur:
                    cur.executemany(
                        f"INSERT INTO {table} VALUES (%s, %s, %s) ON CONFLICT (id) DO UPDATE SET "
                        "embedding = EXCLUDED.embedding, meta = EXCLUDED.meta",
                        [
                            (i, str(v.tolist()), f'{{"color": "{c}"}}')
                            for i, v, c in zip(ids, x, colors, strict=True)
                        ],
                    )
                for j, q in enumerate(qs):
                    where = "WHERE meta->>'color' = 'red'" if j == 2 else ""
                    con.execute(
                        f"SELECT id FROM {table} {where} ORDER BY embedding <-> %s::vector LIMIT 5",
                        (str(q.tolist()),),
                    ).fetchall()
                con.execute(f"DELETE FROM {table} WHERE id = ANY(%s)", (ids[:2],))
                counts.append(len(con.execute(f"SELECT id FROM {table}").fetchall()))
                con.execute(f"DROP TABLE {table}")
            print(f"     {CASES} cases: {time.perf_counter() - t:.3f} s")
        t = time.perf_counter()
    print(f"     stop (cleanup + rmtree): {time.perf_counter() - t:.3f} s")
    return counts


def run_milvus() -> list[int]:
    counts: list[int] = []
    t = time.perf_counter()
    with milvus() as client:
        print(f"     start (MilvusClient on a .db file): {time.perf_counter() - t:.3f} s")
        rng = np.random.default_rng(0)
        t = time.perf_counter()
        for case in range(CASES):
            ids, x, colors, qs = draw(rng)
            name = f"c{case}"
            client.create_collection(
                name, dimension=8, metric_type="L2", id_type="string", max_length=16
            )
            client.upsert(
                name,
                [
                    {"id": i, "vector": v.tolist(), "color": c}
                    for i, v, c in zip(ids, x, colors, strict=True)
                ],
            )
            for j, q in enumerate(qs):
                client.search(
                    name, [q.tolist()], limit=5, filter='color == "red"' if j == 2 else ""
                )
            client.delete(name, ids=ids[:2])
            counts.append(len(client.query(name, filter="", limit=100)))
            client.drop_collection(name)
        print(f"     {CASES} cases: {time.perf_counter() - t:.3f} s")
        t = time.perf_counter()
    print(f"     stop (close + release server + rmtree): {time.perf_counter() - t:.3f} s")
    return counts


def run_milvus_reuse() -> list[int]:
    """Milvus with one collection reused by every case (create_collection costs ~0.5 s)."""
    counts: list[int] = []
    with milvus() as client:
        t = time.perf_counter()
        client.create_collection(
            "shared", dimension=8, metric_type="L2", id_type="string", max_length=16
        )
        print(f"     one create_collection: {time.perf_counter() - t:.3f} s")
        rng = np.random.default_rng(0)
        t = time.perf_counter()
        for case in range(CASES):
            ids, x, colors, qs = draw(rng)
            tag = f"c{case}"
            client.upsert(
                "shared",
                [
                    {"id": f"{tag}-{i}", "vector": v.tolist(), "color": c, "case": tag}
                    for i, v, c in zip(ids, x, colors, strict=True)
                ],
            )
            for j, q in enumerate(qs):
                where = f'case == "{tag}"' + (' and color == "red"' if j == 2 else "")
                client.search("shared", [q.tolist()], limit=5, filter=where)
            client.delete("shared", ids=[f"{tag}-{i}" for i in ids[:2]])
            counts.append(len(client.query("shared", filter=f'case == "{tag}"', limit=100)))
            client.delete("shared", filter=f'case == "{tag}"')
        print(f"     {CASES} cases: {time.perf_counter() - t:.3f} s")
    return counts


def run_lancedb() -> list[int]:
    import lancedb

    counts: list[int] = []
    with scratch_dir("lancedb-cost") as root:
        t = time.perf_counter()
        db = lancedb.connect(str(root))
        print(f"     start (connect): {time.perf_counter() - t:.3f} s")
        rng = np.random.default_rng(0)
        t = time.perf_counter()
        for case in range(CASES):
            ids, x, colors, qs = draw(rng)
            name = f"c{case}"
            table = db.create_table(
                name,
                [
                    {"id": i, "vector": v.tolist(), "color": c}
                    for i, v, c in zip(ids, x, colors, strict=True)
                ],
            )
            for j, q in enumerate(qs):
                query = table.search(q.tolist()).limit(5)
                if j == 2:
                    query = query.where("color = 'red'")
                query.to_list()
            table.delete("id IN ('r0', 'r1')")
            counts.append(table.count_rows())
            db.drop_table(name)
        print(f"     {CASES} cases: {time.perf_counter() - t:.3f} s")
        t = time.perf_counter()
    print(f"     stop (rmtree): {time.perf_counter() - t:.3f} s")
    return counts


RUNNERS = {
    "pgvector": run_pgvector,
    "milvus": run_milvus,
    "milvus-reuse": run_milvus_reuse,
    "lancedb": run_lancedb,
}


def main() -> None:
    for name in sys.argv[1:] or list(RUNNERS):
        print(f"{name}:")
        counts = RUNNERS[name]()
        check(f"ci-cost-{name}-cases-saw-their-records", set(counts), {18})
    finish(STARTED)


if __name__ == "__main__":
    main()
