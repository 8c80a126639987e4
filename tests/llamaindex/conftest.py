"""Fixtures of the LlamaIndex adapter tests (helpers live in li_support.py)."""

from __future__ import annotations

import pytest
from llama_index.core import Settings


@pytest.fixture(autouse=True)
def _no_global_settings_leak():
    """Tests that set ``Settings.embed_model``/``llm`` get the previous values back afterwards."""
    embed, llm = Settings._embed_model, Settings._llm
    yield
    Settings._embed_model, Settings._llm = embed, llm
