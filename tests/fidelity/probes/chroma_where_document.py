"""Probe: Chroma's where_document dialect (operators, validation messages, documents without text).

Measured with chromadb 1.5.9: $contains/$not_contains are case-sensitive substring tests,
$regex/$not_regex unanchored searches; one operator per expression, non-empty str operands,
$and/$or need two or more expressions; a record stored without a document matches no
expression, negated ones included. Run: python tests/fidelity/probes/chroma_where_document.py
"""

import os

os.environ["ANONYMIZED_TELEMETRY"] = "False"
import chromadb
from chromadb.config import Settings

c = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
col = c.create_collection("where-document-probe", embedding_function=None)
col.add(
    ids=["a", "b", "c", "d"],
    documents=["Refund policy", "refund window", "Shipping", "x"],
    embeddings=[[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.5, 0.5]],
)
col.add(ids=["no-doc"], embeddings=[[1.0, 0.1]])
for where_document in [
    {"$contains": "refund"},
    {"$contains": "Refund"},
    {"$not_contains": "refund"},
    {"$regex": "^[Rr]efund"},
    {"$not_regex": "^[Rr]efund"},
    {"$regex": "(?i)REFUND"},
    {"$and": [{"$contains": "efund"}, {"$not_contains": "window"}]},
    {"$or": [{"$contains": "Ship"}, {"$contains": "window"}]},
    {"$and": [{"$contains": "efund"}]},
    {"$or": []},
    {"$contains": ""},
    {"$regex": ""},
    {"$not_regex": ""},
    {"$contains": 3},
    {"$foo": "x"},
    {},
    {"$contains": "a", "$not_contains": "b"},
    {"$regex": "("},
    "refund",
]:
    try:
        got = col.query(query_embeddings=[[1.0, 0.0]], n_results=5, where_document=where_document)
        print(where_document, "->", sorted(got["ids"][0]))
    except Exception as error:
        print(where_document, "!!", type(error).__name__, str(error).splitlines()[0])
print("get $contains efund:", col.get(where_document={"$contains": "efund"})["ids"])
print("get $not_contains zzz:", sorted(col.get(where_document={"$not_contains": "zzz"})["ids"]))
