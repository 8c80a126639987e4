"""Probe: Milvus (the Milvus 2.5 core, as milvus-lite 2.5.1 runs it): scores, ties, listing,
filter expressions, errors, ``limit`` and writes, through ``pymilvus.MilvusClient``.

The server is a child process serving a unix socket; it is started on a ``.db`` file in a
scratch directory (3 attempts: its start occasionally fails to open its storage) and released,
and the directory removed, on the way out. Facts: docs/engines/milvus.md. Milvus Lite 3.x (a
pure-Python rewrite that pip installs without the pin) disagrees with many of them; the probe
refuses to run on it.

Run: python tests/fidelity/probes/milvus_engine.py
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
from _probe import Facts, raised
from _probe_geometry import DOCS, Q

warnings.simplefilter("ignore")  # milvus-lite 2.5.1 imports the deprecated pkg_resources
logging.disable(logging.CRITICAL)  # pymilvus logs every rejected request with a traceback

import milvus_lite  # noqa: E402
from milvus_lite.server_manager import server_manager_instance  # noqa: E402
from pymilvus import MilvusClient  # noqa: E402

facts = Facts("Milvus 2.5 core", "milvus-lite", "pymilvus")
if int(milvus_lite.__version__.split(".")[0]) >= 3:
    raise SystemExit(f"milvus-lite {milvus_lite.__version__} is not the Milvus core: install 2.5.x")

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
    ("r11", {"obj": {"a": 1}, "n": 9007199254740993}),
]


@contextlib.contextmanager
def milvus() -> Iterator[MilvusClient]:
    root = tempfile.mkdtemp(prefix="placeborag-milvus-probe-")
    os.environ["GLOG_log_dir"] = root  # noqa: SIM112 - glog's own variable: no logs in /tmp
    try:
        for attempt in range(3):
            try:
                client = MilvusClient(os.path.join(root, f"m{attempt}.db"), db_name="default")
                break
            except Exception as error:  # a failed start is a plain MilvusException
                facts.note(f"start attempt {attempt + 1} failed: {str(error)[:80]}")
                server_manager_instance.release_all()
        else:
            raise SystemExit("Milvus Lite did not start in 3 attempts")
        try:
            yield client
        finally:
            client.close()
    finally:
        server_manager_instance.release_all()
        shutil.rmtree(root, ignore_errors=True)


def error(call: Any) -> tuple[str | None, str]:
    """(exception class name, the message inside pymilvus's ``<Class: (code=.., message=..)>``)."""
    kind, text = raised(call)
    if kind is None:
        return None, text
    if "message=" in text:
        text = text.split("message=", 1)[1].rstrip(")>").strip()
    return kind.__name__, text


def search(c: MilvusClient, name: str, vector: list[float], k: int, expr: str = "") -> list[Any]:
    return [h["id"] for h in c.search(name, [vector], limit=k, filter=expr)[0]]


def scores(c: MilvusClient) -> None:
    want = {  # COSINE: the tied pairs come back reversed (knowhere's heap, see the ties)
        "COSINE": [("twice", 1.0), ("same", 1.0), ("diag", 0.6000000238418579),
                   ("c34", 0.6000000238418579), ("ortho", 0.0), ("opp", -1.0)],
        "L2": [("same", 0.0), ("diag", 0.800000011920929), ("twice", 1.0), ("ortho", 2.0),
               ("opp", 4.0), ("c34", 20.0)],
        "IP": [("c34", 3.0), ("twice", 2.0), ("same", 1.0), ("diag", 0.6000000238418579),
               ("ortho", 0.0), ("opp", -1.0)],
    }  # fmt: skip
    fact = {
        "COSINE": "milvus-score-cosine-similarity-desc",
        "L2": "milvus-score-l2-squared-asc",
        "IP": "milvus-score-ip-raw-dot-desc",
    }
    for metric, expected in want.items():
        name = f"s_{metric}"
        c.create_collection(name, dimension=3, metric_type=metric, id_type="string", max_length=64)
        c.insert(name, [{"id": k, "vector": v} for k, v in DOCS.items()])
        hits = c.search(name, [Q], limit=10)[0]
        got = [(h["id"], h["distance"]) for h in hits]
        facts.check(fact[metric], got == expected, got)
        stored = c.get(name, ids=["c34"])[0]["vector"]
        facts.check(f"milvus-stores-unnormalised-{metric.lower()}", stored == [3, 4, 0], stored)
        if metric == "COSINE":
            c.insert(name, [{"id": "zero", "vector": [0.0, 0.0, 0.0]}])
            zero = [(h["id"], h["distance"]) for h in c.search(name, [Q], limit=10)[0]]
            facts.check("milvus-zero-vector-cosine", ("zero", 0.0) in zero, zero)
            zq = [h["distance"] for h in c.search(name, [[0.0, 0.0, 0.0]], limit=3)[0]]
            facts.check("milvus-zero-query-scores-0", zq == [0.0, 0.0, 0.0], zq)
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
    facts.check("milvus-score-float32-within-1e-5-relative", all(close.values()), close)


def heap(sequence: list[str], k: int) -> list[str]:
    """FAISS's IndexFlatIP heap (the core's HeapTies) over tie/better/worse labels."""
    from placeborag_core.backends.faiss import HeapTies

    value = {"better": 0.0, "tie": 1.0, "worse": 2.0}
    badness = np.array([value[s.lstrip("0123456789")] for s in sequence])
    rows = HeapTies().select(badness, None, k, lambda r: sequence[r])
    return [sequence[r] for r in rows]


def ties_and_listing(c: MilvusClient) -> None:
    order = [f"t{i:02d}" for i in np.random.default_rng(1).permutation(30)]
    for metric in ("L2", "COSINE", "IP"):
        name = f"ties_{metric}"
        c.create_collection(name, dimension=3, metric_type=metric, id_type="string", max_length=64)
        c.insert(name, [{"id": i, "vector": [0.0, 0.0, 1.0]} for i in order])
        got = {k: search(c, name, [0.0, 0.0, 1.0], k) for k in (1, 3, 5, 30)}
        want = {k: order[:k] if metric == "L2" else order[:k][::-1] for k in got}
        facts.check(
            f"milvus-ties-{metric.lower()}", got == want, {k: v[:5] for k, v in got.items()}
        )
    sequence = ["tie", "tie", "better", "tie", "worse", "tie", "better", "tie", "tie"]
    labels = [f"{i}{s}" for i, s in enumerate(sequence)]
    vectors = {"better": [1.0, 0.0], "tie": [0.6, 0.8], "worse": [-1.0, 0.0]}
    for metric in ("COSINE", "IP"):
        name = f"mixed_{metric}"
        c.create_collection(name, dimension=2, metric_type=metric, id_type="string", max_length=16)
        rows = zip(labels, sequence, strict=True)
        c.insert(name, [{"id": i, "vector": vectors[s]} for i, s in rows])
        got = {k: search(c, name, [1.0, 0.0], k) for k in range(1, 10)}
        facts.check(
            f"milvus-ties-mixed-heap-{metric.lower()}",
            all(got[k] == heap(labels, k) for k in got),
            got[4],
        )
    listing = [r["id"] for r in c.query("ties_L2", filter="", limit=5)]
    facts.check("milvus-listing-order", listing == sorted(order)[:5], listing)
    c.create_collection("ints", dimension=2, metric_type="L2")
    c.insert("ints", [{"id": i, "vector": [1.0, 0.0]} for i in (50, 3, 17, -2, 9)])
    listing = [r["id"] for r in c.query("ints", filter="", limit=10)]
    facts.check("milvus-listing-int64-numeric", listing == [-2, 3, 9, 17, 50], listing)
    ints = search(c, "ints", [1.0, 0.0], 3)
    facts.check("milvus-ties-int64-insertion", ints == [50, 3, 17], ints)
    c.create_collection("up", dimension=2, metric_type="L2", id_type="string", max_length=8)
    c.insert("up", [{"id": i, "vector": [0.6, 0.8]} for i in "abcde"])
    c.upsert("up", [{"id": "b", "vector": [0.6, 0.8]}])
    moved = search(c, "up", [1.0, 0.0], 5)
    facts.check("milvus-write-upsert-moves-to-end", moved == list("acdeb"), moved)
    # A batch mixing stored and new ids: every record goes to the end, in batch order (no
    # updated records before new ones, as LanceDB's merge_insert does): upsert_position
    # "end_in_order".
    c.create_collection("upmix", dimension=2, metric_type="L2", id_type="string", max_length=8)
    c.insert("upmix", [{"id": i, "vector": [0.6, 0.8]} for i in "abc"])
    c.upsert("upmix", [{"id": i, "vector": [0.6, 0.8]} for i in "zbya"])
    mixed = search(c, "upmix", [1.0, 0.0], 5)
    facts.check("milvus-write-upsert-batch-in-order", mixed == list("czbya"), mixed)
    # Both copies of a repeated id are stored; a search shows the first copy it ranks (L2:
    # the first inserted, so d keeps the place of its first occurrence).
    c.upsert("up", [{"id": "d", "vector": [0.6, 0.8]}, {"id": "a", "vector": [0.6, 0.8]},
                    {"id": "d", "vector": [0.6, 0.8]}])  # fmt: skip
    last = search(c, "up", [1.0, 0.0], 5)
    facts.check("milvus-write-duplicate-upsert-copies-stored", last == list("cebda"), last)
    count = c.query("up", filter="", output_fields=["count(*)"])[0]["count(*)"]
    facts.check("milvus-write-duplicate-upsert-count", count == 6, count)


def filters(c: MilvusClient) -> None:
    c.create_collection("f", dimension=2, metric_type="L2", id_type="string", max_length=64)
    c.insert("f", [{"id": i, "vector": [1.0, float(j)], **m} for j, (i, m) in enumerate(RECORDS)])
    everything = [r for r, _ in RECORDS]

    def run(expr: str) -> Any:
        def go() -> list[str]:
            rows = c.query("f", filter=expr, output_fields=["id"], limit=100)
            return sorted((r["id"] for r in rows), key=lambda s: int(s[1:]))

        kind, text = error(go)
        return go() if kind is None else (kind, text)

    def but(*ids: str) -> list[str]:
        return [r for r in everything if r not in ids]

    cases: list[tuple[str, list[str], dict[str, Any]]] = [
        (
            "milvus-filter-eq-same-kind",
            but(),
            {
                "n == 1": ["r1", "r8"],
                "n == 1.0": ["r1", "r8"],
                'n == "5"': ["r6"],
                "flag == true": ["r8"],
                "flag == 1": [],
                "n == true": [],
            },
        ),
        (
            "milvus-filter-ne-missing-matches",
            but(),
            {
                'color != "red"': but("r1", "r6"),
                "nosuch != 1": everything,
                "n != 1": but("r1", "r8"),
            },
        ),
        (
            "milvus-filter-not-in-missing-matches",
            but(),
            {
                'color not in ["red", "green"]': but("r1", "r4", "r6"),
                'color in ["red", "green"]': ["r1", "r4", "r6"],
                "n in [1, 5]": ["r1", "r2", "r8"],
            },
        ),
        (
            "milvus-filter-relational-same-kind",
            but(),
            {
                "n > 2": ["r2", "r3", "r7", "r11"],
                "n < 5": ["r1", "r7", "r8"],
                'n > "3"': ["r6"],
                'color > "blue"': ["r1", "r4", "r6"],
                "flag > false": ["r8"],
            },
        ),
        (
            "milvus-filter-literal-left-swaps-eq",
            but(),
            {
                "1 == n": but("r1", "r8"),
                "1 != n": ["r1", "r8"],
                '"red" == color': but("r1", "r6"),
            },
        ),
        ("milvus-filter-literal-left-relational", but(), {"5 > n": ["r1", "r7", "r8"]}),
        (
            "milvus-filter-like",
            but(),
            {
                'color like "r%"': ["r1", "r6"],
                'color like "%e%"': ["r1", "r2", "r4", "r6", "r7"],
                'color like "_e_"': ["r1", "r6"],
                'color like "R%"': [],
                'color like ""': ["r9"],
            },
        ),
        (
            "milvus-filter-like-percent-only-matches-nothing",
            but(),
            {
                'color like "%"': [],
                'color like "%%"': [],
            },
        ),
        (
            "milvus-filter-json-contains",
            but(),
            {
                'json_contains(tags, "x")': ["r10"],
                'array_contains(tags, "x")': ["r10"],
                'json_contains_any(tags, ["x", "q"])': ["r10"],
                'json_contains_all(tags, ["x", "q"])': [],
            },
        ),
        (
            "milvus-filter-array-length-missing-zero",
            but(),
            {
                "array_length(tags) == 2": ["r10"],
                "array_length(tags) == 0": but("r10"),
            },
        ),
        (
            "milvus-filter-json-path",
            but(),
            {
                'obj["a"] == 1': ["r11"],
                '$meta["color"] == "red"': ["r1", "r6"],
                'meta["color"] == "red"': [],
                'tags[0] == "x"': ["r10"],
            },
        ),
        (
            "milvus-filter-int64-exact",
            but(),
            {
                "n == 9007199254740993": ["r11"],
                "n == 9007199254740992": [],
            },
        ),
        (
            "milvus-filter-trailing-text-ignored",
            but(),
            {
                'color == "red" AND n == 1': ["r1", "r6"],
                'color == "red" xyz': ["r1", "r6"],
                "n == 0x1": [],
                'color IN ["red"]': ("MilvusException", "JSON"),
            },
        ),
        ("milvus-filter-missing-paren-supplied", but(), {"(n == 1": ["r1", "r8"]}),
        (
            "milvus-filter-recovery-in-parentheses",
            but(),
            {
                '(n > 1 not color == "blue") and n < 10': ["r2", "r3", "r7", "r11"],
                '((n > 1 not color == "blue") and n < 10)': ["r2", "r7"],
                '((color == "red" not n > 1) or n == 10)': ["r1", "r3", "r6"],
                '((n > 1 not (color == "x")) or n == 1)': ["r2", "r3", "r7", "r11"],
                "n == 10 or (n > 1 not color and n < 3)": ["r7"],
                'json_contains(tags, ("x" not 2 == 3))': ["r10"],
                "(n == 1 x)": ["r1", "r8"],
            },
        ),
        (
            "milvus-filter-pk",
            but(),
            {
                'id in ["r1", "r3"]': ["r1", "r3"],
                '"r1" < id < "r3"': ["r2", "r10", "r11"],
                "": everything,
            },
        ),
    ]
    for fact, _, table in cases:
        got = {expr: run(expr) for expr in table}
        ok = all(
            got[e] == w if not isinstance(w, tuple) else got[e][0] == w[0] and w[1] in got[e][1]
            for e, w in table.items()
        )
        facts.check(fact, ok, got)

    rejected = {
        "milvus-filter-not-rejected": {
            'not (color == "red")': "unsupported expr proto node",
            "not color": "Invalid expr: not color: invalid parameter",
            "!(n == 1)": "unsupported expr proto node",
        },
        "milvus-filter-exists-null-rejected": {
            "exists color": "Invalid expr: exists color: invalid parameter",
            "color is null": "expr type check failed, actual type: JSON",
        },
        "milvus-filter-bare-name-type-error": {"flag": "expr type check failed, actual type: JSON"},
        "milvus-filter-range-and-arithmetic-rejected-on-json": {
            "1 < n < 5": "Invalid expr: 1 < n < 5: invalid parameter",
            "n + 1 == 2": "invalid parameter",
        },
        "milvus-filter-in-empty-error": {"n in []": "Cannot find field with field_id: 0"},
        "milvus-filter-in-mixed-kinds-error": {
            'n in [1, "5"]': "GenericValue::kInt64Val",
            "n in [2.5, 1]": "GenericValue::kFloatVal",
        },
        "milvus-filter-two-keys-error": {
            "color == title": "unsupported left datatype:JSON of compare expr"
        },
        "milvus-filter-dangling-operator-rejected": {
            'color == "red" and': 'Invalid expr: color == "red" and: invalid parameter'
        },
        "milvus-filter-recovery-type-error": {
            'n == 10 or (n == 1 not color == "x")': (
                'Invalid expr: n == 10 or (n == 1 not color == "x"): invalid parameter'
            ),
            "((missing == 1 not array_length(color) == 0 not missing > 1) not (color == 'red'"
            " or missing > 5 or n < 5) not (missing < 5))": "invalid parameter",
            "(n in [2] or (color != 'blue' not missing == 2.5 not missing < 2) or n >= 5)": (
                "invalid parameter"
            ),
        },
        "milvus-filter-varchar-pk-int-literal-rejected": {
            "id == 5": "Invalid expr: id == 5: invalid parameter"
        },
    }
    for fact, table in rejected.items():
        got = {expr: error(lambda e=expr: c.query("f", filter=e, limit=3)) for expr in table}
        ok = all(got[e][0] == "MilvusException" and w in got[e][1] for e, w in table.items())
        facts.check(fact, ok, {e: g[1][:70] for e, g in got.items()})
    skipped = run('json_contains(tags, "q") and color == title')
    facts.check("milvus-filter-and-skips-after-all-false", skipped == [], skipped)
    c.create_collection("empty", dimension=2, metric_type="L2", id_type="string", max_length=8)
    lazy = error(lambda: c.search("empty", [[1.0, 0.0]], limit=3, filter="color == title"))
    facts.check("milvus-filter-run-errors-need-rows", lazy[0] is None, lazy)

    c.create_collection("pf", dimension=2, metric_type="L2", id_type="string", max_length=16)
    near = [{"id": f"n{i}", "vector": [1.0, i * 0.001], "color": "blue"} for i in range(50)]
    c.insert("pf", [*near, {"id": "far", "vector": [-1.0, 0.0], "color": "red"}])
    got = search(c, "pf", [1.0, 0.0], 1, 'color == "red"')
    facts.check("milvus-filter-is-prefilter", got == ["far"], got)


def errors_and_writes(c: MilvusClient) -> None:
    c.create_collection("e", dimension=3, metric_type="L2", id_type="string", max_length=64)
    c.create_collection("ei", dimension=3, metric_type="L2", id_type="int")
    c.insert("e", [{"id": "a", "vector": [1.0, 0.0, 0.0]}])
    got = error(lambda: c.insert("e", [{"id": "x", "vector": [1.0, 0.0]}]))
    facts.check(
        "milvus-error-insert-wrong-dimension",
        got == ("MilvusException", "the length(2) of float data should divide the dim(3):"),
        got,
    )
    got = error(lambda: c.search("e", [[1.0, 0.0]], limit=1))
    facts.check("milvus-error-search-wrong-dimension", got[0] == "MilvusException", got[1][:90])
    for label, k in (("0", 0), ("negative", -1), ("float", 1.5), ("str", "2")):
        got = error(lambda k=k: c.search("e", [Q], limit=k))
        facts.check(
            f"milvus-k-{label}", got == ("ParamError", f"`limit` value {k} is illegal"), got
        )
    got = error(lambda: c.search("e", [Q], limit=16385))
    facts.check("milvus-k-above-16384", got == ("MilvusException", "invalid parameter"), got)
    facts.check("milvus-k-larger-than-rows-truncates", len(search(c, "e", Q, 50)) == 1, "1 hit")
    nan = error(lambda: c.insert("e", [{"id": "nan", "vector": [float("nan"), 0.0, 0.0]}]))
    facts.check("milvus-nan-accepted-on-insert", nan[0] is None, nan)
    facts.check("milvus-nan-never-returned", search(c, "e", Q, 5) == ["a"], search(c, "e", Q, 5))
    c.delete("e", ids=["nan"])
    got = error(lambda: c.insert("e", [{"id": 5, "vector": Q}]))
    facts.check("milvus-error-int-id-into-varchar", got[0] == "DataNotMatchException", got)
    got = error(lambda: c.insert("ei", [{"id": "a", "vector": Q}]))
    facts.check(
        "milvus-error-str-id-into-int64",
        got[0] == "DataNotMatchException" and "should be a int64" in got[1],
        got,
    )
    got = error(lambda: c.insert("ei", [{"id": -5, "vector": Q}]))
    facts.check("milvus-negative-int64-id-accepted", got[0] is None, got)
    got = error(lambda: c.insert("e", [{"id": "", "vector": Q}]))
    facts.check("milvus-empty-varchar-id-accepted", got[0] is None, got)

    c.create_collection("w", dimension=3, metric_type="L2", id_type="string", max_length=64)
    c.insert("w", [{"id": "a", "vector": Q, "m": 1}, {"id": "b", "vector": Q}])
    c.insert("w", [{"id": "a", "vector": [0.0, 1.0, 0.0], "k": 2}])

    def row(i: str) -> list[dict[str, Any]]:
        return [dict(r) for r in c.query("w", filter=f'id == "{i}"', output_fields=["*"])]

    def count() -> int:
        return int(c.query("w", filter="", output_fields=["count(*)"])[0]["count(*)"])

    visible = row("a")
    facts.check(
        "milvus-write-insert-existing-id-visible-row",
        visible == [{"id": "a", "vector": [0.0, 1.0, 0.0], "k": 2}],
        visible,
    )
    facts.check("milvus-write-insert-existing-id-count", count() == 3, count())
    hits = [(h["id"], h["distance"]) for h in c.search("w", [Q], limit=5)[0]]
    facts.check(
        "milvus-write-insert-existing-id-search-best-copy",
        hits == [("a", 0.0), ("b", 0.0)] or hits == [("b", 0.0), ("a", 0.0)],
        hits,
    )
    c.upsert("w", [{"id": "e", "vector": Q, "x": 1}, {"id": "e", "vector": Q, "x": 2}])
    got = row("e")
    facts.check(
        "milvus-write-duplicate-ids-one-upsert-last-wins",
        got == [{"id": "e", "vector": [1.0, 0.0, 0.0], "x": 2}],
        got,
    )
    c.upsert("w", [{"id": "b", "vector": [0.0, 0.0, 1.0], "z": 3}])
    got = row("b")
    facts.check(
        "milvus-write-upsert-replaces-dynamic-fields",
        got == [{"id": "b", "vector": [0.0, 0.0, 1.0], "z": 3}],
        got,
    )
    deleted = list(c.delete("w", ids=["nope", "b"]))
    facts.check("milvus-write-delete-missing-id-silent", deleted == ["b"], deleted)


def main() -> None:
    with milvus() as client:
        scores(client)
        ties_and_listing(client)
        filters(client)
        errors_and_writes(client)
    facts.done()


if __name__ == "__main__":
    main()
