"""Translate our dict filter dialect into the ``qdrant_client.models.Filter`` it stands for.

The qdrant profile accepts our dialect and claims Qdrant's semantics for it (see the
``filters`` evidence of ``PROFILES["qdrant"]``); the real engine only takes typed ``Filter``
models. This is the translation the differential tests use, written the way a user of the
real client would write the models by hand:

==========================  ==============================================================
ours                        Qdrant
==========================  ==============================================================
``{"k": v}``, ``$eq``       ``MatchValue(v)``; a float ``v`` -> ``Range(gte=v, lte=v)``
                            (MatchValue takes no floats)
``$ne`` / ``$nin``          ``MatchExcept`` (the key must exist)
``$in``                     ``MatchAny``
``$gt $gte $lt $lte``       ``Range``
``$text_match(_insensitive)``  ``MatchText`` (word tokens, lower-cased, in local mode)
``$is_empty: true``         ``IsEmptyCondition`` (missing, null or ``[]``)
``$exists: b``              ``must_not IsEmpty`` if b, else ``IsEmpty``
``$and $or $not``           ``must``, ``should``, ``must_not``
==========================  ==============================================================

Operands go to the models unchanged, so pydantic rejects bad ones exactly as it would for a
user (``MatchAny([True])``, ``MatchExcept([1.5])``...). Operators the profile does not offer
(``$contains``, ``$any``, ``$all``...) have no counterpart: ``UntranslatableError``.

Metadata sits at the top level of the payload (as llama-index's Qdrant store keeps it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class UntranslatableError(ValueError):
    """The filter has no Qdrant counterpart (e.g. an operator the profile does not offer)."""


def to_qdrant(where: Mapping[str, Any], prefix: str = "") -> Any:
    """The ``models.Filter`` equivalent to ``where``; ``prefix`` goes before every key
    (langchain-qdrant keeps metadata under the payload key ``metadata``: ``"metadata."``)."""
    from qdrant_client import models

    if not isinstance(where, Mapping):
        raise UntranslatableError(f"not a mapping: {where!r}")
    must: list[Any] = []
    for key, value in where.items():
        if key == "$and":
            must.append(models.Filter(must=[to_qdrant(c, prefix) for c in value]))
        elif key == "$or":
            must.append(models.Filter(should=[to_qdrant(c, prefix) for c in value]))
        elif key == "$not":
            must.append(models.Filter(must_not=[to_qdrant(value, prefix)]))
        elif key.startswith("$"):
            raise UntranslatableError(f"unknown logical operator {key}")
        elif isinstance(value, Mapping):
            must.extend(_field(prefix + key, op, operand) for op, operand in value.items())
        else:
            must.append(_field(prefix + key, "$eq", value))
    return models.Filter(must=must)


def _field(key: str, op: str, operand: Any) -> Any:
    from qdrant_client import models

    fc = models.FieldCondition
    empty = models.IsEmptyCondition(is_empty=models.PayloadField(key=key))
    if op == "$eq":
        if isinstance(operand, float):
            return fc(key=key, range=models.Range(gte=operand, lte=operand))
        return fc(key=key, match=models.MatchValue(value=operand))
    if op == "$ne":
        return fc(key=key, match=models.MatchExcept(**{"except": [operand]}))
    if op == "$nin":
        return fc(key=key, match=models.MatchExcept(**{"except": operand}))
    if op == "$in":
        return fc(key=key, match=models.MatchAny(any=operand))
    if op in ("$gt", "$gte", "$lt", "$lte"):
        return fc(key=key, range=models.Range(**{op[1:]: operand}))
    if op in ("$text_match", "$text_match_insensitive"):
        return fc(key=key, match=models.MatchText(text=operand))
    if op == "$is_empty" and operand is True:
        return empty
    if op == "$exists" and isinstance(operand, bool):
        return models.Filter(must_not=[empty]) if operand else empty
    raise UntranslatableError(f"no Qdrant counterpart for {op}: {operand!r}")
