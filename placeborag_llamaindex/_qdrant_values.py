"""The value shapes LlamaIndex's ``QdrantVectorStore`` builds a filter from, validated the same way.

The real integration turns each ``MetadataFilter`` into a qdrant-client model (``MatchValue``,
``MatchAny``, ``MatchExcept``, ``Range``, ``MatchText``), and pydantic rejects a value the model
does not accept (a float for ``!=``, a list for ``==``, a word for ``>``) with a
``ValidationError`` titled after the model. These private models declare the same field types so
that the qdrant profile raises the same error for the same filter, and coerces what qdrant
coerces (``Range(gt="3")`` is ``3.0``), without depending on qdrant-client. Facts:
``docs/integrations/llamaindex.md#li-qdrant-filter-ne-float`` and the ``qdrant-filter-error-*``
facts of ``docs/engines/qdrant.md``.
"""

from __future__ import annotations

from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

__all__ = ["MatchAny", "MatchExcept", "MatchText", "MatchValue", "Range"]

_AnyVariants = Union[list[StrictStr], list[StrictInt]]  # noqa: UP007 (pydantic needs the Union)


class MatchValue(BaseModel):
    """Exact match of one value (qdrant ``ValueVariants``: bool, int or str; never float)."""

    model_config = ConfigDict(extra="forbid")
    value: Union[StrictBool, StrictInt, StrictStr]  # noqa: UP007


class MatchAny(BaseModel):
    """Match any of the given values: a list of str or a list of int."""

    model_config = ConfigDict(extra="forbid")
    any: _AnyVariants


class MatchExcept(BaseModel):
    """The field exists and matches none of the given values."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    except_: _AnyVariants = Field(alias="except")


class Range(BaseModel):
    """Numeric bounds; lax floats, so a numeric string is coerced as qdrant-client does."""

    model_config = ConfigDict(extra="forbid")
    lt: float | None = None
    gt: float | None = None
    gte: float | None = None
    lte: float | None = None


class MatchText(BaseModel):
    """Full-text match; the text must be a str."""

    model_config = ConfigDict(extra="forbid")
    text: str


def validated_except(values: Any) -> list[Any]:
    """Validate ``values`` as ``MatchExcept(except=values)`` and return the accepted list."""
    return list(MatchExcept.model_validate({"except": values}).except_)
