"""The plugins under every install: core alone, one framework alone, both.

A framework is made absent in a subprocess by an import hook that refuses it (as in
``tests/cli/test_cli_commands.py``), so each package is imported the way pytest and users import
it, through its ``__init__``. ``.ci/install_matrix`` does the same with real installs of the
built wheel on the oldest and newest Python.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

LANGCHAIN = ("langchain", "langchain_core")
LLAMAINDEX = ("llama_index",)
USER_PROJECT = Path(__file__).parents[1] / "install" / "test_user_project.py"

_BLOCK = """
import sys
from importlib.abc import MetaPathFinder

BLOCKED = {blocked!r}

class Block(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Block())
"""


def _python(code: str, blocked: tuple[str, ...] = (), cwd: Path | None = None) -> str:
    """Run ``code`` in a fresh interpreter with ``blocked`` top-level packages refused."""
    done = subprocess.run(
        [sys.executable, "-c", _BLOCK.format(blocked=blocked) + code],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"},
    )
    return f"exit {done.returncode}\n{done.stdout}{done.stderr}"


def _pytest(path: Path, blocked: tuple[str, ...], *args: str) -> str:
    code = (
        f"import pytest\nraise SystemExit(pytest.main({[*args, '-p', 'no:randomly', str(path)]!r}))"
    )
    return _python(code, blocked, cwd=path.parent)


@pytest.mark.parametrize(
    "blocked",
    [(), LANGCHAIN, LLAMAINDEX, LANGCHAIN + LLAMAINDEX],
    ids=["both", "llamaindex-only", "langchain-only", "core-only"],
)
def test_the_users_test_file_passes_under_every_install(
    tmp_path: Path, blocked: tuple[str, ...]
) -> None:
    project = tmp_path / "test_user_project.py"
    project.write_text(USER_PROJECT.read_text())
    output = _pytest(project, blocked, "-q")
    assert output.startswith("exit 0\n"), output
    assert "3 passed" in output


@pytest.mark.parametrize(
    ("blocked", "fixture", "extra"),
    [
        (LANGCHAIN, "langchain_vector_store", "langchain"),
        (LANGCHAIN, "langchain_embeddings", "langchain"),
        (LLAMAINDEX, "llamaindex_vector_store", "llamaindex"),
        (LLAMAINDEX, "llamaindex_embed_model", "llamaindex"),
    ],
)
def test_a_missing_frameworks_fixture_fails_only_its_test(
    tmp_path: Path, blocked: tuple[str, ...], fixture: str, extra: str
) -> None:
    test_file = tmp_path / "test_one.py"
    test_file.write_text(
        f"def test_uses_it({fixture}):\n    pass\n\n"
        "def test_core(fake_vector_store):\n    assert fake_vector_store.count() == 0\n"
    )
    output = _pytest(test_file, blocked, "-q")
    assert "1 passed, 1 error" in output, output
    assert "ERROR at setup of test_uses_it" in output
    assert f"\nfixture {fixture!r} is unavailable: placeborag_{extra} needs " in output
    assert f'install it with: pip install "placeborag[{extra}]"\n' in output


@pytest.mark.parametrize(
    ("package", "blocked", "message"),
    [
        (
            "placeborag_langchain",
            LANGCHAIN,
            (
                "placeborag_langchain needs LangChain (langchain-core), which is not installed; "
                'install it with: pip install "placeborag[langchain]"'
            ),
        ),
        (
            "placeborag_llamaindex",
            LLAMAINDEX,
            (
                "placeborag_llamaindex needs LlamaIndex (llama-index-core), which is not "
                'installed; install it with: pip install "placeborag[llamaindex]"'
            ),
        ),
    ],
)
def test_importing_an_adapter_without_its_framework_names_the_extra(
    package: str, blocked: tuple[str, ...], message: str
) -> None:
    code = (
        f"try:\n    import {package}\nexcept ImportError as error:\n"
        "    print(type(error).__name__, error, sep=': ')\n"
    )
    assert _python(code, blocked) == f"exit 0\nImportError: {message}\n"


def test_loading_the_plugins_imports_no_framework_no_numpy_no_store() -> None:
    code = (
        "import sys, pytest\n"
        "before = set(sys.modules)\n"
        "import placeborag_core.testing.pytest_plugin, placeborag_langchain.pytest_plugin\n"
        "import placeborag_llamaindex.pytest_plugin\n"
        "heavy = ('numpy', 'langchain_core', 'llama_index.', 'pydantic', 'placeborag_core.store')\n"
        "print(sorted(m for m in set(sys.modules) - before if m.startswith(heavy)))\n"
    )
    assert _python(code) == "exit 0\n[]\n"


def test_the_entry_points_declare_exactly_the_plugins_fixtures() -> None:
    import placeborag_langchain.pytest_plugin as langchain_plugin
    import placeborag_llamaindex.pytest_plugin as llamaindex_plugin

    declared = {(e.name, e.value) for e in entry_points(group="placeborag.fixtures")}
    defined = {
        (name, plugin.__name__)
        for plugin in (langchain_plugin, llamaindex_plugin)
        for name in plugin.__all__
        if name != "EXTRA_OPTIONS"
    }
    assert declared == defined


def test_an_adapter_plugin_can_be_disabled_by_name(tmp_path: Path) -> None:
    test_file = tmp_path / "test_one.py"
    test_file.write_text("def test_uses_it(langchain_vector_store):\n    pass\n")
    output = _pytest(test_file, (), "-q", "-p", "no:placeborag_langchain")
    assert "fixture 'langchain_vector_store' not found" in output


ADAPTER_MARKERS = """
import pytest

