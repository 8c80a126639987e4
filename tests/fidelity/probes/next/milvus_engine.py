"""Probe: Milvus scores, ties, listing, filter expressions, errors and writes (pymilvus client).

Engine: Milvus Lite through ``MilvusClient("<tmp>/m.db")``, in process. Two generations exist and
they disagree on many facts, so every fact is asserted for the generation that is installed:
* ``lite3`` -- milvus-lite 3.x: a pure-Python re-implementation (FAISS indexes, own expression
  parser) served over an in-process gRPC server. Installed with the repo's other extras.
* ``core`` -- milvus-lite 2.5.x: the Milvus 2.5 C++ core (segcore, knowhere) in a child process;
  the closest to a Milvus server that runs here. Needs pymilvus < 3 (probe venv: pymilvus 2.6.17).
Run: python tests/fidelity/probes/milvus_engine.py
"""

from __future__ import annotations

import time
from typing import Any

import milvus_lite
import numpy as np
from _probe_common import DOCS, Q, check, error_of, finish, milvus
from pymilvus import MilvusClient

STARTED = time.perf_counter()
GEN = "lite3" if int(milvus_lite.__version__.split(".")[0]) >= 3 else "core"
print(f"milvus-lite {milvus_lite.__version__} ({GEN})")


def by_gen(lite3: Any, core: Any) -> Any:
    return lite3 if GEN == "lite3" else core


def short(err: tuple[str, str] | None) -> tuple[str, str] | None:
    """Exception class and the message inside pymilvus's ``<Class: (code=.., message=..)>``."""
    if err is None:
        return None
    name, text = err
    if "message=" in text:
        text = text.split("message=", 1)[1].rstrip(")>").strip()
    return name, text[:120]


CORE_JSON_ERROR = (
    "=> expr type check failed, actual type: JSON at /workspace/milvus-lite/thirdparty/milvus/"
    "internal/core/src/query/PlanPro"
)
RECORDS: list[tuple[str, dict[str, Any]]] = [
    ("r1", {"color": "red", "n": 1}),
    ("r2", {"color": "blue", "n": 5}),
    ("r3", {"n": 10}),
    ("r4", {"color": "green"}),
    ("r5", {}),
    ("r6", {"color": "red", "n": "5"}),
    ("r7", {"n": 2.5, "color": "blue"}),
    ("r8", {"flag": True, "n": 1.0}),
    ("r9", {"flag": False, "color": ""}),
    ("r10", {"tags": ["x", "y"], "color": None}),
]


def main() -> None:
    with milvus() as client:
        scores(client)
        ties_and_listing(client)
        filters(client)
        prefilter(client)
        errors_and_writes(client)
    finish(STARTED)


