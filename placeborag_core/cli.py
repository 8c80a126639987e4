"""The ``placeborag`` command line: ``demo``, ``explain``, ``seed`` and ``check``.

Every command is a thin shell over library functions a test could call directly. Exit status:
0 done; 1 drift found (``check``), naming the digest; 2 bad input or usage (a missing file, a
malformed JSONL line or manifest, an invalid option or argument), printed as one line naming the
file and line where there is one, before anything is written. An unexpected error also exits 2,
with its traceback, so that 1 always means drift.
"""

from __future__ import annotations

import argparse
import os
import secrets
import stat
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from placeborag_core._version import __version__
from placeborag_core.corpus.chunking import WordChunker
from placeborag_core.corpus.documents_file import DocumentsFileError, read_documents_jsonl
from placeborag_core.corpus.drift import DriftError, check_drift
from placeborag_core.corpus.manifest import Manifest, ManifestError, build_manifest
from placeborag_core.corpus.seeding import chunk_documents, seed_store
from placeborag_core.embedding.embedder import DEFAULT_DIMENSIONS, FakeEmbedder
from placeborag_core.messages import shown
from placeborag_core.store.vector_store import FakeVectorStore
from placeborag_core.testing.explanation import explain

__all__ = ["main"]

EXIT_OK, EXIT_DRIFT, EXIT_USAGE = 0, 1, 2
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a command whose reader left
# Inputs with at least this many chunks report seeding progress on stderr.
PROGRESS_THRESHOLD = 1000


