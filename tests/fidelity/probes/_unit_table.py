"""Helpers of the integration probes measured on a unit-vector table (LanceDB's LangChain and
LlamaIndex stores, LlamaIndex's FAISS store), in the conventions of ``_probe.py``: each fact is
printed as ``[fact-id] ok: observed`` or ``[fact-id] FAILED: ...``, and :func:`finish` ends with
``all facts hold`` or exits 1.

The geometry (as in ``docs/integrations/new_integrations.md``): 4-d unit vectors, the query "q"
equal to "a", cos(q, a..f) = 1, .8, .6, 0, -.6, -1; the embedders look a text's last line up in
:data:`UNIT` (LlamaIndex prefixes the metadata lines), so no model is involved.
"""

from __future__ import annotations

import contextlib
import math
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

_failures: list[str] = []

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
"""Unit vectors with cos(q, a..f) = 1, .8, .6, 0, -.6, -1; ``big`` is 2a; every ``tie*`` text
maps to ``tie``."""

META: dict[str, dict[str, Any]] = {
    "a": {"color": "red", "n": 1, "price": 1.5},
    "b": {"color": "blue", "n": 2, "price": 2.5},
    "c": {"color": "red", "n": 3, "price": 3.5},
    "d": {"color": "green", "n": 4, "price": 4.5},
    "e": {"color": "blue", "n": 5, "price": 5.5},
    "f": {"color": "red", "n": 6, "price": 6.5},
}


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def check(fact: str, got: Any, want: Any) -> None:
    """Print a fact; record a failure when ``got != want`` (floats compared exactly)."""
    if _equal(got, want):
        print(f"[{fact}] ok: {got!r}")
    else:
        print(f"[{fact}] FAILED: got {got!r}, expected {want!r}")
        _failures.append(fact)


def check_close(fact: str, got: Sequence[float], want: Sequence[float], tol: float) -> None:
    """Like :func:`check` for float lists, within ``tol``."""
    ok = len(got) == len(want) and all(abs(a - b) <= tol for a, b in zip(got, want, strict=True))
    check(fact, list(got) if ok else (list(got), "not within", tol), list(got) if ok else want)


def error_of(fn: Callable[[], Any], lines: int = 1) -> tuple[str, str] | None:
    """(exception class name, first ``lines`` lines of its message) or None when fn succeeds."""
    try:
        fn()
    except Exception as error:  # the probes record whatever the integration raises
        text = "\n".join(str(error).strip().splitlines()[:lines])
        return type(error).__name__, text
    return None


def check_error(fact: str, err: tuple[str, str] | None, cls: str, prefix: str) -> None:
    """Check an :func:`error_of` result: its class name and the start of its message."""
    got = None if err is None else (err[0], err[1][: len(prefix)])
    check(fact, got, (cls, prefix))


def finish(started: float) -> None:
    """Print the verdict and the run time; exit 1 when a fact failed."""
    took = time.perf_counter() - started
    if _failures:
        print(f"FAILED facts: {', '.join(_failures)} ({took:.1f} s)", file=sys.stderr)
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


def last_line(text: str) -> str:
    """The text an embedder is keyed on (LlamaIndex prefixes metadata lines to the node text)."""
    return text.strip().rsplit("\n", 1)[-1].strip()


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
