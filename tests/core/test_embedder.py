"""FakeEmbedder: vectors, normalisation, geometry and bad input."""

from __future__ import annotations

import itertools
import math
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core import FakeEmbedder, cosine_similarity
from placeborag_core.embedding.embedder import MIN_DIMENSIONS

EMBEDDER = FakeEmbedder()


def cos(a: str, b: str, embedder: FakeEmbedder = EMBEDDER) -> float:
    return cosine_similarity(embedder.embed(a), embedder.embed(b))


def test_the_same_text_gives_the_same_vector() -> None:
    assert EMBEDDER.embed("refund policy") == EMBEDDER.embed("refund policy")
    assert FakeEmbedder().embed("refund policy") == EMBEDDER.embed("refund policy")


def test_vectors_are_python_floats_of_the_configured_length() -> None:
    vector = FakeEmbedder(dimensions=64).embed("refund policy")
    assert len(vector) == 64
    assert all(type(x) is float for x in vector)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"model_name": "text-embedding-3-small"}, {"model_name": "text-embedding-3-large"}),
        ({"dimensions": 384}, {"dimensions": 385}),
    ],
)
def test_model_name_and_dimensions_change_the_space(
    first: dict[str, object], second: dict[str, object]
) -> None:
    a, b = FakeEmbedder(**first), FakeEmbedder(**second)  # type: ignore[arg-type]
    assert a.identity != b.identity
    texts = ["refund policy", "delivery times", "a"]
    if a.dimensions == b.dimensions:
        assert all(a.embed(t) != b.embed(t) for t in texts)
        # Unrelated spaces: the same text is about as near as two unrelated texts.
        assert abs(cosine_similarity(a.embed(texts[0]), b.embed(texts[0]))) < 0.35
    else:
        assert all(len(a.embed(t)) != len(b.embed(t)) for t in texts)


MULTILINGUAL = [
    "",
    "   ",
    "!!! ... ???",
    "naïve façade, déjà vu, crème brûlée",
    "Привет, как дела? Политика возврата",
    "返品ポリシーについて教えてください",
    "退款政策",
    "🎉🚀 party rocket 🎉",
    "e\u0301 a\u0308 o\u0302 combining marks",
    "\u0301\u0302 lonely marks",
    "ÅNGSTRÖM ångström",
    "\x00\x01control\x7f",
    "x" * 5000,
]


@pytest.mark.parametrize("text", MULTILINGUAL)
def test_every_vector_is_unit_length_and_finite(text: str) -> None:
    vector = np.array(EMBEDDER.embed(text))
    assert np.isfinite(vector).all()
    assert math.isclose(float(np.linalg.norm(vector)), 1.0, abs_tol=1e-12)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("café", "cafe\u0301"),  # composed vs decomposed
        ("ﬁle ﬂow", "file flow"),  # ligatures
        (
            "\uff32\uff25\uff26\uff35\uff2e\uff24\u3000\uff30\uff2f\uff2c",
            "refund pol",
        ),  # full-width forms and ideographic space
        ("Refund  POLICY\n\t", "refund policy"),  # case and white space
        ("refund-policy!", "refund policy"),  # punctuation separates
        ("Straße", "STRASSE"),  # case folding
        ("①②", "12"),  # compatibility digits
    ],
)
def test_nfkc_equivalent_texts_embed_identically(a: str, b: str) -> None:
    assert EMBEDDER.embed(a) == EMBEDDER.embed(b)


def test_texts_without_tokens_share_one_fixed_vector_unlike_any_text() -> None:
    empty = EMBEDDER.embed("")
    assert EMBEDDER.embed("  \n ") == empty == EMBEDDER.embed("?!")
    assert abs(cosine_similarity(empty, EMBEDDER.embed("refund"))) < 0.5


