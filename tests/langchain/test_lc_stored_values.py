"""What the integrations' databases do to a batch's values before it is written.

langchain-postgres `PGVector`: PostgreSQL refuses a NUL character in a text, an id or metadata,
and NaN/Infinity in metadata (facts `lc-pgvector-refuses-nul`, `lc-pgvector-refuses-nan`), with
nothing written. langchain-qdrant over qdrant-client's local mode keeps the metadata's JSON
round-trip (`lc-qdrant-metadata-json`).
"""

from __future__ import annotations

import datetime
import math
import re
from typing import Any

import numpy as np
import pytest
from pydantic_core import PydanticSerializationError

from placeborag_langchain import PlaceboEmbeddings, PlaceboVectorStore

TEXT_NUL = "(psycopg.DataError) PostgreSQL text fields cannot contain NUL (0x00) bytes"
JSON_NUL = (
    "(psycopg.errors.UntranslatableCharacter) unsupported Unicode escape sequence\n"
    "DETAIL:  \\u0000 cannot be converted to text."
)


def json_token(token: str) -> str:
    return (
        "(psycopg.errors.InvalidTextRepresentation) invalid input syntax for type json\n"
        f'DETAIL:  Token "{token}" is invalid.'
    )


def store(profile: str) -> PlaceboVectorStore:
    made = PlaceboVectorStore(PlaceboEmbeddings(), profile=profile)
    made.add_texts(["kept"], ids=["00000000-0000-0000-0000-000000000009"])
    return made


@pytest.mark.parametrize(
    ("texts", "metadatas", "ids", "message"),
    [
        (["a\x00b"], None, ["r1"], TEXT_NUL),
        (["a"], None, ["r1\x00"], TEXT_NUL),
        (["a"], [{"k": "a\x00b"}], ["r1"], JSON_NUL),
        (["a"], [{"k\x00": 1}], ["r1"], JSON_NUL),
        (["a"], [{"k": {"j": ["a\x00"]}}], ["r1"], JSON_NUL),
        (["a"], [{"k": float("nan")}], ["r1"], json_token("NaN")),
        (["a"], [{"k": [1.0, math.inf]}], ["r1"], json_token("Infinity")),
        (["a"], [{"k": -math.inf}], ["r1"], json_token("-Infinity")),
        # numpy floats that are no float subclass, which the core would store as Python floats
        (["a"], [{"k": np.float32("nan")}], ["r1"], json_token("NaN")),
        (["a"], [{"k": np.float16("inf")}], ["r1"], json_token("Infinity")),
        (["a"], [{"k": {"j": [np.float32("-inf")]}}], ["r1"], json_token("-Infinity")),
        (["a"], [{"k": np.longdouble("nan")}], ["r1"], json_token("NaN")),
        # psycopg refuses a text's NUL before PostgreSQL reads an earlier row's metadata
        (["a", "b\x00"], [{"k": math.nan}, {}], ["r1", "r2"], TEXT_NUL),
        # then the rows in order, before the repeated id's CardinalityViolation
        (["a", "b"], [{"k": math.nan}, {"k": "\x00"}], ["r1", "r1"], json_token("NaN")),
        (["a", "b"], [{"k": "\x00"}, {"k": math.nan}], ["r1", "r2"], JSON_NUL),
    ],
)
def test_pgvector_refuses_nul_and_non_finite_values_before_writing(
    texts: list[str], metadatas: list[dict[str, Any]] | None, ids: list[str], message: str
) -> None:
    pg = store("pgvector")
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        pg.add_texts(texts, metadatas=metadatas, ids=ids)
    assert [d.page_content for d in pg.get_by_ids(["r1", "r2", "r1\x00"])] == []
    assert len(pg.core_store) == 1


def test_other_profiles_still_store_nul_and_nan() -> None:
    for profile in ("default", "qdrant", "faiss"):
        other = store(profile)
        other.add_texts(["a\x00b"], metadatas=[{"k": math.nan}])
        assert len(other.core_store) == 2


def test_qdrant_keeps_the_metadata_json_round_trip() -> None:
    qd = store("qdrant")
    given = {
        "when": datetime.datetime(2024, 1, 2, 3, 4, 5),
        "day": datetime.date(2024, 1, 2),
        "pair": (1, 2),
        "bag": {1},
        "keys": {1: "x", 1.5: "y", False: 0, None: 2},
        "f64": np.float64(1.5),
        "raw": b"ab",
        "nested": [{"d": datetime.date(2024, 1, 2)}, (1, frozenset({2}))],
    }
    uid = "00000000-0000-0000-0000-000000000001"
    qd.add_texts(["a"], metadatas=[given], ids=[uid])
    back = qd.get_by_ids([uid])[0].metadata
    want = {
        "when": "2024-01-02T03:04:05",
        "day": "2024-01-02",
        "pair": [1, 2],
        "bag": [1],
        "keys": {"1": "x", "1.5": "y", "false": 0, "null": 2},
        "f64": 1.5,
        "raw": "ab",
        "nested": [{"d": "2024-01-02"}, [1, [2]]],
    }
    assert {k: v for k, v in back.items() if k in want} == want
    assert type(back["f64"]) is float
    assert qd.similarity_search("a", k=1)[0].metadata["when"] == "2024-01-02T03:04:05"


