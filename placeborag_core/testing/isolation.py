"""The tenant-isolation check: namespaces are walls, and a test can prove it.

The probes that matter most are the other tenants' own texts: a query shaped exactly like tenant
B's chunk, issued in tenant A's namespace, is the query most likely to surface B's chunk if
anything leaks. Seed each tenant with near-duplicates of another tenant's documents and a leak
shows up as a wrong result, not as a silent pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from placeborag_core.messages import shown
from placeborag_core.store.unwrap import core_store_of
from placeborag_core.store.vector_store import FakeVectorStore

__all__ = ["IsolationError", "Leak", "assert_tenant_isolation"]


@dataclass(frozen=True)
class Leak:
    """A match returned in ``namespace`` that is not that namespace's record."""

    namespace: str
    query: str
    id: str
    owner: str | None  # the namespace that holds this id with this text, if one does

    def describe(self) -> str:
        """One line naming the query, the namespace queried and where the chunk belongs."""
        owner = f"namespace {shown(self.owner)}" if self.owner is not None else "no known namespace"
        return (
            f"query {shown(self.query)} in namespace {shown(self.namespace)} returned chunk "
            f"{shown(self.id)}, "
            f"which belongs to {owner}"
        )


class IsolationError(AssertionError):
    """A query in one namespace returned another namespace's chunk."""

    def __init__(self, leaks: Iterable[Leak]) -> None:
        self.leaks = tuple(leaks)
        shown = "\n".join(f"  - {leak.describe()}" for leak in self.leaks[:10])
        more = f"\n  ... and {len(self.leaks) - 10} more" if len(self.leaks) > 10 else ""
        super().__init__(f"tenant isolation violated ({len(self.leaks)} leaks):\n{shown}{more}")


def _owner(core: FakeVectorStore, skip: str, record_id: str, text: str) -> str | None:
    for name in core.namespaces():
        if name == skip:
            continue
        record = core.get(record_id, namespace=name)
        if record is not None and record.text == text:
            return name
    return None


def _default_probes(core: FakeVectorStore, names: Sequence[str], per_namespace: int) -> list[str]:
    probes: list[str] = []
    for name in names:
        for record_id in sorted(core.ids(name))[:per_namespace]:
            record = core.get(record_id, namespace=name)
            if record is not None and record.text is not None:
                probes.append(record.text)
    return probes


def assert_tenant_isolation(
    store: object,
    namespaces: Iterable[str] | None = None,
    *,
    queries: Sequence[str] | None = None,
    k: int = 10,
    probes_per_namespace: int = 20,
) -> None:
    """Raise :class:`IsolationError` if a query in one namespace returns another namespace's chunk.

    Every query is issued, unfiltered, in every namespace of ``namespaces`` (default: all
    namespaces holding records). ``queries`` defaults to the texts of the first
    ``probes_per_namespace`` records (by id) of every namespace -- each tenant's own text is the
    sharpest probe for the others. A match counts as foreign unless the queried namespace holds
    that id with that very text (so two tenants may legitimately share an id, e.g. the same public
    document); orphaned ids (text None, the store's orphaned-id fault) are skipped.

    Like ``store.trace()``, the check never consumes a failure armed with ``fail_next_query``
    (nor raises it): the failures a test armed for the code under test are left for that code.
    """
    core = core_store_of(store)
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be an int >= 1, got {shown(k)}")
    names = sorted(core.namespaces() if namespaces is None else set(namespaces))
    if queries is None:
        probes = _default_probes(core, names, probes_per_namespace)
    else:
        probes = list(queries)
    for probe in probes:
        if not isinstance(probe, str):
            raise TypeError(f"queries must be str, got {type(probe).__name__}")
    leaks: list[Leak] = []
    with core._failures_held():
        for name in names:
            leaks.extend(_leaks(core, name, probes, k))
    if leaks:
        raise IsolationError(leaks)


def _leaks(core: FakeVectorStore, name: str, probes: Sequence[str], k: int) -> list[Leak]:
    """The foreign chunks the probes return in namespace ``name``."""
    leaks: list[Leak] = []
    own = {record_id: core.get(record_id, namespace=name) for record_id in core.ids(name)}
    for probe in probes:
        for match in core.query(probe, k=k, namespace=name):
            if match.text is None:
                continue  # an orphaned id: a deleted record of this index, not a tenant's chunk
            record = own.get(match.id)
            if record is not None and record.text == match.text:
                continue
            leaks.append(Leak(name, probe, match.id, _owner(core, name, match.id, match.text)))
    return leaks
