"""Helpers shared by the engine and integration probes (pgvector, Milvus, LanceDB, FAISS).

Each probe is a standalone script: ``python tests/fidelity/probes/<name>.py``. It starts its engine
in process, prints every fact it measures as ``ok   <fact-id>: <value>`` and exits 1 when a fact
no longer holds (``FAIL <fact-id>: got ..., expected ...``). Scratch directories are removed and
the PostgreSQL server is stopped on the way out, whatever happens.

Fact ids match docs/engines/*.md and docs/integrations/new_integrations.md.
"""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

_failures: list[str] = []

Q = [1.0, 0.0, 0.0]
"""The score query: every candidate formula gives each document below a different number."""

DOCS: dict[str, list[float]] = {
    "same": [1.0, 0.0, 0.0],
    "twice": [2.0, 0.0, 0.0],
    "c34": [3.0, 4.0, 0.0],
    "diag": [0.6, 0.0, 0.8],
    "ortho": [0.0, 1.0, 0.0],
    "opp": [-1.0, 0.0, 0.0],
}


def check(fact: str, got: Any, want: Any) -> None:
    """Print a fact and record a failure when ``got != want`` (floats compared exactly)."""
    if _equal(got, want):
        print(f"ok   {fact}: {got!r}")
    else:
        print(f"FAIL {fact}: got {got!r}, expected {want!r}")
        _failures.append(fact)


def check_close(fact: str, got: Sequence[float], want: Sequence[float], tol: float) -> None:
    """Like :func:`check` for float lists, within ``tol``."""
    ok = len(got) == len(want) and all(abs(a - b) <= tol for a, b in zip(got, want, strict=True))
    if ok:
        print(f"ok   {fact}: {list(got)!r} (within {tol:g})")
    else:
        print(f"FAIL {fact}: got {list(got)!r}, expected {list(want)!r} within {tol:g}")
        _failures.append(fact)


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def error_of(fn: Callable[[], Any], lines: int = 1) -> tuple[str, str] | None:
    """(exception class name, first ``lines`` lines of its message) or None when fn succeeds."""
    try:
        fn()
    except Exception as error:
        text = "\n".join(str(error).strip().splitlines()[:lines])
        return type(error).__name__, text
    return None


def finish(started: float) -> None:
    """Print the verdict and the run time; exit 1 when a fact failed."""
    took = time.perf_counter() - started
    if _failures:
        print(f"{len(_failures)} fact(s) changed: {', '.join(_failures)} ({took:.1f} s)")
        sys.exit(1)
    print(f"all facts hold ({took:.1f} s)")


