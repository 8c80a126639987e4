"""Fast paths in front of the DFA, each proven linear in the text.

From the HIR this module derives:

* a **required literal**: a string every match contains (``"days"`` for ``\\d+ days\\b``). A
  text without it cannot match; ``str.__contains__`` answers that in time linear in the text
  for a fixed literal.
* **prefix sequences**: a short list of sequences of character classes, one of which starts
  every match (``[Rr][Ee][Ff]...`` for ``(?i)refund``). They are searched with Python's ``re``
  as the pattern ``(?:s1|s2|...)`` where each ``si`` is a fixed sequence of single-character
  classes, with no repetition, no nested alternation, no group, no back-reference, no
  look-around. Python's ``re`` backtracks, but here it has nothing to backtrack into: at each
  start position it tries each alternative once, each with at most its length in
  single-character tests, so a search costs O(total length of the sequences) per position,
  O(len(pattern) * len(text)) in all, like the DFA. The classes are written as explicit code
  point ranges (never ``\\w`` or ``(?i)``), so ``re`` tests exactly the sets this engine
  computed, with Rust's semantics.

When the sequences describe the whole pattern (no assertion, nothing truncated), the search is
the answer; otherwise the DFA uses it to skip to the next place a match can start.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from placeborag_core.filters.regex import hir
from placeborag_core.filters.regex.charset import CharSet

__all__ = ["Prefilter", "analyse"]

MAX_SEQUENCES = 32
MAX_LENGTH = 12
MAX_RANGES = 2_000
"""Bounds on the prefix sequences: how many, how long, how many ranges in their classes."""

_TYPICAL = CharSet(
    [(0x20, 0x20), (0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)]
)  # what prose is mostly made of: a first class with most of these would hit everywhere
_SELECTIVE = 20

Seq = tuple[CharSet, ...]
Seqs = list[tuple[Seq, bool]]  # (classes, complete): complete means the node ends there


@dataclass(frozen=True)
class Prefilter:
    """What the fast paths know about a pattern.

    ``literal``: the pattern is exactly this string (search with ``in``). ``search``: a
    linear-time search for the prefix sequences; ``exact`` when it decides the match on its own.
    ``required``: a string every match contains.
    """

    literal: str | None
    search: Callable[[str, int], re.Match[str] | None] | None
    exact: bool
    required: str | None


def _shrink(seqs: Seqs) -> Seqs:
    """Keep the sequences within :data:`MAX_SEQUENCES` and :data:`MAX_LENGTH` (still prefixes)."""
    out: dict[Seq, bool] = {}
    for seq, complete in seqs:
        kept = seq[:MAX_LENGTH]
        out[kept] = out.get(kept, True) and complete and len(seq) <= MAX_LENGTH
    length = MAX_LENGTH
    while len(out) > MAX_SEQUENCES and length > 1:
        length -= 1
        shorter: dict[Seq, bool] = {}
        for seq, complete in out.items():
            cut = seq[:length]
            shorter[cut] = shorter.get(cut, True) and complete and len(seq) <= length
        out = shorter
    if len(out) > MAX_SEQUENCES:
        if any(not seq for seq in out):
            return [((), False)]
        first = CharSet()
        for seq in out:
            first = first.union(seq[0])
        return [((first,), False)]
    return list(out.items())


def _incomplete(seqs: Seqs) -> Seqs:
    return [(seq, False) for seq, _ in seqs]


def _cross(left: Seqs, right: Seqs) -> Seqs:
    """The sequences of ``left`` followed by ``right`` (complete left ones are extended)."""
    extendable = sum(1 for _, complete in left if complete)
    if extendable * len(right) > 4 * MAX_SEQUENCES:
        return _incomplete(left)
    out: Seqs = []
    for seq, complete in left:
        if not complete:
            out.append((seq, False))
            continue
        out.extend((seq + tail, tail_complete) for tail, tail_complete in right)
    return _shrink(out)


def _sequences(node: hir.Hir) -> Seqs:
    if isinstance(node, (hir.Nothing, hir.Look)):
        return [((), True)]
    if isinstance(node, hir.Lit):
        return _shrink([(tuple(CharSet.of(ord(c)) for c in node.text), True)])
    if isinstance(node, hir.Chars):
        return [((node.chars,), True)] if node.chars else []
    if isinstance(node, hir.Capture):
        return _sequences(node.sub)
    if isinstance(node, hir.Cat):
        seqs: Seqs = [((), True)]
        for item in node.items:
            if not any(complete for _, complete in seqs):
                break
            seqs = _cross(seqs, _sequences(item))
        return seqs
    if isinstance(node, hir.Alt):
        union: Seqs = []
        for item in node.items:
            union.extend(_sequences(item))
        return _shrink(union)
    sub = _sequences(node.sub)
    if node.min == 0:
        tail = sub if node.max == 1 else _incomplete(sub)
        return _shrink([((), True), *tail])
    seqs = sub
    for _ in range(min(node.min, MAX_LENGTH) - 1):
        seqs = _cross(seqs, sub)
    if node.min > MAX_LENGTH or node.max != node.min:
        seqs = _incomplete(seqs)
    return seqs


def _has_look(node: hir.Hir) -> bool:
    if isinstance(node, hir.Look):
        return True
    if isinstance(node, (hir.Cat, hir.Alt)):
        return any(_has_look(item) for item in node.items)
    if isinstance(node, (hir.Repeat, hir.Capture)):
        return _has_look(node.sub)
    return False


def _required(node: hir.Hir) -> str | None:
    """The longest string of consecutive mandatory literals of the top-level concatenation."""
    while isinstance(node, hir.Capture):
        node = node.sub
    items = node.items if isinstance(node, hir.Cat) else (node,)
    best, run = "", ""
    for child in items:
        item = child
        while isinstance(item, hir.Capture):
            item = item.sub
        if isinstance(item, hir.Lit):
            run += item.text
        elif isinstance(item, hir.Look):
            continue
        else:
            if isinstance(item, hir.Repeat) and item.min >= 1:
                sub = item.sub
                while isinstance(sub, hir.Capture):
                    sub = sub.sub
                if isinstance(sub, hir.Lit):
                    run += sub.text
                    best = max(best, run, key=len)
            best = max(best, run, key=len)
            run = ""
    best = max(best, run, key=len)
    return best or None


def _escape(cp: int) -> str:
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"


def _class_source(chars: CharSet) -> str:
    single = chars.single()
    if single is not None:
        return _escape(single)
    parts = (_escape(lo) if lo == hi else f"{_escape(lo)}-{_escape(hi)}" for lo, hi in chars.ranges)
    return f"[{''.join(parts)}]"


def analyse(node: hir.Hir) -> Prefilter:
    """The fast paths that apply to ``node`` (a pattern's HIR)."""
    seqs = _sequences(node)
    usable = bool(seqs) and all(seq for seq, _ in seqs)
    exact = usable and all(complete for _, complete in seqs) and not _has_look(node)
    if exact and len(seqs) == 1 and all(c.single() is not None for c in seqs[0][0]):
        text = "".join(chr(c.single() or 0) for c in seqs[0][0])
        return Prefilter(text, None, True, None)
    required = _required(node)
    search = None
    if usable:
        ranges = sum(len(c.ranges) for seq, _ in seqs for c in seq)
        first = CharSet()
        for seq, _ in seqs:
            first = first.union(seq[0])
        selective = first.intersect(_TYPICAL).size() <= _SELECTIVE
        if ranges <= MAX_RANGES and (exact or selective):
            source = "|".join("".join(_class_source(c) for c in seq) for seq, _ in seqs)
            search = re.compile(f"(?:{source})").search
    return Prefilter(None, search, exact and search is not None, required)
