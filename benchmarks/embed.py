"""How fast FakeEmbedder embeds, beside langchain-core's DeterministicFakeEmbedding.

Run: ``python benchmarks/embed.py``. Prints figures; asserts nothing (tests never time things).
Everything runs on one core: BLAS/OpenMP thread pools are pinned to one thread before numpy loads.

Figures:
- ``embed_many`` of 10,000 distinct short strings (30-60 characters), median of repeats, both with
  a fresh embedder each time (cold: every token is hashed) and reusing one embedder (warm: the
  per-token feature cache is filled, as in a test suite that embeds the same corpus repeatedly);
- ``embed_lists`` (the same rows as Python lists, what LangChain and LlamaIndex return) beside
  ``embed_many(...).tolist()``;
- langchain-core's ``DeterministicFakeEmbedding(size=384).embed_documents`` on the same strings
  (skipped, with a message, when langchain-core is not installed);
- ``embed`` of one short string: the median per call over 10,000 distinct strings made from a
  fixed vocabulary (a fresh embedder hashes each word on its first appearance), and over 10,000
  strings that each bring a never-seen token (a number), the slowest case.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import random
import statistics
import time
import timeit
from collections.abc import Callable

import numpy as np

from placeborag_core import FakeEmbedder

_WORDS = [
    "refund",
    "policy",
    "order",
    "delivery",
    "shipping",
    "return",
    "invoice",
    "account",
    "password",
    "reset",
    "billing",
    "subscription",
    "cancel",
    "upgrade",
    "plan",
    "warranty",
    "repair",
    "store",
    "pickup",
    "payment",
    "card",
    "bank",
    "transfer",
    "discount",
    "coupon",
    "gift",
    "receipt",
    "tracking",
    "parcel",
    "courier",
    "address",
    "change",
    "email",
    "phone",
    "support",
    "hours",
    "holiday",
    "weekend",
    "premium",
    "member",
    "points",
    "reward",
    "exchange",
    "size",
]


def short_strings(count: int, seed: int = 7, numbered: bool = False) -> list[str]:
    """Distinct realistic strings of 30 to 60 characters (deterministic).

    With ``numbered`` every string ends in its own number, so every string brings a token the
    embedder has never seen (the slowest case for ``embed``).
    """
    rng = random.Random(seed)
    texts: list[str] = []
    seen: set[str] = set()
    while len(texts) < count:
        words: list[str] = []
        target = rng.randint(30, 52 if numbered else 60)
        while len(" ".join(words)) < target:
            words.append(rng.choice(_WORDS))
        text = " ".join(words)
        if numbered:
            text = f"{text} {len(texts)}"
        if text not in seen and 30 <= len(text) <= 60:
            seen.add(text)
            texts.append(text)
    return texts


def per_call_median(embedder: FakeEmbedder, texts: list[str]) -> float:
    per_call = []
    for text in texts:
        start = time.perf_counter()
        embedder.embed(text)
        per_call.append(time.perf_counter() - start)
    return statistics.median(per_call)


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def machine_reference() -> float:
    """Median seconds of ``numpy.zeros(384).tolist()``: a yardstick for the machine's state.

    Shared virtual machines change speed within seconds; printed at the start and around the
    ``embed`` figure, it lets two runs (and two parts of one run) be compared.
    """
    runs = timeit.repeat(np.zeros(384).tolist, number=10_000, repeat=7)
    return statistics.median(runs) / 10_000


def main() -> None:
    texts = short_strings(10_000)
    print(f"{len(texts)} strings, {min(map(len, texts))}-{max(map(len, texts))} characters")
    print(
        f"machine reference: numpy tolist() of 384 floats takes {machine_reference() * 1e6:.2f} us"
    )

    cold = median_seconds(lambda: FakeEmbedder().embed_many(texts), repeats=9)
    warm_embedder = FakeEmbedder()
    warm_embedder.embed_many(texts)
    warm = median_seconds(lambda: warm_embedder.embed_many(texts), repeats=9)
    print(f"FakeEmbedder.embed_many, 10k strings, cold cache: {cold * 1e3:8.1f} ms median")
    print(f"FakeEmbedder.embed_many, 10k strings, warm cache: {warm * 1e3:8.1f} ms median")
    as_lists = median_seconds(lambda: warm_embedder.embed_lists(texts), repeats=9)
    converted = median_seconds(lambda: warm_embedder.embed_many(texts).tolist(), repeats=9)
    print(
        f"FakeEmbedder.embed_lists, 10k strings, warm cache: {as_lists * 1e3:8.1f} ms median "
        f"(embed_many(...).tolist(): {converted * 1e3:.1f} ms)"
    )

    try:
        from langchain_core.embeddings import DeterministicFakeEmbedding
    except ImportError:
        print("DeterministicFakeEmbedding: skipped, langchain-core is not installed")
    else:
        peer = DeterministicFakeEmbedding(size=384)
        peer_time = median_seconds(lambda: peer.embed_documents(texts), repeats=3)
        print(
            f"DeterministicFakeEmbedding(size=384).embed_documents: {peer_time * 1e3:8.1f} ms "
            f"median -> FakeEmbedder is {peer_time / cold:.1f}x faster cold, "
            f"{peer_time / warm:.1f}x warm"
        )

    before = machine_reference()
    single = per_call_median(FakeEmbedder(), texts)
    after = machine_reference()
    print(
        f"FakeEmbedder.embed, one short string: {single * 1e6:8.1f} us median "
        f"(10k distinct strings over a {len(_WORDS)}-word vocabulary, fresh embedder; "
        f"machine reference just before and after: {before * 1e6:.2f} / {after * 1e6:.2f} us)"
    )
    numbered = short_strings(10_000, seed=11, numbered=True)
    cold = per_call_median(FakeEmbedder(), numbered)
    print(
        f"FakeEmbedder.embed, one short string with a token never seen before: "
        f"{cold * 1e6:8.1f} us median"
    )


if __name__ == "__main__":
    main()
