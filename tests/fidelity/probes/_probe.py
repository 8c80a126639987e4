"""Shared helpers of the probe scripts: record facts, print them, exit non-zero on a broken one.

A probe checks every fact it covers (so one run reports all that changed), prints one line per
fact, ``[fact-id] ok: what was observed`` or ``[fact-id] FAILED: ...``, and ends with
:meth:`Facts.done`, which exits 1 when any fact failed. The fact ids are the ones the documents
under ``docs/engines/`` and ``docs/integrations/`` use. Only in-process engines are touched, so
Chroma's telemetry is switched off here, before any probe imports chromadb.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from importlib import metadata
from typing import Any

os.environ["ANONYMIZED_TELEMETRY"] = "False"


class Facts:
    """Collects the checks of one probe."""

    def __init__(self, title: str, *distributions: str) -> None:
        self.failed: list[str] = []
        versions = ", ".join(f"{d} {metadata.version(d)}" for d in distributions)
        print(f"# {title} ({versions})")

    def check(self, fact_id: str, holds: bool, observed: object) -> None:
        """Record one fact: ``holds`` says whether the engine still behaves as documented."""
        print(f"[{fact_id}] {'ok' if holds else 'FAILED'}: {observed}")
        if not holds:
            self.failed.append(fact_id)

    def note(self, text: str) -> None:
        """Print an observation that is reported but not asserted (e.g. nondeterministic)."""
        print(f"  note: {text}")

    def done(self) -> None:
        """Exit 1, naming the broken facts, if any check failed."""
        if self.failed:
            print(f"FAILED facts: {', '.join(self.failed)}", file=sys.stderr)
            sys.exit(1)
        print("all facts hold")


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


def chroma_client() -> Any:
    """An in-process Chroma client (EphemeralClient) with telemetry off."""
    import chromadb
    from chromadb.config import Settings

    return chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
