"""The canned context states carry what each one is about, as plain data."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle

import pytest

from placeborag_core.corpus.seeding import normalise_whitespace
from placeborag_core.records import Match
from placeborag_core.testing.scenarios import (
    CannedChunk,
    ContextState,
    context_states,
    contradictory_chunks,
    instruction_chunk,
    missing_metadata,
    near_duplicates,
    no_chunks,
    weak_chunk,
)


def test_every_state_is_listed_once_by_name() -> None:
    states = context_states()
    assert list(states) == [
        "no_chunks",
        "weak_chunk",
        "contradictory_chunks",
        "near_duplicates",
        "instruction_chunk",
        "missing_metadata",
    ]
    assert all(state.name == name for name, state in states.items())


@pytest.mark.parametrize("state", list(context_states().values()), ids=lambda s: s.name)
def test_states_are_ranked_best_first_with_unique_ids_and_a_stated_expectation(
    state: ContextState,
) -> None:
    scores = [chunk.score for chunk in state.chunks]
    assert scores == sorted(scores, reverse=True)
    assert all(0.0 <= score <= 1.0 for score in scores)
    assert len(set(state.ids)) == len(state.ids)
    assert state.expectation


def test_query_is_configurable() -> None:
    assert {s.query for s in context_states("where is my money?").values()} == {
        "where is my money?"
    }


def test_no_chunks_is_empty() -> None:
    assert no_chunks().chunks == ()
    assert no_chunks().matches() == []


def test_weak_chunk_is_a_single_result_below_its_floor() -> None:
    state = weak_chunk(score=0.2, floor=0.6)
    assert len(state.chunks) == 1
    assert state.score_floor == 0.6
    assert state.chunks[0].score == 0.2
    with pytest.raises(ValueError, match=r"score must be below floor, got score=0\.7, floor=0\.6"):
        weak_chunk(score=0.7, floor=0.6)


def test_contradictory_chunks_differ_in_fact_citation_and_date() -> None:
    first, second = contradictory_chunks().chunks
    assert "5 business days" in first.text
    assert "10 business days" in second.text
    for key in ("doc_id", "url", "updated", "title"):
        assert first.metadata[key] != second.metadata[key]


def test_near_duplicates_are_the_same_paragraph_from_two_documents() -> None:
    first, second, other = near_duplicates().chunks
    assert first.text != second.text
    assert normalise_whitespace(first.text) == normalise_whitespace(second.text)
    assert first.metadata["doc_id"] != second.metadata["doc_id"]
    assert normalise_whitespace(other.text) != normalise_whitespace(first.text)


def test_instruction_chunk_tries_to_give_orders_and_to_escape_its_delimiter() -> None:
    top = instruction_chunk().chunks[0]
    assert "Ignore previous instructions" in top.text
    assert "</document>" in top.text


def test_missing_metadata_lacks_fields_and_has_a_none() -> None:
    chunks = missing_metadata().chunks
    assert "title" not in chunks[0].metadata
    assert "url" not in chunks[1].metadata
    assert chunks[2].metadata["title"] is None
    assert "doc_id" not in chunks[2].metadata


def test_conversions_to_core_match_dicts_and_records() -> None:
    state = contradictory_chunks()
    first = state.chunks[0]
    match = state.matches()[0]
    assert isinstance(match, Match)
    assert (match.id, match.text, match.score, match.similarity) == (
        first.id,
        first.text,
        first.score,
        first.score,
    )
    assert match.metadata == dict(first.metadata)
    assert first.as_dict() == {
        "id": first.id,
        "text": first.text,
        "score": first.score,
        "metadata": dict(first.metadata),
    }
    assert state.records()[0] == (first.id, first.text, dict(first.metadata))


def test_states_are_immutable_and_conversions_are_copies() -> None:
    chunk = CannedChunk("a", "text", 0.5, {"k": "v"})
    with pytest.raises(TypeError):
        chunk.metadata["k"] = "changed"  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        chunk.score = 1.0  # type: ignore[misc]
    copy = chunk.as_match().metadata
    copy["k"] = "changed"
    assert chunk.metadata["k"] == "v"


def test_builders_return_equal_fresh_values() -> None:
    assert missing_metadata() == missing_metadata()


@pytest.mark.parametrize("name", sorted(context_states()))
def test_states_pickle_deep_copy_and_dump_as_plain_data(name: str) -> None:
    state = context_states()[name]
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) == state
    for chunk in state.chunks:
        assert json.loads(json.dumps(chunk.metadata)) == dict(chunk.metadata)
        assert dataclasses.asdict(chunk) == chunk.as_dict()


def test_copies_of_the_metadata_stay_read_only() -> None:
    chunk = CannedChunk("a", "text", 0.5, {"k": "v"})
    for metadata in (
        pickle.loads(pickle.dumps(chunk)).metadata,
        copy.deepcopy(chunk).metadata,
        copy.copy(chunk.metadata),
    ):
        assert isinstance(metadata, dict)
        with pytest.raises(TypeError, match="read-only; copy it with dict"):
            metadata["k"] = "changed"
        with pytest.raises(TypeError, match="read-only"):
            metadata.update(k=1)
        with pytest.raises(TypeError, match="read-only"):
            metadata.pop("k")
        with pytest.raises(TypeError, match="read-only"):
            del metadata["k"]
    assert chunk.metadata == {"k": "v"}
    assert dict(chunk.metadata) | {"k": 1} == {"k": 1}
