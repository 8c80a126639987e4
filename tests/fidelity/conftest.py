"""Fixtures for the differential suite: both sides of a comparison, ready to load.

Chroma telemetry is switched off here, before chromadb can be imported (environment
variable), and again in the client's Settings (``_engines.ChromaSide``). Engines that are not
installed are skipped by the parametrization marks in ``_params`` with the package named.
"""

from __future__ import annotations

import os

os.environ["ANONYMIZED_TELEMETRY"] = "False"

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ._engines import FakeSide, real_side
from ._milvus import release_milvus


@pytest.fixture(scope="session", autouse=True)
def _milvus_server() -> Iterator[None]:
    """The Milvus Lite server starts on first use (``_milvus.milvus_client``); this stops it
    and removes its files when the session ends."""
    yield
    release_milvus()


@pytest.fixture(scope="session", autouse=True)
def _postgres_stopped_at_the_end() -> Iterator[None]:
    """The in-process PostgreSQL (started by the first pgvector side) stops with the session."""
    yield
    from . import _pg

    _pg.stop()


@pytest.fixture(scope="session", autouse=True)
def lancedb_directory() -> Iterator[None]:
    """The session's LanceDB database (``_lancedb.connection``, created on first use) is
    removed when the session ends: no directory is left behind."""
    yield
    from . import _lancedb

    _lancedb.close()


@pytest.fixture
def sides() -> Iterator[Callable[[str, str, int], tuple[FakeSide, Any]]]:
    """A factory ``sides(engine, metric, dim) -> (fake, real)``; real collections are closed."""
    opened: list[Any] = []

    def make(engine: str, metric: str, dim: int) -> tuple[FakeSide, Any]:
        real = real_side(engine, metric, dim)
        opened.append(real)
        return FakeSide(engine, metric), real

    yield make
    for real in opened:
        real.close()