def scores(c: MilvusClient) -> None:
    for metric in ("COSINE", "L2", "IP"):
        name = f"s_{metric}"
        c.create_collection(name, dimension=3, metric_type=metric, id_type="string", max_length=64)
        c.insert(name, [{"id": k, "vector": v} for k, v in DOCS.items()])
        got = [(h["id"], h["distance"]) for h in c.search(name, [Q], limit=10)[0]]
        if metric == "COSINE":
            check(
                "milvus-score-cosine-similarity-desc",
                got,
                by_gen(
                    [
                        ("same", 1.0),
                        ("twice", 1.0),
                        ("c34", 0.6000000238418579),
                        ("diag", 0.6000000238418579),
                        ("ortho", 0.0),
                        ("opp", -1.0),
                    ],
                    [
                        ("twice", 1.0),
                        ("same", 1.0),
                        ("diag", 0.6000000238418579),
                        ("c34", 0.6000000238418579),
                        ("ortho", 0.0),
                        ("opp", -1.0),
                    ],
                ),
            )
        elif metric == "L2":
            check(
                "milvus-score-l2-squared-asc",
                got,
                by_gen(
                    [
                        ("same", 0.0),
                        ("diag", 0.7999999523162842),
                        ("twice", 1.0),
                        ("ortho", 1.9999998807907104),
                        ("opp", 4.0),
                        ("c34", 20.0),
                    ],
                    [
                        ("same", 0.0),
                        ("diag", 0.800000011920929),
                        ("twice", 1.0),
                        ("ortho", 2.0),
                        ("opp", 4.0),
                        ("c34", 20.0),
                    ],
                ),
            )
        else:
            check(
                "milvus-score-ip-raw-dot-desc",
                got,
                [
                    ("c34", 3.0),
                    ("twice", 2.0),
                    ("same", 1.0),
                    ("diag", 0.6000000238418579),
                    ("ortho", 0.0),
                    ("opp", -1.0),
                ],
            )
        check(
            f"milvus-stores-unnormalised-{metric.lower()}",
            c.get(name, ids=["c34"])[0]["vector"],
            [3.0, 4.0, 0.0],
        )
        c.insert(name, [{"id": "zero", "vector": [0.0, 0.0, 0.0]}])
        with_zero = [(h["id"], h["distance"]) for h in c.search(name, [Q], limit=10)[0]]
        if metric == "COSINE":
            check(
                "milvus-zero-vector-cosine", [len(with_zero), ("zero", 0.0) in with_zero], [7, True]
            )
        zq = [h["distance"] for h in c.search(name, [[0.0, 0.0, 0.0]], limit=3)[0]]
        if metric == "COSINE":
            check("milvus-zero-query-cosine-scores-0", zq, [0.0, 0.0, 0.0])
    rng = np.random.default_rng(3)
    x = rng.normal(size=(50, 16)).astype(np.float32)
    q = rng.normal(size=16).astype(np.float32)
    close = {}
    for metric in ("COSINE", "L2", "IP"):
        name = f"r_{metric}"
        c.create_collection(name, dimension=16, metric_type=metric, id_type="int")
        c.insert(name, [{"id": i, "vector": list(map(float, v))} for i, v in enumerate(x)])
        hits = c.search(name, [list(map(float, q))], limit=50)[0]
        got = np.array([h["distance"] for h in hits])
        rows = x[[h["id"] for h in hits]]
        if metric == "L2":
            ref = ((rows - q) ** 2).sum(1)
        elif metric == "IP":
            ref = rows @ q
        else:
            ref = (rows @ q) / np.linalg.norm(rows, axis=1) / np.linalg.norm(q)
        close[metric] = bool(np.all(np.abs(got - ref) <= 1e-5 * np.maximum(1.0, np.abs(ref))))
    check(
        "milvus-score-float32-within-1e-5-relative", close, {"COSINE": True, "L2": True, "IP": True}
    )


def ties_and_listing(c: MilvusClient) -> None:
    order = [f"t{i:02d}" for i in np.random.default_rng(1).permutation(30)]
    for metric in ("L2", "COSINE", "IP"):
        name = f"ties_{metric}"
        c.create_collection(name, dimension=3, metric_type=metric, id_type="string", max_length=64)
        c.insert(name, [{"id": i, "vector": [0.0, 0.0, 1.0]} for i in order])
        got = {
            k: [h["id"] for h in c.search(name, [[0.0, 0.0, 1.0]], limit=k)[0]]
            for k in (1, 3, 5, 30)
        }
        rule = {
            k: (
                "first-k"
                if v == order[:k]
                else "first-k-reversed"
                if v == order[:k][::-1]
                else "id-order"
                if v == sorted(order)[:k]
                else "other"
            )
            for k, v in got.items()
        }
        want = "first-k" if metric == "L2" or GEN == "lite3" else "first-k-reversed"
        check(f"milvus-ties-{metric.lower()}", rule, {1: "first-k", 3: want, 5: want, 30: want})
    listing = [r["id"] for r in c.query("ties_L2", filter="", limit=5)]
    check("milvus-listing-order", listing, by_gen(order[:5], sorted(order)[:5]))