pytestmark = pytest.mark.placeborag(profile="qdrant", {options})


def test_uses_it({fixture}):
    pass


def test_core_under_the_shared_marker(fake_vector_store):
    assert fake_vector_store.profile.name == "qdrant"


@pytest.mark.placeborag({options})
def test_core_with_the_option_on_itself(fake_vector_store):
    pass
"""


@pytest.mark.parametrize(
    ("blocked", "options", "fixture", "extra"),
    [
        (LANGCHAIN, 'namespace="a", collection_name="kb"', "langchain_vector_store", "langchain"),
        (LANGCHAIN, 'distance_strategy="COSINE"', "langchain_vector_store", "langchain"),
        (LLAMAINDEX, 'namespace="tenant-a"', "llamaindex_vector_store", "llamaindex"),
        ((), 'namespace="tenant-a"', "fake_embedder", ""),
    ],
    ids=["langchain-namespace", "langchain-distance", "llamaindex-namespace", "both-installed"],
)
def test_adapter_options_mean_the_same_under_every_install(
    tmp_path: Path, blocked: tuple[str, ...], options: str, fixture: str, extra: str
) -> None:
    test_file = tmp_path / "test_adapter_markers.py"
    test_file.write_text(ADAPTER_MARKERS.format(options=options, fixture=fixture))
    output = _pytest(test_file, blocked, "-q")
    assert "unknown placeborag option" not in output
    assert "ERROR at setup of test_core_with_the_option_on_itself" in output
    assert "is an adapter option: only the fixtures " in output
    if extra:
        assert "1 passed, 2 errors" in output, output
        assert f"\nfixture {fixture!r} is unavailable: placeborag_{extra} needs " in output
        assert f'install it with: pip install "placeborag[{extra}]"\n' in output
    else:
        assert "2 passed, 1 error" in output, output


def test_the_core_knows_each_adapters_options_as_the_adapter_declares_them() -> None:
    import placeborag_langchain.pytest_plugin as langchain_plugin
    import placeborag_llamaindex.pytest_plugin as llamaindex_plugin
    from placeborag_core.testing.adapter_options import ADAPTER_OPTIONS

    declared = {e.value for e in entry_points(group="placeborag.fixtures")}
    assert set(ADAPTER_OPTIONS) == declared
    for plugin in (langchain_plugin, llamaindex_plugin):
        assert sorted(ADAPTER_OPTIONS[plugin.__name__]) == sorted(plugin.EXTRA_OPTIONS)
        fixtures = {
            e.name for e in entry_points(group="placeborag.fixtures") if e.value == plugin.__name__
        }
        for option, readers in ADAPTER_OPTIONS[plugin.__name__].items():
            assert readers, option
            assert set(readers) <= fixtures, option
            # a recorded reader passes the plugin's extra options on; no other fixture does
            for fixture in sorted(fixtures):
                source = inspect.getsource(getattr(plugin, fixture).__wrapped__)
                assert ("EXTRA_OPTIONS" in source) is (fixture in readers), (option, fixture)
