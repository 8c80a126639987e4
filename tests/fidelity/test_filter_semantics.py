"""Every filter operator, on the records the backend probes used, against the real engine.

The records are those of probes/chroma_filters.py and qdrant_filters.py (a missing key, a
record without metadata, ``n`` as int, float, string and bool neighbours) plus list-valued and
text-valued records. Each filter is run with k above the collection size, so the comparison
covers exactly which records match (and their order and scores); filters the engine rejects must
be rejected by us too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from ._cases import Dataset
from ._engines import FakeSide, real_side
from ._params import skip_unless_installed
from ._runners import compare_query, tolerance

pytestmark = pytest.mark.fidelity

RECORDS: list[dict[str, Any]] = [
    {"color": "red", "n": 1},
    {"color": "blue", "n": 5},
    {"n": 10},
    {"color": "green"},
    {},
    {"color": "red", "n": "5"},
    {"n": 2.5, "color": "blue"},
    {"flag": True, "n": 1.0},
    {"flag": False, "color": ""},
    {"tags": ["x", "y"], "title": "alpha beta"},
    {"tags": ["z"], "title": "Beta gamma", "n": 0},
    {"title": "ALPHA", "flag": True, "n": -1},
]

QDRANT_EXTRA: list[dict[str, Any]] = [{"tags": [], "color": None}]
"""Payload values Chroma refuses to store (an empty list, None) but Qdrant keeps."""

COMMON_FILTERS: list[dict[str, Any]] = [
    {"color": "red"},
    {"color": ""},
    {"color": "purple"},
    {"color": {"$eq": "red"}},
    {"n": {"$eq": 1}},
    {"n": 1},
    {"n": {"$eq": 1.0}},
    {"n": {"$eq": 2.5}},
    {"n": {"$eq": "5"}},
    {"flag": True},
    {"flag": {"$eq": False}},
    {"flag": {"$eq": 1}},
    {"missing": {"$eq": "x"}},
    {"color": {"$ne": "red"}},
    {"n": {"$ne": 1}},
    {"flag": {"$ne": True}},
    {"missing": {"$ne": "x"}},
    {"color": {"$in": ["red", "green"]}},
    {"n": {"$in": [1, 5]}},
    {"color": {"$nin": ["red", "green"]}},
    {"missing": {"$nin": ["x"]}},
    {"n": {"$gt": 3}},
    {"n": {"$gte": 5}},
    {"n": {"$lt": 5}},
    {"n": {"$lte": 1}},
    {"n": {"$gt": 2}},
    {"n": {"$gt": 2.5}},
    {"n": {"$lte": 1.0}},
    {"n": {"$gte": 1.5}},
    {"n": {"$lt": 5.5}},
    {"n": {"$gt": -1.5}},
    {"n": {"$lte": 0.5}},
    {"n": {"$eq": 1.5}},
    {"color": {"$gt": 3}},
    {"flag": {"$gt": 0}},
    {"missing": {"$lt": 100}},
    {"tags": {"$eq": "x"}},
    {"tags": {"$in": ["x"]}},
    {"tags": {"$ne": "x"}},
    {"tags": {"$nin": ["x"]}},
    {"$and": [{"color": "red"}, {"n": {"$gt": 0}}]},
    {"$or": [{"color": "green"}, {"n": {"$gt": 5}}]},
    {"$or": [{"$and": [{"color": "red"}, {"n": {"$lt": 3}}]}, {"color": "green"}]},
    {"$and": [{"$or": [{"color": "green"}, {"color": "blue"}]}, {"n": {"$gt": 2}}]},
]
"""Filters legal in both dialects (one key per mapping, one operator per expression)."""

CHROMA_FILTERS: list[dict[str, Any]] = [
    {"n": {"$in": [1.0]}},
    {"n": 5.5},
    {"n": {"$in": [5.5, 0.5]}},
    {"n": {"$ne": 1.5}},
    {"n": {"$nin": [10.5]}},
    {"color": {"$contains": "re"}},
    {"tags": {"$contains": "x"}},
    {"tags": {"$not_contains": "x"}},
    {"color": {"$not_contains": "red"}},
    {"missing": {"$contains": "x"}},
    {"missing": {"$not_contains": "x"}},
    {"n": {"$nin": [1, 5]}},
]

QDRANT_FILTERS: list[dict[str, Any]] = [
    {"tags": "x"},
    {"tags": {"$nin": ["y", "z"]}},
    {"title": {"$text_match": "alpha"}},
    {"title": {"$text_match": "ALPHA"}},
    {"title": {"$text_match": "alp"}},
    {"title": {"$text_match": "beta alpha"}},
    {"title": {"$text_match_insensitive": "BETA"}},
    {"color": {"$is_empty": True}},
    {"tags": {"$is_empty": True}},
    {"missing": {"$is_empty": True}},
    {"color": {"$exists": True}},
    {"missing": {"$exists": False}},
    {"tags": {"$exists": False}},
    {"$not": {"color": "red"}},
    {"$not": {"$or": [{"color": "red"}, {"n": 2}]}},
    {"color": "red", "n": 1},
    {"n": {"$gt": 1, "$lt": 9}},
    {"n": {"$in": [1, 5]}, "color": {"$ne": "blue"}},
]


MILVUS_EXTRA: list[dict[str, Any]] = [
    {"tags": ["x", "y"], "color": None},
    {"tags": [], "obj": {"a": 1, "b": {"c": "x"}}, "nums": [1, 2, 3]},
    {"n": 9007199254740993, "big": 1e300},
    {"color": "it's", "title": 'a"b'},
    {"color": "back\\slash", "title": "é%_x"},
    {"color": "r.d", "n": -0.0},
]
"""Values only JSON keeps (null, nested objects, int64 beyond double precision) and strings with
quotes, backslashes and like-wildcards."""

MILVUS_FILTERS: list[str] = [
    '(n <= 2 not (color == "red"))',
    '(color == "red" not n == 1)',
    '(color == "red" not n == 1 not n == 5)',
    '(n > 1 not color == "blue") and n < 10',
    '((n > 1) not (color == "blue"))',
    '(color == "red" xyz)',
    '(color == "red" AND n == 1)',
    '(color == "red" or n == 10 not n == 5)',
    'color == "red"',
    "color == 'red'",
    'color != "red"',
    "n != 1",
    'not (color == "red")',
    '!(color == "red")',
    'not color == "red"',
    'color in ["red", "green"]',
    'color not in ["red", "green"]',
    "n in [1, 5]",
    "n in [1.0]",
    'n in ["5"]',
    "n not in [1, 5]",
    "n == 1",
    "n == 1.0",
    'n == "5"',
    "n == 2.5",
    "n > 2",
    "n >= 5",
    "n < 5",
    "n <= 1",
    "n > 2.5",
    'n > "3"',
    'n > "4"',
    'color > "blue"',
    'color < "c"',
    "flag == true",
    "flag == True",
    "flag == TRUE",
    "flag == 1",
    "flag != true",
    "flag",
    "not flag",
    "n == true",
    'color like "r%"',
    'color like "%e%"',
    'color like "%"',
    'color like "re_"',
    'color like "R%"',
    'title like "%a%"',
    'n like "5%"',
    "exists color",
    "exists(color)",
    "color is null",
    "color is not null",
    "color == null",
    'tags == ["x", "y"]',
    'array_contains(tags, "x")',
    'json_contains(tags, "x")',
    'json_contains(tags, "q")',
    'json_contains_all(tags, ["x", "y"])',
    'json_contains_any(tags, ["x", "z"])',
    'array_contains_any(tags, ["x", "z"])',
    "array_length(tags) == 2",
    "array_length(tags) == 0",
    'tags[0] == "x"',
    'obj["a"] == 1',
    'obj["b"]["c"] == "x"',
    '$meta["color"] == "red"',
    '$meta["obj"]["a"] == 1',
    'meta["color"] == "red"',
    "nums[1] == 2",
    "1 < n < 6",
    "1 <= n <= 5",
    "6 > n > 1",
    "n + 1 == 2",
    "n * 2 == 10",
    "n % 2 == 1",
    "n - 1 > 3",
    "n / 2 == 2.5",
    "n ** 2 == 25",
    "-n == -1",
    "n == -1",
    'color == "red" and n == 1',
    'color == "red" && n == 1',
    'color == "red" or n == 10',
    'color == "red" || n == 10',
    'color == "red" AND n == 1',
    'color == "red" OR n == 10',
    '(color == "red" or color == "blue") and n > 1',
    'color == "red" and not n == 1',
    "n == 9007199254740993",
    "n == 9007199254740992",
    "big > 1e299",
    'id == "r1"',
    'id in ["r1", "r3"]',
    'id != "r1"',
    'id like "r1%"',
    'id > "r5"',
    "nosuch == 1",
    "nosuch != 1",
    "nosuch not in [1]",
    "nosuch in [1]",
    'nosuch like "x"',
    'color == "red" xyz',
    'color == "red" )',
    'color == "red" and',
    "n >",
    'color = "red"',
    "color == red",
    'color == ""',
    'color != ""',
    '   color == "red"   ',
    'not (id == "r1")',
    'not id in ["r1"]',
    'id not in ["r1"]',
    'NOT (id == "r1")',
    '!(id == "r1")',
    'not (color in ["red"])',
    'color NOT IN ["red"]',
    'color IN ["red"]',
    'color Not In ["red"]',
    'color LIKE "r%"',
    'color Like "r%"',
    'color == "red" And n == 1',
    'color == "red" AnD n == 1',
    "flag == False",
    "flag == fAlse",
    "flag in [true]",
    "flag > false",
    "flag != false",
    "n in []",
    "n not in []",
    'n in [1, "5"]',
    "n in [2.5]",
    'tags in ["x"]',
    'tags in [["x", "y"]]',
    'color in "red"',
    "n == 2.50",
    "n > -1.5",
    "n >= 1.0",
    "n > 1e0",
    "n > 1E0",
    "n == 0x1",
    "n == +5",
    "n == .5",
    "n == 5.",
    "n == 1_0",
    "n == 01",
    "n == 99999999999999999999",
    "n == 9007199254740993.0",
    'color == "r\\"ed"',
    'color == "\\u0072ed"',
    "color == 'r\\'ed'",
    'color == "r\\x65d"',
    'color like "r\\%"',
    'color like "%d"',
    'color like "_e_"',
    'color like "r"',
    'color like "red%"',
    'color like ""',
    'title like "B%"',
    'title like "%gamma"',
    'title like "Beta%gamma"',
    '$meta["n"] > 2',
    '$meta["n"] != 1',
    '$meta["nosuch"] != 1',
    'obj["a"]["q"] == 1',
    'obj["q"] != 1',
    "obj != 1",
    'obj["b"] != 1',
    "obj == 1",
    'tags != "x"',
    'tags[5] == "x"',
    'tags[0] != "x"',
    "json_contains(nums, 2.0)",
    "json_contains(nums, 2)",
    "json_contains(n, 1)",
    "array_contains(nums, 2)",
    'json_contains(tags, ["x"])',
    "json_contains_all(tags, [])",
    "json_contains_any(tags, [])",
    'json_contains_any(nosuch, ["x"])',
    "array_length(nosuch) == 0",
    "array_length(nums) > 2",
    "array_length(color) == 0",
    'n == 1 and color == "red" or n == 10',
    'n == 10 or n == 1 and color == "red"',
    "(n == 1)",
    "((n == 1))",
    "(n == 1",
    "n == 1)",
    "id == 5",
    "id in [1]",
    'id == "r1" or color == "red"',
    '"r1" < id < "r3"',
    '"r1" <= id <= "r3"',
    'id > "r1" and id < "r3"',
    "n >= 1 and n <= 5",
    "flag == true and not (n == 1)",
    'exists $meta["color"]',
    "EXISTS color",
    "color is NULL",
    'text_match(title, "alpha")',
    'n in [1] or n in ["5"]',
    "1 == n",
    '"red" == color',
    "5 > n",
    "1 != n",
    "1 < n",
    "1 <= n",
    "10 >= n",
    '"red" != color',
    '"r" < color',
    'color == "red" and n == 1 and',
    "n == 1 and n ==",
    'n == "a" "b"',
    "n in [1,]",
    "n in [1, 2,]",
    'color == "red" && (n == 1 || n == 10)',
    'color like "%%"',
    'title like "%"',
    'color like "%e%e%"',
    'color like "r.d"',
    'color like "[r]ed"',
    'color like "%\\%%"',
    'title like "%\\%%"',
    'title like "é%"',
    'title like "%\\_%"',
    'obj["b"]["c"] like "x%"',
    'obj["b"] == "x"',
    'color == "it\'s"',
    "color == 'it\\'s'",
    'color == "it\\\'s"',
    'title == "a\\"b"',
    "title == 'a\"b'",
    'color == "back\\\\slash"',
    'color like "back\\\\%"',
    'title == "é%_x"',
    "n == 0",
    "n == -0.0",
    "n < 0",
]
"""The expressions of docs/engines/milvus.md#filter-expressions (probes/milvus_filters.py):
every operator and function, literal forms, keyword spellings, a literal on the left, trailing
text the parser ignores, and the expressions Milvus rejects."""


PGVECTOR_FILTERS: list[dict[str, Any]] = [
    {"tags": "x"},
    {"tags": {"$ne": "x"}},
    {"tags": {"$nin": ["y", "z"]}},
    {"color": {"$ne": "red"}},
    {"color": {"$nin": ["red", "blue"]}},
    {"flag": {"$eq": 1}},
    {"flag": {"$gt": 0}},
    {"n": {"$ne": "5"}},
    {"n": {"$in": [1, "5", True]}},
    {"n": {"$nin": [1, "5"]}},
    {"color": {"$exists": True}},
    {"missing": {"$exists": False}},
    {"$not": {"color": "red"}},
    {"$not": {"n": 1}},
    {"$not": {"n": {"$gt": 2}}},
    {"$not": {"$or": [{"color": "red"}, {"n": 2}]}},
    {"$or": [{"n": 1}, {"$not": {"n": "5"}}]},
    {"$and": [{"$not": {"n": 1}}, {"color": {"$ne": "x"}}]},
    {"color": "red", "n": 1},
    {"n": {"$gt": 1, "$lt": 9}},
]
"""JSONB's rules: null matches ``$ne``, types never compare, ``NOT`` of unknown stays unknown."""


