"""A user's own test file, as the README's quick start shows it.

CI copies this file out of the source tree and runs it against the built wheel in fresh virtual
environments, with each combination of extras (``.ci/install_matrix``); the main suite runs it
too. It must pass whatever is installed: the core fixtures always work, and a framework's fixture
either works or fails with the extra to install.
"""

import importlib
import importlib.util
import re

import pytest


@pytest.mark.placeborag(profile="chroma", dimensions=64)
def test_refund_policy_ranks_first(fake_vector_store, fake_embedder):
    fake_vector_store.upsert("refund", "our refund policy allows returns within 30 days")
    fake_vector_store.upsert("shipping", "delivery times to remote islands")
    assert fake_vector_store.query(fake_embedder.embed("refund policy"), k=1)[0].id == "refund"


def installed(module):
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


@pytest.mark.parametrize(
    ("framework", "extra", "fixture"),
    [
        ("langchain_core", "langchain", "langchain_vector_store"),
        ("llama_index.core", "llamaindex", "llamaindex_vector_store"),
    ],
)
@pytest.mark.placeborag(profile="chroma", dimensions=64)
def test_framework_fixture(request, framework, extra, fixture):
    if installed(framework):
        store = request.getfixturevalue(fixture)
        assert type(store).__name__ == "PlaceboVectorStore"
        assert store.core_store.profile.name == "chroma"
        return
    install = re.escape(f'pip install "placeborag[{extra}]"')
    with pytest.raises(pytest.fail.Exception, match=f"{fixture}.*{install}"):
        request.getfixturevalue(fixture)
    with pytest.raises(ImportError, match=install):
        importlib.import_module(f"placeborag_{extra}")
