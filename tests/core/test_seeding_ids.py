"""Chunk ids are a pure function of what defines a chunk; the word chunker is deterministic."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core.corpus.chunking import Span, WordChunker
from placeborag_core.corpus.seeding import (
    CHUNK_METADATA_KEYS,
    Document,
    chunk_documents,
    chunk_id,
    normalise_whitespace,
    text_digest,
)

BASE = {
    "doc_id": "doc-1",
    "chunker_version": "words/1 size=3 overlap=0",
    "ordinal": 0,
    "start": 0,
    "end": 11,
    "text": "hello world",
}


def _id(**changes: object) -> str:
    return chunk_id(**{**BASE, **changes})  # type: ignore[arg-type]


def test_chunk_id_is_a_stable_dashed_uuid() -> None:
    import uuid

    first = _id()
    assert first == _id()
    assert first == str(uuid.UUID(first))  # the canonical spelling Qdrant also reports


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("doc_id", "doc-2"),
        ("chunker_version", "words/1 size=4 overlap=0"),
        ("ordinal", 1),
        ("start", 1),
        ("end", 12),
        ("text", "hello there"),
    ],
)
def test_every_defining_field_changes_the_id(field: str, value: object) -> None:
    assert _id(**{field: value}) != _id()


def test_white_space_only_changes_keep_the_text_digest_and_the_id() -> None:
    respaced = "  hello \n\t world  "
    assert normalise_whitespace(respaced) == "hello world"
    assert text_digest(respaced) == text_digest("hello world")
    assert _id(text=respaced) == _id()


def test_case_is_not_normalised() -> None:
    assert text_digest("Hello world") != text_digest("hello world")


def test_fields_cannot_bleed_into_each_other() -> None:
    # "a" + "b|c" and "a|b" + "c" would collide under naive concatenation
    assert _id(doc_id="a", chunker_version="b\x1fc") != _id(doc_id="a\x1fb", chunker_version="c")


def test_word_chunker_windows_with_offsets_and_overlap() -> None:
    text = "  a bb ccc\n dd e  f g "
    spans = WordChunker(size=3, overlap=1).split(text)
    assert spans == [
        Span(2, 10, "a bb ccc"),
        Span(7, 16, "ccc\n dd e"),
        Span(15, 21, "e  f g"),
    ]
    assert all(text[s.start : s.end] == s.text for s in spans)


def test_word_chunker_edge_cases() -> None:
    assert WordChunker().split("") == []
    assert WordChunker().split(" \n ") == []
    assert WordChunker(size=2).split("one two") == [Span(0, 7, "one two")]
    assert WordChunker(size=2, overlap=1).version == "words/1 size=2 overlap=1"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"size": 0}, "size must be an int >= 1, got 0"),
        ({"size": True}, "size must be an int >= 1, got True"),
        ({"size": 3, "overlap": 3}, "overlap must be an int with 0 <= overlap < size (3), got 3"),
        ({"overlap": -1}, "overlap must be an int with 0 <= overlap < size (200), got -1"),
    ],
)
def test_word_chunker_rejects_bad_settings(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        WordChunker(**kwargs)


def test_word_chunker_rejects_non_str() -> None:
    with pytest.raises(TypeError, match="text must be a str, got bytes"):
        WordChunker().split(b"abc")  # type: ignore[arg-type]


def test_chunk_documents_ids_metadata_and_order() -> None:
    chunker = WordChunker(size=2)
    docs = [
        Document("d1", "one two three", {"lang": "en"}),
        Document("d2", "four", {}),
    ]
    chunks = chunk_documents(docs, chunker)
    assert [(c.doc_id, c.ordinal, c.text) for c in chunks] == [
        ("d1", 0, "one two"),
        ("d1", 1, "three"),
        ("d2", 0, "four"),
    ]
    first = chunks[0]
    assert first.id == chunk_id(
        "d1", chunker_version=chunker.version, ordinal=0, start=0, end=7, text="one two"
    )
    assert dict(first.metadata) == {
        "lang": "en",
        "doc_id": "d1",
        "chunk_ordinal": 0,
        "chunk_start": 0,
        "chunk_end": 7,
        "chunker_version": "words/1 size=2 overlap=0",
    }
    assert set(CHUNK_METADATA_KEYS) <= set(first.metadata)


def test_rechunking_changes_every_id() -> None:
    docs = [Document("d1", " ".join(f"w{i}" for i in range(12)))]
    old = {c.id for c in chunk_documents(docs, WordChunker(size=4))}
    new = {c.id for c in chunk_documents(docs, WordChunker(size=3))}
    assert old.isdisjoint(new)


@pytest.mark.parametrize(
    ("docs", "error", "message"),
    [
        ([Document("", "x")], ValueError, "documents\\[0\\].id must be a non-empty str"),
        (
            [Document("a", "x"), Document("a", "y")],
            ValueError,
            "document id 'a' appears more than once",
        ),
        ([Document("a", 3)], TypeError, "document 'a': text must be a str, got int"),  # type: ignore[arg-type]
        (
            [Document("a", "x", {"doc_id": "z"})],
            ValueError,
            "metadata keys \\['doc_id'\\] are reserved",
        ),
        ([("a", "x")], TypeError, "documents\\[0\\] must be a Document, got tuple"),
    ],
)
def test_chunk_documents_rejects_bad_documents(
    docs: list[Document], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        chunk_documents(docs)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from("ab \n\t."), max_size=60),
    size=st.integers(1, 6),
    overlap_fraction=st.floats(0, 0.99),
)
def test_word_chunker_spans_are_exact_bounded_and_cover_every_word(
    text: str, size: int, overlap_fraction: float
) -> None:
    overlap = int(overlap_fraction * size)
    spans = WordChunker(size=size, overlap=overlap).split(text)
    assert all(text[s.start : s.end] == s.text for s in spans)
    assert all(1 <= len(s.text.split()) <= size for s in spans)
    assert all(s.text == s.text.strip() for s in spans)
    covered = {w for s in spans for w in range(s.start, s.end)}
    for match in re.finditer(r"\S+", text):
        assert set(range(match.start(), match.end())) <= covered
    assert [s.start for s in spans] == sorted({s.start for s in spans})
