"""A manifest file with values no store can have is invalid (exit 2), not drift (exit 1)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from placeborag_core import (
    Document,
    FakeEmbedder,
    FakeVectorStore,
    Manifest,
    ManifestError,
    build_manifest,
    seed_store,
)


def _manifest() -> dict[str, Any]:
    store = FakeVectorStore(embedder=FakeEmbedder(dimensions=16))
    seed_store(store, [Document("d", "refund policy")], namespace="acme")
    return build_manifest(store).to_dict()


def test_a_lone_surrogate_in_a_manifest_file_names_the_file(tmp_path: Path) -> None:
    data = _manifest()
    data["namespaces"] = {"\ud800": data["namespaces"]["acme"]}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data), encoding="ascii")  # "\ud800" spelled as a JSON escape
    with pytest.raises(ManifestError, match=f"{path}: .*not valid Unicode"):
        Manifest.load(path)


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d.update(format=True), "format"),
        (lambda d: d.update(dimension=0), "dimension"),
        (lambda d: d.update(dimension=-1), "dimension"),
        (lambda d: d["embedding"].update(dimensions=0), "embedding.dimensions"),
    ],
)
def test_an_impossible_value_is_an_invalid_manifest(
    edit: Callable[[dict[str, Any]], None], field: str
) -> None:
    data = _manifest()
    edit(data)
    with pytest.raises(ManifestError, match=field):
        Manifest.from_dict(data)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_manifest_holding_a_constant_json_lacks_is_invalid(constant: str) -> None:
    text = json.dumps(_manifest()).replace('"format": 1', f'"format": {constant}', 1)
    assert constant in text
    with pytest.raises(ManifestError, match=rf"{constant} is not JSON"):
        Manifest.from_json(text)
