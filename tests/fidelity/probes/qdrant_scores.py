"""Probe: what qdrant-client's local mode (``QdrantClient(":memory:")``) computes for each metric.

Covers ``qdrant-score-*``, ``qdrant-cosine-*`` and ``qdrant-zero-vector`` of
docs/engines/qdrant.md. First the convention of each metric on a geometry where every
candidate formula differs, then the exact numpy recipe, step by step and dtype by dtype, replayed
next to the engine on 384-dimensional random vectors and compared bit for bit:

* stored vectors are float32; under COSINE a *new* point is normalised in float32 (float32 norm,
  float32 division), an *existing* point rewritten by upsert in float64 and then rounded;
* every COSINE query first re-normalises the whole stored float32 matrix in place (float32
  norms, division guarded by f32 EPSILON for zero rows), so a score can change between the first
  queries after a write and later ones;
* the query is the float64 array of the given list (normalised in float64 for COSINE); the score
  is ``np.dot`` / ``np.linalg.norm`` / ``np.sum(np.abs(...))`` of the float32 matrix against it,
  i.e. float64 arithmetic on float32 inputs, returned as a Python float without rounding.

Run: python tests/fidelity/probes/qdrant_scores.py
"""

from __future__ import annotations

import numpy as np
from _probe import Facts, raised
from qdrant_client import QdrantClient, models

F32 = np.float32
EPSILON = F32(1.1920929e-7)  # qdrant_client.local.distances.EPSILON
QUERY = [1.0, 0.0, 0.0]
DOCS = {
    1: [1.0, 0.0, 0.0],  # same
    2: [2.0, 0.0, 0.0],  # twice
    3: [3.0, 4.0, 0.0],  # c34: cos 0.6, dot 3
    4: [0.6, 0.0, 0.8],  # diag: unit, cos 0.6
    5: [0.0, 1.0, 0.0],  # ortho
    6: [-1.0, 0.0, 0.0],  # opp
}
DISTANCES = {
    "cosine": models.Distance.COSINE,
    "dot": models.Distance.DOT,
    "euclid": models.Distance.EUCLID,
    "manhattan": models.Distance.MANHATTAN,
}


def scores(client: QdrantClient, name: str, query: list[float], **kwargs) -> dict[int, float]:
    points = client.query_points(name, query=query, limit=100, **kwargs).points
    return {point.id: point.score for point in points}


class Replay:
    """The local-mode recipe of one collection, kept beside the engine."""

    def __init__(self, metric: str, dim: int) -> None:
        self.metric = metric
        self.matrix = np.zeros((0, dim), dtype=F32)

    def add(self, vector: list[float]) -> None:
        row = np.array(vector, dtype=F32)
        if self.metric == "cosine":
            norm = np.linalg.norm(row)  # float32
            row = row / norm if norm > EPSILON else row
        self.matrix = np.vstack([self.matrix, row[None, :]])

    def update(self, slot: int, vector: list[float]) -> None:
        row = np.array(vector)
        if self.metric == "cosine":
            norm = np.linalg.norm(vector)  # float64, from the Python list
            row = row / norm if norm > EPSILON else row
        self.matrix[slot] = row  # rounded to float32 by the assignment

    def query(self, vector: list[float]) -> np.ndarray:
        query = np.array(vector)  # float64
        if self.metric == "cosine":
            norms = np.linalg.norm(self.matrix, axis=-1)[:, np.newaxis]
            self.matrix /= np.where(norms != 0.0, norms, EPSILON)  # in place, float32
            norm = np.linalg.norm(query)
            return np.dot(self.matrix, query / np.where(norm != 0.0, norm, EPSILON))
        if self.metric == "dot":
            return np.dot(self.matrix, query)
        if self.metric == "euclid":
            return np.linalg.norm(self.matrix - query, axis=-1)
        return np.sum(np.abs(self.matrix - query), axis=-1)


