"""assert_top_k / assert_top_k_unordered: pass quietly, or fail with a message that explains."""

from __future__ import annotations

from typing import Any

import pytest

from placeborag_core import FakeEmbedder, assert_top_k, assert_top_k_unordered, explain
from placeborag_core.store import FakeVectorStore

KNOWLEDGE_BASE = [
    ("en-1", "our refund policy allows returns within 30 days", "en"),
    ("en-2", "refund policy exceptions for sale items", "en"),
    ("en-3", "how to request a refund under the refund policy", "en"),
    ("en-4", "refund policy for digital purchases", "en"),
    ("hu-1", "pénzvisszatérítési szabályzat harminc napon belül", "hu"),
    ("hu-2", "hogyan kérek vissza pénzt vásárlás után", "hu"),
]
QUERY = "refund policy"


def build(**options: Any) -> FakeVectorStore:
    store = FakeVectorStore(FakeEmbedder(), **options)
    for doc_id, text, lang in KNOWLEDGE_BASE:
        store.upsert(doc_id, text, {"lang": lang})
    return store


def ranking(store: FakeVectorStore, **kwargs: Any) -> list[str]:
    return [m.id for m in store.query(QUERY, k=len(KNOWLEDGE_BASE), **kwargs)]


def failure(check: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(AssertionError) as info:
        check(*args, **kwargs)
    return str(info.value)


def test_ordered_passes_and_returns_the_matches() -> None:
    store = build()
    top = ranking(store)[:2]
    matches = assert_top_k(store, QUERY, top)
    assert [m.id for m in matches] == top


def test_k_defaults_to_the_number_of_expected_ids() -> None:
    store = build()
    assert len(assert_top_k_unordered(store, QUERY, ranking(store)[:3])) == 3
    assert len(assert_top_k_unordered(store, QUERY, ranking(store)[:1], k=4)) == 4


def test_ordered_checks_only_the_leading_results() -> None:
    store = build()
    first = ranking(store)[0]
    assert len(assert_top_k(store, QUERY, [first], k=5)) == 5


def test_ordered_fails_on_a_swap_that_unordered_accepts() -> None:
    store = build()
    first, second = ranking(store)[:2]
    assert_top_k_unordered(store, QUERY, [second, first])
    message = failure(assert_top_k, store, QUERY, [second, first])
    assert message.splitlines()[0] == (
        f"top-2 results {[first, second]!r} do not include {[second, first]!r} "
        "as the first results, in this order"
    )
    assert f"  {second!r}: rank 2, expected at 1" in message
    assert f"  {first!r}: rank 1, expected at 2" in message
    assert f"why {first!r} ranks above {second!r}:" in message


def test_message_lists_the_ranking_with_the_similarity_direction() -> None:
    store = build()
    top = store.query(QUERY, k=2)
    message = failure(assert_top_k_unordered, store, QUERY, ["hu-1"], k=2)
    assert "ranked results (score: similarity, higher is better):" in message
    assert f"    1. {top[0].id!r}  {top[0].score:.6f}" in message
    assert f"    2. {top[1].id!r}  {top[1].score:.6f}" in message
    assert "profile 'default', metric 'cosine', filter_mode 'pre'" in message


def test_message_uses_the_distance_direction_for_a_distance_profile() -> None:
    message = failure(assert_top_k, build(profile="chroma"), QUERY, ["hu-1"])
    assert "ranked results (score: distance, lower is better):" in message
    assert "profile 'chroma', metric 'l2'" in message


def test_an_id_ranked_below_k_is_located() -> None:
    store = build()
    order = ranking(store)
    last = order[-1]
    message = failure(assert_top_k_unordered, store, QUERY, [last], k=2)
    trace = {t.id: t for t in store.trace(QUERY)}[last]
    assert (
        f"  {last!r}: missing: outside the top-2: it is rank {len(order)} with an unlimited k "
        f"(score {trace.score:.6f})"
    ) in message


def test_a_filtered_out_id_shows_the_filter_and_its_metadata() -> None:
    message = failure(assert_top_k_unordered, build(), QUERY, ["en-1"], k=2, where={"lang": "hu"})
    assert "where={'lang': 'hu'}" in message.splitlines()[1]
    assert (
        "  'en-1': missing: filtered out by where={'lang': 'hu'} (its metadata: {'lang': 'en'})"
        in (message)
    )
    assert "ranks above" not in message


def test_post_filtering_cut_is_named() -> None:
    store = build(filter_mode="post")
    returned = [m.id for m in store.query(QUERY, k=5, where={"lang": "hu"})]
    missing = next(i for i in ("hu-1", "hu-2") if i not in returned)
    trace = {t.id: t for t in store.trace(QUERY, where={"lang": "hu"})}[missing]
    overall = [m.id for m in store.query(QUERY, k=6)].index(missing) + 1
    assert overall > 5
    message = failure(
        assert_top_k_unordered, store, QUERY, ["hu-1", "hu-2"], k=5, where={"lang": "hu"}
    )
    assert "filter_mode 'post'" in message.splitlines()[1]
    assert (
        f"  {missing!r}: missing: cut by post-filtering: it passes the filter and would be "
        f"rank {trace.rank} with an unlimited k (score {trace.score:.6f}),\n"
        f"      but filter_mode='post' filters only the 5 nearest records, and it is number "
        f"{overall} of all records\n"
    ) in message


def test_an_id_lost_to_recall_is_named() -> None:
    store = build(recall=0.4)
    lost = [t.id for t in store.trace(QUERY) if t.status == "lost_to_recall"]
    assert lost, "recall=0.4 should hide some of six records from this query"
    message = failure(assert_top_k_unordered, store, QUERY, [lost[0]], k=6)
    score = {t.id: t.score for t in store.trace(QUERY)}[lost[0]]
    assert (
        f"  {lost[0]!r}: missing: lost to recall (score {score:.6f}): at recall=0.4 this query "
        "never sees it"
    ) in message
    assert "recall 0.4" in message.splitlines()[1]
    assert "ranks above" not in message  # not out-ranked: no explain() block claims it was


def test_a_pending_write_is_named() -> None:
    store = build(visibility="manual")
    store.refresh()
    store.upsert("new", "refund policy update")
    message = failure(assert_top_k, store, QUERY, ["new"])
    assert "  'new': missing: not yet visible: a pending write under visibility='manual'" in (
        message
    )


def test_an_orphaned_top_hit_is_marked_and_not_explained() -> None:
    store = build(orphaned_ids=True)
    top, second = ranking(store)[:2]
    store.delete(top)
    message = failure(assert_top_k, store, QUERY, [second])
    first_line = next(line for line in message.splitlines() if line.startswith("    1. "))
    assert first_line.startswith(f"    1. {top!r}  ")
    assert first_line.endswith("  (orphaned id: deleted, still indexed)")
    assert message.endswith(
        f"{top!r} is an orphaned id (deleted, still indexed): it has no text to explain, "
        "and compact() would remove it"
    )


def test_an_orphan_that_misses_the_cut_is_named() -> None:
    store = build(orphaned_ids=True)
    last = ranking(store)[-1]
    store.delete(last)
    message = failure(assert_top_k_unordered, store, QUERY, [last], k=2)
    assert f"  {last!r}: missing: orphaned (score " in message
    assert "deleted, but its id lingers in the index (orphaned_ids=True)" in message


def is_hungarian(record: Any) -> bool:
    return bool(record.metadata["lang"] == "hu")


@pytest.mark.parametrize(
    ("profile", "where", "shown"),
    [
        ("default", is_hungarian, "<is_hungarian>"),
        ("default", lambda record: record.metadata["lang"] == "hu", "<lambda>"),
        ("milvus", 'lang == "hu"', "'lang == \"hu\"'"),
    ],
    ids=["callable", "lambda", "milvus-expression"],
)
@pytest.mark.parametrize("check", [assert_top_k, assert_top_k_unordered])
def test_a_where_that_is_not_a_mapping_is_shown_as_written(
    profile: str, where: Any, shown: str, check: Any
) -> None:
    store = build(profile=profile)
    message = failure(check, store, QUERY, ["en-1"], k=2, where=where)
    assert f"where={shown}" in message.splitlines()[1]
    assert f"  'en-1': missing: filtered out by where={shown} (its metadata: " in message


def test_an_empty_where_under_post_filtering_is_no_filter() -> None:
    store = build(filter_mode="post")
    last = ranking(store)[-1]
    message = failure(assert_top_k_unordered, store, QUERY, [last], k=2, where={})
    assert f"  {last!r}: missing: outside the top-2: it is rank 6 with an unlimited k" in message
    assert "post-filtering" not in message


def test_a_record_stored_without_text_is_not_called_orphaned() -> None:
    store = build()
    store.upsert("vec-1", None, vector=store.embedder.embed(QUERY))
    second = ranking(store)[1]
    message = failure(assert_top_k, store, QUERY, [second])
    assert "orphaned" not in message
    assert "    1. 'vec-1'  1.000000\n" in message
    assert message.endswith("'vec-1' was stored without text: explain() needs a text")


def test_an_unknown_id_and_one_in_another_namespace() -> None:
    store = build()
    store.upsert("elsewhere", "refund policy", namespace="tenant-b")
    message = failure(assert_top_k_unordered, store, QUERY, ["nope", "elsewhere"], k=6)
    assert "  'nope': missing: no record with this id in namespace ''" in message
    assert (
        "  'elsewhere': missing: no record with this id in namespace '' "
        "(it is in namespace 'tenant-b')"
    ) in message


def test_namespace_is_passed_to_the_query() -> None:
    store = build()
    store.upsert("b-1", "refund policy", namespace="tenant-b")
    assert [m.id for m in assert_top_k(store, QUERY, ["b-1"], namespace="tenant-b")] == ["b-1"]
    message = failure(assert_top_k, store, QUERY, ["en-1"], namespace="tenant-b")
    assert "namespace='tenant-b'" in message.splitlines()[1]


def test_explanation_compares_the_top_hit_with_the_missing_id() -> None:
    store = build()
    top = ranking(store)[0]
    message = failure(assert_top_k, store, QUERY, ["hu-2"])
    section = message.split("\n\n")[-1]
    expected = [f"why {top!r} ranks above 'hu-2':"]
    for record_id in (top, "hu-2"):
        text = store.get(record_id).text  # type: ignore[union-attr]
        expected.append(f"  {record_id!r}:")
        expected.extend(f"    {line}" for line in str(explain(QUERY, text)).splitlines())  # type: ignore[arg-type]
    assert section == "\n".join(expected)
    assert "      word   'refund'" in section


def test_an_empty_result_says_so() -> None:
    message = failure(assert_top_k, FakeVectorStore(FakeEmbedder()), QUERY, ["a"])
    assert "the query returned no results" in message
    assert "why" not in message


def test_a_vector_query_is_shown_by_its_length_and_not_explained() -> None:
    store = build()
    vector = store.embedder.embed("hogyan")  # type: ignore[union-attr]
    message = failure(assert_top_k, store, vector, ["nope"])
    assert "query <vector of 384 floats>" in message
    assert "why" not in message


@pytest.mark.parametrize(
    ("expected", "k", "error", "text"),
    [
        ("en-1", None, TypeError, "expected_ids must be a sequence of ids"),
        ([1], None, TypeError, r"expected_ids\[0\] must be a str, got int"),
        ([], None, ValueError, "expected_ids is empty"),
        (["a", "a"], None, ValueError, r"expected_ids lists \['a'\] more than once"),
        (["a", "b"], 1, ValueError, "k must be an int >= len\\(expected_ids\\) = 2, got 1"),
        (["a"], True, ValueError, "k must be an int"),
    ],
)
def test_bad_arguments_raise_before_querying(
    expected: Any, k: Any, error: type[Exception], text: str
) -> None:
    store = build()
    store.fail_next_query()  # would fire if the helper queried
    with pytest.raises(error, match=text):
        assert_top_k(store, QUERY, expected, k=k)