RANKING_SETS = [
    (
        "refund policy",
        "what is your refund policy for orders",
        ["delivery times to remote islands", "reset your account password", "opening hours"],
    ),
    (
        "how do I reset my password",
        "password reset instructions for your account",
        ["refund policy for digital purchases", "shipping to Canada", "gift card balance"],
    ),
    (
        "shipping costs to Canada",
        "international shipping costs and delivery to Canada",
        ["how to cancel a subscription", "warranty repairs", "employee handbook"],
    ),
    (
        "подписка отмена",
        "как оформить отмена подписки",
        ["refund policy", "доставка по городу", "返品ポリシー"],
    ),
    (
        "返品ポリシー",
        "返品ポリシーの詳細",
        ["配送時間について", "password reset", "политика"],
    ),
]


@pytest.mark.parametrize(("query", "related", "unrelated"), RANKING_SETS)
def test_shared_words_and_ngrams_rank_nearer_than_nothing_shared(
    query: str, related: str, unrelated: list[str]
) -> None:
    near = cos(query, related)
    assert near > 0.2
    for other in unrelated:
        assert near > cos(query, other) + 0.1, other


def test_shared_ngrams_alone_bring_texts_nearer() -> None:
    # No word in common, but "refund"/"refunds" and "polic-" share character n-grams.
    assert cos("refunds policies", "refund policy") > cos("refunds policies", "delivery time") + 0.2


def test_ranking_follows_overlap() -> None:
    query = "refund policy for digital purchases"
    docs = [
        "refund policy for digital purchases",
        "refund policy for physical purchases",
        "refund policy",
        "digital downloads",
        "store opening hours",
    ]
    ranked = sorted(docs, key=lambda doc: -cos(query, doc))
    assert ranked == docs


texts_strategy = st.lists(st.text(max_size=40), max_size=12)


