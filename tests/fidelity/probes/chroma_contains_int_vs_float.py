"""Probe: Chroma's $contains compares list elements by type (an int operand never finds 2.0).

Measured with chromadb 1.5.9: {"$contains": 2.0} matches [2.0, 4.0] only, {"$contains": 2}
matches [1, 2, 3] only, although scalar equality treats 1 == 1.0 (fact
``chroma-filter-contains-typed`` of docs/engines/chroma.md).
Run: python tests/fidelity/probes/chroma_contains_int_vs_float.py
"""

from _probe import Facts, chroma_client

EXPECTED = {
    "$contains 2.5": [[2.5]],
    "$contains 2.0": [[2.0, 4.0]],
    "$contains 2": [[1, 2, 3]],
    "$not_contains 2.5": [[1, 2, 3], [2.0, 4.0], [-1]],
    "$contains -1.5": [],
}

facts = Facts("Chroma $contains on numeric lists", "chromadb")
col = chroma_client().create_collection("contains-probe", embedding_function=None)
vals = [[1, 2, 3], [2.0, 4.0], [2.5], [-1]]
col.add(
    ids=[f"v{i}" for i in range(len(vals))],
    embeddings=[[1.0, float(i)] for i in range(len(vals))],
    metadatas=[{"n": v} for v in vals],
)
got = {}
for label in EXPECTED:
    op, operand = label.split()
    w = {"n": {op: float(operand) if "." in operand else int(operand)}}
    got[label] = [m["n"] for m in col.get(where=w)["metadatas"]]
    print(w, got[label])
facts.check(
    "chroma-filter-contains-typed",
    all(repr(got[k]) == repr(v) for k, v in EXPECTED.items()),
    "an int operand finds only int elements, a float operand only float elements",
)
facts.done()