def test_qdrant_refuses_what_its_client_cannot_encode_before_writing() -> None:
    qd = store("qdrant")
    uid = "00000000-0000-0000-0000-000000000001"
    with pytest.raises(PydanticSerializationError, match=r"numpy\.int64"):
        qd.add_texts(["a"], metadatas=[{"n": np.int64(3)}], ids=[uid])
    with pytest.raises(TypeError, match=r"^keys must be str, int, float, bool or None, not tuple$"):
        qd.add_texts(["a"], metadatas=[{"t": {(1, 2): 0}}], ids=[uid])
    assert len(qd.core_store) == 1


# --- langchain-chroma over chromadb (lc-chroma-metadata-hint, lc-chroma-metadata-numbers) ------

CHROMA_REFUSED = (
    "Expected metadata value to be a str, int, float, bool, SparseVector, list, or None, got "
)
CHROMA_HINT = (
    "\n\nTry filtering complex metadata from the document using "
    "langchain_community.vectorstores.utils.filter_complex_metadata."
)


def _chroma_rows(made: PlaceboVectorStore) -> list[Any]:
    got = made.get()
    return list(zip(got["ids"], got["metadatas"], strict=True))


def test_chroma_add_appends_langchain_chromas_hint_to_a_refused_metadata_value() -> None:
    from langchain_core.documents import Document

    made = store("chroma")
    before = _chroma_rows(made)
    adds = [
        lambda: made.add_texts(["c"], metadatas=[{"d": {"x": 1}}], ids=["n"]),
        lambda: made.add_documents([Document("c", metadata={"t": (1, 2)})], ids=["n"]),
        lambda: PlaceboVectorStore.from_texts(
            ["c"], PlaceboEmbeddings(), metadatas=[{"d": {"x": 1}}], profile="chroma"
        ),
    ]
    for add in adds:
        with pytest.raises(ValueError, match="Expected metadata value") as caught:
            add()
        assert str(caught.value).startswith(CHROMA_REFUSED)
        assert str(caught.value).endswith(" in upsert." + CHROMA_HINT)
    assert str(caught.value) == CHROMA_REFUSED + "{'x': 1} which is a dict in upsert." + CHROMA_HINT
    assert _chroma_rows(made) == before
    # chromadb's other metadata errors, and update_documents, are not wrapped
    with pytest.raises(ValueError, match="Expected metadata list value") as listed:
        made.add_texts(["c"], metadatas=[{"k": [1, "a"]}], ids=["n"])
    assert "Try filtering" not in str(listed.value)
    with pytest.raises(ValueError, match="Expected metadata value") as updated:
        made.update_documents(
            ["00000000-0000-0000-0000-000000000009"], [Document("c", metadata={"d": {"x": 1}})]
        )
    assert str(updated.value).startswith(CHROMA_REFUSED)
    assert "Try filtering" not in str(updated.value)


def test_chroma_refuses_a_tuple_drops_nan_and_stores_big_ints_as_floats() -> None:
    made = store("chroma")
    with pytest.raises(ValueError, match="tuple") as caught:
        made.add_texts(["c"], metadatas=[{"ok": 1, "t": (1, 2)}], ids=["t"])
    assert str(caught.value) == CHROMA_REFUSED + "(1, 2) which is a tuple in upsert." + CHROMA_HINT
    with pytest.raises(TypeError, match="Expected metadata key to be a str"):
        made.add_texts(["c"], metadatas=[{1: (1, 2)}], ids=["t"])  # the key is checked first
    given = [
        {"k": math.nan, "j": 1},
        {"k": math.inf, "j": 1},
        {"k": -math.inf},
        {"k": 2**63, "s": 2**63 - 1},
        {"k": -(2**63) - 1},
        {"k": [2**63, 1]},
    ]
    made.add_texts(["c"] * 6, metadatas=given, ids=[f"v{n}" for n in range(6)])
    back = made.get(ids=[f"v{n}" for n in range(6)])["metadatas"]
    assert back == [
        {"j": 1},
        {"j": 1},
        None,
        {"k": 9.223372036854776e18, "s": 2**63 - 1},
        {"k": -9.223372036854776e18},
        {"k": [9.223372036854776e18, 1.0]},
    ]
    assert type(back[3]["s"]) is int
    assert "t" not in made.get()["ids"]
