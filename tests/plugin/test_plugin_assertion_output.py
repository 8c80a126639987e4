"""A failing retrieval assertion, as pytest shows it to the reader."""

from __future__ import annotations

import pytest

FAILING_TEST = """
import pytest

from placeborag_core import assert_top_k_unordered

KNOWLEDGE_BASE = [
    ("en-1", "our refund policy allows returns within 30 days", "en"),
    ("en-2", "refund policy exceptions for sale items", "en"),
    ("en-3", "how to request a refund under the refund policy", "en"),
    ("en-4", "refund policy for digital purchases", "en"),
    ("hu-1", "pénzvisszatérítési szabályzat harminc napon belül", "hu"),
    ("hu-2", "hogyan kérek vissza pénzt vásárlás után", "hu"),
]


@pytest.mark.placeborag(profile="chroma", filter_mode="post")
def test_hungarian_refund_docs_are_retrieved(fake_vector_store):
    for doc_id, text, lang in KNOWLEDGE_BASE:
        fake_vector_store.upsert(doc_id, text, {"lang": lang})

    assert_top_k_unordered(
        fake_vector_store, "refund policy", ["hu-1", "hu-2"], k=5, where={"lang": "hu"}
    )
"""


def test_the_failure_explains_the_post_filtering_cut(isolated: pytest.Pytester) -> None:
    isolated.makepyfile(test_refunds=FAILING_TEST)
    result = isolated.runpytest("-p", "no:randomly")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            ">       assert_top_k_unordered(",
            (
                "E       AssertionError: top-5 results ['hu-2'] do not include ['hu-1', 'hu-2'] "
                "among them, in any order"
            ),
            (
                "E       query 'refund policy', where={'lang': 'hu'}; profile 'chroma', "
                "metric 'l2', filter_mode 'post'"
            ),
            "E       ranked results (score: distance, lower is better):",
            "E           1. 'hu-2'  1.9639*  <- expected",
            "E       expected ids:",
            (
                "E         'hu-1': missing: cut by post-filtering: it passes the filter and "
                "would be rank 2 with an unlimited k (score 1.9641*),"
            ),
            (
                "E             but filter_mode='post' filters only the 5 nearest records, and "
                "it is number 6 of all records"
            ),
            "E         'hu-2': rank 1",
            "E       why 'hu-2' ranks above 'hu-1':",
            "E         'hu-2':",
            "E           cosine('refund policy', 'hogyan kérek vissza pénzt vásárlás után') = *",
            "E         'hu-1':",
            "test_refunds.py:20: AssertionError",
        ]
    )
    # The helper hides its own frames: the traceback ends in the test that called it.
    assert "placeborag_core/assertions.py" not in result.stdout.str()
