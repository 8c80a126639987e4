"""The fixtures give identical vectors and rankings in every pytest-xdist worker, in any order."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from placeborag_core import FakeEmbedder
from placeborag_core.store import FakeVectorStore

TEXTS = [f"document {i} about refund policy topic {i % 3}" for i in range(12)]
QUERY = "refund policy topic 1"


def _digest(embedder: FakeEmbedder, store: FakeVectorStore, text: str) -> str:
    vector = np.asarray(embedder.embed(text), dtype=np.float64).tobytes()
    ranking = [m.id for m in store.query(QUERY, k=len(TEXTS))]
    return hashlib.sha256(vector + json.dumps(ranking).encode()).hexdigest()


def test_workers_compute_identical_vectors_and_rankings(isolated: pytest.Pytester) -> None:
    pytester = isolated
    out = pytester.mkdir("digests")
    pytester.makepyfile(
        f"""
        import hashlib, json, os
        from pathlib import Path

        import numpy as np
        import pytest

        TEXTS = {TEXTS!r}

        @pytest.mark.placeborag(dimensions=128, profile="chroma")
        @pytest.mark.parametrize("index", range(len(TEXTS)))
        def test_digest(fake_embedder, fake_vector_store, index):
            for i, text in enumerate(TEXTS):
                fake_vector_store.upsert(f"d{{i}}", text)
            vector = np.asarray(fake_embedder.embed(TEXTS[index]), dtype=np.float64).tobytes()
            ranking = [m.id for m in fake_vector_store.query({QUERY!r}, k=len(TEXTS))]
            digest = hashlib.sha256(vector + json.dumps(ranking).encode()).hexdigest()
            worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
            Path({str(out)!r}, f"{{index}}.json").write_text(json.dumps([worker, digest]))
        """
    )
    result = pytester.runpytest_subprocess("-n", "2")
    result.assert_outcomes(passed=len(TEXTS))

    embedder = FakeEmbedder(dimensions=128)
    store = FakeVectorStore(embedder, profile="chroma")
    for i, text in enumerate(TEXTS):
        store.upsert(f"d{i}", text)
    workers = set()
    for index, text in enumerate(TEXTS):
        worker, digest = json.loads(Path(out, f"{index}.json").read_text())
        workers.add(worker)
        assert digest == _digest(embedder, store, text), f"worker {worker}, text {index}"
    assert workers == {"gw0", "gw1"}
