"""read_qdrant_filter (Qdrant's filter model, duck-typed, as a core clause) and the clause
combinators it builds with. The LangChain and LlamaIndex suites compare the same reading with
langchain-qdrant and QdrantVectorStore; here it runs against a core store directly."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from placeborag_core import FakeVectorStore
from placeborag_core.backends import NativeWhere, PayloadLayout
from placeborag_core.backends.qdrant.filters import read_qdrant_filter
from placeborag_core.filters.clauses import ALWAYS, NEVER, conjunction, disjunction, negation

TEXTS = {"1": "refund policy", "2": "shipping times", "3": "refund window", "4": "gift cards"}
META = {"1": {"lang": "en", "n": 1}, "2": {"lang": "de", "n": 2}, "3": {"lang": "en"}, "4": {}}
PAYLOAD = PayloadLayout(text_key="body")


def qfilter(must: Any = None, should: Any = None, must_not: Any = None, **extra: Any) -> Any:
    return SimpleNamespace(must=must, should=should, must_not=must_not, **extra)


def field(key: str, **kw: Any) -> SimpleNamespace:
    return SimpleNamespace(key=key, match=kw.get("match"), range=kw.get("range"))


def value(v: Any) -> SimpleNamespace:
    return SimpleNamespace(value=v)


def found(flt: Any, payload: PayloadLayout = PAYLOAD) -> list[str]:
    store = FakeVectorStore(profile="qdrant")
    store.upsert_many([(i, TEXTS[i], META[i], [1.0, float(i)]) for i in TEXTS])
    read = read_qdrant_filter(flt, payload)
    return sorted(r.id for r in store.select(read.where, ids=read.ids))  # type: ignore[arg-type]


def test_metadata_text_and_id_conditions_compose() -> None:
    assert found(qfilter(must=[field("lang", match=value("en"))])) == ["1", "3"]
    assert found(qfilter(must=[field("body", match=SimpleNamespace(text="refund"))])) == ["1", "3"]
    assert found(
        qfilter(should=[field("body", match=value("gift cards")), field("n", match=value(2))])
    ) == ["2", "4"]
    assert found(qfilter(must_not=[SimpleNamespace(has_id=["1", "2"])])) == ["3", "4"]
    nested = qfilter(must=[qfilter(must=[SimpleNamespace(has_id=["1", "4"])])])
    assert found(nested) == ["1", "4"]
    at_least_two = SimpleNamespace(
        conditions=[
            field("lang", match=value("en")),
            SimpleNamespace(has_id=["3", "4"]),
            field("body", match=SimpleNamespace(text="refund")),
        ],
        min_count=2,
    )
    assert found(qfilter(min_should=at_least_two)) == ["1", "3"]


def test_keys_outside_the_payload_layout_name_nothing() -> None:
    prefixed = PayloadLayout(metadata_prefix="metadata.")
    assert found(qfilter(must=[field("metadata.lang", match=value("de"))]), prefixed) == ["2"]
    assert found(qfilter(must=[field("lang", match=value("de"))]), prefixed) == []
    assert found(qfilter(must=[field("body", match=value("gift cards"))]), prefixed) == []
    empty = SimpleNamespace(is_empty=SimpleNamespace(key="lang"))
    assert found(qfilter(must=[empty]), prefixed) == ["1", "2", "3", "4"]


def test_top_level_ids_restrict_and_constants_fold() -> None:
    top = read_qdrant_filter(qfilter(must=[SimpleNamespace(has_id=[1, "2"])]), PAYLOAD)
    assert top == NativeWhere(where=None, ids=frozenset({"1", "2"}))
    assert read_qdrant_filter(qfilter(), PAYLOAD) == NativeWhere()
    never = read_qdrant_filter(qfilter(must=[field("lang")]), PAYLOAD)  # no match, no range
    assert never == NativeWhere(ids=frozenset())


def test_what_the_core_cannot_say_is_named() -> None:
    geo = SimpleNamespace(key="lang", match=None, range=None, geo_radius=object())
    with pytest.raises(NotImplementedError, match="geo_radius"):
        read_qdrant_filter(qfilter(must=[geo]), PAYLOAD)
    with pytest.raises(NotImplementedError, match="MatchPhrase"):
        read_qdrant_filter(
            qfilter(must=[field("lang", match=type("MatchPhrase", (), {})())]), PAYLOAD
        )
    with pytest.raises(NotImplementedError, match="IsNullCondition"):
        read_qdrant_filter(qfilter(must=[SimpleNamespace(is_null=object())]), PAYLOAD)


def test_clause_combinators_fold_constants() -> None:
    clause = {"a": 1}
    assert conjunction([ALWAYS, clause]) == clause
    assert conjunction([clause, NEVER]) is NEVER
    assert conjunction([]) is ALWAYS
    assert conjunction([clause, {"b": 2}]) == {"$and": [clause, {"b": 2}]}
    assert disjunction([NEVER, clause]) == clause
    assert disjunction([clause, ALWAYS]) is ALWAYS
    assert disjunction([]) is NEVER
    assert negation(ALWAYS) is NEVER
    assert negation(NEVER) is ALWAYS
    assert negation(clause) == {"$not": clause}
    assert repr(ALWAYS) == "ALWAYS"


# --- nested payload keys (docs/integrations/langchain.md#lc-qdrant-filter-nested) -------------

NESTED = {
    "o": {"details": {"page": 2}},
    "a": {"details": [{"page": 2}, {"page": 3}]},
    "l": {"details": {"page": [2, 5]}},
    "m": {},
    "n": {"details": {"page": None}},
    "q": {"a.b": 1, "a": {"b": 7}},
}


def nested(flt: Any) -> list[str]:
    store = FakeVectorStore(profile="qdrant")
    rows = [
        (str(n + 1), name, meta, [1.0, float(n)]) for n, (name, meta) in enumerate(NESTED.items())
    ]
    store.upsert_many(rows)
    read = read_qdrant_filter(flt, PayloadLayout(metadata_prefix="metadata."))
    selected = store.select(read.where, ids=read.ids)  # type: ignore[arg-type]
    return sorted(r.text or "" for r in selected)


@pytest.mark.parametrize(
    ("key", "match", "expected"),
    [
        ("metadata.details.page", value(2), ["l", "o"]),  # a plain key never enters an array
        ("metadata.details[].page", value(2), ["a"]),
        ("metadata.details[1].page", value(3), ["a"]),
        ("metadata.details[5].page", value(3), []),
        ("metadata.details[].page", SimpleNamespace(any=[3, 9]), ["a"]),
        ('metadata."a.b"', value(1), ["q"]),  # a quoted key holds the dot
        ("metadata.a.b", value(7), ["q"]),
        ("metadata.a.b", value(1), []),
    ],
)
def test_nested_payload_keys_select_like_qdrant(key: str, match: Any, expected: list[str]) -> None:
    assert nested(qfilter(must=[field(key, match=match)])) == expected


def test_nested_keys_negate_and_test_emptiness_like_qdrant() -> None:
    two = field("metadata.details.page", match=value(2))
    assert nested(qfilter(must_not=[two])) == ["a", "m", "n", "q"]
    empty = SimpleNamespace(is_empty=SimpleNamespace(key="metadata.details.page"))
    assert nested(qfilter(must=[empty])) == ["a", "m", "n", "q"]
    empty_each = SimpleNamespace(is_empty=SimpleNamespace(key="metadata.details[].page"))
    assert nested(qfilter(must=[empty_each])) == ["l", "m", "n", "o", "q"]


@pytest.mark.parametrize("key", ["metadata.a..b", 'metadata."a', "metadata.a[x]", "metadata.a."])
def test_an_invalid_nested_key_raises_filter_error(key: str) -> None:
    from placeborag_core import FilterError

    with pytest.raises(FilterError, match="invalid Qdrant payload key"):
        nested(qfilter(must=[field(key, match=value(1))]))


def test_a_key_that_is_not_a_str_raises_filter_error() -> None:
    from placeborag_core import FilterError

    with pytest.raises(FilterError, match="key must be a str, got 3"):
        nested(qfilter(must=[field(3, match=value(1))]))  # type: ignore[arg-type]


def _records(metas: dict[str, dict[str, Any]]) -> FakeVectorStore:
    store = FakeVectorStore(profile="qdrant")
    store.upsert_many([(i, None, m, [1.0, float(i)]) for i, m in metas.items()])
    return store


def test_range_without_bounds_matches_every_number_and_nothing_else() -> None:
    # qdrant-filter-range-unbounded: the probe's records, n = 1, 5, 10, "5", 2.5, 1.0, none
    store = _records(
        {"1": {"n": 1}, "2": {"n": 5}, "3": {"n": 10}, "4": {}, "6": {"n": "5"}, "7": {"n": 2.5}}
        | {"8": {"n": 1.0, "flag": True}, "9": {"flag": False}}
    )
    bounds = SimpleNamespace(gt=None, gte=None, lt=None, lte=None)
    read = read_qdrant_filter(qfilter(must=[field("n", range=bounds)]), PAYLOAD)
    assert sorted((r.id for r in store.select(read.where)), key=int) == ["1", "2", "3", "7", "8"]


def test_text_match_reads_each_str_element_of_a_list() -> None:
    # qdrant-filter-text-array: MatchText "Y" finds ["x", "y"]
    store = _records({"10": {"tags": ["x", "y"]}, "11": {"tags": []}, "12": {"tags": "y z"}})
    assert sorted(r.id for r in store.select({"tags": {"$text_match": "Y"}})) == ["10", "12"]