def filters(c: MilvusClient) -> None:
    c.create_collection("f", dimension=2, metric_type="L2", id_type="string", max_length=64)
    c.insert("f", [{"id": i, "vector": [1.0, float(j)], **m} for j, (i, m) in enumerate(RECORDS)])

    def run(expr: str) -> Any:
        def go() -> list[str]:
            rows = c.query("f", filter=expr, output_fields=["id"], limit=100)
            return sorted((r["id"] for r in rows), key=lambda s: int(s[1:]))

        err = error_of(go)
        return short(err) if err else go()

    same = {
        'color == "red"': ["r1", "r6"],
        "n == 1": ["r1", "r8"],
        "n == 1.0": ["r1", "r8"],
        'n == "5"': ["r6"],
        "flag == true": ["r8"],
        'color in ["red","green"]': ["r1", "r4", "r6"],
        'color not in ["red","green"]': ["r2", "r3", "r5", "r7", "r8", "r9", "r10"],
        "n > 2": ["r2", "r3", "r7"],
        "n >= 5": ["r2", "r3"],
        "n < 5": ["r1", "r7", "r8"],
        'n > "3"': ["r6"],
        'color like "r%"': ["r1", "r6"],
        'color like "%e%"': ["r1", "r2", "r4", "r6", "r7"],
        'color == "red" and n == 1': ["r1"],
        'n == 1 && color == "red"': ["r1"],
        'color == "red" or n > 5': ["r1", "r3", "r6"],
        'array_contains(tags, "x")': ["r10"],
        'json_contains(tags, "x")': ["r10"],
        "n in [1, 5]": ["r1", "r2", "r8"],
        "nosuch == 1": [],
        '$meta["color"] == "red"': ["r1", "r6"],
        'id in ["r1","r3"]': ["r1", "r3"],
        "": [r for r, _ in RECORDS],
    }
    for expr, want in same.items():
        check(f"milvus-filter [{expr}]", run(expr), want)
    differs = {
        "flag == 1": (["r8"], []),
        'color != "red"': (
            ["r2", "r4", "r7", "r9"],
            ["r2", "r3", "r4", "r5", "r7", "r8", "r9", "r10"],
        ),
        "n != 1": (["r2", "r3", "r6", "r7"], ["r2", "r3", "r4", "r5", "r6", "r7", "r9", "r10"]),
        'not (color == "red")': (["r2", "r4", "r7", "r9"], "MilvusException"),
        "exists color": (["r1", "r2", "r4", "r6", "r7", "r9"], "MilvusException"),
        "color is null": (["r3", "r5", "r8", "r10"], "MilvusException"),
        "color == red": ([], "MilvusException"),
        "n > ": ("MilvusException", "MilvusException"),
        'color = "red"': ("MilvusException", "MilvusException"),
        "id == 5": ("MilvusException", "MilvusException"),
    }
    for expr, (lite3, core) in differs.items():
        got = run(expr)
        if isinstance(got, tuple):
            got = got[0]
        check(f"milvus-filter [{expr}]", got, by_gen(lite3, core))
    check(
        "milvus-filter-error-text-bad-syntax",
        run("n > "),
        by_gen(
            ("MilvusException", "unexpected end of expression at column 5"),
            (
                "MilvusException",
                CORE_JSON_ERROR,
            ),
        ),
    )


def prefilter(c: MilvusClient) -> None:
    c.create_collection("pf", dimension=2, metric_type="L2", id_type="string", max_length=16)
    near = [{"id": f"n{i}", "vector": [1.0, i * 0.001], "color": "blue"} for i in range(50)]
    c.insert("pf", [*near, {"id": "far", "vector": [-1.0, 0.0], "color": "red"}])
    got = [h["id"] for h in c.search("pf", [[1.0, 0.0]], limit=1, filter='color == "red"')[0]]
    check("milvus-filter-is-prefilter", got, ["far"])


