"""Thompson NFA of a pattern's HIR: the automaton the lazy DFA is built from.

States are numbered; each is a character test (``CHAR``: a class, one successor), a fork
(``SPLIT``: several successors, taken without consuming input), a zero-width assertion
(``LOOK``: one successor, taken when the assertion holds) or the final ``MATCH``. A repetition
``x{n,m}`` is compiled as ``n`` copies of ``x`` followed by ``m - n`` nested optional copies, so
the size of the NFA is the size of the pattern with its counted repetitions expanded;
:data:`MAX_STATES` bounds it (Rust bounds its own compiled size too: 10 MiB by default).
"""

from __future__ import annotations

from placeborag_core.filters.regex import hir
from placeborag_core.filters.regex.charset import CharSet
from placeborag_core.filters.regex.syntax import RegexError

__all__ = ["CHAR", "LOOK", "MATCH", "MAX_STATES", "SPLIT", "Nfa", "compile_nfa"]

MAX_STATES = 100_000
"""The largest NFA accepted: a pattern whose expansion needs more states is rejected."""

CHAR, SPLIT, LOOK, MATCH = 0, 1, 2, 3


class Nfa:
    """The states of an automaton, in parallel lists, and its start state.

    ``kind[i]`` is ``CHAR``, ``SPLIT``, ``LOOK`` or ``MATCH``; ``chars[i]`` the class of a
    ``CHAR`` state; ``look[i]`` the assertion of a ``LOOK`` state; ``out[i]`` the successors.
    ``final`` is the one ``MATCH`` state.
    """

    def __init__(self) -> None:
        self.kind: list[int] = []
        self.chars: list[CharSet | None] = []
        self.look: list[str] = []
        self.out: list[list[int]] = []
        self.start = 0
        self.final = 0

    def add(self, kind: int, out: list[int], chars: CharSet | None = None, look: str = "") -> int:
        self.kind.append(kind)
        self.chars.append(chars)
        self.look.append(look)
        self.out.append(out)
        return len(self.kind) - 1

    def __len__(self) -> int:
        return len(self.kind)

    def looks(self) -> set[str]:
        """The assertions the automaton tests."""
        return {look for kind, look in zip(self.kind, self.look, strict=True) if kind == LOOK}


def size(node: hir.Hir) -> int:
    """The number of states :func:`compile_nfa` makes for ``node`` (an arbitrary-size int)."""
    if isinstance(node, hir.Nothing):
        return 0
    if isinstance(node, hir.Lit):
        return len(node.text)
    if isinstance(node, (hir.Chars, hir.Look)):
        return 1
    if isinstance(node, hir.Capture):
        return size(node.sub)
    if isinstance(node, hir.Cat):
        return sum(size(item) for item in node.items)
    if isinstance(node, hir.Alt):
        return 1 + sum(size(item) for item in node.items)
    inner = size(node.sub)
    if node.max is None:
        return node.min * inner + inner + 1
    return node.min * inner + (node.max - node.min) * (inner + 1)


def compile_nfa(node: hir.Hir) -> Nfa:
    """Build the NFA of ``node``; raise :class:`RegexError` when it exceeds :data:`MAX_STATES`."""
    needed = size(node) + 1
    if needed > MAX_STATES:
        raise RegexError(
            f"pattern too large: its automaton needs {needed} states, more than the limit "
            f"of {MAX_STATES} (counted repetitions are expanded)"
        )
    nfa = Nfa()
    nfa.final = nfa.add(MATCH, [])
    nfa.start = _compile(nfa, node, nfa.final)
    return nfa


def _compile(nfa: Nfa, node: hir.Hir, nxt: int) -> int:
    """Add the states of ``node`` followed by state ``nxt``; return the entry state."""
    if isinstance(node, hir.Nothing):
        return nxt
    if isinstance(node, hir.Lit):
        for char in reversed(node.text):
            nxt = nfa.add(CHAR, [nxt], chars=CharSet.of(ord(char)))
        return nxt
    if isinstance(node, hir.Chars):
        return nfa.add(CHAR, [nxt], chars=node.chars)
    if isinstance(node, hir.Look):
        return nfa.add(LOOK, [nxt], look=node.kind)
    if isinstance(node, hir.Capture):
        return _compile(nfa, node.sub, nxt)
    if isinstance(node, hir.Cat):
        for item in reversed(node.items):
            nxt = _compile(nfa, item, nxt)
        return nxt
    if isinstance(node, hir.Alt):
        return nfa.add(SPLIT, [_compile(nfa, item, nxt) for item in node.items])
    entry = nxt
    if node.max is None:
        loop = nfa.add(SPLIT, [])
        nfa.out[loop] = [_compile(nfa, node.sub, loop), nxt]
        entry = loop
    else:
        for _ in range(node.max - node.min):
            entry = nfa.add(SPLIT, [_compile(nfa, node.sub, entry), nxt])
    for _ in range(node.min):
        entry = _compile(nfa, node.sub, entry)
    return entry
