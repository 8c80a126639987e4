"""How fast ``where_document`` regex filters run with the core's linear-time engine, beside ``re``.

Run: ``python benchmarks/regex_filter.py``. Prints figures; asserts nothing (tests never time
things).

Figures:
- for a few typical patterns (a literal word, ``(?i)refund``, ``\\b\\d{2}\\s+days\\b``, an
  alternation of five words, ``\\w+ing\\b``, ``^(?:\\w+\\s){3}policy``): the time to test 10,000
  records of about 200 characters with our engine (``Regex.is_match``, warm: the lazy DFA is
  built on the first pass), with Python's ``re`` (``search``) on the same texts, and the ratio
  (the match counts of both are printed side by side: these patterns mean the same in both);
  then a whole ``FakeVectorStore.select(where_document={"$regex": ...})`` over the same records;
- ``(a+)+$`` on texts of 26, 29 and 1,000 ``a``'s followed by ``!``: ours (in milliseconds,
  the first call, cold), and ``re`` on 20, 23 and 26 characters only (seconds, growing
  eightfold every three characters: 29 would take a minute on a busy machine).
"""

from __future__ import annotations

import random
import re
import statistics
import time
from collections.abc import Callable

from placeborag_core import FakeVectorStore
from placeborag_core.filters.regex import Regex

_WORDS = [
    "the",
    "order",
    "was",
    "shipped",
    "within",
    "days",
    "and",
    "the",
    "customer",
    "asked",
    "about",
    "a",
    "refund",
    "policy",
    "for",
    "damaged",
    "items",
    "returned",
    "after",
    "delivery",
    "window",
    "closes",
    "warranty",
    "covers",
    "repairs",
    "invoice",
    "number",
    "support",
    "ticket",
    "escalated",
    "billing",
    "team",
    "answered",
    "quickly",
    "thanks",
    "regards",
]
PATTERNS = [
    "refund",
    "(?i)refund",
    r"\b\d{2}\s+days\b",
    "refund|return|warranty|invoice|billing",
    r"\w+ing\b",
    r"^(?:\w+\s){3}policy",
]


def _records(count: int = 10_000, seed: int = 7) -> list[str]:
    """Texts of ~200 characters from a small vocabulary, some with numbers and capitals."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        words: list[str] = []
        while sum(len(w) + 1 for w in words) < 200:
            roll = rng.random()
            if roll < 0.03:
                words.append(str(rng.randint(1, 99)))
            elif roll < 0.05:
                words.append(rng.choice(_WORDS).capitalize())
            else:
                words.append(rng.choice(_WORDS))
        texts.append(" ".join(words))
    return texts


def _best(run: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def typical(texts: list[str]) -> None:
    print(f"{len(texts)} records, {statistics.mean(map(len, texts)):.0f} characters on average")
    print(f"{'pattern':42} {'matches':>11} {'ours ms':>8} {'re ms':>7} {'ratio':>6}")
    for pattern in PATTERNS:
        ours = Regex(pattern)
        theirs = re.compile(pattern)
        hits = f"{sum(map(ours.is_match, texts))}/{sum(bool(theirs.search(t)) for t in texts)}"
        ours_time = _best(lambda ours=ours: [ours.is_match(t) for t in texts])
        re_time = _best(lambda theirs=theirs: [theirs.search(t) for t in texts])
        print(
            f"{pattern:42} {hits:>11} {ours_time * 1000:8.1f} {re_time * 1000:7.1f} "
            f"{ours_time / re_time:6.1f}"
        )


def store_query(texts: list[str]) -> None:
    store = FakeVectorStore()
    store.upsert_many([(str(i), t, None, [1.0, float(i % 7)]) for i, t in enumerate(texts)])
    print("FakeVectorStore.select(where_document={'$regex': ...}) over the same records:")
    for pattern in PATTERNS:
        elapsed = _best(lambda p=pattern: store.select(where_document={"$regex": p}), repeat=3)
        print(f"  {pattern:40} {elapsed * 1000:8.1f} ms")


def catastrophic() -> None:
    print("(a+)+$ on 'a' * n + '!':")
    for n in (20, 23, 26, 29, 1000):
        text = "a" * n + "!"
        start = time.perf_counter()
        found = Regex("(a+)+$").is_match(text)
        ours = time.perf_counter() - start
        line = f"  n={n:5d} ours {ours * 1000:7.2f} ms (cold: compiled and searched, {found})"
        if n <= 26:
            start = time.perf_counter()
            re.search("(a+)+$", text)
            line += f"; re {time.perf_counter() - start:7.2f} s"
        print(line)


def main() -> None:
    texts = _records()
    typical(texts)
    store_query(texts)
    catastrophic()


if __name__ == "__main__":
    main()
