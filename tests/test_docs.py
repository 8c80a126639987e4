"""The documentation stays true to the code and to itself.

- ``docs/api.md`` is what ``docs/generate_api.py`` writes from the docstrings now (regenerate it
  with ``python docs/generate_api.py``);
- every relative link in the README, CONTRIBUTING, CHANGELOG and ``docs/`` points to a file that
  exists and, with ``#anchor``, to a heading (GitHub's anchor rules) or an ``<a id>`` in it;
- the README keeps the two lines other tools read: the quick start's first command and the test
  command ``.ci/run`` runs verbatim.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = sorted(
    [
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        ROOT / "CHANGELOG.md",
        ROOT / "examples" / "README.md",
        *(ROOT / "docs").rglob("*.md"),
    ]
)

LINK = re.compile(r"(?<!!)\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
EXPLICIT_ANCHOR = re.compile(r"""<a\s+(?:id|name)=["']([^"']+)["']""")


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_api", ROOT / "docs" / "generate_api.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_api_reference_is_up_to_date() -> None:
    pytest.importorskip("langchain_core", reason="docs/api.md documents the LangChain adapter")
    pytest.importorskip("llama_index.core", reason="docs/api.md documents the LlamaIndex adapter")
    expected = generator().render()
    current = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert current == expected, "docs/api.md is out of date: run python docs/generate_api.py"


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup dropped, lower case, punctuation removed (letters,
    digits, ``_``, ``-`` and spaces kept), spaces turned into hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(document: Path) -> set[str]:
    """Every anchor a link may target in ``document``: heading slugs (repeats numbered ``-1``,
    ``-2``, ... as GitHub does) and explicit ``<a id="...">``."""
    text = document.read_text(encoding="utf-8")
    found = set(EXPLICIT_ANCHOR.findall(text))
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCE.sub("", text)):
        base = slug(heading)
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return found


def relative_links(document: Path) -> list[str]:
    """The link targets of ``document`` that point inside the repository (code excluded)."""
    text = CODE_SPAN.sub("", FENCE.sub("", document.read_text(encoding="utf-8")))
    targets = LINK.findall(text)
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t)]


def test_the_slug_rules() -> None:
    assert slug("Pre- and post-filtering") == "pre--and-post-filtering"
    assert slug("3. A failing assertion, explained") == "3-a-failing-assertion-explained"
    assert slug("What `placeborag_langchain` reproduces") == "what-placeborag_langchain-reproduces"
    assert slug("FAISS (flat indexes)") == "faiss-flat-indexes"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(document: Path) -> None:
    broken = []
    for target in relative_links(document):
        path_part, _, anchor = target.partition("#")
        resolved = (document.parent / path_part).resolve() if path_part else document
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading or <a id> {anchor!r} in {resolved.name}")
    assert not broken, f"{document.relative_to(ROOT)}: " + "; ".join(broken)


def test_readme_keeps_the_lines_tools_read() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    commands = [line for line in lines if line.startswith('pip install -e ".[dev')]
    assert commands[:1] == ['pip install -e ".[dev,all,fidelity]" && pytest -n 2'], (
        ".ci/run runs the first README line starting with 'pip install -e \".[dev' verbatim"
    )
    quick_start = lines[lines.index("## Quick start") :]
    first_command = next(line for line in quick_start if line.startswith("pip install"))
    assert first_command == "pip install -e . && placeborag demo"
