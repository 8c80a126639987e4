"""The store against a tiny, obviously correct reference model (hypothesis state machine).

The model keeps, per namespace, an insertion-ordered dict of visible records plus a list of pending
operations; queries are brute force over it. The vectors come from a small pool whose cosines are
either exactly equal or far apart, so float32 rounding cannot decide an order and ties exercise the
insertion-order rule (upsert keeps the slot, delete + re-add moves to the end).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from placeborag_core import FakeVectorStore

POOL = [
    (1.0, 0.0, 0.0),
    (0.0, 1.0, 0.0),
    (0.0, 0.0, 1.0),
    (1.0, 1.0, 0.0),
    (1.0, 0.0, 1.0),
    (2.0, 0.0, 0.0),
    (-1.0, 0.0, 0.0),
]
IDS = ["a", "b", "c", "d", "e"]
NAMESPACES = ["", "ns"]

metadatas = st.fixed_dictionaries(
    {}, optional={"c": st.sampled_from(["x", "y"]), "n": st.integers(0, 3)}
)
wheres = st.one_of(
    st.none(),
    st.builds(lambda v: {"c": v}, st.sampled_from(["x", "y"])),
    st.builds(lambda v: {"c": {"$ne": v}}, st.sampled_from(["x", "y"])),
    st.builds(lambda v: {"n": {"$gt": v}}, st.integers(0, 3)),
    st.builds(lambda v: {"n": {"$in": v}}, st.lists(st.integers(0, 3), max_size=2)),
    st.builds(
        lambda a, b: {"$or": [{"c": a}, {"n": {"$lte": b}}]},
        st.sampled_from(["x", "y"]),
        st.integers(0, 3),
    ),
)


def ref_matches(meta: dict[str, Any], where: dict[str, Any] | None) -> bool:
    """Default-profile semantics for the few filter shapes generated above."""
    if where is None:
        return True
    if "$or" in where:
        return any(ref_matches(meta, clause) for clause in where["$or"])
    ((key, test),) = where.items()
    if key not in meta:
        return False
    value = meta[key]
    if not isinstance(test, dict):
        return bool(value == test)
    ((op, operand),) = test.items()
    return {
        "$ne": lambda: value != operand,
        "$gt": lambda: value > operand,
        "$lte": lambda: value <= operand,
        "$in": lambda: value in operand,
    }[op]()


def cosine(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return round(dot / math.sqrt(sum(x * x for x in a)) / math.sqrt(sum(y * y for y in b)), 6)


class StoreVersusModel(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.model: dict[str, dict[str, tuple[dict[str, Any], tuple[float, ...]]]] = {
            ns: {} for ns in NAMESPACES
        }
        self.pending: list[tuple[str, str, Any]] = []
        self.store = FakeVectorStore()
        self.manual = False
        self.mode = "pre"

    @initialize(manual=st.booleans(), mode=st.sampled_from(["pre", "post"]))
    def configure(self, manual: bool, mode: str) -> None:
        self.manual, self.mode = manual, mode
        self.store = FakeVectorStore(
            filter_mode=mode,  # type: ignore[arg-type]
            visibility="manual" if manual else "immediate",
        )

    # -- model helpers
    def _latest_exists(self, ns: str, record_id: str) -> bool:
        exists = record_id in self.model[ns]
        for kind, pns, payload in self.pending:
            if pns == ns:
                if kind == "upsert" and any(r[0] == record_id for r in payload):
                    exists = True
                if kind == "delete" and record_id in payload:
                    exists = False
        return exists

    def _apply(self, kind: str, ns: str, payload: Any) -> None:
        records = self.model[ns]
        if kind == "upsert":
            for record_id, meta, vec in payload:
                records[record_id] = (meta, vec)  # in place if present, appended if new
        else:
            for record_id in payload:
                records.pop(record_id, None)

    def _do(self, kind: str, ns: str, payload: Any) -> None:
        if self.manual:
            self.pending.append((kind, ns, payload))
        else:
            self._apply(kind, ns, payload)

    # -- rules
    @rule(
        ns=st.sampled_from(NAMESPACES),
        record_id=st.sampled_from(IDS),
        vec=st.sampled_from(POOL),
        meta=metadatas,
    )
    def upsert(self, ns: str, record_id: str, vec: tuple[float, ...], meta: dict[str, Any]) -> None:
        self.store.upsert(record_id, record_id.upper(), meta, vector=vec, namespace=ns)
        self._do("upsert", ns, [(record_id, dict(meta), vec)])

    @rule(
        ns=st.sampled_from(NAMESPACES),
        batch=st.lists(
            st.tuples(st.sampled_from(IDS), st.sampled_from(POOL), metadatas), max_size=4
        ),
    )
    def upsert_many(self, ns: str, batch: list[Any]) -> None:
        records = [(i, i.upper(), m, v) for i, v, m in batch]
        if len({i for i, _, _ in batch}) < len(batch):
            with pytest.raises(ValueError, match="duplicate ids"):
                self.store.upsert_many(records, namespace=ns)
            return
        self.store.upsert_many(records, namespace=ns)
        if batch:
            self._do("upsert", ns, [(i, dict(m), v) for i, v, m in batch])

    @rule(ns=st.sampled_from(NAMESPACES), ids=st.lists(st.sampled_from(IDS), max_size=3))
    def delete(self, ns: str, ids: list[str]) -> None:
        expected = sum(self._latest_exists(ns, i) for i in dict.fromkeys(ids))
        assert self.store.delete(ids, namespace=ns) == expected
        self._do("delete", ns, list(dict.fromkeys(ids)))

    @rule()
    def refresh(self) -> None:
        self.store.refresh()
        for kind, ns, payload in self.pending:
            self._apply(kind, ns, payload)
        self.pending.clear()

    @rule(
        ns=st.sampled_from(NAMESPACES), q=st.sampled_from(POOL), k=st.integers(1, 6), where=wheres
    )
    def query(self, ns: str, q: tuple[float, ...], k: int, where: dict[str, Any] | None) -> None:
        records = list(self.model[ns].items())
        ranked = sorted(range(len(records)), key=lambda i: (-cosine(records[i][1][1], q), i))
        if self.mode == "pre":
            chosen = [i for i in ranked if ref_matches(records[i][1][0], where)][:k]
        else:
            chosen = [i for i in ranked[:k] if ref_matches(records[i][1][0], where)]
        got = self.store.query(list(q), k=k, where=where, namespace=ns)
        assert [m.id for m in got] == [records[i][0] for i in chosen]
        for match in got:
            assert match.metadata == self.model[ns][match.id][0]
            assert match.text == match.id.upper()

    # -- invariants
    @invariant()
    def listings_agree(self) -> None:
        for ns in NAMESPACES:
            assert self.store.ids(ns) == list(self.model[ns])
            assert self.store.count(ns) == len(self.model[ns])
        assert self.store.namespaces() == [ns for ns in NAMESPACES if self.model[ns]]
        assert self.store.pending_writes == sum(len(p) for _, _, p in self.pending)

    @invariant()
    def records_agree(self) -> None:
        for ns in NAMESPACES:
            for record_id in IDS:
                record = self.store.get(record_id, namespace=ns)
                if record_id not in self.model[ns]:
                    assert record is None
                else:
                    meta, vec = self.model[ns][record_id]
                    assert record is not None
                    assert (record.metadata, record.vector) == (meta, vec)


StoreVersusModel.TestCase.settings = settings(
    max_examples=100, stateful_step_count=30, deadline=None
)
TestStoreVersusModel = StoreVersusModel.TestCase
