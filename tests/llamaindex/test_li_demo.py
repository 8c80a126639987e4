"""The LlamaIndex rows of ``placeborag demo``."""

from __future__ import annotations

from placeborag_llamaindex.demo import demo_rows


def test_demo_rows_report_each_integration_scores():
    assert demo_rows() == [
        ("LlamaIndex", "PlaceboVectorStore(profile='chroma')", "en-3=0.566, en-1=0.461"),
        ("LlamaIndex", "PlaceboVectorStore(profile='qdrant')", "en-3=0.715, en-1=0.613"),
        ("LlamaIndex", "PlaceboVectorStore(profile='milvus')", "en-3=0.715, en-1=0.613"),
        ("LlamaIndex", "PlaceboVectorStore(profile='pgvector')", "en-3=0.715, en-1=0.613"),
        ("LlamaIndex", "PlaceboVectorStore(profile='lancedb')", "en-3=0.566, en-1=0.461"),
        ("LlamaIndex", "PlaceboVectorStore(profile='faiss')", "en-3=0.798, en-1=0.987"),
    ]


def test_demo_rows_are_the_same_on_every_call():
    assert demo_rows() == demo_rows()
