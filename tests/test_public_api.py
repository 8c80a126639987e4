"""The adapters use only the core's public API.

The core's public modules are the ``placeborag_core`` modules ``docs/api.md`` documents
(``docs/generate_api.py``'s ``MODULES``); a public name is one in such a module's ``__all__``. Every
import of the core in an adapter package, read from the source with ``ast`` (so a lazy import
inside a function or under ``TYPE_CHECKING`` counts too), must name a public module and, with
``from``, public names of it. Anything else is the core's to change without notice.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ADAPTERS = ("placeborag_langchain", "placeborag_llamaindex")


def _public_modules() -> dict[str, frozenset[str]]:
    spec = importlib.util.spec_from_file_location("generate_api", ROOT / "docs" / "generate_api.py")
    assert spec is not None
    assert spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    names = [name for name, _ in generator.MODULES if name.split(".")[0] == "placeborag_core"]
    return {name: frozenset(importlib.import_module(name).__all__) for name in names}


PUBLIC = _public_modules()


def core_imports(source: str) -> list[tuple[int, str, str | None]]:
    """``(line, module, name)`` for each core import in ``source`` (name None: ``import m``)."""
    found: list[tuple[int, str, str | None]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.extend((node.lineno, node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, None) for alias in node.names)
    return [item for item in found if item[1].split(".")[0] == "placeborag_core"]


def private_uses(source: str) -> list[str]:
    """The core imports of ``source`` that reach past the public API, as messages."""
    problems = []
    for line, module, name in core_imports(source):
        public = PUBLIC.get(module)
        if public is None:
            problems.append(f"line {line}: {module} is not a public module")
        elif name is not None and name not in public:
            problems.append(f"line {line}: {module}.{name} is not in {module}.__all__")
    return problems


def test_the_public_modules_are_the_documented_ones() -> None:
    assert "placeborag_core" in PUBLIC
    assert "placeborag_core.adapter_kit" in PUBLIC
    assert {"placeborag_core.backends.lancedb", "placeborag_core.backends.milvus"} <= set(PUBLIC)


def test_the_check_finds_private_imports() -> None:
    source = (
        "from placeborag_core import FakeVectorStore, errors\n"
        "from placeborag_core.messages import shown\n"
        "import placeborag_core.backends.pgvector.jsonb\n"
        "def f():\n"
        "    from placeborag_core.backends.milvus import Schema\n"
        "    from placeborag_core.backends.milvus.errors import MilvusError\n"
    )
    assert private_uses(source) == [
        "line 1: placeborag_core.errors is not in placeborag_core.__all__",
        "line 2: placeborag_core.messages is not a public module",
        "line 3: placeborag_core.backends.pgvector.jsonb is not a public module",
        "line 6: placeborag_core.backends.milvus.errors is not a public module",
    ]


MODULES = sorted(path for package in ADAPTERS for path in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_adapters_import_only_the_cores_public_names(path: Path) -> None:
    assert private_uses(path.read_text(encoding="utf-8")) == []
