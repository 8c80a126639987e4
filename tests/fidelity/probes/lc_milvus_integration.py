"""Probe: langchain-milvus ``Milvus`` on the Milvus 2.5 core (milvus-lite 2.5.1): scores and
relevance, the Document shape, the typed fields its first batch fixes and pymilvus's row errors,
``expr=`` filters, deletes, the calls it refuses.

langchain-milvus 0.3.3 with pymilvus 2.6.9. Built with ``connection_args={"uri": <tmp>/m.db,
"db_name": "default"}`` (pymilvus 2.6.9 otherwise reads the first path segment of the file URI
as a database name) and ``index_params={"metric_type": M, "index_type": "FLAT"}``. Texts are
embedded by a table: cos(q, a..f) = 1, .8, .6, 0, -.6, -1. Facts:
docs/integrations/new_integrations.md#langchain-langchain-milvus-milvus-lc_milvus_integrationpy.

Run: python tests/fidelity/probes/lc_milvus_integration.py
"""

# ruff: noqa: E501 - the measured messages are kept on one line each, as pymilvus prints them
from __future__ import annotations

import logging
import os
import shutil
import tempfile
import warnings
from typing import Any

from _probe import Facts, raised
from _probe_geometry import UNIT, lc_embeddings

warnings.simplefilter("ignore")  # milvus-lite 2.5.1 imports the deprecated pkg_resources
logging.disable(logging.CRITICAL)

from langchain_milvus import Milvus  # noqa: E402
from milvus_lite.server_manager import server_manager_instance  # noqa: E402

facts = Facts(
    "langchain-milvus Milvus on the Milvus 2.5 core", "langchain-milvus", "milvus-lite", "pymilvus"
)

META = {
    t: {"color": c, "n": n, "price": n + 0.5, "flag": n % 2 == 1}
    for t, c, n in zip(
        "abcdef", ("red", "blue", "red", "green", "blue", "red"), range(1, 7), strict=True
    )
}


def last_character(text: str) -> list[float]:
    """A text's vector: the ``UNIT`` entry of its last character, e4 for any other."""
    return list(UNIT.get(text[-1:], [0.0, 0.0, 0.0, 1.0]))


def error(call: Any) -> str:
    """``Type: message`` of what ``call`` raises (or ``None: <result>``)."""
    kind, message = raised(call)
    return f"{kind.__name__ if kind else None}: {message}"


def scores(store: Any) -> None:
    want = {
        "COSINE": ([1.0, 0.800000011920929, 0.6000000238418579, 0.0, -0.6000000238418579, -1.0],
                   [1.0, 0.9000000059604645, 0.800000011920929, 0.5, 0.19999998807907104, 0.0]),
        "L2": ([0.0, 0.40000003576278687, 0.800000011920929, 2.0, 3.200000286102295, 4.0],
               [1.0, 0.8999999910593033, 0.7999999970197678, 0.5, 0.19999992847442627, 0.0]),
        "IP": ([1.0, 0.800000011920929, 0.6000000238418579, 0.0, -0.6000000238418579, -1.0],
               [1.0, 0.9000000059604645, 0.800000011920929, 0.5, 0.19999998807907104, 0.0]),
    }  # fmt: skip
    for metric, (raw, rel) in want.items():
        vs = store(f"s_{metric}", index_params={"metric_type": metric, "index_type": "FLAT"})
        vs.add_texts(list(META), metadatas=list(META.values()), ids=list(META))
        got = vs.similarity_search_with_score("q", k=6)
        observed = [[d.page_content for d, _ in got], [s for _, s in got]]
        m = metric.lower()
        facts.check(f"lc-milvus-score-{m}", observed == [list("abcdef"), raw], observed)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            relevance = [s for _, s in vs.similarity_search_with_relevance_scores("q", k=6)]
        facts.check(f"lc-milvus-relevance-{m}", [relevance, caught] == [rel, []], relevance)
        doc = got[0][0]
        facts.check(
            f"lc-milvus-document-{m}",
            doc.id is None and doc.metadata == {"pk": "a", **META["a"]},
            (doc.id, doc.metadata),
        )