@settings(max_examples=200, deadline=None)
@given(texts_strategy)
def test_embed_many_rows_equal_embed_exactly(texts: list[str]) -> None:
    embedder = FakeEmbedder(dimensions=32)
    batch = embedder.embed_many(texts)
    assert batch.shape == (len(texts), 32)
    assert batch.dtype == np.float64
    for row, text in zip(batch, texts, strict=True):
        assert row.tolist() == FakeEmbedder(dimensions=32).embed(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_no_vector_is_ever_zero_or_nan(text: str) -> None:
    vector = np.array(FakeEmbedder(dimensions=16).embed(text))
    assert np.isfinite(vector).all()
    assert math.isclose(float(vector @ vector), 1.0, abs_tol=1e-12)


def test_embed_many_hashes_each_batch_in_one_vectorised_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from placeborag_core.embedding.features import FeatureHasher

    embedder = FakeEmbedder()
    calls: list[int] = []
    original = FeatureHasher.hash

    def counting(self: FeatureHasher, token_lists: list[list[str]]) -> object:
        calls.append(len(token_lists))
        return original(self, token_lists)

    monkeypatch.setattr(FeatureHasher, "hash", counting)
    texts = [f"document {i} about topic {i % 7} and refunds" for i in range(500)]
    embedder.embed_many(texts)
    assert len(calls) == 1  # every new token of the batch hashed by one numpy pass
    embedder.embed_many(texts)
    assert len(calls) == 1  # known tokens are not hashed again


def test_embed_many_accepts_any_iterable_but_not_a_bare_string() -> None:
    assert EMBEDDER.embed_many(t for t in ["a", "b"]).shape == (2, 384)
    assert EMBEDDER.embed_many([]).shape == (0, 384)
    with pytest.raises(TypeError, match="sequence of strings, got str"):
        EMBEDDER.embed_many("refund policy")


def test_concurrent_embedding_gives_the_same_vectors() -> None:
    texts = [f"ticket {i} refund window {i % 13} days" for i in range(400)]
    expected = FakeEmbedder().embed_many(texts)
    shared = FakeEmbedder()
    results: dict[int, np.ndarray] = {}

    def work(worker: int) -> None:
        chunk = texts[worker::4]
        results[worker] = np.array([shared.embed(t) for t in chunk])

    threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for worker in range(4):
        assert (results[worker] == expected[worker::4]).all()


def test_features_reconstruct_the_vector() -> None:
    text = "Refund policy: refunds within 30 days"
    vector = np.zeros(EMBEDDER.dimensions)
    for feature in EMBEDDER.features(text):
        vector[feature.bucket] += feature.sign * feature.weight
    vector /= np.linalg.norm(vector)
    assert np.allclose(vector, EMBEDDER.embed(text), atol=1e-15)
    names = {(f.name, f.kind) for f in EMBEDDER.features(text)}
    assert ("refund", "word") in names
    assert (" re", "ngram") in names
    assert ("nd ", "ngram") in names
    assert EMBEDDER.features("") == [EMBEDDER.features("!?")[0]]
    assert EMBEDDER.features("")[0].kind == "fallback"


def test_default_dimensions_is_exported_and_is_the_default() -> None:
    import placeborag_core
    from placeborag_core import DEFAULT_DIMENSIONS
    from placeborag_core.embedding import DEFAULT_DIMENSIONS as FROM_LAYER

    assert DEFAULT_DIMENSIONS == FROM_LAYER == 384
    assert FakeEmbedder().dimensions == DEFAULT_DIMENSIONS
    assert len(EMBEDDER.embed("refund policy")) == DEFAULT_DIMENSIONS
    assert "DEFAULT_DIMENSIONS" in placeborag_core.__all__
    assert "DEFAULT_DIMENSIONS" in dir(placeborag_core)


def test_identity_names_the_space() -> None:
    assert FakeEmbedder().identity == EMBEDDER.identity
    assert FakeEmbedder() == EMBEDDER
    assert len({FakeEmbedder(), FakeEmbedder()}) == 1
    assert FakeEmbedder(clusters={"a": ["x"]}).identity != EMBEDDER.identity


def test_repr_shows_the_configuration_in_one_short_line() -> None:
    assert repr(EMBEDDER) == "FakeEmbedder(model_name='placeborag-hash-v1', dimensions=384)"
    assert repr(FakeEmbedder("m", 64, cluster_spread=0.5)) == (
        "FakeEmbedder(model_name='m', dimensions=64)"  # no clusters: the spread changes nothing
    )
    clusters = {"refund": ["refund policy"], "shipping": ["delivery times"]}
    assert repr(FakeEmbedder(clusters=clusters)) == (
        "FakeEmbedder(model_name='placeborag-hash-v1', dimensions=384, clusters=2)"
    )
    assert repr(FakeEmbedder(clusters=clusters, cluster_match="substring", cluster_spread=0.3)) == (
        "FakeEmbedder(model_name='placeborag-hash-v1', dimensions=384, clusters=2, "
        "cluster_match='substring', cluster_spread=0.3)"
    )


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [None, 3, b"bytes", ["list"]])
def test_non_str_text_is_a_type_error_naming_the_type(text: object) -> None:
    with pytest.raises(TypeError, match=f"text must be a str, got {type(text).__name__}"):
        EMBEDDER.embed(text)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=rf"texts\[1\] must be a str, got {type(text).__name__}"):
        EMBEDDER.embed_many(["ok", text])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"dimensions": 384.0}, TypeError, "dimensions must be an int from 8 to 65536, got float"),
        ({"dimensions": True}, TypeError, "dimensions must be an int"),
        ({"dimensions": "384"}, TypeError, "dimensions must be an int"),
        (
            {"dimensions": MIN_DIMENSIONS - 1},
            ValueError,
            "dimensions must be from 8 to 65536, got 7",
        ),
        ({"dimensions": 0}, ValueError, "got 0"),
        ({"dimensions": 1 << 20}, ValueError, "dimensions must be from 8"),
        ({"cluster_spread": 0}, ValueError, "cluster_spread must be a finite number > 0, got 0"),
        ({"cluster_spread": -0.1}, ValueError, "cluster_spread must be a finite number > 0"),
        ({"cluster_spread": float("nan")}, ValueError, "got nan"),
        ({"cluster_spread": float("inf")}, ValueError, "got inf"),
        ({"cluster_spread": True}, ValueError, "cluster_spread must be"),
        ({"cluster_match": "fuzzy"}, ValueError, "cluster_match must be 'exact' or 'substring'"),
        ({"model_name": ""}, TypeError, "model_name must be a non-empty str"),
        ({"model_name": 3}, TypeError, "model_name must be a non-empty str"),
        ({"clusters": ["refund policy"]}, TypeError, "clusters must be a mapping"),
        ({"clusters": {"refund": "refund policy"}}, TypeError, "must map to a list of member"),
        ({"clusters": {"refund": ["ok", 3]}}, TypeError, "must be non-empty strings, got 3"),
        ({"clusters": {"refund": [""]}}, TypeError, "must be non-empty strings, got ''"),
        ({"clusters": {"": ["x"]}}, TypeError, "cluster names must be non-empty strings"),
    ],
)
def test_bad_options_say_what_is_allowed(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        FakeEmbedder(**kwargs)  # type: ignore[arg-type]


def test_cosine_similarity_accepts_lists_and_arrays_and_rejects_nonsense() -> None:
    assert cosine_similarity([1.0, 0.0], np.array([2.0, 0.0])) == pytest.approx(1.0)
    assert cosine_similarity([1.0, 0.0], [0.0, 3.0]) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="same length"):
        cosine_similarity([1.0, 0.0], [1.0])
    with pytest.raises(ValueError, match="zero vector"):
        cosine_similarity([0.0, 0.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="finite"):
        cosine_similarity([float("nan"), 0.0], [1.0, 0.0])


def test_large_batches_are_embedded_in_blocks_with_identical_rows() -> None:
    texts = [f"chunk {i} of the handbook: refunds, returns and repairs" for i in range(2600)]
    batch = FakeEmbedder(dimensions=16).embed_many(texts)
    single = FakeEmbedder(dimensions=16)
    for i in (0, 1023, 1024, 2047, 2048, 2599):
        assert batch[i].tolist() == single.embed(texts[i])


@settings(max_examples=300)
@given(
    st.lists(
        st.text(
            alphabet=st.characters(blacklist_categories=("Cs", "Zs", "Cc")), min_size=1, max_size=12
        ).filter(lambda t: not any(c.isspace() for c in t)),
        min_size=1,
        max_size=8,
    )
)
def test_the_scalar_and_vectorised_feature_hashes_agree(token_list: list[str]) -> None:
    import placeborag_core.embedding.features as features_module

    hasher = FakeEmbedder(dimensions=64)._hasher
    scalar = hasher.hash_new_tokens(token_list)  # a few tokens: Python integers
    few = features_module._FEW_TOKENS
    features_module._FEW_TOKENS = 0  # force the numpy path for the same tokens
    try:
        vectorised = hasher.hash_new_tokens(token_list)
    finally:
        features_module._FEW_TOKENS = few
    sizes = scalar[2]
    assert list(vectorised[2]) == list(sizes)
    bounds = np.cumsum([0, *sizes])
    a_pairs = list(zip(np.asarray(scalar[0]).tolist(), np.asarray(scalar[1]).tolist(), strict=True))
    b_pairs = list(
        zip(np.asarray(vectorised[0]).tolist(), np.asarray(vectorised[1]).tolist(), strict=True)
    )
    for lo, hi in itertools.pairwise(bounds):  # same (bucket, weight) features per token
        assert sorted(a_pairs[lo:hi]) == sorted(b_pairs[lo:hi])


@pytest.mark.parametrize(
    "text", ["Refund\x00Policy", "a\x00", "\x00", "x_y-z", "TAB\tand\nlines", "naïve\x00café"]
)
def test_single_text_tokens_match_the_batch_tokeniser(text: str) -> None:
    from placeborag_core.embedding.text import tokenise_many, tokens

    assert tokens(text) == tokenise_many([text])[0] == tokenise_many(["x", text, "y"])[1]


def test_embed_many_can_round_rows_to_float32_block_by_block() -> None:
    texts = [f"note {i} on refunds" for i in range(1500)]
    embedder = FakeEmbedder(dimensions=32)
    single = embedder.embed_many(texts, dtype=np.float32)
    assert single.dtype == np.float32
    assert (single == embedder.embed_many(texts).astype(np.float32)).all()
    small = embedder.embed_many(texts[:3], dtype=np.float32)
    assert small.dtype == np.float32
    assert (small == single[:3]).all()


def _bits(rows: list[list[float]]) -> list[bytes]:
    return [np.array(row, dtype=np.float64).tobytes() for row in rows]


@settings(max_examples=200, deadline=None)
@given(texts_strategy)
def test_embed_lists_equals_embed_many_tolist_bit_for_bit(texts: list[str]) -> None:
    embedder = FakeEmbedder(dimensions=32, clusters={"pets": ["cat", "dog"]})
    rows = embedder.embed_lists([*texts, "cat", "", "dog"])
    assert _bits(rows) == _bits(embedder.embed_many([*texts, "cat", "", "dog"]).tolist())
    assert all(type(x) is float for row in rows for x in row)


def test_embed_lists_handles_long_repetitions_blocks_and_bad_input() -> None:
    embedder = FakeEmbedder(dimensions=16)
    # one word 300 times: bucket sums far beyond what a pool per row is worth
    texts = ["spam " * 300, "refund policy", *[f"doc {i} refund" for i in range(2100)]]
    rows = embedder.embed_lists(texts)
    assert len(rows) == len(texts)
    assert _bits(rows) == _bits(embedder.embed_many(texts).tolist())
    assert embedder.embed_lists([]) == []
    with pytest.raises(TypeError, match="sequence of strings, got str"):
        embedder.embed_lists("refund policy")


def test_embed_lists_rows_of_equal_norm_share_their_float_objects() -> None:
    # "refund" and "parcel": one word of six letters each, so the same feature weights and,
    # with no bucket collision, the same norm: their rows draw from one pool of floats
    embedder = FakeEmbedder()
    a, b = embedder.embed_lists(["refund", "parcel"])
    assert a != b
    floats = {id(x) for row in (a, b) for x in row}
    assert len(floats) == len({x for row in (a, b) for x in row})


def test_embed_lists_rows_are_independent_lists() -> None:
    rows = FakeEmbedder(dimensions=16).embed_lists(["", "", "refund", "refund"])
    rows[0][0] = 99.0
    rows[2][0] = 99.0
    assert rows[1][0] != 99.0
    assert rows[3][0] != 99.0


@settings(max_examples=200, deadline=None)
@given(texts_strategy)
def test_embed_equals_embed_many_bit_for_bit(texts: list[str]) -> None:
    embedder = FakeEmbedder(dimensions=32)
    singles = [embedder.embed(text) for text in texts]  # pooled floats, then from the array
    assert _bits(singles) == _bits(embedder.embed_many(texts).tolist())


def test_embed_handles_long_texts_and_the_widest_spaces_like_the_batch() -> None:
    long_text = "refund " * 400 + "policy " * 50  # bucket sums too wide for a pool of floats
    for embedder, text in [
        (FakeEmbedder(dimensions=16), long_text),
        (FakeEmbedder(dimensions=40_000), "refund policy for parcels"),  # units need 32 bits
    ]:
        assert _bits([embedder.embed(text)]) == _bits(embedder.embed_many([text]).tolist())


def test_embed_returns_a_fresh_list_each_time() -> None:
    embedder = FakeEmbedder()
    first = embedder.embed("refund policy")
    expected = list(first)
    first[0] = 99.0
    assert embedder.embed("refund policy") == expected


def test_kept_token_units_are_dropped_past_their_budget_without_changing_vectors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import placeborag_core.embedding._speed.token_units as token_units

    texts = [f"refund {i} parcel {i * 7} courier" for i in range(300)]
    expected = [FakeEmbedder().embed(text) for text in texts]
    monkeypatch.setattr(token_units, "_KEPT_BYTES", 2_000)
    embedder = FakeEmbedder()
    assert [embedder.embed(text) for text in texts] == expected
    assert 0 < embedder._units.kept < 50  # dropped along the way, refilled since


@pytest.mark.parametrize("dtype", [np.int32, object, "nonsense", complex])
def test_embed_many_refuses_a_dtype_that_is_not_a_float(dtype: object) -> None:
    with pytest.raises(TypeError, match="dtype must be a numpy floating type"):
        FakeEmbedder(dimensions=16).embed_many(["a"], dtype=dtype)  # type: ignore[arg-type]
