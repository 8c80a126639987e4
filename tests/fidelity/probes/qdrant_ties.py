"""Probe: how qdrant-client's local mode orders equal scores, and in which order it lists points.

Covers ``qdrant-ties-*`` and ``qdrant-listing-order`` of docs/engines/qdrant.md. Local mode ranks
with ``np.argsort(scores)`` over the internal slot order, reversed (``[::-1]``) for COSINE and
DOT: pure ties come back in reverse insertion order under COSINE/DOT and in insertion order under
EUCLID/MANHATTAN; mixed with other scores, the order is whatever numpy's (unstable) argsort
gives, which the probe replays exactly. An upsert keeps a point's slot and so does delete +
re-upsert. scroll() lists by point id. The Qdrant *server* is not measured here. Run:
python tests/fidelity/probes/qdrant_ties.py
"""

from __future__ import annotations

import uuid

import numpy as np
from _probe import Facts
from qdrant_client import QdrantClient, models

TIED = [0.0, 0.0, 1.0]
QUERY = [0.0, 0.6, 0.8]
DISTANCES = {
    "cosine": models.Distance.COSINE,
    "dot": models.Distance.DOT,
    "euclid": models.Distance.EUCLID,
    "manhattan": models.Distance.MANHATTAN,
}


def ranked(client: QdrantClient, name: str, query: list[float], limit: int = 100) -> list:
    return [p.id for p in client.query_points(name, query=query, limit=limit).points]


def main() -> None:
    facts = Facts("Qdrant local-mode ties", "qdrant-client", "numpy")
    client = QdrantClient(":memory:")
    orders = {}
    for metric, distance in DISTANCES.items():
        client.create_collection(metric, models.VectorParams(size=3, distance=distance))
        for point_id in (3, 1, 2, 4):
            client.upsert(metric, [models.PointStruct(id=point_id, vector=TIED)])
        orders[metric] = (ranked(client, metric, QUERY), ranked(client, metric, QUERY, limit=2))
    facts.check(
        "qdrant-ties-similarity-reversed",
        orders["cosine"] == orders["dot"] == ([4, 2, 1, 3], [4, 2]),
        f"COSINE/DOT: reverse insertion (inserted 3,1,2,4), so k keeps the last inserted: "
        f"{orders['cosine']}",
    )
    facts.check(
        "qdrant-ties-distance-insertion",
        orders["euclid"] == orders["manhattan"] == ([3, 1, 2, 4], [3, 1]),
        f"EUCLID/MANHATTAN: insertion order, k keeps the first inserted: {orders['euclid']}",
    )

    client.upsert("euclid", [models.PointStruct(id=1, vector=TIED, payload={"v": 2})])
    kept = ranked(client, "euclid", QUERY)
    client.delete("euclid", models.PointIdsList(points=[3]))
    without = ranked(client, "euclid", QUERY)
    client.upsert("euclid", [models.PointStruct(id=3, vector=TIED)])
    client.upsert("euclid", [models.PointStruct(id=9, vector=TIED)])
    back = ranked(client, "euclid", QUERY)
    facts.check(
        "qdrant-ties-upsert-keeps-slot",
        kept == [3, 1, 2, 4],
        f"an upsert of an existing id keeps its slot: {kept}",
    )
    facts.check(
        "qdrant-ties-readd-restores-slot",
        without == [1, 2, 4] and back == [3, 1, 2, 4, 9],
        f"delete + re-upsert puts the point back in its old slot, a new id is appended: {back}",
    )

    # Ties mixed with other scores: numpy's argsort over slot order decides.
    rng = np.random.default_rng(5)
    grid = rng.integers(-2, 3, size=(60, 3)).astype(float)
    grid[np.all(grid == 0, axis=1)] = 1.0
    slots = rng.permutation(60).tolist()  # point ids in insertion order
    replayed = insertion_like = True
    for metric in ("cosine", "euclid"):
        name = f"mixed-{metric}"
        client.create_collection(name, models.VectorParams(size=3, distance=DISTANCES[metric]))
        client.upsert(name, [models.PointStruct(id=i, vector=grid[i].tolist()) for i in slots])
        query = [1.0, 1.0, 0.0]
        points = client.query_points(name, query=query, limit=60).points
        by_id = {p.id: p.score for p in points}
        in_slots = np.array([by_id[i] for i in slots])
        order = np.argsort(in_slots)
        if metric == "cosine":
            order = order[::-1]
        replayed &= [p.id for p in points] == [slots[i] for i in order]
        stable = sorted(
            range(60), key=lambda i: (-in_slots[i] if metric == "cosine" else in_slots[i], i)
        )
        insertion_like &= [p.id for p in points] == [slots[i] for i in stable]
    facts.check(
        "qdrant-ties-argsort",
        replayed and not insertion_like,
        "with mixed scores, np.argsort of the scores in slot order (reversed for COSINE) gives "
        "the engine's order exactly; it is not insertion order among ties",
    )

    client.create_collection(
        "listing", models.VectorParams(size=3, distance=models.Distance.EUCLID)
    )
    mixed_ids = [str(uuid.UUID(int=5)), 7, str(uuid.UUID(int=2)), 3, 10]
    client.upsert("listing", [models.PointStruct(id=i, vector=TIED) for i in mixed_ids])
    listed = [p.id for p in client.scroll("listing", limit=10)[0]]
    facts.check(
        "qdrant-listing-order",
        listed == [3, 7, 10, str(uuid.UUID(int=2)), str(uuid.UUID(int=5))],
        f"scroll() lists unsigned-int ids by value, then UUIDs: {listed}",
    )
    facts.done()


if __name__ == "__main__":
    main()
