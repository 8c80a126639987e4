"""Malformed input to the core's public surface: a documented error, nothing changed.

Each test replaces one argument of a valid call with generated junk (see ``_junk.py``) and asserts
that the call either works (some junk is a valid value for some parameters) or raises a
documented error type with a message, never an internal exception, and leaves the store exactly
as it was. Hypothesis runs derandomised (tests/conftest.py): every run sees the same cases.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from placeborag_core import (
    PROFILES,
    Document,
    FakeEmbedder,
    FakeVectorStore,
    Manifest,
    WordChunker,
    assert_top_k,
    build_manifest,
    check_drift,
    chunk_documents,
    cosine_similarity,
    explain,
    read_documents_jsonl,
    route_options,
    seed_namespaces,
    seed_store,
)
from placeborag_core.cli import main

from ._junk import JUNK, judge

EXAMPLES = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
EMBEDDER = FakeEmbedder(dimensions=16)


def _store(profile: str = "default") -> FakeVectorStore:
    store = FakeVectorStore(embedder=EMBEDDER, profile=profile)
    store.upsert_many(
        [("1", "refund policy", {"lang": "en", "n": 1}), ("2", "shipping times", {"lang": "hu"})]
    )
    store.upsert("3", "vector only", {"lang": "de"}, namespace="other")
    return store


STORE_OPTIONS = [
    "embedder",
    "profile",
    "metric",
    "filter_mode",
    "recall",
    "visibility",
    "orphaned_ids",
]
EMBEDDER_OPTIONS = ["model_name", "dimensions", "clusters", "cluster_match", "cluster_spread"]


@EXAMPLES
@given(option=st.sampled_from(STORE_OPTIONS), junk=JUNK)
def test_store_constructor(option: str, junk: Any) -> None:
    judge(lambda: FakeVectorStore(**{option: junk}))


@EXAMPLES
@given(option=st.sampled_from(EMBEDDER_OPTIONS), junk=JUNK)
def test_embedder_constructor(option: str, junk: Any) -> None:
    judge(lambda: FakeEmbedder(**{option: junk}))


WRITES = [
    lambda s, j: s.upsert(j, "text"),
    lambda s, j: s.upsert("new", j),
    lambda s, j: s.upsert("new", "text", j),
    lambda s, j: s.upsert("new", None, vector=j),
    lambda s, j: s.upsert("new", "text", namespace=j),
    lambda s, j: s.upsert_many(j),
    lambda s, j: s.upsert_many([("ok", "fine"), j]),
    lambda s, j: s.upsert_many([("ok", "fine"), ("new", "text", {"key": j})]),
    lambda s, j: s.delete(j),
    lambda s, j: s.delete(["1"], where=j),
    lambda s, j: s.delete(where_document=j),
    lambda s, j: s.fail_next_query(j),
    lambda s, j: s.fail_next_query(times=j),
]


@EXAMPLES
@given(
    profile=st.sampled_from(list(PROFILES)),
    write=st.sampled_from(range(len(WRITES))),
    junk=JUNK,
)
def test_writes(profile: str, write: int, junk: Any) -> None:
    store = _store(profile)
    error = judge(lambda: WRITES[write](store, junk), store)
    if error is None:
        return  # the junk was a valid value here: nothing to judge
    assert store.count() == 2


def _batch_then_fail(store: FakeVectorStore, junk: Any) -> None:
    with store.batch() as batch:
        batch.upsert_many([("b1", "first write")], namespace="b")
        batch.delete(["1"])
        batch.upsert_many([("b2", "second write", junk)], namespace="b")


@EXAMPLES
@given(junk=JUNK)
def test_a_batch_is_all_or_nothing(junk: Any) -> None:
    store = _store()
    if judge(lambda: _batch_then_fail(store, junk), store) is not None:
        assert "b" not in store.namespaces()


READS = [
    lambda s, j: s.query(j),
    lambda s, j: s.query("refund", k=j),
    lambda s, j: s.query("refund", where=j),
    lambda s, j: s.query("refund", ids=j),
    lambda s, j: s.query("refund", fetch_k=j),
    lambda s, j: s.query("refund", namespace=j),
    lambda s, j: s.query("refund", where_document=j),
    lambda s, j: s.select(j),
    lambda s, j: s.select(limit=j),
    lambda s, j: s.trace(j),
    lambda s, j: s.trace("refund", where=j),
    lambda s, j: s.max_marginal_relevance("refund", lambda_mult=j),
    lambda s, j: s.max_marginal_relevance("refund", redundancy=j),
    lambda s, j: s.max_marginal_relevance("refund", order=j),
    lambda s, j: s.get(j),
    lambda s, j: s.ids(j),
    lambda s, j: s.count(j),
    lambda s, j: s.snapshot(j),
]


@EXAMPLES
@given(
    profile=st.sampled_from(list(PROFILES)),
    read=st.sampled_from(range(len(READS))),
    junk=JUNK,
)
def test_reads(profile: str, read: int, junk: Any) -> None:
    store = _store(profile)
    judge(lambda: READS[read](store, junk), store)


CORPUS = [
    seed_store,
    lambda s, j: seed_store(s, [Document("d", "text", j)]),
    lambda s, j: seed_store(s, [Document(j, "text")]),
    lambda s, j: seed_store(s, [Document("d", j)]),
    lambda s, j: seed_store(s, [Document("d", "text")], namespace=j),
    lambda s, j: seed_store(s, [Document("d", "text")], batch_size=j),
    seed_namespaces,
    lambda s, j: seed_namespaces(s, {"a": [Document("d", "text")], "b": j}),
    lambda s, j: build_manifest(s, seed_version=j),
    lambda s, j: build_manifest(s, namespaces=j),
    check_drift,
    lambda s, j: Manifest.from_dict(j),
    lambda s, j: Manifest.from_json(j),
    lambda s, j: chunk_documents(j),
    lambda s, j: WordChunker(size=j),
    lambda s, j: WordChunker(overlap=j),
]


@EXAMPLES
@given(call=st.sampled_from(range(len(CORPUS))), junk=JUNK)
def test_corpus(call: int, junk: Any) -> None:
    store = _store()
    judge(lambda: CORPUS[call](store, junk), store)


HELPERS = [
    lambda s, j: cosine_similarity(j, [1.0, 0.0]),
    lambda s, j: cosine_similarity([1.0, 0.0], j),
    lambda s, j: explain(j, "refund policy"),
    lambda s, j: explain("refund", j),
    lambda s, j: explain("refund", "policy", j),
    lambda s, j: route_options(j),
    lambda s, j: route_options([{"profile": "chroma"}], extra=j),
    lambda s, j: _failing_is_fine(lambda: assert_top_k(s, j, ["1"])),
    lambda s, j: _failing_is_fine(lambda: assert_top_k(s, "refund", j)),
    lambda s, j: _failing_is_fine(lambda: assert_top_k(s, "refund", ["1"], k=j)),
    lambda s, j: EMBEDDER.embed(j),
    lambda s, j: EMBEDDER.embed_many(j),
    lambda s, j: EMBEDDER.embed_lists(j),
    lambda s, j: EMBEDDER.features(j),
    lambda s, j: _unknown_is_fine(lambda: EMBEDDER.cluster_anchor(j)),
]


def _failing_is_fine(call: Any) -> None:
    """An assertion helper given a valid but wrong expectation fails as an assertion should."""
    message = ""
    try:
        call()
    except AssertionError as failure:
        message = str(failure)
    assert not message or "results" in message or "top-" in message


def _unknown_is_fine(call: Any) -> None:
    """``cluster_anchor`` of a str no cluster has raises KeyError naming the clusters."""
    message = ""
    try:
        call()
    except KeyError as missing:
        message = str(missing)
    assert not message or "declared clusters" in message


@EXAMPLES
@given(call=st.sampled_from(range(len(HELPERS))), junk=JUNK)
def test_helpers(call: int, junk: Any) -> None:
    store = _store()
    judge(lambda: HELPERS[call](store, junk), store)


@pytest.mark.parametrize(
    "line",
    [
        '{"id": "d", "text": "t", "metadata": {"$bad": 1}}',
        '{"id": "d", "text": "\\ud800"}',
        '{"id": "d", "text": "t", "metadata": {"k": ' + "[" * 3000 + "]" * 3000 + "}}",
        '{"id": "d", "text": "t", "metadata": {"n": ' + "9" * 5000 + "}}",
        '{"id": 5, "text": "t"}',
        "[1, 2]",
        "not json",
    ],
)
def test_a_documents_file_names_the_line(tmp_path: Path, line: str) -> None:
    path = tmp_path / "docs.jsonl"
    path.write_text('{"id": "ok", "text": "fine"}\n' + line + "\n", encoding="utf-8")
    error = judge(lambda: read_documents_jsonl(path))
    assert error is not None
    assert f"{path}:2: " in str(error)


@pytest.mark.parametrize(
    "argv",
    [
        ["explain", "\udcff\udcfe", "refund"],
        ["explain", "refund", "policy", "--dimensions", "-3"],
        ["seed", "/no/such/file.jsonl", "--manifest", "/tmp/m.json"],
        ["check", "/no/such/file.jsonl", "/no/such/manifest.json"],
        ["frobnicate"],
    ],
)
def test_the_cli_exits_2_on_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(("placeborag: error:", "usage:"))


def test_the_cli_reads_a_bad_documents_file_as_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text('{"id": "d", "text": "t", "metadata": {"$bad": 1}}\n', encoding="utf-8")
    assert main(["seed", str(docs), "--manifest", str(tmp_path / "m.json")]) == 2
    assert f"{docs}:1: " in capsys.readouterr().err
    manifest = tmp_path / "bad.json"
    manifest.write_bytes(b"\xff\xfe not utf-8")
    docs.write_text('{"id": "d", "text": "t"}\n', encoding="utf-8")
    assert main(["check", str(docs), str(manifest)]) == 2
    assert "not UTF-8" in capsys.readouterr().err
