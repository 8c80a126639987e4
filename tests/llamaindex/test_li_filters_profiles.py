"""The chroma and qdrant profiles accept, reject and evaluate MetadataFilters as the real stores do.

Expected values are what ``ChromaVectorStore`` and ``QdrantVectorStore`` return on the same six
records (a=red,1  b=blue,2  c=red,3  d=green,4  e=blue,5  f=red,6), as
docs/integrations/llamaindex.md records them: ``li-chroma-filters``, ``-filter-unsupported``,
``-filter-not``, ``-filter-in-string``, ``-filter-nested`` and ``li-qdrant-filters``,
``-filter-unsupported``, ``-filter-ne-float``, ``-filter-nested``.
"""

from __future__ import annotations

import re

import pytest
from li_support import build_index, make_nodes, retrieve_letters
from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)
from pydantic import ValidationError

from placeborag_llamaindex import PlaceboVectorStore
from placeborag_llamaindex.filters import chroma_where, qdrant_where

OP = FilterOperator
AND, OR, NOT = FilterCondition.AND, FilterCondition.OR, FilterCondition.NOT


def mf(key, value, operator=OP.EQ):
    return MetadataFilter(key=key, value=value, operator=operator)


def group(*filters, condition=AND):
    return MetadataFilters(filters=list(filters), condition=condition)


RED, GREEN, BLUE = mf("color", "red"), mf("color", "green"), mf("color", "blue")


def chroma_rejects(what):
    return (ValueError, f"{what} not supported")


def qdrant_rejects(operator):
    return (NotImplementedError, f"Filter operator {operator} is not supported by Qdrant")


#  label, filters, chroma, qdrant   (a str of letters, or (exception type, message fragment));
#  messages format the enums as the integrations do, which differs between Python versions
CASES = [
    ("EQ str", group(RED), "acf", "acf"),
    ("EQ int", group(mf("n", 1)), "a", "a"),
    ("EQ float vs int", group(mf("n", 1.0)), "a", "a"),
    ("EQ float", group(mf("price", 1.5)), "a", "a"),
    ("EQ str vs int", group(mf("n", "1")), "", ""),
    ("NE", group(mf("color", "red", OP.NE)), "bde", "bde"),
    ("NE missing key", group(mf("missing", "x", OP.NE)), "abcdef", ""),
    ("GT", group(mf("n", 3, OP.GT)), "def", "def"),
    ("GTE", group(mf("n", 3, OP.GTE)), "cdef", "cdef"),
    ("LT", group(mf("n", 3, OP.LT)), "ab", "ab"),
    ("LTE", group(mf("n", 3, OP.LTE)), "abc", "abc"),
    ("GT float", group(mf("price", 3.5, OP.GT)), "def", "def"),
    ("GT type mismatch", group(mf("color", 3, OP.GT)), "", ""),
    ("IN", group(mf("color", ["red", "green"], OP.IN)), "acdf", "acdf"),
    (
        "IN comma string",
        group(mf("color", "red,green", OP.IN)),
        (ValueError, "Expected operand value to be an list for operator $in"),
        "acdf",
    ),
    ("IN ints", group(mf("n", [1, 4], OP.IN)), "ad", "ad"),
    ("NIN", group(mf("color", ["red", "green"], OP.NIN)), "be", "be"),
    (
        "ANY",
        group(mf("color", ["red"], OP.ANY)),
        chroma_rejects(f"Filter operator {OP.ANY}"),
        qdrant_rejects(OP.ANY),
    ),
    (
        "ALL",
        group(mf("color", ["red"], OP.ALL)),
        chroma_rejects(f"Filter operator {OP.ALL}"),
        qdrant_rejects(OP.ALL),
    ),
    (
        "CONTAINS",
        group(mf("color", "red", OP.CONTAINS)),
        chroma_rejects(f"Filter operator {OP.CONTAINS}"),
        qdrant_rejects(OP.CONTAINS),
    ),
    (
        "TEXT_MATCH partial word",
        group(mf("color", "ed", OP.TEXT_MATCH)),
        chroma_rejects(f"Filter operator {OP.TEXT_MATCH}"),
        "",
    ),
    (
        "TEXT_MATCH word",
        group(mf("color", "red", OP.TEXT_MATCH)),
        chroma_rejects(f"Filter operator {OP.TEXT_MATCH}"),
        "acf",
    ),
    (
        "TEXT_MATCH_INSENSITIVE",
        group(mf("color", "RE", OP.TEXT_MATCH_INSENSITIVE)),
        chroma_rejects(f"Filter operator {OP.TEXT_MATCH_INSENSITIVE}"),
        "",
    ),
    (
        "IS_EMPTY missing",
        group(mf("missing", None, OP.IS_EMPTY)),
        chroma_rejects(f"Filter operator {OP.IS_EMPTY}"),
        "abcdef",
    ),
    ("AND", group(RED, mf("n", 1, OP.GT)), "cf", "cf"),
    ("OR", group(GREEN, mf("n", 1), condition=OR), "ad", "ad"),
    ("OR of one", group(GREEN, condition=OR), "d", "d"),
    (
        "NOT one",
        group(RED, condition=NOT),
        chroma_rejects(f"Filter condition {NOT}"),
        "bde",
    ),
    (
        "NOT many",
        group(RED, mf("n", 2), condition=NOT),
        chroma_rejects(f"Filter condition {NOT}"),
        "de",
    ),
    (
        "nested OR[AND[red, n<3], green]",
        group(group(RED, mf("n", 3, OP.LT)), GREEN, condition=OR),
        "ad",
        "ad",
    ),
    (
        "nested AND[OR[green, blue], n>2]",
        group(group(GREEN, BLUE, condition=OR), mf("n", 2, OP.GT)),
        "de",
        "de",
    ),
    (
        "nested AND[NOT[red], n>2]",
        group(group(RED, condition=NOT), mf("n", 2, OP.GT)),
        chroma_rejects(f"Filter condition {NOT}"),
        "de",
    ),
    ("empty filters", group(), "abcdef", "abcdef"),
    (
        "nested empty group",
        group(group(), RED),
        (ValueError, "Expected where to have exactly one operator, got {}"),
        "acf",
    ),
    # Not reproduced: the real QdrantVectorStore drops the whole filter when condition is None.
    ("condition=None is AND", group(RED, condition=None), "acf", "acf"),
]