class _UsageError(Exception):
    """A user-facing error: printed as one line, exits with ``code``."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


def _add_store_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("how the documents are embedded and chunked")
    group.add_argument(
        "--model-name", default="placeborag-hash-v1", help="FakeEmbedder model name (%(default)s)"
    )
    group.add_argument(
        "--dimensions",
        type=int,
        default=DEFAULT_DIMENSIONS,
        help="FakeEmbedder dimensions (%(default)s)",
    )
    group.add_argument("--chunk-size", type=int, default=200, help="words per chunk (%(default)s)")
    group.add_argument(
        "--chunk-overlap", type=int, default=0, help="words shared by neighbours (%(default)s)"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="placeborag",
        description="Deterministic test doubles for the retrieval half of RAG pipelines.",
    )
    parser.add_argument("--version", action="version", version=f"placeborag {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    demo = commands.add_parser(
        "demo",
        help="run the worked example and print what it shows",
        description="Run the worked example: pre- vs post-filtering, score conventions per "
        "profile, an injected fault, prompt budgeting, and the installed adapters.",
    )
    demo.set_defaults(run=_run_demo)

    explain = commands.add_parser(
        "explain",
        help="explain why two texts are near each other",
        description="Split cosine(embed(QUERY), embed(TEXT)) into the shared features behind it.",
    )
    explain.add_argument("query", metavar="QUERY")
    explain.add_argument("text", metavar="TEXT")
    explain.add_argument("--model-name", default="placeborag-hash-v1", help="(%(default)s)")
    explain.add_argument("--dimensions", type=int, default=DEFAULT_DIMENSIONS, help="(%(default)s)")
    explain.set_defaults(run=_run_explain)

    seed = commands.add_parser(
        "seed",
        help="seed a store from DOCS.jsonl and write its manifest",
        description="Chunk and embed DOCS.jsonl (one JSON object per line: id, text, optional "
        "metadata and namespace) into a fresh store, and write the manifest describing it.",
    )
    seed.add_argument("docs", metavar="DOCS.jsonl")
    seed.add_argument("--manifest", required=True, metavar="MANIFEST.json", help="where to write")
    seed.add_argument("--seed-version", default="1", help="recorded in the manifest (%(default)s)")
    seed.add_argument(
        "--no-ids",
        action="store_true",
        help="leave chunk id lists out of the manifest (drift then reports counts only)",
    )
    _add_store_options(seed)
    seed.set_defaults(run=_run_seed)

    check = commands.add_parser(
        "check",
        help="exit 1 if DOCS.jsonl no longer produces MANIFEST.json",
        description="Seed DOCS.jsonl into a fresh store with the given options and compare it "
        "with MANIFEST.json; on drift print which digest differs and exit 1.",
    )
    check.add_argument("docs", metavar="DOCS.jsonl")
    check.add_argument("manifest", metavar="MANIFEST.json")
    _add_store_options(check)
    check.set_defaults(run=_run_check)
    return parser


def _run_demo(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from placeborag_core.demo import run_demo

    run_demo(out)
    return EXIT_OK


def _run_explain(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    embedder = _embedder(args.model_name, args.dimensions)
    print(explain(args.query, args.text, embedder), file=out)
    return EXIT_OK


def _embedder(model_name: str, dimensions: int) -> FakeEmbedder:
    try:
        return FakeEmbedder(model_name=model_name, dimensions=dimensions)
    except (TypeError, ValueError) as error:
        raise _UsageError(f"invalid embedder options: {error}") from None


def _seeded_store(args: argparse.Namespace, err: TextIO) -> FakeVectorStore:
    """Read and validate ``args.docs`` whole, then seed it into a fresh in-memory store."""
    try:
        chunker = WordChunker(size=args.chunk_size, overlap=args.chunk_overlap)
    except ValueError as error:
        raise _UsageError(f"invalid chunker options: {error}") from None
    embedder = _embedder(args.model_name, args.dimensions)
    try:
        tenants = read_documents_jsonl(args.docs)
        totals = {name: len(chunk_documents(docs, chunker)) for name, docs in tenants.items()}
    except DocumentsFileError as error:
        raise _UsageError(str(error)) from None
    except (TypeError, ValueError) as error:
        raise _UsageError(f"{args.docs}: {error}") from None
    show_progress = sum(totals.values()) >= PROGRESS_THRESHOLD
    store = FakeVectorStore(embedder=embedder)
    for name in sorted(tenants):

        def progress(done: int, total: int, name: str = name) -> None:
            print(f"placeborag: namespace {shown(name)}: {done}/{total} chunks embedded", file=err)

        seed_store(
            store,
            tenants[name],
            namespace=name,
            chunker=chunker,
            progress=progress if show_progress else None,
        )
    return store


def _write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename, so a reader never sees
    half a manifest. The file keeps the mode of the file it replaces, or else gets the mode a
    plain ``open()`` gives (0o666 less the umask, applied by the kernel: reading the umask would
    mean setting it, for a moment, for every thread)."""
    directory = path.parent if str(path.parent) else Path()
    try:
        kept: int | None = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        kept = None
    temporary = directory / f".{path.name}.{secrets.token_hex(8)}.tmp"
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        if kept is not None:
            os.chmod(temporary, kept)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _run_seed(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    target = Path(args.manifest)
    if not target.parent.is_dir():
        missing = str(target.parent)
        raise _UsageError(f"{target}: cannot write: directory {shown(missing)} does not exist")
    if target.is_dir():
        raise _UsageError(f"{target}: cannot write: is a directory (give the manifest's file path)")
    store = _seeded_store(args, err)
    try:
        manifest = build_manifest(store, seed_version=args.seed_version, record_ids=not args.no_ids)
    except ValueError as error:
        raise _UsageError(str(error)) from None
    try:
        _write_atomically(target, manifest.to_json())
    except OSError as error:
        raise _UsageError(f"{target}: cannot write: {error.strerror or error}") from None
    for name, entry in manifest.namespaces.items():
        print(f"namespace {shown(name)}: {entry.chunk_count} chunks", file=out)
    print(f"wrote {target}", file=out)
    return EXIT_OK


def _run_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        manifest = Manifest.load(args.manifest)
    except ManifestError as error:
        raise _UsageError(str(error)) from None
    except OSError as error:
        raise _UsageError(f"{args.manifest}: cannot read: {error.strerror or error}") from None
    store = _seeded_store(args, err)
    try:
        check_drift(store, manifest)
    except DriftError as error:
        print(f"{args.manifest}: {error}", file=out)
        return EXIT_DRIFT
    print(f"{args.manifest}: no drift ({len(manifest.namespaces)} namespaces)", file=out)
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status (the console script exits with it)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version and usage errors (argparse printed them)
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    run: Callable[[argparse.Namespace, TextIO, TextIO], int] = args.run
    try:
        return run(args, sys.stdout, sys.stderr)
    except _UsageError as failure:
        print(f"placeborag: error: {failure}", file=sys.stderr)
        return failure.code
    except (TypeError, ValueError) as error:  # bad input that reached a library check
        print(f"placeborag: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader left (`placeborag demo | head`): stop quietly
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except Exception:  # a bug: never exit 1, which means drift
        print("placeborag: internal error (please report it):", file=sys.stderr)
        traceback.print_exc(file=sys.stderr)
        return EXIT_USAGE


def _silence_stdout() -> None:
    """Point stdout at devnull, so the interpreter's final flush of a closed pipe raises no
    second ``BrokenPipeError`` at exit (the recipe of Python's ``signal`` documentation)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
