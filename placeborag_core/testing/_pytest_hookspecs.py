"""The hook through which placeborag's adapter plugins declare marker options of their own.

Kept apart from ``pytest_plugin`` so the hook's contract is readable on its own. An adapter plugin
implements it like this (``optionalhook`` keeps it harmless when the core plugin is disabled)::

    @pytest.hookimpl(optionalhook=True)
    def pytest_placeborag_extra_options() -> tuple[str, ...]:
        return ("namespace", "collection_name")
"""

from __future__ import annotations

from collections.abc import Collection

import pytest


@pytest.hookspec
def pytest_placeborag_extra_options() -> Collection[str]:  # type: ignore[empty-body]
    """Return names the ``placeborag`` marker should accept besides the constructor options.

    Every implementation is called once per session; the union of the names is what the marker
    accepts, what ``--markers`` shows and what ``marker_options()`` puts in ``RoutedOptions.extra``.
    """
