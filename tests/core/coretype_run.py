"""Run a fixed scenario under every profile and metric; print a JSON digest of what it returns.

Run by ``test_coretypes.py`` in fresh interpreters under several ``OPENBLAS_CORETYPE`` values
(the BLAS kernel of another CPU family, on this CPU). Prints the kernel OpenBLAS really used and
one digest per profile/metric of the (id, score, similarity) of every query, plain, pre-filtered,
with MMR and traced, plus the qdrant cosine profile's stored vectors.
"""

from __future__ import annotations

import ctypes
import glob
import hashlib
import json
import os

import numpy as np

from placeborag_core import PROFILES, FakeEmbedder, FakeVectorStore

PROFILE_METRICS = [(p.name, v.name) for p in PROFILES.values() for v in p.variants]
"""Every profile and metric, first metric first."""


def blas_core() -> str | None:
    """The kernel name numpy's bundled OpenBLAS chose, or None if it is not scipy-openblas."""
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs", "*"))
    for path in libs:
        if "openblas" not in os.path.basename(path):
            continue
        lib = ctypes.CDLL(path)
        for name in ("scipy_openblas_get_corename64_", "openblas_get_corename64_"):
            get = getattr(lib, name, None)
            if get is not None:
                get.restype = ctypes.c_char_p
                return str(get().decode())
    return None


def scenario() -> tuple[list[str], np.ndarray]:
    """Short texts over a small vocabulary (many different vectors with mathematically equal
    cosines) and random vectors with copies at scattered rows."""
    rng = np.random.default_rng(7)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    vocabulary = sorted({"".join(rng.choice(letters, 5)) for _ in range(60)})[:40]
    texts = [
        " ".join(rng.choice(vocabulary, int(rng.integers(1, 4)), replace=False))
        for _ in range(1200)
    ]
    vectors = rng.standard_normal((1200, 384))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for source in range(120):
        vectors[rng.choice(np.arange(120, 1200), 3, replace=False)] = vectors[source]
    return texts, vectors


def main() -> None:
    texts, vectors = scenario()
    rng = np.random.default_rng(3)
    embedder = FakeEmbedder()
    text_queries = [texts[i] for i in rng.choice(len(texts), 8, replace=False)]
    vector_queries = [vectors[i] for i in rng.choice(len(vectors), 8, replace=False)]
    vector_queries += [rng.standard_normal(384) for _ in range(3)]
    out: dict[str, object] = {"core": blas_core(), "digests": {}}
    digests: dict[str, str] = {}
    for profile, metric in PROFILE_METRICS:
        digest = hashlib.sha256()
        for data, queries in ((texts, text_queries), (vectors, vector_queries)):
            store = FakeVectorStore(embedder, profile=profile, metric=metric)
            store.upsert_many(
                [(str(i), None, {"n": i % 10}, v) for i, v in enumerate(data)]
                if isinstance(data, np.ndarray)
                else [(str(i), t, {"n": i % 10}) for i, t in enumerate(data)]
            )
            for number, query in enumerate(queries):
                results = [*store.query(query, k=10), *store.query(query, k=5, where={"n": 3})]
                if number < 3:
                    results += store.max_marginal_relevance(query, k=3, fetch_k=8)
                for m in results:
                    digest.update(f"{m.id} {m.score!r} {m.similarity!r};".encode())
        small = FakeVectorStore(embedder, profile=profile, metric=metric)
        small.upsert_many([(str(i), None, None, v) for i, v in enumerate(vectors[:100])])
        small.upsert_many([(str(100 + i), t) for i, t in enumerate(texts[:100])])
        for trace in small.trace(text_queries[0]):
            digest.update(f"{trace.id} {trace.score!r} {trace.similarity!r};".encode())
            if (profile, metric) == ("qdrant", "cosine"):
                digest.update(store.snapshot()[3].tobytes())
        digests[f"{profile}/{metric}"] = digest.hexdigest()[:16]
    out["digests"] = digests
    print(json.dumps(out))


if __name__ == "__main__":
    main()
