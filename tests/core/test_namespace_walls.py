"""Namespaces are walls: no sequence of writes, deletes, filters or faults leaks across them."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from placeborag_core import FakeVectorStore, RetrievalTimeout

NAMESPACES = ["", "tenant-a", "tenant-b"]
IDS = ["shared-0", "shared-1", "shared-2", "a-only", "b-only"]

vectors = st.lists(st.sampled_from([-1.0, 0.0, 0.5, 1.0]), min_size=3, max_size=3).filter(any)
wheres = st.one_of(
    st.none(),
    st.builds(lambda ns: {"ns": ns}, st.sampled_from(NAMESPACES)),
    st.builds(lambda ns: {"ns": {"$ne": ns}}, st.sampled_from(NAMESPACES)),
    st.builds(
        lambda a, b: {"$or": [{"ns": a}, {"ns": b}]},
        st.sampled_from(NAMESPACES),
        st.sampled_from(NAMESPACES),
    ),
    st.just({"missing": {"$nin": ["x"]}}),  # matches missing keys under chroma
)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("upsert"), st.sampled_from(NAMESPACES), st.sampled_from(IDS), vectors),
        st.tuples(st.just("delete"), st.sampled_from(NAMESPACES), st.sampled_from(IDS)),
        st.tuples(st.just("refresh")),
        st.tuples(st.just("compact")),
        st.tuples(st.just("fail")),
        st.tuples(
            st.just("query"), st.sampled_from(NAMESPACES), vectors, wheres, st.integers(1, 8)
        ),
    ),
    max_size=40,
)
stores = st.fixed_dictionaries(
    {
        "profile": st.sampled_from(["default", "chroma", "faiss", "weaviate"]),
        "filter_mode": st.sampled_from(["pre", "post"]),
        "recall": st.sampled_from([1.0, 0.6]),
        "visibility": st.sampled_from(["immediate", "manual"]),
        "orphaned_ids": st.booleans(),
    }
)


@settings(max_examples=120, deadline=None)
@given(options=stores, ops=operations)
def test_no_query_sees_another_namespace(options: dict[str, Any], ops: list[Any]) -> None:
    store = FakeVectorStore(**options)
    written: dict[str, set[str]] = {ns: set() for ns in NAMESPACES}
    for op in ops:
        if op[0] == "upsert":
            _, ns, record_id, vec = op
            store.upsert(record_id, f"{ns}|{record_id}", {"ns": ns}, vector=vec, namespace=ns)
            written[ns].add(record_id)
        elif op[0] == "delete":
            store.delete(op[2], namespace=op[1])
        elif op[0] == "refresh":
            store.refresh()
        elif op[0] == "compact":
            store.compact()
        elif op[0] == "fail":
            store.fail_next_query()
        else:
            _, ns, vec, where, k = op
            try:
                matches = store.query(vec, k=k, where=where, namespace=ns, fetch_k=8)
            except RetrievalTimeout:
                continue
            for match in matches:
                assert match.id in written[ns]
                if match.text is not None:  # orphans carry nothing else to check
                    assert match.text == f"{ns}|{match.id}"
                    assert match.metadata == {"ns": ns}
            for trace in store.trace(vec, where=where, namespace=ns):
                assert trace.id in written[ns]
    for ns in NAMESPACES:
        assert set(store.ids(ns)) <= written[ns]