@pytest.fixture(scope="module", params=["chroma", "qdrant"])
def profile_index(request):
    return request.param, build_index(PlaceboVectorStore(profile=request.param), make_nodes())


@pytest.mark.parametrize(("label", "filters", "chroma", "qdrant"), CASES, ids=[c[0] for c in CASES])
def test_matches_the_real_integration(profile_index, label, filters, chroma, qdrant):
    profile, index = profile_index
    expected = chroma if profile == "chroma" else qdrant
    if isinstance(expected, tuple):
        error, fragment = expected
        with pytest.raises(error) as caught:
            retrieve_letters(index, filters)
        assert type(caught.value) is error or issubclass(type(caught.value), error)
        assert fragment in str(caught.value), label
    else:
        assert retrieve_letters(index, filters) == list(expected), label


@pytest.mark.parametrize(
    ("filters", "model"),
    [
        (group(mf("price", 1.5, OP.NE)), "MatchExcept"),
        (group(mf("price", [1.5, 2.5], OP.NIN)), "MatchExcept"),
        (group(mf("price", [1.5], OP.IN)), "MatchAny"),
        (group(mf("color", ["red"], OP.EQ)), "MatchValue"),
        (group(mf("n", "three", OP.GT)), "Range"),
        (group(mf("color", 3, OP.TEXT_MATCH)), "MatchText"),
    ],
)
def test_qdrant_rejects_values_its_models_reject(filters, model):
    with pytest.raises(ValidationError, match=model):
        qdrant_where(filters)


def test_qdrant_coerces_a_numeric_string_bound_like_its_range_model():
    assert qdrant_where(group(mf("n", "3", OP.GT))) == {"n": {"$gt": 3.0}}


def test_qdrant_float_equality_is_a_closed_range():
    assert qdrant_where(group(mf("price", 1.5))) == {"price": {"$gte": 1.5, "$lte": 1.5}}


def test_qdrant_drops_empty_groups_everywhere():
    assert qdrant_where(group(group(), group(group(), condition=NOT))) is None


def test_chroma_translation_mirrors_to_chroma_filter():
    assert chroma_where(group(RED)) == {"color": {"$eq": "red"}}
    assert chroma_where(group(RED, GREEN, condition=OR)) == {
        "$or": [{"color": {"$eq": "red"}}, {"color": {"$eq": "green"}}]
    }
    assert chroma_where(group()) is None


def test_rejection_happens_before_anything_is_read():
    store = PlaceboVectorStore(profile="chroma")
    store.fail_next_query()  # would fire if the query reached the core
    index = build_index(store, make_nodes())
    with pytest.raises(ValueError, match=re.escape(f"Filter condition {NOT} not supported")):
        retrieve_letters(index, group(RED, condition=NOT))
    from placeborag_core import RetrievalTimeout

    with pytest.raises(RetrievalTimeout):
        retrieve_letters(index)


SHAPES = {
    "a": {"n": 1, "tags": ["red", "Blue sky"]},
    "b": {"n": 2.5, "tags": ["green"]},
    "c": {"n": "3", "tags": "red"},
    "d": {"n": True, "tags": []},
    "e": {"n": [4, "x"], "tags": [1, "red wine"]},
    "f": {"n": None, "tags": [["red"]]},
}
"""The metadata of li_qdrant_integration.py's value-shape facts."""


@pytest.fixture(scope="module")
def qdrant_shapes():
    return build_index(PlaceboVectorStore(profile="qdrant"), make_nodes(SHAPES))


@pytest.mark.parametrize("operator", [OP.GT, OP.GTE, OP.LT, OP.LTE])
def test_qdrant_range_without_a_value_matches_every_number(qdrant_shapes, operator):
    # li-qdrant-filter-range-none: Range(gt=None) has no bound; bools, strings and None do not
    # match, a list holding a number does
    assert sorted(retrieve_letters(qdrant_shapes, group(mf("n", None, operator)))) == list("abe")
    negated = group(mf("n", None, operator), condition=NOT)
    assert sorted(retrieve_letters(qdrant_shapes, negated)) == list("cdf")


@pytest.mark.parametrize("operator", [OP.TEXT_MATCH, OP.TEXT_MATCH_INSENSITIVE])
@pytest.mark.parametrize(
    ("text", "expected"), [("red", "ace"), ("RED", "ace"), ("sky blue", "a"), ("1", "")]
)
def test_qdrant_text_match_reads_the_str_elements_of_a_list(
    qdrant_shapes, operator, text, expected
):
    # li-qdrant-filter-text-match-list: one str element must hold every word; an int element
    # or a nested list never matches
    got = retrieve_letters(qdrant_shapes, group(mf("tags", text, operator)))
    assert sorted(got) == list(expected)
    negated = retrieve_letters(qdrant_shapes, group(mf("tags", text, operator), condition=NOT))
    assert sorted(negated) == sorted(set("abcdef") - set(expected))
