"""`placeborag_langchain.demo.demo_rows`: the LangChain rows of ``placeborag demo``."""

from __future__ import annotations

from placeborag_langchain.demo import demo_rows


def test_demo_rows_report_each_integrations_score_for_one_ranking() -> None:
    # The same two documents in the same order; Chroma reports distances, Qdrant similarities.
    assert demo_rows() == [
        ("LangChain", "PlaceboVectorStore(profile='chroma')", "en-3=0.570, en-1=0.774"),
        ("LangChain", "PlaceboVectorStore(profile='qdrant')", "en-3=0.715, en-1=0.613"),
    ]
