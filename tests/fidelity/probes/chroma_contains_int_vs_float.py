"""Probe: Chroma's $contains compares list elements by type (an int operand never finds 2.0).

Measured with chromadb 1.5.9: {"$contains": 2.0} matches [2.0, 4.0] only, {"$contains": 2}
matches [1, 2, 3] only. Run: python tests/fidelity/probes/chroma_contains_int_vs_float.py
"""

import os

os.environ["ANONYMIZED_TELEMETRY"] = "False"
import chromadb
from chromadb.config import Settings

c = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
col = c.create_collection("contains-probe", embedding_function=None)
vals = [[1, 2, 3], [2.0, 4.0], [2.5], [-1]]
col.add(
    ids=[f"v{i}" for i in range(len(vals))],
    embeddings=[[1.0, float(i)] for i in range(len(vals))],
    metadatas=[{"n": v} for v in vals],
)
for w in [
    {"n": {"$contains": 2.5}},
    {"n": {"$contains": 2.0}},
    {"n": {"$contains": 2}},
    {"n": {"$not_contains": 2.5}},
    {"n": {"$contains": -1.5}},
]:
    try:
        got = col.get(where=w)["metadatas"]
        print(w, [m["n"] for m in got])
    except Exception as e:
        print(w, type(e).__name__, e)
