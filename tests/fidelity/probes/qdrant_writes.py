"""Probe: qdrant-client local mode's point ids, limits, dimension and NaN errors, and writes.

Covers ``qdrant-ids-*``, ``qdrant-k-*``, ``qdrant-dim-*`` and ``qdrant-write-*`` of
docs/engines/qdrant.md: which ids are points ids (and local mode's laxness), the limit rules of
the engine and of the client's request model, what a wrong width or NaN raises, that a bad point
rejects its whole batch, that the last duplicate in a batch wins, that writes are visible at
once (``wait=False`` included) and deleting a missing id succeeds. Run:
python tests/fidelity/probes/qdrant_writes.py
"""

from __future__ import annotations

import math
import uuid

import pydantic
from _probe import Facts, name, raised
from qdrant_client import QdrantClient, models


def point(point_id, vector=(1.0, 0.0, 0.0), payload=None) -> models.PointStruct:
    return models.PointStruct(id=point_id, vector=list(vector), payload=payload)


def main() -> None:
    facts = Facts("Qdrant local-mode writes and errors", "qdrant-client", "pydantic")
    client = QdrantClient(":memory:")
    client.create_collection("w", models.VectorParams(size=3, distance=models.Distance.COSINE))

    kind, message = raised(lambda: client.upsert("w", [point("c")]))
    facts.check(
        "qdrant-ids-uuid-or-uint",
        (kind, message) == (ValueError, "Point id c is not a valid UUID"),
        f"a str that is not a UUID: {name(kind)}: {message}",
    )
    kind, _ = raised(lambda: point(1.5))
    facts.check(
        "qdrant-ids-float",
        kind is pydantic.ValidationError,
        "a float id fails in the PointStruct model (pydantic ValidationError)",
    )
    dashless = uuid.UUID(int=9).hex
    client.upsert("w", [point(dashless)])
    facts.check(
        "qdrant-ids-canonical",
        client.retrieve("w", [str(uuid.UUID(int=9))])[0].id == str(uuid.UUID(int=9)),
        f"a dashless UUID {dashless} is stored and reported in its dashed form",
    )
    lax = [
        raised(lambda: client.upsert("w", [point(-1)]))[0],
        raised(lambda: client.upsert("w", [point(2**64)]))[0],
    ]
    facts.check(
        "qdrant-ids-local-lax",
        lax == [None, None],
        "local mode accepts -1 and 2**64 as ids (the server's range is not checked here)",
    )

    client.upsert("w", [point(1), point(2, (0.0, 1.0, 0.0)), point(3, (0.0, 0.0, 1.0))])
    limits = {
        "limit=0": raised(lambda: client.query_points("w", [1.0, 0.0, 0.0], limit=0)),
        "limit=-1": raised(lambda: client.query_points("w", [1.0, 0.0, 0.0], limit=-1)),
    }
    facts.check(
        "qdrant-k-positive",
        limits
        == {
            "limit=0": (ValueError, "limit value 0 is invalid. Must be 1 or larger."),
            "limit=-1": (ValueError, "limit value -1 is invalid. Must be 1 or larger."),
        },
        f"{limits}",
    )
    count = client.count("w").count
    facts.check(
        "qdrant-k-above-count",
        len(client.query_points("w", [1.0, 0.0, 0.0], limit=100).points) == count,
        "a limit above the count returns every point",
    )
    request = raised(lambda: models.QueryRequest(limit=1.5))
    coerced = models.QueryRequest(limit="2").limit
    facts.check(
        "qdrant-k-request-model",
        request[0] is pydantic.ValidationError
        and "limit\n  Input should be a valid integer" in request[1]
        and coerced == 2,
        "the client's request model rejects limit=1.5 and coerces limit='2' to 2 (lax mode)",
    )
    local = (
        raised(lambda: client.query_points("w", [1.0, 0.0, 0.0], limit="2"))[0],
        len(client.query_points("w", [1.0, 0.0, 0.0], limit=1.5).points),
    )
    facts.check(
        "qdrant-k-local-unchecked",
        local == (TypeError, 2),
        f"local mode does not validate limit: '2' raises TypeError, 1.5 returns {local[1]} points",
    )
    ranking = [p.id for p in client.query_points("w", [0.0, 1.0, 0.0], limit=10).points]
    offset = [p.id for p in client.query_points("w", [0.0, 1.0, 0.0], limit=2, offset=1).points]
    facts.check(
        "qdrant-k-offset",
        offset == ranking[1:3],
        f"offset=1 skips the best point: {offset} of {ranking}",
    )

    dims = {
        "write": raised(lambda: client.upsert("w", [point(5, (1.0, 0.0))])),
        "query": raised(lambda: client.query_points("w", [1.0, 0.0])),
        "nan": raised(lambda: client.upsert("w", [point(6, (math.nan, 0.0, 0.0))])),
    }
    facts.check(
        "qdrant-dim-write",
        dims["write"]
        == (
            ValueError,
            "Wrong input: Vector dimension error: expected dim: 3, got 2 for vector ''",
        ),
        f"{dims['write']}",
    )
    facts.check(
        "qdrant-dim-query",
        dims["query"][0] is ValueError and "not aligned" in dims["query"][1],
        f"a query of the wrong width fails inside numpy: {dims['query']}",
    )
    facts.check(
        "qdrant-dim-nan",
        dims["nan"] == (ValueError, "Vector contains NaN values"),
        f"{dims['nan']}",
    )
    client.create_collection("e", models.VectorParams(size=3, distance=models.Distance.EUCLID))
    client.upsert("e", [point(1, (1.0, 2.0, 3.0)), point(2, (1.0, 1.0, 1.0))])
    broadcast = {p.id: p.score for p in client.query_points("e", [1.0], limit=2).points}
    facts.check(
        "qdrant-dim-broadcast",
        broadcast == {2: 0.0, 1: math.sqrt(5.0)},
        f"EUCLID with a 1-wide query broadcasts it like [1, 1, 1]: {broadcast}",
    )
    before = client.count("w").count
    batch = raised(lambda: client.upsert("w", [point(7), point(8, (1.0, 0.0))]))
    facts.check(
        "qdrant-write-batch-atomic",
        batch[0] is ValueError and client.count("w").count == before,
        "one bad point rejects the whole batch: nothing is written",
    )
    client.upsert("w", [point(10, payload={"v": 1}), point(10, payload={"v": 2})])
    facts.check(
        "qdrant-write-duplicate-last-wins",
        client.retrieve("w", [10])[0].payload == {"v": 2},
        "the same id twice in one upsert: the last one wins",
    )
    status = client.upsert("w", [point(11, (0.0, 0.6, 0.8))], wait=False).status
    seen = client.query_points("w", [0.0, 0.6, 0.8], limit=1).points[0].id
    deleted = client.delete("w", models.PointIdsList(points=[11, 999])).status
    facts.check(
        "qdrant-write-visible",
        status == models.UpdateStatus.COMPLETED
        and seen == 11
        and deleted == models.UpdateStatus.COMPLETED
        and client.retrieve("w", [11]) == [],
        f"wait=False still answers {status.value} and the write is visible at once; deleting a "
        "missing id completes too",
    )
    facts.done()


if __name__ == "__main__":
    main()