def schema(store: Any) -> None:
    vs = store("default_index")
    facts.check(
        "lc-milvus-search-before-collection",
        vs.similarity_search("q", k=2) == [] and vs.delete(["x"]) is False,
        "search [] and delete False before the first add",
    )
    got = error(lambda: vs.similarity_search_with_relevance_scores("q", k=2))
    facts.check(
        "lc-milvus-relevance-before-collection",
        got == "ValueError: No index params provided. Could not determine relevance function.",
        got,
    )
    first = {"color": "red", "n": 1, "price": 1.5, "flag": True}
    vs.add_texts(["a"], metadatas=[first], ids=["a"])
    fields = [(f["name"], f["type"].name) for f in vs.client.describe_collection(vs.collection_name)["fields"]]  # fmt: skip
    want = [("text", "VARCHAR"), ("pk", "VARCHAR"), ("vector", "FLOAT_VECTOR"),
            ("color", "VARCHAR"), ("n", "INT64"), ("price", "DOUBLE"), ("flag", "BOOL")]  # fmt: skip
    facts.check("lc-milvus-schema-from-first-batch", fields == want, fields)
    index = [(i["index_param"]["index_type"], i["index_param"]["metric_type"]) for i in vs._get_indexes()]  # fmt: skip
    facts.check("lc-milvus-default-index-autoindex-l2", index == [("AUTOINDEX", "L2")], index)

    def add(meta: dict[str, Any], pk: str) -> str:
        return error(lambda: vs.add_texts(["t"], metadatas=[meta], ids=[pk]))

    missing = add({"color": "x"}, "m1")
    facts.check(
        "lc-milvus-missing-field",
        missing.endswith("Insert missed an field `n` to collection without set nullable==true "
                         "or set default_value)>"),
        missing,
    )  # fmt: skip
    rows = {
        "int64-float": ({**first, "n": 2.5}, "{n} field should be a int64, but got a {<class 'float'>} instead. Detail: 'float' object cannot be interpreted as an integer)>"),
        "int64-bool": ({**first, "n": True}, "Detail: Field milvus.proto.schema.LongArray.data: Expected an int, got a boolean.)>"),
        "int64-range": ({**first, "n": 2**63}, "Detail: Value out of range: 9223372036854775808)>"),
        "varchar-int": ({**first, "color": 7}, "{color} field should be a varchar, but got a {<class 'int'>} instead. Detail: 'int' object is not iterable)>"),
        "double-str": ({**first, "price": "5"}, "{price} field should be a double, but got a {<class 'str'>} instead. Detail: must be real number, not str)>"),
        "bool-float": ({**first, "flag": 2.5}, "{flag} field should be a bool, but got a {<class 'float'>} instead. Detail: 'float' object cannot be interpreted as an integer)>"),
        "row-key-order": ({"n": "x", "color": 7, "price": 1.0, "flag": True}, "{n} field should be a int64"),
    }  # fmt: skip
    for name, (meta, tail) in rows.items():
        got = add(meta, f"t-{name}")
        ok = (
            got.startswith(
                "DataNotMatchException: <DataNotMatchException: (code=1, message=The "
                "Input data type is inconsistent with defined schema, "
            )
            and tail in got
        )
        facts.check(f"lc-milvus-type-{name}", ok, got)  # fmt: skip
    accepted = [add({**first, "price": 3}, "ok1"), add({**first, "flag": 1}, "ok2")]
    stored = {d.metadata["pk"]: d.metadata for d in vs.similarity_search("q", k=10, expr='pk in ["ok1", "ok2"]')}  # fmt: skip
    facts.check(
        "lc-milvus-type-converted",
        accepted == ["None: ['ok1']", "None: ['ok2']"]
        and stored["ok1"]["price"] == 3.0 and isinstance(stored["ok1"]["price"], float)
        and stored["ok2"]["flag"] is True,
        stored,
    )  # fmt: skip
    add({**first, "extra": 1}, "x1")
    meta = vs.similarity_search("q", k=1, expr='pk == "x1"')[0].metadata
    facts.check("lc-milvus-extra-key-dropped", "extra" not in meta, meta)
    got = error(lambda: vs.similarity_search("q", k=5, expr="n == 1.0"))
    facts.check("lc-milvus-typed-filter", "Invalid expr: n == 1.0: invalid parameter" in got, got)
    arithmetic = {}
    for expr in (
        "n + 1 == 2",
        "3 == n + 2",
        "n % 2 == 1",
        "price * 2 == 3.0",
        "n + 1 > 2",
        "10 - n == 9",
    ):
        arithmetic[expr] = error(
            lambda e=expr: sorted(d.metadata["pk"] for d in vs.similarity_search("q", k=50, expr=e))
        )
    facts.check(
        "lc-milvus-typed-arithmetic",
        arithmetic["n + 1 == 2"].startswith("None: ['a', ")
        and "'ok1'" in arithmetic["n + 1 == 2"]
        and arithmetic["3 == n + 2"] == "None: []"
        and arithmetic["n % 2 == 1"] == arithmetic["n + 1 == 2"]
        and arithmetic["price * 2 == 3.0"].startswith("None: ['a'")
        and all("invalid parameter" in arithmetic[e] for e in ("n + 1 > 2", "10 - n == 9")),
        arithmetic,
    )
    got = error(lambda: vs.similarity_search("q", k=5, filter={"color": "red"}))
    facts.check(
        "lc-milvus-filter-dict-kwarg-typeerror",
        got.startswith("TypeError: ")
        and "got multiple values for keyword argument 'filter'" in got,
        got,
    )
    got = error(lambda: vs.similarity_search("q", k=0))
    facts.check("lc-milvus-k-0", got == "ParamError: <ParamError: (code=1, message=`limit` value 0 is illegal)>", got)  # fmt: skip
    got = error(lambda: vs.get_by_ids(["a"]))
    facts.check("lc-milvus-get-by-ids-not-implemented", got == "NotImplementedError: Milvus does not yet support get_by_ids.", got)  # fmt: skip
    dup = error(lambda: vs.add_texts(["x", "y"], metadatas=[first] * 2, ids=["d", "d"]))
    not_str = error(lambda: vs.add_texts(["x"], metadatas=[first], ids=[5]))
    facts.check(
        "lc-milvus-ids-asserted",
        [dup, not_str] == ["AssertionError: Different lengths of texts and unique ids are provided.",
                           "AssertionError: All ids should be strings."],
        [dup, not_str],
    )  # fmt: skip
    with_none = error(lambda: vs.add_texts(["x", "y"], metadatas=[first] * 2, ids=["n1", None]))
    facts.check(
        "lc-milvus-ids-none",
        with_none == "AssertionError: All ids should be strings.",
        f"a None among the ids: {with_none}",
    )
    deletes = [
        error(vs.delete), error(lambda: vs.delete([])), error(lambda: vs.delete(["nope"])),
        error(lambda: vs.delete(expr="n >")), error(lambda: vs.delete([5])),
        error(lambda: vs.delete(expr='pk == "x1"')),
    ]  # fmt: skip
    want_deletes = ["AssertionError: Either ids list or expr string must be provided."] * 2 + [
        "None: True", "None: False", "None: False", "None: True"]  # fmt: skip
    facts.check("lc-milvus-delete", deletes == want_deletes, deletes)
    got = error(lambda: vs.max_marginal_relevance_search("q", k=1, expr='color == "none"'))
    facts.check(
        "lc-milvus-mmr-no-candidates",
        "Cannot find field with field_id: 0" in got and got.startswith("MilvusException"),
        got,
    )
    auto = store("auto")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ids = auto.add_texts(["a", "b"], metadatas=[{"n": 1}, {"n": 2}])
    facts.check(
        "lc-milvus-auto-ids",
        [str(w.message) for w in caught]
        == ["No ids provided and auto_id is False. Setting auto_id to True automatically."]
        and all(isinstance(i, int) for i in ids) and ids[1] - ids[0] == 1,
        ids,
    )  # fmt: skip


