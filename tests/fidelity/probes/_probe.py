"""The conventions of the probe scripts: record facts, print them, exit non-zero on a broken one.

A probe checks every fact it covers (so one run reports all that changed), prints one line per
fact, ``[fact-id] ok: what was observed`` or ``[fact-id] FAILED: ...``, and ends with
``all facts hold`` (:meth:`Facts.done` or :func:`finish`), or exits 1 naming the broken facts.
The fact ids are the ones the documents under ``docs/engines/`` and ``docs/integrations/`` define
(an ``<a id="...">`` anchor each); ``tests/fidelity/test_probes.py`` runs every probe and checks
both. A probe whose engine is not installed exits with :data:`SKIPPED` (:func:`require`), which
the test reports as a skip.

Two ways to state a fact, one record: a :class:`Facts` object whose ``check`` takes the verdict
(``holds``) and what was observed, or the module functions :func:`check` (``got`` against
``want``), :func:`check_error` and :func:`check_rows` (a table of cases as one fact). Only
in-process engines are touched, so Chroma's telemetry is switched off here, before any probe
imports chromadb. Geometry and engine helpers: ``_probe_geometry.py`` (the unit-vector table of the
newer integration probes) and ``_probe_pg.py`` (PostgreSQL with pgvector).
"""

from __future__ import annotations

import contextlib
import importlib.util
import math
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

__all__ = [
    "SKIPPED",
    "Facts",
    "check",
    "check_error",
    "check_rows",
    "chroma_client",
    "error_of",
    "error_start",
    "finish",
    "name",
    "raised",
    "require",
    "scratch_dir",
]

os.environ["ANONYMIZED_TELEMETRY"] = "False"

SKIPPED = 77
"""The exit status of a probe whose engine is not installed (automake's "skipped")."""

_failed: list[str] = []
"""The facts of this process that no longer hold."""


def _record(fact_id: str, holds: bool, observed: object) -> None:
    print(f"[{fact_id}] {'ok' if holds else 'FAILED'}: {observed}")
    if not holds:
        _failed.append(fact_id)


def finish(started: float | None = None) -> None:
    """Print ``all facts hold`` (with the run time since ``started``, if given), or exit 1
    naming the facts that failed."""
    took = "" if started is None else f" ({time.perf_counter() - started:.1f} s)"
    if _failed:
        print(f"FAILED facts: {', '.join(_failed)}{took}", file=sys.stderr)
        sys.exit(1)
    print(f"all facts hold{took}")


class Facts:
    """The checks of one probe, announced with the versions they were measured on."""

    def __init__(self, title: str, *distributions: str) -> None:
        versions = ", ".join(f"{d} {metadata.version(d)}" for d in distributions)
        print(f"# {title} ({versions})")

    def check(self, fact_id: str, holds: bool, observed: object) -> None:
        """Record one fact: ``holds`` says whether the engine still behaves as documented."""
        _record(fact_id, holds, observed)

    def note(self, text: str) -> None:
        """Print an observation that is reported but not asserted (e.g. nondeterministic)."""
        print(f"  note: {text}")

    def done(self) -> None:
        """Exit 1, naming the broken facts, if any check failed."""
        finish()


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def check(fact_id: str, got: Any, want: Any) -> None:
    """Record a fact that holds when ``got == want`` (floats exactly, NaN equal to NaN)."""
    holds = _equal(got, want)
    _record(fact_id, holds, repr(got) if holds else f"got {got!r}, expected {want!r}")


def check_rows(fact_id: str, rows: Sequence[tuple[str, Any, Any]]) -> None:
    """Record a table of cases ``(label, got, want)`` as one fact: it holds when every row does;
    the FAILED line lists the rows that changed."""
    changed = [f"{label}: got {got!r}, expected {want!r}" for label, got, want in rows
               if not _equal(got, want)]  # fmt: skip
    if changed:
        _record(fact_id, False, "; ".join(changed))
    else:
        _record(fact_id, True, f"{len(rows)} cases as documented")


def error_of(fn: Callable[[], Any], lines: int = 1) -> tuple[str, str] | None:
    """(exception class name, first ``lines`` lines of its message) or None when fn succeeds."""
    try:
        fn()
    except Exception as error:  # the probes record whatever the engine raises
        text = "\n".join(str(error).strip().splitlines()[:lines])
        return type(error).__name__, text
    return None


def error_start(got: Any, prefix: str) -> Any:
    """An :func:`error_of` result with its message cut to the length of ``prefix`` (anything
    else, such as a call's result, unchanged): what a check of a message's start compares."""
    return (got[0], got[1][: len(prefix)]) if isinstance(got, tuple) else got


def check_error(fact_id: str, err: tuple[str, str] | None, cls: str, prefix: str) -> None:
    """Check an :func:`error_of` result: its class name and the start of its message."""
    check(fact_id, error_start(err, prefix), (cls, prefix))


def name(kind: type | None) -> str | None:
    """The name of an exception class, or None (what :func:`raised` gives when nothing was)."""
    return kind.__name__ if kind else None


def raised(call: Callable[[], Any]) -> tuple[type[BaseException] | None, str]:
    """The exception type and message ``call`` raises, or ``(None, repr(result))``."""
    try:
        result = call()
    except Exception as error:  # the probes record whatever the engine raises
        return type(error), str(error)
    return None, repr(result)


def require(module: str, distribution: str) -> None:
    """Exit with :data:`SKIPPED`, saying what to install, when ``module`` cannot be imported."""
    if importlib.util.find_spec(module) is None:
        print(f"skipped: {distribution} is not installed")
        sys.exit(SKIPPED)


@contextlib.contextmanager
def scratch_dir(prefix: str) -> Iterator[Path]:
    """A temporary directory, removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix=f"placeborag-{prefix}-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def chroma_client() -> Any:
    """An in-process Chroma client (EphemeralClient) with telemetry off."""
    import chromadb
    from chromadb.config import Settings

    return chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
