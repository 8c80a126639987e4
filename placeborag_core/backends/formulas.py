"""Score formulas as data: which exact quantity, which final IEEE steps, which reported type.

A :class:`Formula` is what a :class:`~placeborag_core.backends.profile.MetricVariant` reports.
It names

* the exact quantity of the stored vector ``v`` and the query ``q``: ``"dot"`` (``v.q``),
  ``"cosine"``, ``"unit_dot"`` (``v.q / |q|``: Qdrant stores unit vectors and divides the query
  by its norm) or ``"squared_l2"`` (``|v - q|**2``), computed exactly and rounded once to
  float64 (``placeborag_core.store.scoring`` says how);
* the query as the engine sees it: rounded to ``"float32"`` (Chroma, FAISS) or kept
  ``"float64"`` (qdrant-client's local mode);
* the IEEE steps that turn the float64 value into the reported number, in order: ``"float32"``
  (round to float32), ``"one_minus"`` (``1 - x`` in the current precision), ``"sqrt"``,
  ``"negate"`` (``-x``, exact; pgvector's ``<#>``);
* what the cosine of a zero vector is: 0 (``zero_vectors="zero"``, as the arithmetic defines
  it) or NaN (``"nan"``: pgvector's ``<=>`` divides by a zero norm).

The store runs one mechanism for every formula; engine modules only pick the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "COSINE_F32",
    "DOT_F32",
    "ONE_MINUS_COSINE_F32",
    "ONE_MINUS_DOT_F32",
    "SQUARED_L2_F32",
    "Formula",
]

Quantity = Literal["dot", "cosine", "unit_dot", "squared_l2"]
Step = Literal["float32", "one_minus", "sqrt", "negate"]
_KINDS = {"dot": "dot", "unit_dot": "dot", "cosine": "cos", "squared_l2": "l2"}


@dataclass(frozen=True)
class Formula:
    """A named score: ``quantity`` of (stored vector, query as ``query`` precision), then
    ``steps``. ``is_cosine``: the score is the cosine itself, so a match's ``similarity`` is its
    score. ``zero_vectors``: the cosine quantity of a zero vector (stored or query), 0 or NaN."""

    name: str
    quantity: Quantity
    query: Literal["float32", "float64"]
    steps: tuple[Step, ...] = ()
    zero_vectors: Literal["zero", "nan"] = "zero"

    def __post_init__(self) -> None:
        if self.quantity not in _KINDS:
            raise ValueError(f"Formula.quantity must be one of {sorted(_KINDS)}")
        if self.query not in ("float32", "float64"):
            raise ValueError("Formula.query must be 'float32' or 'float64'")
        for step in self.steps:
            if step not in ("float32", "one_minus", "sqrt", "negate"):
                raise ValueError(f"unknown Formula step {step!r}")
        if self.zero_vectors not in ("zero", "nan"):
            raise ValueError("Formula.zero_vectors must be 'zero' or 'nan'")
        if self.zero_vectors == "nan" and self.quantity != "cosine":
            raise ValueError("Formula.zero_vectors='nan' is a rule of the cosine quantity")

    @property
    def kind(self) -> str:
        """The phase-1 key: ``"dot"``, ``"cos"`` or ``"l2"``."""
        return _KINDS[self.quantity]

    @property
    def is_cosine(self) -> bool:
        return (
            self.quantity == "cosine"
            and self.steps in ((), ("float32",))
            and self.zero_vectors == "zero"
        )

    @property
    def reported(self) -> type[np.floating[Any]]:
        """The type of the reported number."""
        return np.float32 if "float32" in self.steps else np.float64

    def finish(self, value: npt.NDArray[np.float64]) -> npt.NDArray[Any]:
        """The reported numbers from the correctly rounded float64 quantity."""
        out: npt.NDArray[Any] = value
        for step in self.steps:
            if step == "float32":
                with np.errstate(over="ignore"):  # beyond float32: inf, as a float32 kernel
                    out = out.astype(np.float32)
            elif step == "one_minus":
                out = out.dtype.type(1) - out
            elif step == "negate":
                out = -out
            else:
                out = np.sqrt(out)
        return out


COSINE_F32 = Formula("cosine_f32", "cosine", "float32", ("float32",))
"""Cosine similarity, rounded to float32 (the default profile)."""
SQUARED_L2_F32 = Formula("squared_l2_f32", "squared_l2", "float32", ("float32",))
"""Squared L2 distance rounded to float32 (Chroma ``l2``, FAISS ``IndexFlatL2``)."""
ONE_MINUS_COSINE_F32 = Formula(
    "one_minus_cosine_f32", "cosine", "float32", ("float32", "one_minus")
)
"""1 - cos in float32, after rounding the cosine to float32 as the engines' float32 kernels do
(Chroma ``cosine``, Weaviate)."""
ONE_MINUS_DOT_F32 = Formula("one_minus_dot_f32", "dot", "float32", ("float32", "one_minus"))
"""1 - dot in float32, the dot rounded to float32 first (Chroma ``ip``)."""
DOT_F32 = Formula("dot_f32", "dot", "float32", ("float32",))
"""Dot product rounded to float32 (FAISS ``IndexFlatIP``)."""