def _dataset(records: list[dict[str, Any]]) -> Dataset:
    vectors = np.random.default_rng(3).standard_normal((len(records), 4))
    ids = [str(i) for i in range(len(records))]
    return Dataset(kind="gauss", dim=4, ids=ids, vectors=vectors, metadatas=records)


@pytest.fixture(scope="module")
def milvus_filter_sides() -> Iterator[tuple[FakeSide, Any]]:
    """The milvus profile and a Milvus collection holding the records, shared by the module's
    Milvus filters (they only read)."""
    data = _dataset(RECORDS + MILVUS_EXTRA)
    fake, real = FakeSide("milvus", "cosine"), real_side("milvus", "cosine", data.dim)
    fake.upsert(data.ids, data.vectors, data.metadatas)
    real.upsert(data.ids, data.vectors, data.metadatas)
    yield fake, real
    real.close()


def _params(engine: str, filters: list[Any]) -> list[Any]:
    return [
        pytest.param(engine, where, id=f"{engine}-{where}", marks=skip_unless_installed(engine))
        for where in filters
    ]


@pytest.mark.parametrize(
    ("engine", "where"),
    _params("chroma", COMMON_FILTERS + CHROMA_FILTERS)
    + _params("qdrant", COMMON_FILTERS + QDRANT_FILTERS)
    + _params("milvus", COMMON_FILTERS + MILVUS_FILTERS)  # type: ignore[operator]
    + _params("pgvector", COMMON_FILTERS + PGVECTOR_FILTERS),
)
def test_filter_matches_the_same_records(
    engine: str, where: Any, sides: Any, request: pytest.FixtureRequest
) -> None:
    extra = {"qdrant": QDRANT_EXTRA, "pgvector": QDRANT_EXTRA, "milvus": MILVUS_EXTRA}
    data = _dataset(RECORDS + extra.get(engine, []))
    records = data.metadatas
    metric = "l2" if engine == "chroma" else "cosine"
    if engine == "milvus":  # one loaded pair for every filter: each Milvus write is a round trip
        fake, real = request.getfixturevalue("milvus_filter_sides")
    else:
        fake, real = sides(engine, metric, data.dim)
        fake.upsert(data.ids, data.vectors, data.metadatas)
        real.upsert(data.ids, data.vectors, data.metadatas)
    query = np.ones(data.dim)
    verdict = compare_query(
        engine, fake, real, vector=query, k=len(records) + 3, where=where,
        tol=tolerance(data, query, metric), size=len(records),
    )  # fmt: skip
    assert verdict.agree, verdict.detail
    assert not verdict.divergences, verdict.detail