def filters(store: Any) -> None:
    """Filters on the typed fields measured against the fidelity report's seeds."""
    first = {"color": "red", "n": 1, "price": 1.5, "flag": True}

    def found(vs: Any, expr: str) -> str:
        return error(
            lambda: sorted(d.metadata["pk"] for d in vs.similarity_search("q", k=9, expr=expr))
        )

    gone = store("deleted_rows")
    gone.add_texts(["s"], metadatas=[first], ids=["s"])
    gone.delete(["s"])
    never = store("no_rows")
    error(lambda: never.add_texts(["s", "t"], metadatas=[first, {"color": "x"}], ids=["s", "t"]))
    runtime = ("flag", "text not in [-1]", 'color == "zz" and flag')
    after_delete = [found(gone, e) for e in runtime]
    never_rows = [found(never, e) for e in runtime]
    facts.check(
        "lc-milvus-runtime-error-deleted-rows",
        all(g.startswith("MilvusException: <MilvusException: (code=2000, message=Operator::GetOutput failed") for g in after_delete)
        and never_rows == ["None: []"] * 3,
        [after_delete, never_rows],
    )  # fmt: skip
    values = ("red", "", "blue", "%x", "r")
    for name, dynamic in (("like_typed", False), ("like_dynamic", True)):
        vs = store(name, enable_dynamic_field=dynamic)
        metas = [{**first, "color": c} if not dynamic else {"color": c} for c in values]
        vs.add_texts(list("abcde"), metadatas=metas, ids=list("abcde"))
        nothing = ['color like "%"', 'color like "%%"', 'color like "_"', 'color like "___"',
                   'color like "%_"', 'color like "_%_"', 'text like "%"', 'pk like "_"']  # fmt: skip
        got = {e: found(vs, e) for e in nothing}
        some = {e: found(vs, e) for e in ('color like "__d"', 'color like "%_d"', 'color like "r"')}
        facts.check(
            f"lc-milvus-like-wildcards-only-{name.split('_')[1]}",
            set(got.values()) == {"None: []"}
            and list(some.values()) == ["None: ['a']", "None: ['a']", "None: ['e']"],
            [got, some],
        )