def errors_and_writes(c: MilvusClient) -> None:
    c.create_collection("e", dimension=3, metric_type="L2", id_type="string", max_length=64)
    c.create_collection("ei", dimension=3, metric_type="L2", id_type="int")
    c.insert("e", [{"id": "a", "vector": [1.0, 0.0, 0.0]}])
    check(
        "milvus-error-insert-wrong-dimension",
        short(error_of(lambda: c.insert("e", [{"id": "x", "vector": [1.0, 0.0]}]))),
        by_gen(
            ("MilvusException", "vector field 'vector' expected dim 3, got 2"),
            ("MilvusException", "the length(2) of float data should divide the dim(3):"),
        ),
    )
    err = short(error_of(lambda: c.search("e", [[1.0, 0.0]], limit=1)))
    check("milvus-error-search-wrong-dimension", err[0] if err else None, "MilvusException")
    for k in (0, -1):
        check(
            f"milvus-k-{k}",
            short(error_of(lambda k=k: c.search("e", [Q], limit=k))),
            ("ParamError", f"`limit` value {k} is illegal"),
        )
    check(
        "milvus-k-above-16384",
        short(error_of(lambda: c.search("e", [Q], limit=16385))),
        by_gen(None, ("MilvusException", "invalid parameter")),
    )
    check("milvus-k-larger-than-rows-truncates", len(c.search("e", [Q], limit=50)[0]), 1)
    check(
        "milvus-nan-accepted-on-insert",
        error_of(lambda: c.insert("e", [{"id": "nan", "vector": [float("nan"), 0.0, 0.0]}])),
        None,
    )
    c.delete("e", ids=["nan"])
    dtype_msg = "The Input data type is inconsistent with defined schema"
    check(
        "milvus-error-int-id-into-varchar",
        short(error_of(lambda: c.insert("e", [{"id": 5, "vector": Q}])))[0],
        "DataNotMatchException",
    )
    for label, bad in (("str", "a"), ("float", 1.5)):
        got = short(error_of(lambda bad=bad: c.insert("ei", [{"id": bad, "vector": Q}])))
        check(
            f"milvus-error-{label}-id-into-int64",
            [got[0], got[1].startswith(dtype_msg)],
            ["DataNotMatchException", True],
        )
    check(
        "milvus-negative-int64-id-accepted",
        error_of(lambda: c.insert("ei", [{"id": -5, "vector": Q}])),
        None,
    )

    c.create_collection("w", dimension=3, metric_type="L2", id_type="string", max_length=64)
    c.insert("w", [{"id": "a", "vector": Q, "m": 1}, {"id": "b", "vector": Q}])
    c.insert("w", [{"id": "a", "vector": [0.0, 1.0, 0.0], "k": 2}])

    def row(i: str) -> list[dict[str, Any]]:
        return [dict(r) for r in c.query("w", filter=f'id == "{i}"', output_fields=["*"])]

    def count() -> int:
        return int(c.query("w", filter="", output_fields=["count(*)"])[0]["count(*)"])

    check(
        "milvus-write-insert-existing-id-visible-row",
        row("a"),
        [{"id": "a", "vector": [0.0, 1.0, 0.0], "k": 2}],
    )
    check("milvus-write-insert-existing-id-count", count(), by_gen(2, 3))
    c.insert("w", [{"id": "d", "vector": Q}, {"id": "d", "vector": [0.0, 0.0, 1.0]}])
    check(
        "milvus-write-duplicate-ids-one-insert-last-wins",
        row("d"),
        [{"id": "d", "vector": [0.0, 0.0, 1.0]}],
    )
    c.upsert("w", [{"id": "e", "vector": Q, "x": 1}, {"id": "e", "vector": Q, "x": 2}])
    check(
        "milvus-write-duplicate-ids-one-upsert-last-wins",
        row("e"),
        [{"id": "e", "vector": [1.0, 0.0, 0.0], "x": 2}],
    )
    c.upsert("w", [{"id": "b", "vector": [0.0, 0.0, 1.0], "z": 3}])
    check(
        "milvus-write-upsert-replaces-dynamic-fields",
        row("b"),
        [{"id": "b", "vector": [0.0, 0.0, 1.0], "z": 3}],
    )
    deleted = c.delete("w", ids=["nope", "b"])
    check("milvus-write-delete-missing-id-silent", list(deleted), by_gen(["nope", "b"], ["b"]))
    check(
        "milvus-listing-after-writes",
        [r["id"] for r in c.query("w", filter="", limit=100)],
        ["a", "d", "e"],
    )


if __name__ == "__main__":
    main()
