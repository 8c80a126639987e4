"""route_options(): marker keyword arguments merged closest-first and routed by constructor."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from placeborag_core import FakeEmbedder, OptionError, RoutedOptions, route_options
from placeborag_core.store import FakeVectorStore
from placeborag_core.testing.options import (
    embedder_option_names,
    marker_signature,
    store_option_names,
)

EMBEDDER_OPTIONS = ("model_name", "dimensions", "clusters", "cluster_match", "cluster_spread")
STORE_OPTIONS = ("profile", "metric", "filter_mode", "recall", "visibility", "orphaned_ids")


def test_option_names_are_the_constructor_parameters() -> None:
    store_parameters = [p for p in inspect.signature(FakeVectorStore).parameters if p != "embedder"]
    assert embedder_option_names() == tuple(inspect.signature(FakeEmbedder).parameters)
    assert store_option_names() == tuple(store_parameters)
    assert set(EMBEDDER_OPTIONS) <= set(embedder_option_names())
    assert set(STORE_OPTIONS) <= set(store_option_names())


def test_each_option_goes_to_its_constructor() -> None:
    routed = route_options([{"dimensions": 64, "profile": "chroma", "recall": 0.5}])
    assert routed == RoutedOptions(
        embedder={"dimensions": 64}, store={"profile": "chroma", "recall": 0.5}, extra={}
    )


def test_no_markers_route_to_nothing() -> None:
    assert route_options([]) == RoutedOptions({}, {}, {})


def test_the_closest_layer_wins() -> None:
    function = {"profile": "qdrant"}
    cls = {"profile": "faiss", "recall": 0.5}
    module = {"profile": "chroma", "dimensions": 64, "recall": 0.9}
    routed = route_options([function, cls, module])
    assert routed.store == {"profile": "qdrant", "recall": 0.5}
    assert routed.embedder == {"dimensions": 64}


def test_a_misspelled_option_names_the_nearest_valid_one() -> None:
    with pytest.raises(OptionError) as info:
        route_options([{"profle": "chroma"}])
    assert info.value.option == "profle"
    assert info.value.suggestion == "profile"
    assert str(info.value).startswith(
        "unknown placeborag option 'profle'; did you mean 'profile'? Valid options: "
    )
    assert "cluster_match, cluster_spread, clusters, dimensions, filter_mode" in str(info.value)


def test_option_error_is_a_type_error_like_an_unexpected_keyword() -> None:
    with pytest.raises(TypeError, match="'dimension'; did you mean 'dimensions'"):
        route_options([{}, {"dimension": 64}])


def test_a_name_unlike_any_option_gets_no_suggestion() -> None:
    with pytest.raises(OptionError, match=r"^unknown placeborag option 'zzz'\. Valid options: "):
        route_options([{"zzz": 1}])


def test_an_unknown_name_in_a_far_layer_is_still_rejected() -> None:
    with pytest.raises(OptionError, match="'visiblity'; did you mean 'visibility'"):
        route_options([{"profile": "chroma"}, {"visiblity": "manual"}])


def test_values_are_left_to_the_constructors() -> None:
    routed = route_options([{"dimensions": -1, "profile": "no-such-profile"}])
    assert routed.embedder == {"dimensions": -1}
    assert routed.store == {"profile": "no-such-profile"}


def test_extra_names_from_an_adapter_are_routed_to_extra() -> None:
    routed = route_options(
        [{"namespace": "tenant-a", "dimensions": 32}], extra=("namespace", "collection_name")
    )
    assert routed.extra == {"namespace": "tenant-a"}
    assert routed.embedder == {"dimensions": 32}


def test_a_misspelled_extra_name_suggests_the_extra() -> None:
    with pytest.raises(OptionError, match="'namespce'; did you mean 'namespace'"):
        route_options([{"namespce": "a"}], extra=["namespace"])


def test_extra_names_may_not_shadow_a_constructor_option() -> None:
    with pytest.raises(ValueError, match="extra option 'profile' shadows a constructor option"):
        route_options([], extra=("profile",))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("namespace", "extra must be a collection of option names, not the str 'namespace'"),
        ([1], "extra option names must be str, got int"),
    ],
)
def test_malformed_extra_is_a_type_error(extra: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        route_options([], extra=extra)


def test_a_new_constructor_parameter_is_an_option_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    class WithFlavour(FakeEmbedder):
        def __init__(self, dimensions: int = 384, *, flavour: str = "plain") -> None:
            super().__init__(dimensions=dimensions)

    monkeypatch.setattr("placeborag_core.embedding.embedder.FakeEmbedder", WithFlavour)
    assert route_options([{"flavour": "salty"}]).embedder == {"flavour": "salty"}
    with pytest.raises(OptionError, match="did you mean 'flavour'"):
        route_options([{"flavor": "salty"}])


def test_a_name_both_constructors_accept_goes_to_both(monkeypatch: pytest.MonkeyPatch) -> None:
    class Sized(FakeVectorStore):
        def __init__(self, embedder: Any = None, dimensions: int | None = None) -> None:
            super().__init__(embedder)

    monkeypatch.setattr("placeborag_core.store.vector_store.FakeVectorStore", Sized)
    routed = route_options([{"dimensions": 16}])
    assert routed.embedder == {"dimensions": 16}
    assert routed.store == {"dimensions": 16}


def test_marker_signature_shows_every_option_with_its_default() -> None:
    signature = marker_signature(extra=("namespace",))
    assert signature.startswith(
        "placeborag(model_name='placeborag-hash-v1', dimensions=384, clusters=None, "
        "cluster_match='exact', cluster_spread=0.2, profile='default', "
    )
    for name in (*EMBEDDER_OPTIONS, *STORE_OPTIONS):
        assert f"{name}=" in signature
    assert signature.endswith(", namespace=...)")
    assert "embedder=" not in signature


@pytest.mark.parametrize("layers", [{"profile": "chroma"}, "profile", [("profile", "x")], 3])
def test_layers_that_are_not_a_sequence_of_mappings_raise_saying_so(layers: Any) -> None:
    with pytest.raises(TypeError, match=r"takes a sequence of mappings .* list of one mapping"):
        route_options(layers)
