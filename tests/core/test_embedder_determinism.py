"""Vectors are a pure function of their inputs: the same in every process and on every machine.

The golden digest pins this version's vectors. It changes only on purpose, together with
``placeborag_core.embedding.embedder.ALGORITHM`` (hashed vectors) or
``placeborag_core.embedding.clusters.GEOMETRY`` (cluster members) and a CHANGELOG line, because
users pin rankings.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

from placeborag_core import FakeEmbedder

GOLDEN_CORPUS = [
    "",
    "refund policy",
    "Our refund policy allows returns within 30 days.",
    "naïve façade — déjà vu",
    "Политика возврата",
    "返品ポリシー",
    "🎉 party",
    "ticket 4711",
]
CLUSTERS = {"refund": ["refund policy", "money back"], "shipping": ["delivery times"]}

DIGEST_SCRIPT = """
import hashlib, sys
import numpy as np
from placeborag_core import FakeEmbedder
corpus = {corpus!r}
digests = []
for embedder in (
    FakeEmbedder(),
    FakeEmbedder(model_name="other", dimensions=64),
    FakeEmbedder(clusters={clusters!r}, cluster_match="substring"),
):
    batch = embedder.embed_many(corpus)
    single = np.array([embedder.embed(t) for t in corpus])
    assert (batch == single).all()
    assert embedder.embed_lists(corpus) == single.tolist()
    digests.append(hashlib.sha256(batch.astype("<f8").tobytes()).hexdigest())
print(" ".join(digests))
"""

# sha256 of the little-endian float64 vectors of GOLDEN_CORPUS, one per embedder of the script.
# The third (clusters) changed with GEOMETRY "placeborag-clusters/2", members offset along their
# own hashed vectors (it was e70aee637b415dd157bc374acb1b9b0579fb64755465ed89ce47591b748a94fa);
# the first two must not change with the cluster geometry.
GOLDEN = (
    "addbcb6d8e0581809ef1dee860f776f793d68a04ec480e31e2c8076e1568e758",
    "88a5e5e4d29c68a349c550ed27271a5121c8ad47d0a1a6ee3831a269e5c5c1c5",
    "c1fe4d2453099a88c3e0ede5be8f1a2e2594e935b352e7ddad9162a871521277",
)
# FakeEmbedder.identity of the same three embedders: what seed manifests record. The first two
# never include the cluster geometry (manifests committed with them must not report drift); the
# third does (it was ad999bd6ccf3d546 before GEOMETRY "placeborag-clusters/2").
GOLDEN_IDENTITIES = ("b13d7a36278d9918", "424fdc39964b6079", "fc8e2d4bd81b8a94")


def golden_embedders() -> tuple[FakeEmbedder, ...]:
    return (
        FakeEmbedder(),
        FakeEmbedder(model_name="other", dimensions=64),
        FakeEmbedder(clusters=CLUSTERS, cluster_match="substring"),
    )


def digests_here() -> str:
    values = []
    for embedder in golden_embedders():
        batch = embedder.embed_many(GOLDEN_CORPUS)
        values.append(hashlib.sha256(batch.astype("<f8").tobytes()).hexdigest())
    return " ".join(values)


def test_golden_digest_pins_this_versions_vectors() -> None:
    assert digests_here() == " ".join(GOLDEN)


def test_golden_identities_pin_what_manifests_record() -> None:
    assert tuple(embedder.identity for embedder in golden_embedders()) == GOLDEN_IDENTITIES


@pytest.mark.parametrize("hash_seed", ["0", "1", "4242", "random"])
def test_vectors_are_identical_in_other_processes(hash_seed: str) -> None:
    script = DIGEST_SCRIPT.format(corpus=GOLDEN_CORPUS, clusters=CLUSTERS)
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == list(GOLDEN)


def test_batch_order_and_composition_do_not_change_a_vector() -> None:
    embedder = FakeEmbedder()
    alone = np.array([embedder.embed(t) for t in GOLDEN_CORPUS])
    mixed = FakeEmbedder().embed_many([*reversed(GOLDEN_CORPUS), *GOLDEN_CORPUS])
    assert (mixed[len(GOLDEN_CORPUS) :] == alone).all()
    assert (mixed[: len(GOLDEN_CORPUS)] == alone[::-1]).all()
