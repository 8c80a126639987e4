"""A lazily built DFA over the NFA: the search that runs in time linear in the text.

A DFA state is a set of NFA states (``CHAR``, ``LOOK`` and ``MATCH`` states, closed over the
forks) together with what the assertions need to know about the previous character (was it a
word character, a line feed, a carriage return, or is this the start of the text): the
look-behind context. Assertions also need the next character, so they are resolved when a
transition is computed, on the character being read (or on the end of the text): a transition
from state S on character c first follows the ``LOOK`` states of S that hold between S's
context and c, then steps every ``CHAR`` state whose class contains c. An unanchored search adds
the start states at every position, as ``.*?`` would.

Each transition is computed once, in O(m) for an NFA of m states, and memoised in the state's
table, so a search costs O(m) per character at worst and one dictionary look-up per character
once the states it visits are built: O(m * n) time for a text of n characters, whatever the
pattern. The memo is bounded (:data:`MAX_DFA_STATES` states, :data:`MAX_CACHED_IDS` NFA states
held in them, :data:`MAX_TRANSITIONS` transitions); when a bound is reached it is emptied and
rebuilt from the current state, as RE2 and Rust's lazy DFA do, so memory stays bounded and the
time bound holds. The search stops at the first match (a boolean search needs no more) and as
soon as no state is left (an anchored pattern that failed).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from re import Match

from placeborag_core.filters.regex.charset import perl_word
from placeborag_core.filters.regex.nfa import CHAR, LOOK, MATCH, SPLIT, Nfa

__all__ = ["MAX_CACHED_IDS", "MAX_DFA_STATES", "MAX_TRANSITIONS", "LazyDfa"]

MAX_DFA_STATES = 10_000
MAX_CACHED_IDS = 500_000
MAX_TRANSITIONS = 200_000

MATCHED = -1
DEAD = -2

# What an assertion knows about the character on one side of a position.
WORD_U, WORD_A, LF, CR, EDGE = 1, 2, 4, 8, 16
_ASCII_WORD = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")

# The bits of the previous character (first) and of the next character (second) each assertion
# reads.
_LOOK_BITS: dict[str, tuple[int, int]] = {
    "start": (EDGE, 0),
    "end": (0, EDGE),
    "start_lf": (EDGE | LF, 0),
    "end_lf": (0, EDGE | LF),
    "start_crlf": (EDGE | LF | CR, LF),
    "end_crlf": (CR, EDGE | LF | CR),
}
for _side in ("u", "a"):
    _word = WORD_U if _side == "u" else WORD_A
    for _kind in ("word", "not_word", "word_start", "word_end"):
        _LOOK_BITS[f"{_kind}_{_side}"] = (_word, _word)
    _LOOK_BITS[f"word_start_half_{_side}"] = (_word, 0)
    _LOOK_BITS[f"word_end_half_{_side}"] = (0, _word)


def look_holds(kind: str, prev: int, nxt: int) -> bool:
    """Whether assertion ``kind`` holds between characters of context bits ``prev`` and ``nxt``."""
    if kind == "start":
        return bool(prev & EDGE)
    if kind == "end":
        return bool(nxt & EDGE)
    if kind == "start_lf":
        return bool(prev & (EDGE | LF))
    if kind == "end_lf":
        return bool(nxt & (EDGE | LF))
    if kind == "start_crlf":
        return bool(prev & (EDGE | LF)) or bool(prev & CR and not nxt & LF)
    if kind == "end_crlf":
        return bool(nxt & (EDGE | CR)) or bool(nxt & LF and not prev & CR)
    bit = WORD_U if kind.endswith("_u") else WORD_A
    before, after = bool(prev & bit), bool(nxt & bit)
    base = kind[:-2]
    if base == "word":
        return before != after
    if base == "not_word":
        return before == after
    if base == "word_start":
        return not before and after
    if base == "word_end":
        return before and not after
    if base == "word_start_half":
        return not before
    return not after  # word_end_half


class _Cache:
    """The memoised part of the DFA: states, their transitions, their end-of-text answers."""

    def __init__(self) -> None:
        self.sets: list[frozenset[int]] = []
        self.contexts: list[int] = []
        self.trans: list[dict[str, int]] = []
        self.at_end: list[bool | None] = []
        self.index: dict[tuple[frozenset[int], int], int] = {}
        self.ids = 0
        self.transitions = 0

    def add(self, ids: frozenset[int], context: int) -> int:
        state = len(self.sets)
        self.sets.append(ids)
        self.contexts.append(context)
        self.trans.append({})
        self.at_end.append(None)
        self.index[(ids, context)] = state
        self.ids += len(ids)
        return state

    def full(self) -> bool:
        return (
            len(self.sets) >= MAX_DFA_STATES
            or self.ids >= MAX_CACHED_IDS
            or self.transitions >= MAX_TRANSITIONS
        )


class LazyDfa:
    """The boolean, unanchored (unless ``anchored``) search of an NFA, DFA-speed once warm.

    ``skip``, when given, finds the next position at or after ``pos`` where a match may start
    (``skip(text, pos)``, a compiled ``re`` search over the pattern's prefixes, proven linear by
    :mod:`~placeborag_core.filters.regex.prefilter`): from a state where no match is in
    progress the search jumps there instead of reading the characters in between.
    """

    def __init__(
        self,
        nfa: Nfa,
        anchored: bool,
        skip: Callable[[str, int], Match[str] | None] | None = None,
    ) -> None:
        self.nfa = nfa
        self.anchored = anchored
        self.skip = skip
        prev_mask = next_mask = 0
        for look in nfa.looks():
            before, after = _LOOK_BITS[look]
            prev_mask |= before
            next_mask |= after
        self.prev_mask = prev_mask
        self.needed = prev_mask | next_mask
        self.contexts = sorted({bits & prev_mask for bits in range(32)})
        self.start_ids = self._closure([nfa.start])
        self.start_matches = nfa.final in self.start_ids
        self._bits_cache: dict[str, int] = {}
        self._lock = threading.Lock()
        self.computed = 0
        self.flushes = 0
        self._cache = self._fresh_cache()
        self._start_of = {
            context: self._cache.index[(self.start_ids, context)] for context in self.contexts
        }
        self.nstarts = len(self.contexts)

    @property
    def states(self) -> int:
        """How many DFA states are built (in the current cache)."""
        return len(self._cache.sets)

    def _fresh_cache(self) -> _Cache:
        cache = _Cache()
        for context in self.contexts:  # the start states are 0 .. nstarts - 1, always
            cache.add(self.start_ids, context)
        return cache

    # -- characters and closures -------------------------------------------------------------

    def bits(self, char: str) -> int:
        """The context bits of a character that this automaton's assertions read."""
        found = self._bits_cache.get(char)
        if found is not None:
            return found
        needed = self.needed
        bits = 0
        if needed & WORD_U and ord(char) in perl_word():
            bits |= WORD_U
        if needed & WORD_A and char in _ASCII_WORD:
            bits |= WORD_A
        if needed & LF and char == "\n":
            bits |= LF
        if needed & CR and char == "\r":
            bits |= CR
        if len(self._bits_cache) >= 65_536:
            self._bits_cache.clear()
        self._bits_cache[char] = bits
        return bits

    def _closure(self, seeds: Iterable[int]) -> frozenset[int]:
        """The ``CHAR``, ``LOOK`` and ``MATCH`` states reachable through forks alone."""
        kind, out = self.nfa.kind, self.nfa.out
        seen: set[int] = set()
        found: set[int] = set()
        stack = list(seeds)
        while stack:
            state = stack.pop()
            if state in seen:
                continue
            seen.add(state)
            if kind[state] == SPLIT:
                stack.extend(out[state])
            else:
                found.add(state)
        return frozenset(found)

    def _resolve(self, ids: frozenset[int], prev: int, nxt: int) -> tuple[list[int], bool]:
        """Follow the assertions of ``ids`` that hold between ``prev`` and ``nxt``: the ``CHAR``
        states reached, and whether ``MATCH`` is."""
        nfa = self.nfa
        kind, out, looks = nfa.kind, nfa.out, nfa.look
        chars: list[int] = []
        matched = False
        seen: set[int] = set()
        stack = list(ids)
        while stack:
            state = stack.pop()
            if state in seen:
                continue
            seen.add(state)
            k = kind[state]
            if k == CHAR:
                chars.append(state)
            elif k == MATCH:
                matched = True
            elif k == SPLIT or (k == LOOK and look_holds(looks[state], prev, nxt)):
                stack.extend(out[state])
        return chars, matched

    # -- transitions -------------------------------------------------------------------------

    def step(self, cache: _Cache, state: int, char: str) -> int:
        """Compute, memoise and return the transition of ``state`` (of ``cache``) on ``char``.

        The result is a state of the current cache (which may be a new one, if the old was
        full), :data:`MATCHED` or :data:`DEAD`.
        """
        with self._lock:
            self.computed += 1
            ids, prev = cache.sets[state], cache.contexts[state]
            bits = self.bits(char)
            chars, matched = self._resolve(ids, prev, bits)
            if matched:
                result = MATCHED
            else:
                cp = ord(char)
                nfa_chars, out = self.nfa.chars, self.nfa.out
                seeds = [out[s][0] for s in chars if cp in nfa_chars[s]]  # type: ignore[operator]
                if not self.anchored:
                    seeds.append(self.nfa.start)
                following = self._closure(seeds)
                if self.nfa.final in following:
                    result = MATCHED
                elif not following:
                    result = DEAD
                else:
                    result = self._intern(following, bits & self.prev_mask)
            cache.trans[state][char] = result
            cache.transitions += 1
            return result

    def _intern(self, ids: frozenset[int], context: int) -> int:
        cache = self._cache
        found = cache.index.get((ids, context))
        if found is not None:
            return found
        if cache.full():
            self.flushes += 1
            cache = self._cache = self._fresh_cache()
            found = cache.index.get((ids, context))
            if found is not None:
                return found
        return cache.add(ids, context)

    def ends_in_match(self, cache: _Cache, state: int) -> bool:
        """Whether a match ends at the end of the text, from ``state``."""
        known = cache.at_end[state]
        if known is None:
            with self._lock:
                known = self._resolve(cache.sets[state], cache.contexts[state], EDGE)[1]
                cache.at_end[state] = known
        return known

    # -- search ------------------------------------------------------------------------------

    def is_match(self, text: str) -> bool:
        """Whether the pattern matches somewhere in ``text``."""
        if self.start_matches:
            return True
        skip = self.skip
        nstarts = self.nstarts
        cache = self._cache
        state = self._start_of[EDGE & self.prev_mask]
        n = len(text)
        i = 0
        while True:
            if skip is not None and state < nstarts:
                found = skip(text, i)
                if found is None:
                    return False
                j = found.start()
                if j > i:
                    state = self._start_of[self.bits(text[j - 1]) & self.prev_mask]
                    i = j
            trans = cache.trans
            while i < n:
                char = text[i]
                nxt = trans[state].get(char)
                if nxt is None:
                    nxt = self.step(cache, state, char)
                    cache = self._cache
                    trans = cache.trans
                i += 1
                if nxt < nstarts:
                    if nxt < 0:
                        return nxt == MATCHED
                    if skip is not None:
                        state = nxt
                        break
                state = nxt
            else:
                return self.ends_in_match(cache, state)
