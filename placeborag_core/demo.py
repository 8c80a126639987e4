"""``placeborag demo``: the worked example's retrieval half, printed as tables.

It shows, on a six-document knowledge base, what the library makes testable: post-filtering that
quietly returns nothing where pre-filtering finds both answers; the same ranking reported as
similarities by some backends and distances by others; declared faults (lost recall, an injected
timeout, a write not yet visible); idempotent seeding and the drift check catching a swapped
embedding model; and, when installed, the same store reached through the LangChain and LlamaIndex
adapters. Only the core is needed; the adapter section says how to install what is missing.
The adapters contribute their rows through the ``placeborag.demo`` entry-point group, so the core
names none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import entry_points
from typing import Any, TextIO

from placeborag_core.backends import PROFILES
from placeborag_core.corpus.drift import DriftError, check_drift
from placeborag_core.corpus.manifest import build_manifest
from placeborag_core.corpus.seeding import Document, seed_store
from placeborag_core.embedding.embedder import FakeEmbedder
from placeborag_core.errors import RetrievalError
from placeborag_core.messages import shown
from placeborag_core.records import Match
from placeborag_core.store.vector_store import FakeVectorStore

__all__ = ["DEMO_ENTRY_POINTS", "KNOWLEDGE_BASE", "QUERY", "format_table", "run_demo"]

DEMO_ENTRY_POINTS = "placeborag.demo"

KNOWLEDGE_BASE = (
    Document("en-1", "Our refund policy allows returns within 30 days.", {"lang": "en"}),
    Document("en-2", "Refund policy exceptions apply to sale items.", {"lang": "en"}),
    Document("en-3", "How to request a refund under the refund policy.", {"lang": "en"}),
    Document("en-4", "The refund policy for digital purchases.", {"lang": "en"}),
    Document("hu-1", "Visszatérítési szabályzat: harminc napon belül.", {"lang": "hu"}),
    Document("hu-2", "Hogyan kérek vissza pénzt vásárlás után?", {"lang": "hu"}),
)
QUERY = "refund policy"


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Render rows as a plain-text table with a header rule (every cell via ``str``)."""
    cells = [[str(cell) for cell in row] for row in [headers, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in cells
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def _store(**options: Any) -> FakeVectorStore:
    """A store seeded with the knowledge base: one chunk per document, content-derived ids.

    A profile whose ids are integers (``milvus_int64``) cannot hold the UUID chunk ids; there
    each document is one record numbered by its position, with its id in ``doc_id``."""
    store = FakeVectorStore(embedder=FakeEmbedder(), **options)
    if store.profile.ids.record_canonical is not None and (
        store.profile.ids.record_canonical("00000000-0000-0000-0000-000000000000") is None
    ):
        store.upsert_many(
            (str(i), doc.text, {**doc.metadata, "doc_id": doc.id})
            for i, doc in enumerate(KNOWLEDGE_BASE)
        )
        return store
    seed_store(store, KNOWLEDGE_BASE)
    return store


def _doc_ids(matches: Sequence[Match]) -> list[str]:
    return [str(match.metadata.get("doc_id", match.id)) for match in matches]


def _section(out: TextIO, title: str, explanation: str) -> None:
    print(f"\n== {title} ==", file=out)
    print(explanation, file=out)


def _filtering(out: TextIO) -> None:
    _section(
        out,
        "Pre- vs post-filtering",
        f"query {shown(QUERY)}, k=2, where={{'lang': 'hu'}}: post-filtering cuts the top 2 first, "
        "then filters, and both top hits are English.",
    )
    rows = []
    for mode in ("pre", "post"):
        matches = _store(filter_mode=mode).query(QUERY, k=2, where={"lang": "hu"})
        rows.append((mode, len(matches), ", ".join(_doc_ids(matches)) or "(nothing)"))
    print(format_table(("filter_mode", "results", "ids"), rows), file=out)


def _profiles(out: TextIO) -> None:
    _section(
        out,
        "Score conventions per profile",
        f"query {shown(QUERY)}, k=3: one ranking everywhere; the numbers and their direction "
        f"differ.",
    )
    rows = []
    for name, profile in PROFILES.items():
        matches = _store(profile=name).query(QUERY, k=3)
        scores = ", ".join(
            f"{d}={m.score:.3f}" for d, m in zip(_doc_ids(matches), matches, strict=False)
        )
        direction = "higher" if profile.higher_is_better else "lower"
        rows.append((name, profile.metric, f"{direction} is better", scores))
    print(
        format_table(("profile", "metric", "direction", "top 3 (reported score)"), rows), file=out
    )


def _faults(out: TextIO) -> None:
    _section(out, "Declared faults", "each happens identically on every run.")
    full = _doc_ids(_store().query(QUERY, k=6))
    lossy = _doc_ids(_store(recall=0.5).query(QUERY, k=6))
    lost = [record_id for record_id in full if record_id not in lossy]
    rows: list[tuple[str, str]] = [
        ("recall=0.5", f"{len(lossy)} of {len(full)} returned; lost: {', '.join(lost) or '-'}")
    ]
    failing = _store()
    failing.fail_next_query()
    try:
        failing.query(QUERY)
        outcome = "no error (unexpected)"
    except RetrievalError as error:
        after = len(failing.query(QUERY))
        outcome = f"{type(error).__name__} raised; the next query works ({after} results)"
    rows.append(("fail_next_query()", outcome))
    stale = FakeVectorStore(embedder=FakeEmbedder(), visibility="manual")
    seed_store(stale, KNOWLEDGE_BASE[:1])
    before = len(stale.query(QUERY))
    stale.refresh()
    rows.append(
        (
            "visibility='manual'",
            f"{before} results before refresh(), {len(stale.query(QUERY))} after",
        )
    )
    print(format_table(("fault", "what happened"), rows), file=out)


def _seeding(out: TextIO) -> None:
    _section(
        out,
        "Idempotent seeding and the drift check",
        "seed twice, then rebuild the index with another embedding model.",
    )
    store = FakeVectorStore(embedder=FakeEmbedder())
    first = seed_store(store, KNOWLEDGE_BASE, namespace="acme")
    second = seed_store(store, KNOWLEDGE_BASE, namespace="acme")
    rows = [
        (run, report.upserted, report.unchanged, report.deleted)
        for run, report in (("first run", first), ("second run", second))
    ]
    print(format_table(("seed", "upserted", "unchanged", "deleted"), rows), file=out)
    manifest = build_manifest(store)
    swapped = FakeVectorStore(embedder=FakeEmbedder(model_name="text-embedding-3-large"))
    seed_store(swapped, KNOWLEDGE_BASE, namespace="acme")
    try:
        check_drift(swapped, manifest)
        print("drift check: passed (unexpected)", file=out)
    except DriftError as error:
        print(f"drift check on the rebuilt index: {error}", file=out)


def _adapter_rows() -> list[tuple[str, str, str]]:
    """Rows from every adapter declared in the ``placeborag.demo`` entry-point group (name: the
    framework, value: a function returning rows, extras: what it needs installed)."""
    rows: list[tuple[str, str, str]] = []
    for entry in sorted(entry_points(group=DEMO_ENTRY_POINTS), key=lambda e: e.name):
        try:
            demo_rows = entry.load()
        except ImportError:
            extras = ",".join(entry.extras)
            rows.append((entry.name, "not installed", f"pip install 'placeborag[{extras}]'"))
            continue
        rows.extend(demo_rows())
    return rows


def _adapters(out: TextIO) -> None:
    _section(
        out,
        "Framework adapters",
        f"query {shown(QUERY)}, k=2 through each framework: each reports what its real integration "
        "reports (LangChain Chroma: a distance; LlamaIndex Chroma: exp(-distance)).",
    )
    rows = _adapter_rows()
    print(format_table(("framework", "store", "top 2 (reported score)"), rows), file=out)


def run_demo(out: TextIO) -> None:
    """Print every section of the demo to ``out``."""
    print("placeborag demo: deterministic retrieval, six documents, one query", file=out)
    _filtering(out)
    _profiles(out)
    _faults(out)
    _seeding(out)
    _adapters(out)
