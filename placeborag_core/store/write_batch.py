"""One validated write, column by column: what the batch builder hands the partition."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Batch"]


@dataclass(frozen=True)
class Batch:
    """Validated records ready to be written, column by column.

    ``vectors`` is float32 (already normalised if the profile stores normalised vectors), one row
    per id. ``id_hashes`` feeds recall dropout (zeros when the store never drops). A None text or
    metadata means "not given" (it matters for merging upserts). ``defaults``: the metadata a
    new row starts from (a typed table's NULL columns), None for none. ``append``: every record
    becomes a new row, even when its id is stored (an engine without a primary key). ``schema``:
    the namespace's table schema the batch was checked against (typed profiles only).
    ``replace``: the batch replaces the namespace's rows and table schema (LanceDB's
    ``table.add(mode="overwrite")``).
    """

    ids: list[str]
    texts: list[str | None]
    metas: list[dict[str, Any] | None]
    vectors: npt.NDArray[np.float32]
    id_hashes: npt.NDArray[np.uint64]
    defaults: Mapping[str, Any] | None = None
    append: bool = False
    schema: Any = None
    replace: bool = False

    def __len__(self) -> int:
        return len(self.ids)
