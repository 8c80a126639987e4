"""The core's layers import downward only, and the core never imports an adapter or a framework.

Layers, bottom to top: the shared modules (errors, records, limits, unicode_text,
lazy_imports, arithmetic), embedding, filters, backends, store, corpus, testing, and the top: the
command line (cli, demo, __main__) and the adapters' helpers (adapter_kit), which no core module
imports. A module may import its own layer and the layers below it. Read from
the source with ``ast``, so a lazy import inside a function counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "placeborag_core"
LAYERS = ["shared", "embedding", "filters", "backends", "store", "corpus", "testing", "cli"]
SHARED = {
    "messages",
    "numbers",
    "errors",
    "records",
    "limits",
    "unicode_text",
    "lazy_imports",
    "arithmetic",
    "_version",
    "pytest_plugin",
}
TOP = {"cli", "demo", "__main__", "adapter_kit"}


def _layer(module: str) -> str:
    """The layer of ``placeborag_core.<module...>``."""
    head = module.split(".", maxsplit=1)[0] if module else ""
    if head in TOP:
        return "cli"
    if head in SHARED or head in {"", "__init__"}:
        return "shared"
    return head


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return found


MODULES = sorted(p for p in CORE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(CORE)))
def test_imports_go_down_the_layers(path: Path) -> None:
    relative = path.relative_to(CORE).with_suffix("")
    own = _layer(".".join(relative.parts))
    if path.parent == CORE and path.name in {"__init__.py", "pytest_plugin.py"}:
        return  # the package's public face re-exports from every layer, lazily
    for imported in _imports(path):
        top = imported.split(".")[0]
        assert top not in {"placeborag_langchain", "placeborag_llamaindex"}, imported
        assert top not in {"langchain_core", "langchain", "llama_index"}, imported
        if top != "placeborag_core":
            continue
        target = _layer(imported.removeprefix("placeborag_core").lstrip("."))
        assert LAYERS.index(target) <= LAYERS.index(own), (
            f"{relative} ({own}) imports {imported} ({target}), a higher layer"
        )
