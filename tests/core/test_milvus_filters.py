"""The milvus profiles' expression reader, without the engine: the measured rules of
docs/engines/milvus.md#filter-expressions on a few records (the fidelity suite compares every
rule with Milvus itself)."""

from __future__ import annotations

from typing import Any

import pytest

from placeborag_core import FakeVectorStore
from placeborag_core.backends import PROFILES, PayloadLayout
from placeborag_core.backends.milvus.errors import MilvusFilterError, MilvusParamError
from placeborag_core.backends.milvus.filters import expression_of, read_milvus_filter

RECORDS: list[tuple[str, dict[str, Any]]] = [
    ("r1", {"color": "red", "n": 1}),
    ("r2", {"color": "blue", "n": 5}),
    ("r3", {"n": 10}),
    ("r4", {"color": None, "tags": ["x", "y"]}),
    ("r5", {"n": "5", "flag": True}),
    ("r6", {"n": 1.0, "obj": {"a": 1}}),
]


def found(where: Any, profile: str = "milvus") -> list[str]:
    store = FakeVectorStore(profile=profile)
    records = (
        RECORDS if profile == "milvus" else [(str(i + 1), m) for i, (_, m) in enumerate(RECORDS)]
    )
    store.upsert_many([(i, None, m, [1.0, 0.5]) for i, m in records])
    return sorted(m.id for m in store.query([1.0, 0.5], 10, where=where))


@pytest.mark.parametrize(
    ("expr", "ids"),
    [
        ('color == "red"', ["r1"]),
        ("n == 1", ["r1", "r6"]),
        ('color != "red"', ["r2", "r3", "r4", "r5", "r6"]),  # missing and null match !=
        ("n > 2", ["r2", "r3"]),  # the string "5" does not compare with a number
        ('n > "4"', ["r5"]),
        ("1 == n", ["r2", "r3", "r4", "r5"]),  # a literal on the left swaps == and !=
        ("5 > n", ["r1", "r6"]),
        ('color in ["red", "blue"]', ["r1", "r2"]),
        ('color not in ["red"]', ["r2", "r3", "r4", "r5", "r6"]),
        ('color like "r%"', ["r1"]),
        ('color like "%"', []),
        ('color like "___"', []),  # only wildcards: nothing, not "red"
        ('color like "r_d"', ["r1"]),
        ('json_contains(tags, "x")', ["r4"]),
        ("array_length(tags) == 0", ["r1", "r2", "r3", "r5", "r6"]),
        ('obj["a"] == 1', ["r6"]),
        ('$meta["color"] == "red"', ["r1"]),
        ('id in ["r1", "r3"]', ["r1", "r3"]),
        ('color == "red" or n == 10', ["r1", "r3"]),
        ('color == "red" AND n == 10', ["r1"]),  # AND is not a keyword: the rest is ignored
        ("(n == 10", ["r3"]),
        ("flag == true", ["r5"]),
        ("flag == 1", []),
        ("", ["r1", "r2", "r3", "r4", "r5", "r6"]),
        ({"n": {"$gte": 5}}, ["r2", "r3"]),
    ],
)
def test_expressions_mean_what_milvus_measured(expr: Any, ids: list[str]) -> None:
    assert found(expr) == ids


@pytest.mark.parametrize(
    ("expr", "code", "text"),
    [
        ('not (color == "red")', 2000, "unsupported expr proto node"),
        ("not color", 1100, "Invalid expr: not color: invalid parameter"),
        ("color", 2000, "expr type check failed, actual type: JSON"),
        ("exists color", 1100, "Invalid expr: exists color: invalid parameter"),
        ("1 < n < 5", 1100, "invalid parameter"),
        ("n + 1 == 2", 1100, "invalid parameter"),
        ('color == "red" and', 1100, "invalid parameter"),
        ("n >", 2000, "expr type check failed, actual type: JSON"),  # a JSON name read alone
        ("(n >)", 2000, "expr type check failed, actual type: JSON"),
        ("n ==", 1100, "Invalid expr: n ==: invalid parameter"),
        ("n in []", 2000, "Cannot find field with field_id: 0"),
        ('n in [1, "5"]', 2000, "kInt64Val"),
        (
            'n in [true, "5"]',
            2000,
            (
                'kBoolVal)"  at /workspace/milvus-lite/thirdparty/milvus/internal/core/src/exec/'
                "expression/Utils.h:126"
            ),
        ),
        (
            "n in [1.5, 1]",
            2000,
            (
                'kFloatVal)"  at /workspace/milvus-lite/thirdparty/milvus/internal/core/src/exec/'
                "expression/Utils.h:140"
            ),
        ),
        ("color == title", 2000, "unsupported left datatype:JSON of compare expr"),
        ("id == 5", 1100, "Invalid expr: id == 5: invalid parameter"),
        # the planner passes the whole expression before the core checks it
        ('(n in [] or title == "x")', 2000, "Cannot find field with field_id: 0"),
        ("(n in [] or id == 5)", 1100, "invalid parameter"),
        ("not (n == 1) and id == 5", 1100, "invalid parameter"),
        # an operand of and/or is a condition, not a bare name or a number
        ('(title like "%e%" || color)', 1100, "invalid parameter"),
        ("color and n == 1", 1100, "invalid parameter"),
        ("(n == 1 or 1)", 1100, "invalid parameter"),
    ],
)
def test_rejected_expressions_raise_milvus_errors(expr: str, code: int, text: str) -> None:
    with pytest.raises(MilvusFilterError) as caught:
        found(expr)
    assert caught.value.code == code
    assert text in str(caught.value)
    assert str(caught.value).startswith(f"<MilvusException: (code={code}, message=")


