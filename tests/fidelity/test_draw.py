"""Seeded draws: a failing case names the seed that replays it, in any process."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from ._draw import Draw, RandomDraw, case_seed, check_drawn_cases


def test_a_failing_case_names_the_seed_that_replays_it() -> None:
    seen: list[int] = []

    def check(d: Draw) -> None:
        seen.append(d.integer(0, 10**9))
        if len(seen) == 3:
            raise ValueError("boom")

    with pytest.raises(AssertionError, match=r"^demo, case 2: RandomDraw\(\d+\): boom") as caught:
        check_drawn_cases("demo", 5, check)
    seed = int(re.findall(r"RandomDraw\((\d+)\)", str(caught.value))[0])
    assert seed == case_seed("demo", 2)
    assert RandomDraw(seed).integer(0, 10**9) == seen[2]


def test_seeds_depend_on_the_test_name_and_case_only() -> None:
    """Not on the process: hash randomisation, or what else has been imported."""
    code = (
        "import json; from tests.fidelity._draw import case_seed, RandomDraw;"
        "print(json.dumps([RandomDraw(case_seed('li-pgvector', i)).integer(0, 10**9)"
        " for i in range(3)]))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout
        for seed in ("0", "1", "random")
    }
    here = [RandomDraw(case_seed("li-pgvector", i)).integer(0, 10**9) for i in range(3)]
    assert outputs == {f"{here}\n"}
    assert case_seed("li-pgvector", 0) != case_seed("li-lancedb", 0)
