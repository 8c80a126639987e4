"""Run every probe script under ``tests/fidelity/probes/`` and require it to pass.

Each probe re-measures, against the real engine or integration in process, the facts that
``docs/engines/*.md`` and ``docs/integrations/*.md`` cite, and exits non-zero naming any fact
that no longer holds. Running them here turns an upgrade of chromadb, qdrant-client, faiss-cpu or
an integration that changes a documented behaviour into a failing test instead of a stale
document. They run in subprocesses, as a user would run them, so that no engine state (Chroma's
process-wide client, faiss's SIMD level) leaks between probes or into the suite.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.fidelity

# The whole module needs the fidelity extra; each missing package skips it with its name.
# Looked up, not imported: importing pgserver here would fix its lock file's directory before
# ``_pg`` points XDG_RUNTIME_DIR into the server's own temporary directory.
for _module in (
    "chromadb",
    "qdrant_client",
    "faiss",
    "langchain_chroma",
    "langchain_qdrant",
    "langchain_community",
    "llama_index.vector_stores.chroma",
    "llama_index.vector_stores.qdrant",
    "pgserver",
    "psycopg",
):
    if importlib.util.find_spec(_module) is None:
        pytest.skip(
            f"{_module} is missing (pip install 'placeborag[fidelity,all]')",
            allow_module_level=True,
        )

PROBES = Path(__file__).parent / "probes"
SKIPPED = 77
"""The exit status of a probe whose engine is not installed (``probes/_probe.py`` ``require``)."""
SCRIPTS = sorted(p for p in PROBES.glob("*.py") if not p.name.startswith("_"))
DOCS = Path(__file__).parents[2] / "docs"


def documented_facts() -> set[str]:
    """The fact ids the documents define (each has an ``<a id="...">`` anchor)."""
    found: set[str] = set()
    for document in DOCS.glob("*/*.md"):
        found.update(re.findall(r'<a id="([a-z0-9-]+)"></a>', document.read_text()))
    return found


def test_there_are_probes() -> None:
    assert len(SCRIPTS) >= 20, [p.name for p in SCRIPTS]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_probe_facts_hold(script: Path) -> None:
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False", "PYTHONWARNINGS": "ignore"}
    if "pgvector" in script.stem:
        from . import _pg

        env["PLACEBORAG_PROBE_PG_URI"] = _pg.uri()  # the session's server, a schema each
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    if done.returncode == SKIPPED:
        pytest.skip(done.stdout.strip().splitlines()[-1])
    failed = [line for line in done.stdout.splitlines() if "] FAILED:" in line]
    assert done.returncode == 0, (
        f"{script.name} exited {done.returncode}; facts that no longer hold:\n"
        + "\n".join(failed)
        + f"\n--- stdout ---\n{done.stdout}\n--- stderr ---\n{done.stderr}"
    )
    assert "all facts hold" in done.stdout
    reported = set(re.findall(r"^\[([a-z0-9-]+)\] ok:", done.stdout, flags=re.MULTILINE))
    assert reported, f"{script.name} reported no fact"
    undocumented = reported - documented_facts()
    assert not undocumented, f"{script.name} checks facts no document defines: {undocumented}"
