"""Probe: what number Chroma reports per space (l2, cosine, ip), in which precision, and how.

Covers the facts ``chroma-score-*``, ``chroma-zero-vector`` and ``chroma-input-*`` of
docs/engines/chroma.md: the formula and direction of each space on a geometry where every
candidate formula gives a different number, float32 rounding of inputs and results, whether
cosine vectors are stored normalised, the summation order that reproduces l2/ip bit for bit at
384 dimensions, and zero vectors. Run: python tests/fidelity/probes/chroma_scores.py
"""

from __future__ import annotations

import numpy as np
from _probe import Facts, chroma_client, raised
from _probe_geometry import DOCS, Q

F32 = np.float32


def distances(collection, query: list[float], k: int) -> dict[str, float]:
    got = collection.query(query_embeddings=[query], n_results=k, include=["distances"])
    return dict(zip(got["ids"][0], got["distances"][0], strict=True))


def lane4_dot(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Row-wise dot in float32 with 4 accumulator lanes, lanes added left to right at the end
    (hnswlib's SSE kernel); numpy's pairwise sum adds in another order."""
    lanes = np.zeros((x.shape[0], 4), dtype=F32)
    for start in range(0, x.shape[1], 4):
        lanes += x[:, start : start + 4] * y[:, start : start + 4]
    return ((lanes[:, 0] + lanes[:, 1]) + lanes[:, 2]) + lanes[:, 3]


def main() -> None:
    facts = Facts("Chroma scores", "chromadb", "numpy")
    client = chroma_client()

    def collection(name: str, **kwargs):
        made = client.create_collection(f"scores-{name}", embedding_function=None, **kwargs)
        made.add(ids=list(DOCS), embeddings=list(DOCS.values()))
        return made

    l2 = distances(collection("default"), Q, 6)
    expected_l2 = {"same": 0.0, "twice": 1.0, "c34": 20.0, "ortho": 2.0, "opp": 4.0}
    facts.check(
        "chroma-score-l2",
        all(l2[k] == v for k, v in expected_l2.items()) and abs(l2["diag"] - 0.8) < 1e-6,
        f"default space (no metadata) = squared L2, ascending: {l2}",
    )
    cosine = distances(collection("cosine", metadata={"hnsw:space": "cosine"}), Q, 6)
    facts.check(
        "chroma-score-cosine",
        cosine["same"] == 0.0
        and cosine["twice"] == 0.0
        and cosine["c34"] == float(F32(1) - F32(0.6))
        and cosine["ortho"] == 1.0
        and cosine["opp"] == 2.0,
        f"cosine = 1 - cos in [0, 2], ascending: {cosine}",
    )
    configured = distances(
        collection("configured", configuration={"hnsw": {"space": "cosine"}}), Q, 6
    )
    facts.check(
        "chroma-score-space-setting",
        configured == cosine,
        "configuration={'hnsw': {'space': 'cosine'}} gives the same numbers as the metadata key",
    )
    ip = distances(collection("ip", metadata={"hnsw:space": "ip"}), Q, 6)
    facts.check(
        "chroma-score-ip",
        ip["c34"] == -2.0 and ip["twice"] == -1.0 and ip["same"] == 0.0 and ip["opp"] == 2.0,
        f"ip = 1 - dot, negative for long vectors, ascending: {ip}",
    )
    facts.check(
        "chroma-score-float32",
        cosine["c34"] == 0.3999999761581421
        and all(type(v) is float and float(F32(v)) == v for v in [*l2.values(), *cosine.values()]),
        f"Python floats holding float32 values: 1 - 0.6 -> {cosine['c34']!r}",
    )

    stored = client.get_collection("scores-cosine").get(ids=["twice"], include=["embeddings"])
    facts.check(
        "chroma-cosine-stored-raw",
        [float(x) for x in stored["embeddings"][0]] == [2.0, 0.0, 0.0],
        f"get() of a cosine collection returns the vector as given: {stored['embeddings'][0]}",
    )
    rounding = client.create_collection("scores-rounding", embedding_function=None)
    rounding.add(ids=["x"], embeddings=[[0.1, 1, 2]])
    back = [float(v) for v in rounding.get(ids=["x"], include=["embeddings"])["embeddings"][0]]
    facts.check(
        "chroma-input-float32",
        back == [float(F32(0.1)), 1.0, 2.0],
        f"Python floats (and ints) are stored as float32: 0.1 comes back as {back[0]!r}",
    )

    # Summation order at 384 dimensions: random vectors, top 20 of 60.
    rng = np.random.default_rng(3)
    matrix = rng.normal(size=(60, 384)).astype(F32)
    queries = rng.normal(size=(3, 384)).astype(F32)
    exact_l2 = exact_ip = 0
    numpy_l2 = 0
    cosine_gap = 0.0
    spaces = {
        space: client.create_collection(
            f"scores-384-{space}", metadata={"hnsw:space": space}, embedding_function=None
        )
        for space in ("l2", "ip", "cosine")
    }
    for made in spaces.values():
        made.add(ids=[str(i) for i in range(60)], embeddings=matrix.tolist())
    for query in queries:
        for space, made in spaces.items():
            got = made.query(query_embeddings=[query.tolist()], n_results=20)
            rows = matrix[[int(i) for i in got["ids"][0]]]
            reported = np.array(got["distances"][0])
            if space == "l2":
                diff = rows - query
                exact_l2 += np.array_equal(lane4_dot(diff, diff), reported)
                numpy_l2 += np.array_equal(np.sum(diff * diff, axis=1, dtype=F32), reported)
            elif space == "ip":
                ours = F32(1) - lane4_dot(rows, np.broadcast_to(query, rows.shape))
                exact_ip += np.array_equal(ours, reported)
            else:
                unit_rows = rows / np.linalg.norm(rows, axis=1, keepdims=True)
                unit_query = query / np.linalg.norm(query)
                ours = F32(1) - unit_rows @ unit_query
                cosine_gap = max(cosine_gap, float(np.max(np.abs(ours - reported))))
    facts.check(
        "chroma-score-l2-ip-kernel",
        exact_l2 == 3 and exact_ip == 3,
        f"at 384 dims l2 and ip equal a float32 sum over 4 lanes bit for bit ({exact_l2}/3, "
        f"{exact_ip}/3 queries); numpy's pairwise float32 sum matches {numpy_l2}/3",
    )
    facts.check(
        "chroma-score-cosine-kernel",
        0 < cosine_gap <= 2.4e-7,
        f"cosine is within {cosine_gap:.2e} (1-2 float32 ulps) of 1 - dot of float32 unit "
        "vectors, but not bit-identical to it",
    )

    dyadic = np.array([[0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, -0.5], [0.5, -0.5, -0.5, -0.5]])
    exact = True
    for space in ("l2", "cosine", "ip"):
        made = client.create_collection(
            f"scores-dyadic-{space}", metadata={"hnsw:space": space}, embedding_function=None
        )
        made.add(ids=["h0", "h1", "h3"], embeddings=dyadic.tolist())
        got = distances(made, [0.5, 0.5, 0.5, 0.5], 3)
        dots = dyadic @ np.array([0.5, 0.5, 0.5, 0.5])
        want = {"l2": 2 - 2 * dots, "cosine": 1 - dots, "ip": 1 - dots}[space]
        exact &= [got[i] for i in ("h0", "h1", "h3")] == want.tolist()
    facts.check(
        "chroma-score-dyadic-exact",
        exact,
        "on vectors of +-0.5 entries every space reports the exact value",
    )

    zero = client.create_collection(
        "scores-zero", metadata={"hnsw:space": "cosine"}, embedding_function=None
    )
    error = raised(lambda: zero.add(ids=["z", "x"], embeddings=[[0.0, 0.0], [1.0, 0.0]]))
    towards_zero = distances(zero, [1.0, 0.0], 2)
    from_zero = distances(zero, [0.0, 0.0], 2)
    facts.check(
        "chroma-zero-vector",
        error[0] is None and towards_zero["z"] == 1.0 and set(from_zero.values()) == {1.0},
        f"a zero vector is accepted; cosine distance to or from it is 1.0: {towards_zero}, "
        f"zero query {from_zero}",
    )
    facts.done()


if __name__ == "__main__":
    main()
