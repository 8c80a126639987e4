"""Turning the records of one write into a validated ``Batch`` (``store/partition.py``).

Everything is checked, and the records without a vector embedded in one ``embed_many`` call,
before the store changes: a batch is all or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from placeborag_core.arithmetic import norm32
from placeborag_core.backends import Profile
from placeborag_core.messages import shown
from placeborag_core.store.faults import id_hash
from placeborag_core.store.inputs import (
    RawRecord,
    check_metadata,
    check_records,
    given_vectors,
    unpack,
)
from placeborag_core.store.numpy_scalars import python_scalars
from placeborag_core.store.partition import Batch

if TYPE_CHECKING:
    from placeborag_core.embedding.embedder import FakeEmbedder

__all__ = ["BatchBuilder"]


class BatchBuilder:
    """Builds write batches under one profile; ``embedder`` is called only when a record needs
    embedding (the store creates its default embedder lazily)."""

    def __init__(
        self, profile: Profile, embedder: Callable[[], FakeEmbedder], *, hash_ids: bool
    ) -> None:
        self._profile = profile
        self._embedder = embedder
        self._hash_ids = hash_ids

    def build(
        self, records: Iterable[Any], *, append: bool = False, replace: bool = False
    ) -> Batch | None:
        """The validated batch for ``records`` (None for no records). Under a profile where a
        repeated id is not an error, the last record of each id wins, at its first position;
        an ``append`` batch (and a ``keep_new`` profile's upsert) keeps every record."""
        check_records(records)
        raw = self._canonical_ids([unpack(item, index) for index, item in enumerate(records)])
        if not raw:
            return None
        if not append and self._profile.duplicate_ids_in_batch != "keep_new":
            raw = self._dedupe(raw)
        block = self._vectors_for(raw)
        ids = [item[0] for item in raw]
        hashes = (
            np.fromiter((id_hash(i) for i in ids), dtype=np.uint64, count=len(ids))
            if self._hash_ids
            else np.zeros(len(ids), dtype=np.uint64)
        )
        texts, metas = [item[1] for item in raw], [item[2] for item in raw]
        return Batch(ids, texts, metas, block, hashes, append=append, replace=replace)

    def _canonical_ids(self, raw: list[RawRecord]) -> list[RawRecord]:
        """Records with their ids as the engine spells them (Qdrant: ``"01"`` is point 1, stored
        as ``"1"``); ``ValueError`` with the engine's message for an id it rejects."""
        check = self._profile.ids.check
        out = raw
        for index, item in enumerate(raw):
            canonical = check(item[0])
            if canonical != item[0]:
                if out is raw:
                    out = list(raw)
                out[index] = (canonical, *item[1:])
        return out

    def _dedupe(self, raw: list[RawRecord]) -> list[RawRecord]:
        seen: dict[str, int] = {}
        for index, item in enumerate(raw):
            seen.setdefault(item[0], index)
        if len(seen) == len(raw):
            return raw
        if self._profile.duplicate_ids_in_batch == "error":
            counts: dict[str, int] = {}
            for item in raw:
                counts[item[0]] = counts.get(item[0], 0) + 1
            dupes = ", ".join(i for i, c in counts.items() if c > 1)
            raise ValueError(self._profile.duplicate_ids_message.format(ids=dupes))
        last = {item[0]: item for item in raw}
        return [last[record_id] for record_id in seen]

    def _vectors_for(self, raw: list[RawRecord]) -> npt.NDArray[np.float32]:
        """Validate every record and return the float32 block to store, one row per record.

        Records without a vector are embedded with one ``embed_many`` call, after every given
        vector has been checked; all rows must share one width. numpy scalars in a record's
        metadata are replaced in ``raw`` by Python numbers, once the profile's rule has run.
        """
        given_raw: dict[int, Any] = {}
        missing: list[int] = []
        nested = self._profile.nested_metadata
        rule = self._profile.metadata_rule
        for index, (record_id, text, metadata, vector) in enumerate(raw):
            if rule is not None and metadata:
                rule(metadata)
            converted = python_scalars(metadata)
            if converted is not metadata:
                raw[index] = (record_id, text, converted, vector)
            check_metadata(record_id, converted, nested)
            if vector is not None:
                given_raw[index] = vector
            elif text is None:
                raise ValueError(
                    f"record {shown(record_id)} has neither a text nor a vector; give a text to "
                    "embed or a vector"
                )
            else:
                missing.append(index)
        given_rows = list(given_raw)
        given = given_vectors(raw, given_raw, self._profile)
        width = given.shape[1] if given_rows and given_rows[0] == 0 else None
        embedded = None
        if missing:
            # FakeEmbedder rows are finite unit vectors by construction: no NaN check needed.
            embedded = self._embedder().embed_many(
                [str(raw[i][1]) for i in missing], dtype=np.float32
            )
            if width is not None and embedded.shape[1] != width:
                raise self._profile.dimension_error(
                    f"vector dimension mismatch in one batch: the embedder gives dimension "
                    f"{embedded.shape[1]}, the batch's first vector has {width}"
                )
            width = embedded.shape[1]
        assert width is not None
        if given_rows and given.shape[1] != width:
            raise self._profile.dimension_error(
                f"vector dimension mismatch in one batch: record {shown(raw[given_rows[0]][0])} "
                f"has "
                f"dimension {given.shape[1]}, the embedder gives {width}"
            )
        if len(given_rows) == len(raw):
            return self._normalised(given)
        block = np.empty((len(raw), width), dtype=np.float32)
        if embedded is not None:
            if len(missing) == len(raw):
                block[:] = embedded
            else:
                block[missing] = embedded
        if given_rows:
            block[given_rows] = given
        return self._normalised(block)

    def _normalised(self, block: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Rows normalised per point in float32 if the profile stores unit vectors (Qdrant):
        divided by their correctly rounded float32 norm (``arithmetic.norm32``: the same on every
        machine, where BLAS's float32 norm is not)."""
        if self._profile.variant.normalise_on_upsert:
            norms = norm32(block)
            some = norms != 0  # a zero vector stays zero (its cosine with anything is 0)
            block[some] = block[some] / norms[some, None]
        return block