@contextlib.contextmanager
def scratch_dir(prefix: str) -> Iterator[Path]:
    """A temporary directory, removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix=f"placeborag-{prefix}-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def postgres() -> Iterator[Any]:
    """An in-process PostgreSQL with pgvector (pgserver), stopped and deleted afterwards.

    pgserver keeps a lock file under the user runtime dir; it is pointed into the scratch dir
    before pgserver is imported, so nothing is left behind. Yields the server handle
    (``.get_uri()``, ``.psql()``); the extension ``vector`` is created.
    """
    with scratch_dir("pg") as root:
        runtime = root / "runtime"
        runtime.mkdir()
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pgserver

        server = pgserver.get_server(root / "data", cleanup_mode="stop")
        try:
            server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
            yield server
        finally:
            server.cleanup()


def last_line(text: str) -> str:
    """The text an embedder is keyed on (LlamaIndex prefixes metadata lines to the node text)."""
    return text.strip().rsplit("\n", 1)[-1].strip()


def table_lookup(table: dict[str, list[float]], text: str) -> list[float]:
    """The vector for ``text`` (its last line); unknown texts raise KeyError."""
    return [float(x) for x in table[last_line(text)]]


@contextlib.contextmanager
def milvus() -> Iterator[Any]:
    """A ``pymilvus.MilvusClient`` on a Milvus Lite file in a scratch dir, all released after.

    Milvus Lite serves each ``.db`` path from a server it keeps until exit (milvus-lite 3: a gRPC
    thread that flushes segments at exit; 2.5: a child process), so it is released explicitly
    before the directory is removed.
    """
    import logging

    from milvus_lite.server_manager import server_manager_instance
    from pymilvus import MilvusClient

    logging.disable(logging.CRITICAL)  # pymilvus logs every failed RPC with a traceback
    with scratch_dir("milvus") as root:
        # milvus-lite 2.5's server writes glog files (milvus.*.log.*) to /tmp unless told.
        os.environ["GLOG_log_dir"] = str(root)  # noqa: SIM112 (glog reads this exact name)
        # pymilvus <= 2.6.9 reads the first path segment of a file URI as the database name
        # ("database 'tmp' does not exist"); db_name is harmless for later versions.
        client = None
        for attempt in range(3):
            # milvus-lite 2.5.1 sometimes fails to start ("Open storage failed, err: disk I/O
            # error" in its log; the client sees "Fail connecting to server on unix:...sock");
            # a fresh .db path on the next attempt starts.
            try:
                client = MilvusClient(str(root / f"m{attempt}.db"), db_name="default")
                break
            except Exception as error:
                print(f"note milvus start attempt {attempt + 1} failed: {str(error)[:100]}")
                server_manager_instance.release_all()
        if client is None:
            raise RuntimeError("Milvus Lite did not start in 3 attempts")
        try:
            yield client
        finally:
            client.close()
            server_manager_instance.release_all()


def check_error(fact: str, err: tuple[str, str] | None, cls: str, prefix: str) -> None:
    """Check an :func:`error_of` result: its class name and the start of its message."""
    got = None if err is None else (err[0], err[1][: len(prefix)])
    check(fact, got, (cls, prefix))


UNIT: dict[str, list[float]] = {
    "q": [1.0, 0.0, 0.0, 0.0],
    "a": [1.0, 0.0, 0.0, 0.0],
    "b": [0.8, 0.6, 0.0, 0.0],
    "c": [0.6, 0.8, 0.0, 0.0],
    "d": [0.0, 1.0, 0.0, 0.0],
    "e": [-0.6, 0.8, 0.0, 0.0],
    "f": [-1.0, 0.0, 0.0, 0.0],
    "big": [2.0, 0.0, 0.0, 0.0],
    "tie": [0.0, 0.0, 1.0, 0.0],
    "qtie": [0.0, 0.0, 0.6, 0.8],
}
"""Integration geometry (as in shared/reference/integrations.md): unit vectors with cos(q, a..f)
= 1, .8, .6, 0, -.6, -1; ``big`` is 2a; every ``tie*`` text maps to ``tie``."""

META: dict[str, dict[str, Any]] = {
    "a": {"color": "red", "n": 1, "price": 1.5},
    "b": {"color": "blue", "n": 2, "price": 2.5},
    "c": {"color": "red", "n": 3, "price": 3.5},
    "d": {"color": "green", "n": 4, "price": 4.5},
    "e": {"color": "blue", "n": 5, "price": 5.5},
    "f": {"color": "red", "n": 6, "price": 6.5},
}


def unit_vector(text: str) -> list[float]:
    key = last_line(text)
    return list(UNIT["tie" if key.startswith("tie") else key])


def lc_embeddings() -> Any:
    """A LangChain ``Embeddings`` over :data:`UNIT` (keyed on the text's last line)."""
    from langchain_core.embeddings import Embeddings

    class TableEmbeddings(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [unit_vector(t) for t in texts]

        def embed_query(self, text: str) -> list[float]:
            return unit_vector(text)

    return TableEmbeddings()


def li_embedding() -> Any:
    """A LlamaIndex ``BaseEmbedding`` over :data:`UNIT` (keyed on the text's last line)."""
    from llama_index.core.embeddings import BaseEmbedding

    class TableEmbedding(BaseEmbedding):
        def _get_query_embedding(self, query: str) -> list[float]:
            return unit_vector(query)

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return unit_vector(query)

        def _get_text_embedding(self, text: str) -> list[float]:
            return unit_vector(text)

    return TableEmbedding(model_name="table")
