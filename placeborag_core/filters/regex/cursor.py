"""The cursor over a regular-expression pattern, after Rust's ``regex_syntax::ast::parse``.

:class:`Cursor` is a position in the pattern and the moves Rust's parser makes over it: one
character at a time, a literal prefix, and, under ``(?x)``, past white space and ``#`` comments
(as Rust does everywhere it calls ``bump_space``). :mod:`.escapes` and :mod:`.scanner` read on
top of it.
"""

from __future__ import annotations

from placeborag_core.filters.regex.syntax import RegexError

__all__ = ["WHITE_SPACE", "Cursor"]

WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


class Cursor:
    """A position in a pattern, moved as Rust's parser moves it."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.pos = 0
        self.ignore_whitespace = False

    def eof(self) -> bool:
        return self.pos >= len(self.pattern)

    def char(self) -> str:
        return self.pattern[self.pos] if self.pos < len(self.pattern) else ""

    def bump(self) -> bool:
        """Advance one character; False when that reaches the end of the pattern."""
        if self.pos < len(self.pattern):
            self.pos += 1
        return self.pos < len(self.pattern)

    def bump_if(self, prefix: str) -> bool:
        if self.pattern.startswith(prefix, self.pos):
            self.pos += len(prefix)
            return True
        return False

    def bump_space(self) -> None:
        """Under ``(?x)``, skip white space and ``#`` comments."""
        if not self.ignore_whitespace:
            return
        while not self.eof():
            char = self.char()
            if char in WHITE_SPACE:
                self.bump()
            elif char == "#":
                self.bump()
                while not self.eof():
                    char = self.char()
                    self.bump()
                    if char == "\n":
                        break
            else:
                break

    def bump_and_bump_space(self) -> bool:
        if not self.bump():
            return False
        self.bump_space()
        return not self.eof()

    def peek(self) -> str:
        nxt = self.pos + 1
        return self.pattern[nxt] if nxt < len(self.pattern) else ""

    def peek_space(self) -> str:
        """The next character after the current one, skipping ``(?x)`` white space."""
        if not self.ignore_whitespace:
            return self.peek()
        saved = self.pos
        self.bump()
        self.bump_space()
        found = self.char()
        self.pos = saved
        return found

    def error(self, message: str, position: int | None = None) -> RegexError:
        return RegexError(message, self.pos if position is None else position)
