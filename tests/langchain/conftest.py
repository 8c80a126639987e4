"""Fixtures shared by the LangChain adapter tests (geometry in `lc_geometry`)."""

from __future__ import annotations

import pytest
from lc_geometry import TableEmbeddings


@pytest.fixture
def table_embeddings() -> TableEmbeddings:
    return TableEmbeddings()
