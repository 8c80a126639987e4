"""The pytest plugin: fixtures configured by the placeborag marker, absent without LlamaIndex."""

from __future__ import annotations

import subprocess
import sys

import pytest

INI = "[pytest]\nasyncio_default_fixture_loop_scope = function\n"


def run(pytester: pytest.Pytester) -> pytest.RunResult:
    pytester.makeini(INI)
    return pytester.runpytest("-p", "no:randomly")


def test_fixtures_are_configured_by_the_marker(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(profile="chroma", metric="cosine", dimensions=32, namespace="t1")
        def test_configured(llamaindex_vector_store, llamaindex_embed_model):
            store, embed = llamaindex_vector_store, llamaindex_embed_model
            assert (store.profile, store.metric, store.namespace) == ("chroma", "cosine", "t1")
            assert embed.dimensions == 32
            assert store.core_store.embedder is embed.core_embedder

        def test_defaults(llamaindex_vector_store, llamaindex_embed_model):
            assert llamaindex_vector_store.profile == "default"
            assert llamaindex_vector_store.core_store.count() == 0
            assert llamaindex_embed_model.dimensions == 384
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=2)


def test_closest_marker_wins(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.placeborag(profile="qdrant", recall=0.5)

        @pytest.mark.placeborag(profile="chroma")
        def test_function_wins(llamaindex_vector_store):
            assert llamaindex_vector_store.profile == "chroma"
            assert llamaindex_vector_store.recall == 0.5

        def test_module_applies(llamaindex_vector_store):
            assert llamaindex_vector_store.profile == "qdrant"
        """
    )
    run(pytester).assert_outcomes(passed=2)


def test_misspelt_option_fails_naming_the_nearest(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(profil="chroma")
        def test_typo(llamaindex_vector_store):
            pass
        """
    )
    result = run(pytester)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*unknown placeborag option 'profil'; did you mean 'profile'?*"])


def test_rejected_value_fails_with_the_constructor_message(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.placeborag(profile="faiss")
        def test_bad(llamaindex_vector_store):
            pass
        """
    )
    result = run(pytester)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*rejected by PlaceboVectorStore*has no LlamaIndex integration facts*"]
    )


def test_nothing_is_registered_when_llama_index_is_missing() -> None:
    code = (
        "import sys; sys.modules['llama_index.core'] = None\n"
        "import placeborag_llamaindex, placeborag_llamaindex.pytest_plugin as plugin\n"
        "names = [n for n in vars(plugin) if n.startswith(('llamaindex_', 'pytest_'))]\n"
        "print(plugin.llamaindex_available(), sorted(names))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[0] == "False ['llamaindex_available']"


def test_loading_the_plugin_imports_no_framework() -> None:
    code = (
        "import sys\n"
        "import placeborag_llamaindex.pytest_plugin as plugin\n"
        "print(plugin.llamaindex_available(), hasattr(plugin, 'llamaindex_vector_store'),\n"
        "      sorted(m for m in sys.modules if m.split('.')[0] == 'llama_index'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True True ['llama_index']"


def test_plugin_registers_the_fixtures_when_llama_index_is_present() -> None:
    from placeborag_llamaindex import pytest_plugin

    assert pytest_plugin.llamaindex_available()
    assert {"llamaindex_embed_model", "llamaindex_vector_store"} <= set(pytest_plugin.__all__)