def planner_first(store: Any) -> None:
    """The planner's errors (code 1100) before the core's (2000); and/or operands."""
    vs = store("planner_first")
    vs.add_texts(["a", "b"], metadatas=[{"color": "red", "n": 1, "price": 1.5, "flag": True}] * 2, ids=["a", "b"])  # fmt: skip

    def code(expr: str) -> str:
        got = error(lambda: sorted(d.metadata["pk"] for d in vs.similarity_search("q", k=5, expr=expr)))  # fmt: skip
        return got.split(", message=")[0].rsplit("(", 1)[-1] if "code=" in got else got

    order = {e: code(e) for e in ('(n in [] or title == "x")', "not (n == 1) and title == 1",
                                  "(n in [] or n == 1)", "(n == 1 and not (n == 2))")}  # fmt: skip
    facts.check(
        "lc-milvus-planner-errors-first",
        list(order.values()) == ["code=1100", "code=1100", "code=2000", "code=2000"],
        order,
    )
    operands = {e: code(e) for e in ('(color == "red" || n)', "color or flag", "n == 1 and color",
                                     "(1 or n == 1)", "(n == 1 || flag)", "color", "n")}  # fmt: skip
    facts.check(
        "lc-milvus-logic-operands",
        list(operands.values()) == ["code=1100"] * 4 + ["None: ['a', 'b']", "code=2000", "code=2000"],
        operands,
    )  # fmt: skip


def dangling_relational(store: Any) -> None:
    """``< <= > >=`` with no right operand: a JSON name is read alone, a typed one rejected."""
    typed = store("dangling_typed")
    typed.add_texts(["a"], metadatas=[{"color": "red", "n": 1, "price": 1.5, "flag": True}], ids=["a"])  # fmt: skip
    dynamic = store("dangling_dynamic", enable_dynamic_field=True)
    dynamic.add_texts(["a"], metadatas=[{"color": "red", "n": 1}], ids=["a"])

    def code(vs: Any, expr: str) -> str:
        got = error(lambda: vs.similarity_search("q", k=5, expr=expr))
        return got.split(", message=")[0].rsplit("(", 1)[-1] + (" JSON" if "actual type: JSON" in got else "")  # fmt: skip

    got = {
        "typed": [code(typed, e) for e in ("n >", "price >", "color >", "flag >")],
        "dynamic": [code(dynamic, e) for e in ("n >", "n > ", "(n >)", "n ==", "n + ")],
    }
    facts.check(
        "lc-milvus-dangling-relational",
        got == {"typed": ["code=1100"] * 4,
                "dynamic": ["code=2000 JSON"] * 3 + ["code=1100"] * 2},
        got,
    )  # fmt: skip


