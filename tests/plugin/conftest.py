"""Fixtures for the plugin tests, which run generated test files through ``pytester``."""

from __future__ import annotations

import pytest

# Inner runs load only what these tests are about (our plugin, xdist, randomly): the adapter
# plugins would add their own marker options and import whole frameworks, and the other installed
# plugins cost seconds per run on a busy machine (unraisableexception forces a full gc per run).
INNER_ADDOPTS = " ".join(
    f"-p no:{name}"
    for name in (
        "placeborag_langchain",
        "placeborag_llamaindex",
        "langsmith_plugin",
        "recording",
        "syrupy",
        "codspeed",
        "benchmark",
        "hypothesispytest",
        "anyio",
        "asyncio",
        "socket",
        "unraisableexception",
        "cacheprovider",
    )
)


@pytest.fixture
def isolated(pytester: pytest.Pytester) -> pytest.Pytester:
    """A pytester directory whose inner runs use a fixed, lean configuration."""
    pytester.makeini(
        f"""
        [pytest]
        addopts = {INNER_ADDOPTS}
        """
    )
    return pytester
