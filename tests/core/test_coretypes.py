"""The same rankings under the BLAS kernels of several CPU families, bit for bit.

numpy's bundled OpenBLAS picks its kernel from ``OPENBLAS_CORETYPE``, so one CPU can run the
kernels of older CPU families. ``coretype_run.py`` runs a fixed scenario (texts with many
mathematically equal cosines, random vectors with copies; plain, pre-filtered, MMR and traced
queries) under every profile and metric and prints digests of the ids, scores and
similarities. Every kernel must give the same digests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from placeborag_core import PROFILES

SCRIPT = Path(__file__).with_name("coretype_run.py")
# requested kernel -> what it is (x86-64): AVX-512, AVX2 + FMA, AVX without FMA, SSE3
CORETYPES = ["SkylakeX", "Haswell", "Sandybridge", "Prescott"]


def run(coretype: str) -> dict[str, object]:
    env = {**os.environ, "OPENBLAS_CORETYPE": coretype, "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-W", "error", str(SCRIPT)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_every_profile_ranks_the_same_under_every_blas_kernel() -> None:
    runs = {coretype: run(coretype) for coretype in CORETYPES}
    kernels = {coretype: result["core"] for coretype, result in runs.items()}
    if None in kernels.values():
        pytest.skip("numpy's BLAS is not its bundled OpenBLAS: OPENBLAS_CORETYPE has no effect")
    distinct = set(kernels.values())
    digests = {coretype: result["digests"] for coretype, result in runs.items()}
    first = digests[CORETYPES[0]]
    # every profile and metric (PROFILES), each with its own digest
    assert len(first) == sum(len(p.variants) for p in PROFILES.values())  # type: ignore[arg-type]
    for coretype, found in digests.items():
        assert found == first, (
            f"{coretype} (kernel {kernels[coretype]}) differs from {CORETYPES[0]}"
        )
    if len(distinct) < 3:
        pytest.skip(
            f"the digests agree, but this CPU ran only {len(distinct)} distinct kernels "
            f"(requested -> used: {kernels}); at least 3 are needed to prove the point"
        )
