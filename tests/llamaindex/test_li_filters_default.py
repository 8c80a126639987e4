"""Every FilterOperator and FilterCondition under the default profile, against hand-computed sets.

Records a..f rank a, b, c, d, e, f for the query, so the expected list is the matching letters in
alphabetical order. The default profile is strict: a missing key never matches a field operator
(except IS_EMPTY), NOT means "none of the sub-filters match", and malformed filters raise.
"""

from __future__ import annotations

import pytest
from li_support import build_index, make_nodes, retrieve_letters
from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)

from placeborag_core import FilterError
from placeborag_llamaindex import PlaceboVectorStore
from placeborag_llamaindex.filters import default_where

OP = FilterOperator
METADATA = {
    "a": {"color": "red", "n": 1, "price": 1.5, "tags": ["x", "y"], "title": "Red Apple"},
    "b": {"color": "blue", "n": 2, "price": 2.5, "tags": ["y"], "title": "Blue Sky"},
    "c": {"color": "red", "n": 3, "price": 3.5, "tags": [], "title": "red car"},
    "d": {"color": "green", "n": 4, "price": 4.5, "title": "Green Tea"},
    "e": {"color": "blue", "n": 5, "tags": ["x"]},
    "f": {"n": 6, "price": 6.5, "tags": ["z"], "title": "FREDDY"},
}


def mf(key: str, value: object, operator: FilterOperator = OP.EQ) -> MetadataFilter:
    return MetadataFilter(key=key, value=value, operator=operator)


def group(
    *filters: object, condition: FilterCondition | None = FilterCondition.AND
) -> MetadataFilters:
    return MetadataFilters(filters=list(filters), condition=condition)


RED, GREEN, BLUE = mf("color", "red"), mf("color", "green"), mf("color", "blue")

CASES = [
    ("EQ str", group(RED), "ac"),
    ("EQ int", group(mf("n", 1)), "a"),
    ("EQ float against int", group(mf("n", 1.0)), "a"),
    ("EQ missing key", group(mf("missing", "x")), ""),
    ("NE (missing key does not match)", group(mf("color", "red", OP.NE)), "bde"),
    ("GT", group(mf("n", 3, OP.GT)), "def"),
    ("GTE", group(mf("n", 3, OP.GTE)), "cdef"),
    ("LT", group(mf("n", 3, OP.LT)), "ab"),
    ("LTE", group(mf("n", 3, OP.LTE)), "abc"),
    ("GT float, one key missing", group(mf("price", 3.5, OP.GT)), "df"),
    ("IN", group(mf("color", ["red", "green"], OP.IN)), "acd"),
    ("IN ints", group(mf("n", [1, 4], OP.IN)), "ad"),
    ("NIN (missing key does not match)", group(mf("color", ["red", "green"], OP.NIN)), "be"),
    ("ANY", group(mf("tags", ["x", "z"], OP.ANY)), "aef"),
    ("ALL", group(mf("tags", ["x", "y"], OP.ALL)), "a"),
    ("CONTAINS list element", group(mf("tags", "y", OP.CONTAINS)), "ab"),
    ("CONTAINS substring of str", group(mf("title", "Sky", OP.CONTAINS)), "b"),
    ("TEXT_MATCH is case-sensitive", group(mf("title", "ed", OP.TEXT_MATCH)), "ac"),
    ("TEXT_MATCH_INSENSITIVE", group(mf("title", "ed", OP.TEXT_MATCH_INSENSITIVE)), "acf"),
    ("IS_EMPTY: [] and missing", group(mf("tags", None, OP.IS_EMPTY)), "cd"),
    ("IS_EMPTY: missing", group(mf("title", None, OP.IS_EMPTY)), "e"),
    ("AND", group(RED, mf("n", 1, OP.GT)), "c"),
    ("OR", group(GREEN, mf("n", 1), condition=FilterCondition.OR), "ad"),
    ("OR of one", group(GREEN, condition=FilterCondition.OR), "d"),
    ("NOT one (missing key is 'not red')", group(RED, condition=FilterCondition.NOT), "bdef"),
    ("NOT many = none match", group(RED, mf("n", 2), condition=FilterCondition.NOT), "def"),
    (
        "nested OR[AND[red, n<3], green]",
        group(group(RED, mf("n", 3, OP.LT)), GREEN, condition=FilterCondition.OR),
        "ad",
    ),
    (
        "nested AND[OR[green, blue], n>2]",
        group(group(GREEN, BLUE, condition=FilterCondition.OR), mf("n", 2, OP.GT)),
        "de",
    ),
    (
        "nested AND[NOT[red], n>2]",
        group(group(RED, condition=FilterCondition.NOT), mf("n", 2, OP.GT)),
        "def",
    ),
    (
        "nested NOT[OR[red, blue]]",
        group(group(RED, BLUE, condition=FilterCondition.OR), condition=FilterCondition.NOT),
        "df",
    ),
    ("condition=None is AND", group(RED, mf("n", 1, OP.GT), condition=None), "c"),
    ("empty filters: no filter", group(), "abcdef"),
]


@pytest.fixture(scope="module")
def index():
    return build_index(PlaceboVectorStore(), make_nodes(METADATA))


@pytest.mark.parametrize(("label", "filters", "expected"), CASES, ids=[c[0] for c in CASES])
def test_every_operator_and_condition(index, label, filters, expected):
    assert retrieve_letters(index, filters) == list(expected), label


def test_every_operator_is_covered_by_the_table():
    used = set()

    def walk(node: object) -> None:
        if isinstance(node, MetadataFilters):
            for child in node.filters:
                walk(child)
        else:
            used.add(node.operator)

    conditions = set()
    for _, filters, _ in CASES:
        walk(filters)
        conditions.add(filters.condition)
    assert used == set(FilterOperator)
    assert {FilterCondition.AND, FilterCondition.OR, FilterCondition.NOT} <= conditions


def test_translation_is_the_core_dialect():
    filters = group(
        group(RED, mf("n", 3, OP.LT)),
        mf("tags", None, OP.IS_EMPTY),
        group(GREEN, BLUE, condition=FilterCondition.NOT),
        condition=FilterCondition.OR,
    )
    assert default_where(filters) == {
        "$or": [
            {"$and": [{"color": {"$eq": "red"}}, {"n": {"$lt": 3}}]},
            {"tags": {"$is_empty": True}},
            {"$not": {"$or": [{"color": {"$eq": "green"}}, {"color": {"$eq": "blue"}}]}},
        ]
    }


def test_empty_nested_group_raises_naming_its_path(index):
    with pytest.raises(FilterError, match=r"filters\.filters\[1\]: empty nested MetadataFilters"):
        retrieve_letters(index, group(RED, group()))


def test_numeric_bound_against_a_string_raises_before_reading(index):
    with pytest.raises(FilterError):
        retrieve_letters(index, group(mf("n", "3", OP.GT)))


def test_in_needs_a_list(index):
    with pytest.raises(FilterError):
        retrieve_letters(index, group(mf("color", "red,green", OP.IN)))


def test_filters_reach_the_implicit_document_keys():
    store = PlaceboVectorStore()
    nodes = make_nodes(METADATA)
    from llama_index.core.schema import NodeRelationship, RelatedNodeInfo

    nodes[1].relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id="doc-b")
    index = build_index(store, nodes)
    assert retrieve_letters(index, group(mf("doc_id", "doc-b"))) == ["b"]
    assert retrieve_letters(index, group(mf("ref_doc_id", "None"))) == list("acdef")
