"""Probe: how Chroma 1.5.9 compares a float filter operand with an int metadata value.

Finding (this machine, chromadb 1.5.9, EphemeralClient): the float operand is truncated toward
zero, as Rust's ``as i64`` would, before it is compared with an int value. So ``{"n": 2.5}``
matches ``n=2``, ``$gte 2.9`` matches 2, ``$lt 2.5`` does not match 2, and ``$gt -1.5`` does not
match -1. Float values are compared as floats (``$eq 2.5`` does not match ``2.0``). Run with
``python tests/fidelity/probes/chroma_float_operand_vs_int.py``; lines marked ``<--`` differ
from Python's comparison. Every line is also checked against that truncation model (fact
``chroma-filter-float-operand-truncated`` of docs/engines/chroma.md).
"""

from __future__ import annotations

import os

os.environ["ANONYMIZED_TELEMETRY"] = "False"

import math

import chromadb
from _probe import Facts
from chromadb.config import Settings

VALUES = [1, 2, 3, -1, -2, 2.0, 2.5]
CHECKS = {
    "$gt": lambda v, b: v > b,
    "$gte": lambda v, b: v >= b,
    "$lt": lambda v, b: v < b,
    "$lte": lambda v, b: v <= b,
    "$eq": lambda v, b: v == b,
    "$ne": lambda v, b: v != b,
}


def truncated(value: float, bound: float) -> float:
    """The bound as Chroma compares it with ``value``: cut toward zero against an int value."""
    return math.trunc(bound) if isinstance(value, int) else bound


def main() -> None:
    facts = Facts("Chroma float operand against int values", "chromadb")
    agree = True
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    col = client.create_collection("float-operands", embedding_function=None)
    col.add(
        ids=[f"v{i}" for i in range(len(VALUES))],
        embeddings=[[1.0, float(i)] for i in range(len(VALUES))],
        metadatas=[{"n": v} for v in VALUES],
    )
    for op, check in CHECKS.items():
        for bound in (2.5, 1.5, -1.5, 2.9, 2.0):
            got = col.get(where={"n": {op: bound}}, include=["metadatas"])["metadatas"]
            chroma = sorted((m["n"] for m in got if m), key=float)
            python = sorted((v for v in VALUES if check(v, bound)), key=float)
            mark = "" if list(map(repr, chroma)) == list(map(repr, python)) else "   <--"
            print(f"n {op} {bound}: chroma {chroma} python {python}{mark}")
            model = sorted((v for v in VALUES if check(v, truncated(v, bound))), key=float)
            agree &= list(map(repr, chroma)) == list(map(repr, model))
    facts.check(
        "chroma-filter-float-operand-truncated",
        agree,
        "every comparison equals Python's once a float bound is truncated against an int value",
    )
    facts.done()


if __name__ == "__main__":
    main()
