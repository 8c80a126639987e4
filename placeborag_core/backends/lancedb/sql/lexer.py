"""The tokens of a LanceDB filter, as sqlparser-rs (lance's SQL front end) cuts them.

Strings are single-quoted with ``''`` for a quote (no backslash escapes); ``"name"`` and
```name``` are quoted identifiers; ``--`` and ``/* */`` are comments; ``!=`` is the same token
as ``<>``. Lance echoes a filter in its messages re-rendered from these tokens (``!=`` shows as
``<>``, ``"name"`` as ```name```), which :func:`rendered` reproduces.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SqlTokenError", "Token", "rendered", "tokenize"]


class SqlTokenError(Exception):
    """The filter cannot be cut into tokens (an unterminated string or quoted name)."""


@dataclass(frozen=True)
class Token:
    """One token: ``kind`` is ``ws`` (whitespace and comments), ``number``, ``string``,
    ``word`` (``quote`` is None, ``'"'`` or ``'`'``), ``op``, ``placeholder`` or ``eof``;
    ``value`` is the number text, the string's or name's content, or the operator; ``text``
    the source text."""

    kind: str
    value: str
    text: str
    quote: str | None = None
    line: int = 1
    column: int = 1

    def keyword(self, *words: str) -> bool:
        """Whether this is an unquoted word that is one of ``words`` (case-insensitive)."""
        return self.kind == "word" and self.quote is None and self.value.upper() in words

    def shown(self) -> str:
        """The token as sqlparser's parse errors name it (``found: ...``)."""
        if self.kind == "eof":
            return "EOF"
        if self.kind == "string":
            return "'" + self.value.replace("'", "''") + "'"
        if self.kind == "word" and self.quote:
            close = self.quote
            return f"{self.quote}{self.value}{close}"
        if self.kind == "op" and self.value == "!=":
            return "<>"
        return self.text


_OPERATORS = (
    "<=>", "<=", ">=", "<>", "!=", "==", "||", "::", "=", "<", ">", "(", ")", ",", ".", "[",
    "]", "+", "-", "*", "/", "%", ";", ":", "!", "~", "&", "|", "^",
)  # fmt: skip


def _word_start(char: str) -> bool:
    return char.isalpha() or char in "_#@"


def _word_part(char: str) -> bool:
    return char.isalnum() or char in "_@$#"


def tokenize(sql: str) -> list[Token]:
    """The tokens of ``sql`` followed by an ``eof`` token."""
    tokens: list[Token] = []
    i, line, line_start = 0, 1, 0
    n = len(sql)
    while i < n:
        start = i
        column = i - line_start + 1
        char = sql[i]
        if char in " \t\r\n":
            while i < n and sql[i] in " \t\r\n":
                if sql[i] == "\n":
                    line, line_start = line + 1, i + 1
                i += 1
            tokens.append(Token("ws", sql[start:i], sql[start:i]))
            continue
        if sql.startswith("--", i):
            end = sql.find("\n", i)
            i = n if end < 0 else end + 1
            if end >= 0:
                line, line_start = line + 1, i
            tokens.append(Token("ws", sql[start:i], sql[start:i]))
            continue
        if sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            if end < 0:
                raise SqlTokenError(
                    f"Unexpected EOF while in a multi-line comment at Line: {line}, "
                    f"Column: {column}"
                )
            i = end + 2
            tokens.append(Token("ws", sql[start:i], sql[start:i]))
            continue
        if char == "'":
            value, i = _quoted(sql, i, "'")
            if value is None:
                raise SqlTokenError(
                    f"Unterminated string literal at Line: {line}, Column: {column}"
                )
            tokens.append(Token("string", value, sql[start:i], line=line, column=column))
            continue
        if char in '"`':
            value, i = _quoted(sql, i, char)
            if value is None:
                raise SqlTokenError(
                    f"Expected close delimiter '{char}' before EOF. at Line: {line}, "
                    f"Column: {column}"
                )
            tokens.append(Token("word", value, sql[start:i], char, line, column))
            continue
        if char.isdigit() or (char == "." and i + 1 < n and sql[i + 1].isdigit()):
            i = _number_end(sql, i)
            tokens.append(Token("number", sql[start:i], sql[start:i], line=line, column=column))
            continue
        if _word_start(char):
            i += 1
            while i < n and _word_part(sql[i]):
                i += 1
            tokens.append(Token("word", sql[start:i], sql[start:i], None, line, column))
            continue
        if char in "$?":
            i += 1
            while i < n and sql[i].isalnum():
                i += 1
            tokens.append(Token("placeholder", sql[start:i], sql[start:i]))
            continue
        for op in _OPERATORS:
            if sql.startswith(op, i):
                i += len(op)
                tokens.append(Token("op", op, op, line=line, column=column))
                break
        else:
            raise SqlTokenError(f"Unexpected character '{char}' at Line: {line}, Column: {column}")
    tokens.append(Token("eof", "", ""))
    return tokens


def _quoted(sql: str, i: int, quote: str) -> tuple[str | None, int]:
    """The content of the quoted token starting at ``i`` (a doubled quote stands for one), and
    the index after it; None if it is not closed."""
    out: list[str] = []
    i += 1
    while i < len(sql):
        char = sql[i]
        if char == quote:
            if sql.startswith(quote * 2, i):
                out.append(quote)
                i += 2
                continue
            return "".join(out), i + 1
        out.append(char)
        i += 1
    return None, i


def _number_end(sql: str, i: int) -> int:
    n = len(sql)
    if sql.startswith(("0x", "0X"), i):
        i += 2
        while i < n and sql[i] in "0123456789abcdefABCDEF":
            i += 1
        return i
    while i < n and sql[i].isdigit():
        i += 1
    if i < n and sql[i] == ".":
        i += 1
        while i < n and sql[i].isdigit():
            i += 1
    if i < n and sql[i] in "eE":
        i += 1
        j = i + 1 if i < n and sql[i] in "+-" else i
        if j < n and sql[j].isdigit():
            i = j
            while i < n and sql[i].isdigit():
                i += 1
    return i


def rendered(tokens: list[Token]) -> str:
    """The filter as lance echoes it in its errors: the tokens re-rendered (``!=`` as ``<>``,
    a ``"name"`` as ```name```, a hex number as ``X'..'``), whitespace kept."""
    out: list[str] = []
    for token in tokens:
        if token.kind == "op" and token.value == "!=":
            out.append("<>")
        elif token.kind == "word" and token.quote == '"':
            out.append("`" + token.value + "`")
        elif token.kind == "number" and token.text[:2] in ("0x", "0X"):
            out.append(f"X'{token.text[2:]}'")
        else:
            out.append(token.text)
    return "".join(out)
