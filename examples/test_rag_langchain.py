"""Tests for the worked example, LangChain flavour (skipped when LangChain is not installed)."""

from __future__ import annotations

import pytest

pytest.importorskip("langchain_core", reason="the LangChain flavour needs placeborag[langchain]")

from rag_langchain import build_pipeline, from_document, index, make_store, retriever_of
from rag_prompt import NO_CONTEXT, TRUNCATION_MARKER, FakeLLM, RagPipeline, count_tokens

from placeborag_core import (
    CannedChunk,
    ContextState,
    DriftError,
    assert_tenant_isolation,
    build_manifest,
    check_drift,
    context_states,
)
from placeborag_langchain import CannedRetriever

QUESTION = "How long do refunds take?"
STATES = context_states(QUESTION)


def canned(state: ContextState, **pipeline: object) -> RagPipeline:
    """The seam, mocked the LangChain way: a retriever that returns the state's chunks."""
    retriever = CannedRetriever.from_context_state(state)  # scores land in metadata["score"]
    return RagPipeline(
        retrieve=retriever_of(retriever),
        llm=FakeLLM(),
        score_floor=state.score_floor,
        **pipeline,  # type: ignore[arg-type]
    )


# --- above the seam ---------------------------------------------------------------------------


def test_faiss_post_filtering_over_fetch_k_returns_nothing() -> None:
    where = {"lang": "hu"}
    chroma = build_pipeline(make_store("chroma"), filter=where).answer("refund policy")
    assert len(chroma.prompt.used) == 1  # Chroma filters before the top-k cut
    # LangChain's FAISS fetches fetch_k candidates, then filters: all four are English
    faiss = build_pipeline(make_store("faiss"), filter=where, fetch_k=4).answer("refund policy")
    assert faiss.prompt.used == ()
    assert NO_CONTEXT in faiss.prompt.text


def test_a_swapped_embedding_model_is_caught_through_the_adapter() -> None:
    store = make_store()
    manifest = build_manifest(store)  # the adapter exposes .core_store; all helpers accept it
    check_drift(store, manifest)
    with pytest.raises(DriftError, match="vector_digest differs"):
        check_drift(make_store(model_name="text-embedding-3-large"), manifest)


def test_reindexing_is_idempotent_and_tenants_are_walls() -> None:
    store = make_store()
    assert index(store).changed is False
    index(store, namespace="globex")
    assert_tenant_isolation(store)


@pytest.mark.parametrize("profile", ["chroma", "faiss", "qdrant"])
def test_score_direction_follows_the_integration(profile: str) -> None:
    baseline = build_pipeline(make_store("default")).answer(QUESTION).prompt
    prompt = build_pipeline(make_store(profile)).answer(QUESTION).prompt
    # Chroma and FAISS report distances, Qdrant and the default similarities: same prompt
    assert prompt.used == baseline.used


def test_budget_drops_the_bottom_of_the_real_ranking() -> None:
    store = make_store()
    ranked = [doc.id for doc, _ in store.similarity_search_with_score(QUESTION, k=4)]
    texts = {doc.id: doc.page_content for doc in store.similarity_search(QUESTION, k=4)}
    budget = sum(count_tokens(texts[i]) for i in ranked[:2])  # room for exactly the top two
    prompt = build_pipeline(store, budget_tokens=budget).answer(QUESTION).prompt
    assert list(prompt.used) == ranked[:2]
    assert list(prompt.dropped) == ranked[2:]


def test_a_chunk_larger_than_the_budget_is_truncated_not_dropped() -> None:
    prompt = build_pipeline(make_store(), budget_tokens=3).answer(QUESTION).prompt
    assert len(prompt.used) == 1
    assert prompt.truncated == prompt.used[0]
    assert TRUNCATION_MARKER in prompt.text


# --- below the seam: canned context states ---------------------------------------------------


def test_no_chunks_takes_the_no_context_branch() -> None:
    answer = canned(STATES["no_chunks"]).answer(QUESTION)
    assert answer.prompt.no_context
    assert answer.text == "I could not find the answer in the knowledge base."


def test_weak_chunk_is_below_the_floor() -> None:
    prompt = canned(STATES["weak_chunk"]).answer(QUESTION).prompt
    assert prompt.below_floor == ("kb-plants-1",)
    assert prompt.no_context


def test_contradictions_survive_and_duplicates_do_not() -> None:
    contradictory = canned(STATES["contradictory_chunks"]).answer(QUESTION).prompt
    assert contradictory.used == ("refunds-2025-1", "refunds-2022-1")
    duplicates = canned(STATES["near_duplicates"]).answer(QUESTION).prompt
    assert duplicates.duplicates == ("faq-7",)
    assert duplicates.used[0] == "refunds-2025-1"


def test_instructions_stay_inside_their_delimiters() -> None:
    prompt = canned(STATES["instruction_chunk"]).answer(QUESTION).prompt
    assert "&lt;/document&gt;" in prompt.text
    assert prompt.text.count("</document>") == len(prompt.used)


def test_equal_scores_are_ordered_by_id() -> None:
    tied = CannedRetriever([CannedChunk("b", "text b", 0.5), CannedChunk("a", "text a", 0.5)])
    prompt = RagPipeline(retrieve=retriever_of(tied), llm=FakeLLM()).answer(QUESTION).prompt
    assert prompt.used == ("a", "b")


@pytest.mark.parametrize("state", list(STATES.values()), ids=lambda s: s.name)
def test_no_prompt_contains_none_or_undefined(state: ContextState) -> None:
    text = canned(state).answer(QUESTION).prompt.text
    assert "None" not in text
    assert "undefined" not in text


def test_canned_documents_convert_with_their_scores() -> None:
    doc = CannedRetriever.from_context_state(STATES["weak_chunk"]).invoke(QUESTION)[0]
    chunk = from_document(doc)
    assert (chunk.id, chunk.score) == ("kb-plants-1", 0.12)
    assert "score" not in chunk.metadata
