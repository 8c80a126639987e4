"""pgvector's distance operators as exact quantities (the same bit for bit on every machine).

pgvector computes each distance from float32 sums in its build's SIMD order, then finishes in
double precision: ``<->`` is ``sqrt(double(sum (a-b)^2))``, ``<#>`` is ``-double(a.b)`` (an
orthogonal pair scores ``-0.0``), ``<=>`` is ``1 - a.b / sqrt(|a|^2 |b|^2)``, NaN when a norm is
zero. The profile reports the same operations on the **exact** quantities, correctly rounded to
float64 (``placeborag_core.store.scoring``): the squared distance then ``sqrt``, the dot then
``-``, the cosine then ``1 -``. The engine's float32 summation order (16 FMA lanes on the
measured AVX-512 build, reproduced bit for bit by the probe's kernel
``tests/fidelity/probes/_pgkernel.py``: ``pgvector-score-recipe-bit-exact``) makes its last
bits differ: within 1e-6 relative (``pgvector-score-profile-exact-within-1e-6``; the divergence
``float-rounding``). Facts: ``docs/engines/pgvector.md#scores``.
"""

from __future__ import annotations

from placeborag_core.backends.formulas import Formula

__all__ = ["COSINE", "L2", "NEGATIVE_IP"]

L2 = Formula("pgvector_l2", "squared_l2", "float32", ("sqrt",))
"""``<->``: the Euclidean distance (not squared), float64, lower is better."""
NEGATIVE_IP = Formula("pgvector_negative_ip", "dot", "float32", ("negate",))
"""``<#>``: minus the dot product, float64 (``-0.0`` for an orthogonal pair), lower is better."""
COSINE = Formula("pgvector_cosine", "cosine", "float32", ("one_minus",), zero_vectors="nan")
"""``<=>``: 1 - cosine, float64, NaN for a zero vector (stored or query), lower is better."""