# ANTLR's recovery from a missing ``)`` (the ``a not b`` LlamaIndex writes for
# FilterCondition.NOT): the parenthesized expression ends and the text is dropped up to what may
# follow an expression being read; the reading goes on from there
# (docs/engines/milvus.md#milvus-parser-recovery-nested).
@pytest.mark.parametrize(
    ("expr", "ids"),
    [
        ('(n > 1 not color == "blue") and n < 10', ["r2", "r3"]),  # top level: the rest dropped
        ('((n > 1 not color == "blue") and n < 10)', ["r2"]),  # up to ")": "and n < 10" stays
        ("((n == 1 not color) or n == 10)", ["r1", "r3", "r6"]),
        ("n == 10 or (n == 1 not color)", ["r1", "r3", "r6"]),  # an operand: to an operator
        ("(n == 10 or (n > 1 not color and n < 3))", []),  # (n == 10 or n > 1) and n < 3
        ('((n > 1 not (color == "x")) or n == 1)', ["r2", "r3"]),  # to the first ")"
        ('json_contains(tags, ("x" not 2 == 3))', ["r4"]),  # an argument: to ")" or ","
        ("(n == 1 x)", ["r1", "r6"]),  # one stray token before ")" is deleted
    ],
)
def test_recovery_inside_parentheses(expr: str, ids: list[str]) -> None:
    assert found(expr) == ids


@pytest.mark.parametrize(
    "expr",
    [
        # what is left compares a condition with a literal: (n in [2] or (color != 'blue')) == 2.5
        "(n in [2] or (color != 'blue' not missing == 2.5 not missing < 2) or n >= 5)",
        # ... and (missing == 1) == 0
        (
            "((missing == 1 not array_length(color) == 0 not missing > 1) not (color == 'red' or"
            " missing > 5 or n < 5) not (missing < 5))"
        ),
        'n == 10 or (n == 1 not color == "x")',
    ],
)
def test_recovery_inside_parentheses_can_leave_a_type_error(expr: str) -> None:
    with pytest.raises(MilvusFilterError) as caught:
        found(expr)
    assert caught.value.code == 1100
    assert f"Invalid expr: {expr}: invalid parameter" in str(caught.value)


def test_errors_raised_while_rows_are_read_need_rows() -> None:
    store = FakeVectorStore(profile="milvus")
    assert store.query([1.0, 0.5], 3, where="color == title") == []
    assert found('json_contains(tags, "q") and color == title') == []  # skipped: none left


def test_errors_raised_while_rows_are_read_need_rows_deleted_ones_count() -> None:
    """lc-milvus-runtime-error-deleted-rows: the segment keeps deleted rows, and a filter that
    fails as it runs fails over them (a conjunction skips nothing when no row is live)."""
    store = FakeVectorStore(profile="milvus")
    store.upsert("a", None, {"color": "red"}, vector=[1.0, 0.5])
    store.delete(["a"])
    for where in ("color == title", 'color == "x" and color == title'):
        with pytest.raises(MilvusFilterError, match="unsupported left datatype:JSON"):
            store.query([1.0, 0.5], 3, where=where)
    assert store.query([1.0, 0.5], 3) == []


def test_int64_keys_list_and_filter_as_numbers() -> None:
    store = FakeVectorStore(profile="milvus_int64")
    store.upsert_many([(i, None, {}, [1.0, 0.0]) for i in ("10", "9", "-3", "007")])
    assert store.ids() == ["-3", "7", "9", "10"]
    assert found("2 < id <= 5", "milvus_int64") == ["3", "4", "5"]
    with pytest.raises(MilvusFilterError, match="invalid parameter"):
        found('id == "5"', "milvus_int64")
    with pytest.raises(ValueError, match="should be a int64"):
        store.upsert("a", None, vector=[1.0, 0.0])