def term_kinds(store: Any) -> None:
    """Where the core asserts the kind of an ``in`` list's items: the file line per kind. On a
    typed field every item must be of the field's kind: an int in a DOUBLE field's list fails
    too, first or not, though ``price == 1`` compares (report seed 12319647550046)."""
    vs = store("term_kinds", enable_dynamic_field=True)
    vs.add_texts(["a"], metadatas=[{"color": "red", "n": 1}], ids=["a"])
    typed = store("term_kinds_typed")
    typed.add_texts(["a"], metadatas=[{"color": "red", "n": 1, "price": 1.5, "flag": True}], ids=["a"])  # fmt: skip

    def kind(store: Any, expr: str) -> str:
        got = error(lambda: store.similarity_search("q", k=5, expr=expr))
        if "GenericValue::" not in got:
            return got
        return got.split("GenericValue::")[1].split(")")[0] + got.split("Utils.h")[1][:4]

    dynamic = ('missing in [true, "x"]', 'missing in [1, "x"]', 'missing in [1.5, "x"]',
               'missing in ["x", 1]')  # fmt: skip
    lines = {expr: kind(vs, expr) for expr in dynamic}
    facts.check(
        "lc-milvus-term-kind-assert",
        list(lines.values())
        == ["kBoolVal:126", "kInt64Val:130", "kFloatVal:140", "kStringVal:145"],
        lines,
    )
    on_typed = ("price in [1]", "price in [1.5, 2]", "price in [2, 1.5]", "n in [1.0]",
                "price in [1.0]", "price == 1")  # fmt: skip
    typed_lines = {expr: kind(typed, expr) for expr in on_typed}
    facts.check(
        "lc-milvus-term-kind-typed",
        list(typed_lines.values()) == ["kFloatVal:140"] * 3 + ["kInt64Val:130"] + ["None: []"] * 2,
        typed_lines,
    )


def lengths(store: Any) -> None:
    """``add_texts`` with fewer metadatas or ids than texts (ids given: ``auto_id`` False)."""
    vs = store("lengths")
    vs.add_texts(["a"], metadatas=[META["a"]], ids=["a"])
    got = [
        error(lambda: vs.add_texts(["b", "c"], metadatas=[META["b"]], ids=["b", "c"])),
        error(lambda: vs.add_texts(["b", "c"], metadatas=[META["b"], META["c"]], ids=["b"])),
    ]
    rows = sorted(d.metadata["pk"] for d in vs.similarity_search("q", k=10))
    facts.check(
        "lc-milvus-metadatas-short",
        got[0] == "AssertionError: Mismatched lengths of texts and metadatas." and rows == ["a"],
        [got[0], rows],
    )
    facts.check(
        "lc-milvus-ids-short",
        got[1] == "AssertionError: Different lengths of texts and unique ids are provided."
        and rows == ["a"],
        [got[1], rows],
    )


def bool_operand(store: Any) -> None:
    """A bare BOOL field as an operand of ``and``/``or`` next to a comparison: the rows with
    ``flag`` True are a, c, e; the results follow neither the expression nor an error."""
    vs = store("bool_operand", index_params={"metric_type": "COSINE", "index_type": "FLAT"})
    vs.add_texts(list(META), metadatas=list(META.values()), ids=list(META))

    def found(expr: str) -> str:
        got = error(
            lambda: sorted(d.metadata["pk"] for d in vs.similarity_search("q", k=10, expr=expr))
        )
        return got.split(", message=")[0].rsplit("(", 1)[-1] if "code=" in got else got

    want = {
        "price > 2.0 and flag": "None: []",  # c, e hold
        "n == 3 and flag": "None: []",  # c holds
        "n == 1 and flag": "None: ['a']",
        "n == 2 or flag": "None: ['a', 'b']",  # a, b, c, e hold
        "(n == 2 || flag)": "None: ['a', 'b']",
        "flag and price > 2.0": "code=2000",
        "price > 2.0 and flag == true": "None: ['c', 'e']",
    }
    got = {expr: found(expr) for expr in want}
    facts.check("lc-milvus-bool-operand", got == want, got)


def main() -> None:
    root = tempfile.mkdtemp(prefix="placeborag-lc-milvus-probe-")
    os.environ["GLOG_log_dir"] = root  # noqa: SIM112 - glog's own variable: no logs in /tmp
    conn = {"uri": os.path.join(root, "m.db"), "db_name": "default"}

    def store(name: str, **kw: Any) -> Any:
        return Milvus(
            lc_embeddings(last_character), connection_args=conn, collection_name=name, **kw
        )

    try:
        scores(store)
        schema(store)
        filters(store)
        planner_first(store)
        term_kinds(store)
        dangling_relational(store)
        lengths(store)
        bool_operand(store)
    finally:
        server_manager_instance.release_all()
        shutil.rmtree(root, ignore_errors=True)
    facts.done()


if __name__ == "__main__":
    main()