def main() -> None:
    facts = Facts("Qdrant local-mode scores", "qdrant-client", "numpy")
    client = QdrantClient(":memory:")
    got = {}
    for metric, distance in DISTANCES.items():
        client.create_collection(metric, models.VectorParams(size=3, distance=distance))
        client.upsert(metric, [models.PointStruct(id=i, vector=v) for i, v in DOCS.items()])
        got[metric] = scores(client, metric, QUERY)
    c = got["cosine"]
    facts.check(
        "qdrant-score-cosine",
        c[1] == c[2] == 1.0 and c[3] == float(F32(0.6)) and c[5] == 0.0 and c[6] == -1.0,
        f"COSINE = cosine similarity, descending: {c}",
    )
    d = got["dot"]
    facts.check(
        "qdrant-score-dot",
        d[3] == 3.0 and d[2] == 2.0 and d[1] == 1.0 and d[6] == -1.0,
        f"DOT = raw dot product, descending: {d}",
    )
    e = got["euclid"]
    facts.check(
        "qdrant-score-euclid",
        e[1] == 0.0
        and e[2] == 1.0
        and e[6] == 2.0
        and abs(e[4] - 0.8**0.5) < 1e-9
        and float(F32(e[4])) != e[4]
        and abs(e[3] - 20**0.5) < 1e-6,
        f"EUCLID = L2 distance, not squared, ascending, float64 digits: {e}",
    )
    m = got["manhattan"]
    facts.check(
        "qdrant-score-manhattan",
        m[1] == 0.0 and m[2] == 1.0 and m[3] == 6.0 and abs(m[4] - 1.2) < 1e-6,
        f"MANHATTAN = L1 distance, ascending: {m}",
    )
    stored = client.retrieve("cosine", [3, 2], with_vectors=True)
    facts.check(
        "qdrant-cosine-normalised-on-upsert",
        [p.vector for p in stored] == [[float(F32(0.6)), float(F32(0.8)), 0.0], [1.0, 0.0, 0.0]],
        f"COSINE stores unit vectors: [3,4,0] is returned as {stored[0].vector}",
    )
    facts.check(
        "qdrant-score-type",
        all(type(s) is float for s in c.values()),
        "scores are Python floats",
    )
    cut = {
        "cos > 1.0": sorted(scores(client, "cosine", QUERY, score_threshold=1.0)),
        "cos > 0.6": sorted(scores(client, "cosine", QUERY, score_threshold=0.6)),
        "cos > f32(0.6)": sorted(
            scores(client, "cosine", QUERY, score_threshold=0.6000000238418579)
        ),
        "euclid < 1.0": sorted(scores(client, "euclid", QUERY, score_threshold=1.0)),
    }
    facts.check(
        "qdrant-score-threshold-strict",
        cut
        == {
            "cos > 1.0": [],
            "cos > 0.6": [1, 2, 3, 4],
            "cos > f32(0.6)": [1, 2],
            "euclid < 1.0": [1, 4],
        },
        f"score_threshold is strict (similarities: > t, distances: < t): {cut}",
    )

    # The recipe, bit for bit, at 384 dimensions.
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(40, 384)).tolist()
    queries = rng.normal(size=(12, 384)).tolist()
    exact = {}
    for metric, distance in DISTANCES.items():
        name = f"{metric}-384"
        client.create_collection(name, models.VectorParams(size=384, distance=distance))
        replay = Replay(metric, 384)
        client.upsert(name, [models.PointStruct(id=i, vector=v) for i, v in enumerate(vectors)])
        for vector in vectors:
            replay.add(vector)
        steps = [("query", v) for v in queries[:6]]
        steps += [("update", 5), ("update", 17)] + [("query", v) for v in queries[6:]]
        steps += [("query", vectors[5])] * 3
        hits = total = 0
        for action, arg in steps:
            if action == "update":
                client.upsert(name, [models.PointStruct(id=arg, vector=vectors[arg])])
                replay.update(arg, vectors[arg])
                continue
            engine = scores(client, name, arg)
            mine = replay.query(arg)
            total += 1
            hits += [engine[i] for i in range(40)] == mine.tolist()
        exact[metric] = (hits, total)
    facts.check(
        "qdrant-score-recipe",
        all(hits == total for hits, total in exact.values()),
        f"the replayed recipe equals every score bit for bit: {exact}",
    )

    client.create_collection(
        "paths", models.VectorParams(size=384, distance=models.Distance.COSINE)
    )
    same_as_add = same_as_update = paths_differ = 0
    for i, vector in enumerate(vectors):
        row32 = np.array(vector, dtype=F32)
        by_add = row32 / np.linalg.norm(row32)
        by_update = (np.array(vector) / np.linalg.norm(vector)).astype(F32)
        paths_differ += not np.array_equal(by_add, by_update)
        client.upsert("paths", [models.PointStruct(id=i, vector=vector)])
        added = np.array(client.retrieve("paths", [i], with_vectors=True)[0].vector, dtype=F32)
        client.upsert("paths", [models.PointStruct(id=i, vector=vector)])
        rewritten = np.array(client.retrieve("paths", [i], with_vectors=True)[0].vector, dtype=F32)
        same_as_add += np.array_equal(added, by_add)
        same_as_update += np.array_equal(rewritten, by_update)
    facts.check(
        "qdrant-cosine-write-paths",
        same_as_add == same_as_update == 40 and paths_differ > 0,
        f"a new point is normalised in float32, a rewritten one in float64 then rounded "
        f"({same_as_add}/40, {same_as_update}/40; the two differ for {paths_differ}/40 vectors)",
    )

    # What the profile computed before: rows normalised once, no re-normalisation per query.
    client.create_collection("self", models.VectorParams(size=384, distance=models.Distance.COSINE))
    differs = 0
    client.create_collection(
        "twice", models.VectorParams(size=384, distance=models.Distance.COSINE)
    )
    client.upsert("twice", [models.PointStruct(id=i, vector=v) for i, v in enumerate(vectors)])
    first, second = scores(client, "twice", vectors[0]), scores(client, "twice", vectors[0])
    changed = sum(first[i] != second[i] for i in range(40))
    for i, vector in enumerate(vectors):
        client.upsert("self", [models.PointStruct(id=i, vector=vector)])
        row = np.array(vector, dtype=F32)
        once = float(
            np.dot((row / np.linalg.norm(row))[None, :], np.array(vector) / np.linalg.norm(vector))[
                0
            ]
        )
        differs += scores(client, "self", vector)[i] != once
    facts.check(
        "qdrant-cosine-renormalised-per-query",
        differs > 0 and changed > 0,
        f"self-scores differ from 'normalise once at upsert' in {differs}/40 cases; asking the "
        f"same query twice in a row changed {changed}/40 scores",
    )
    client.create_collection("zero", models.VectorParams(size=2, distance=models.Distance.COSINE))
    added = raised(
        lambda: client.upsert(
            "zero",
            [
                models.PointStruct(id=1, vector=[0.0, 0.0]),
                models.PointStruct(id=2, vector=[1.0, 0.0]),
            ],
        )
    )
    toward = scores(client, "zero", [1.0, 0.0])
    from_zero = scores(client, "zero", [0.0, 0.0])
    facts.check(
        "qdrant-zero-vector",
        added[0] is None and toward[1] == 0.0 and set(from_zero.values()) == {0.0},
        f"a zero vector is accepted under COSINE and scores 0.0, as does a zero query: {toward}, "
        f"{from_zero}",
    )
    facts.done()


if __name__ == "__main__":
    main()