def test_upsert_moves_a_record_to_the_end_and_ties_follow() -> None:
    store = FakeVectorStore(profile="milvus", metric="l2")
    store.upsert_many([(i, None, {}, [0.6, 0.8]) for i in "abcde"])
    store.upsert("b", None, vector=[0.6, 0.8])
    assert [m.id for m in store.query([1.0, 0.0], 5)] == ["a", "c", "d", "e", "b"]
    assert store.ids() == ["a", "b", "c", "d", "e"]  # listings: primary-key order
    heap = FakeVectorStore(profile="milvus", metric="cosine")
    heap.upsert_many([(i, None, {}, [0.6, 0.8]) for i in "abcde"])
    assert [m.id for m in heap.query([1.0, 0.0], 2)] == ["b", "a"]  # knowhere's heap


def test_limit_rules() -> None:
    store = FakeVectorStore(profile="milvus")
    store.upsert("a", None, vector=[1.0, 0.0])
    with pytest.raises(MilvusParamError, match=r"`limit` value 0 is illegal"):
        store.query([1.0, 0.0], 0)
    with pytest.raises(ValueError, match="invalid parameter"):
        store.query([1.0, 0.0], 16385)
    assert len(store.query([1.0, 0.0], 16384)) == 1


def test_dicts_become_expressions() -> None:
    assert expression_of({"color": "red", "n": {"$gt": 1, "$lt": 5}}) == (
        'color == "red" and n > 1 and n < 5'
    )
    assert expression_of({"$or": [{"a b": True}, {"tags": {"$contains": "x"}}]}) == (
        '((a b) or (json_contains(tags, "x")))'.replace("a b", '$meta["a b"] == true')
    )
    with pytest.raises(ValueError, match="no Milvus expression"):
        expression_of({"title": {"$text_match": "a"}})


def test_the_native_reader_knows_the_integration_fields() -> None:
    layout = PayloadLayout(text_key="text", id_key="pk")
    read = read_milvus_filter('pk == "a" and text like "refund%"', layout)
    assert read.where is not None
    assert read_milvus_filter("", layout).where is None
    assert PROFILES["milvus"].native_filter is read_milvus_filter


def test_typed_fields_take_literals_of_their_type() -> None:
    from placeborag_core.backends.milvus.filters import Schema, read_expression

    schema = Schema(
        id_field="pk",
        text_field="text",
        fields={"color": "varchar", "n": "int64", "price": "double", "flag": "bool"},
        dynamic=False,
    )
    for legal in ('color == "red"', "n == 1", "price == 2", "price > 1.5", "flag == true",
                  "1 < n < 4", 'pk in ["a"]', 'text like "a%"', "n in [1, 2]"):  # fmt: skip
        read_expression(legal, schema)
    for illegal in ("n == 1.0", "n > 1.5", "color == 1", "flag == 1", "nosuch == 1",
                    'json_contains(color, "x")', "exists color"):  # fmt: skip
        with pytest.raises(MilvusFilterError, match="invalid parameter"):
            read_expression(illegal, schema)
    with pytest.raises(MilvusFilterError, match="actual type: INT64"):
        read_expression("n", schema)
    failing = read_expression("flag", schema)  # a bare bool field fails once rows are read
    assert isinstance(failing.error, MilvusFilterError)  # type: ignore[attr-defined]
    text = str(failing.error)  # type: ignore[attr-defined]
    assert "result should be bitmap at " in text
    assert "FilterBitsNode.cpp:89\n: segcore error" in text  # as the engine says (lc-milvus)
    for illegal in ("n + 1 > 2", "n + 1.5 == 3", "10 - n == 9", "n ** 2 == 4", "color + 1 == 2"):
        with pytest.raises(MilvusFilterError, match="invalid parameter"):
            read_expression(illegal, schema)
    with pytest.raises(NotImplementedError, match="division by zero"):
        read_expression("n / 0 == 1", schema)


def test_typed_arithmetic_as_measured() -> None:
    """lc-milvus-typed-arithmetic: == and != only, C's truncating / and %, a literal on the
    left of == swaps it."""
    from placeborag_core import FakeVectorStore
    from placeborag_core.backends.milvus.filters import Schema, read_expression

    schema = Schema(fields={"n": "int64", "price": "double"}, dynamic=False)
    store = FakeVectorStore(profile="milvus", metric="l2")
    values = [(1, 1.5), (2, 2.5), (3, 0.0), (-1, -1.5), (5, 10.0)]
    store.upsert_many(
        [(f"r{i}", "t", {"n": n, "price": p}, [1.0, float(i)]) for i, (n, p) in enumerate(values)]
    )

    def ids(expr: str) -> list[str]:
        return sorted(
            m.id for m in store.query([1.0, 0.0], k=10, where=read_expression(expr, schema))
        )

    assert ids("n + 1 == 3") == ["r1"]
    assert ids("n / 2 == 0") == ["r0", "r3"]
    assert ids("n % 2 == -1") == ["r3"]
    assert ids("n % 2 != 1") == ["r1", "r3"]
    assert ids("1 + n == 3") == ids("2 * n == 4") == ["r1"]
    assert ids("3 == n + 1") == ["r0", "r2", "r3", "r4"]
    assert ids("price * 2 == 5.0") == ["r1"]
    assert ids("price % 2 == 1.5") == []
