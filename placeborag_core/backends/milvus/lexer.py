"""The lexer of Milvus boolean expressions (``expressions.py`` parses its tokens): Milvus 2.5's
``Plan.g4`` tokens, measured in ``docs/engines/milvus.md#filter-expressions``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["FUNCTIONS", "ParseError", "Token", "tokenize"]


class ParseError(Exception):
    """The expression is not in the grammar (Milvus: ``Invalid expr: ...: invalid parameter``)."""


FUNCTIONS = {
    "json_contains": "json_contains",
    "JSON_CONTAINS": "json_contains",
    "json_contains_all": "json_contains_all",
    "JSON_CONTAINS_ALL": "json_contains_all",
    "json_contains_any": "json_contains_any",
    "JSON_CONTAINS_ANY": "json_contains_any",
    "array_contains": "json_contains",
    "ARRAY_CONTAINS": "json_contains",
    "array_contains_all": "json_contains_all",
    "ARRAY_CONTAINS_ALL": "json_contains_all",
    "array_contains_any": "json_contains_any",
    "ARRAY_CONTAINS_ANY": "json_contains_any",
    "array_length": "array_length",
    "ARRAY_LENGTH": "array_length",
}
_BOOLEANS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False}
_BOOLEANS["FALSE"] = False
_KEYWORDS = {"and": "and", "or": "or", "not": "not", "in": "in", "like": "like", "LIKE": "like"}
_KEYWORDS |= {"exists": "exists", "EXISTS": "exists"}
_PUNCT = (
    "**", "==", "!=", "<=", ">=", "<<", ">>", "&&", "||",
    "<", ">", "=", "+", "-", "*", "/", "%", "~", "!", "&", "|", "^", "(", ")", "[", "]", ",",
)  # fmt: skip
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\$meta")
_INDEX = re.compile(r"\[(?:\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|0|[1-9][0-9]*)\]")
_FLOAT = re.compile(r"(?:[0-9]*\.[0-9]+|[0-9]+\.)(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+")
_INT = re.compile(r"[1-9][0-9]*|0[0-7]*")
_NIN = re.compile(r"not[ \t\r\n]+in(?![A-Za-z0-9_])")
_ESCAPES = {
    "'": "'", '"': '"', "?": "?", "\\": "\\",
    "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
}  # fmt: skip
_RAW_ESCAPE = re.compile(r"x[0-9A-Fa-f]+|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[0-7]{1,3}")


@dataclass(frozen=True)
class Token:
    kind: str  # "lit", "name", "func", "op", "end"
    text: str
    value: Any = None


class _LexError(Exception):
    """A string literal the lexer cannot read; ``resume`` is where lexing goes on."""

    def __init__(self, resume: int) -> None:
        super().__init__(resume)
        self.resume = resume


def _string(text: str, start: int) -> tuple[str, int]:
    """The string literal at ``start`` (its quote included) and the index after it;
    ``_LexError`` for a bad escape (lexing resumes after it) or a missing closing quote
    (lexing resumes after the opening quote)."""
    quote = text[start]
    out: list[str] = []
    i = start + 1
    while i < len(text):
        char = text[i]
        if char == quote:
            return "".join(out), i + 1
        if char == "\n":
            break
        if char == "\\":
            nxt = text[i + 1 : i + 2]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            raw = _RAW_ESCAPE.match(text, i + 1)
            if raw is None:
                raise _LexError(i + 2)
            # Lexically valid, but the engine does not decode these to the character they
            # name (measured: "\u0072ed" does not equal "red"); the text is kept as written.
            out.append(text[i : raw.end()])
            i = raw.end()
            continue
        out.append(char)
        i += 1
    raise _LexError(start + 1)


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``. As ANTLR's lexer does, text no token can start with (a stray
    character, a string literal with a bad escape, up to that escape, or a lone quote) is
    dropped and lexing goes on; the engine lets that pass (measured: ``color like "r\\%"``
    runs as ``color like ""``)."""
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char in " \t\r\n":
            i += 1
            continue
        if char in "\"'":
            try:
                value, i = _string(text, i)
            except _LexError as error:
                i = error.resume
                continue
            tokens.append(Token("lit", value, value))
            continue
        nin = _NIN.match(text, i)
        if nin:
            tokens.append(Token("op", "not in"))
            i = nin.end()
            continue
        number = _FLOAT.match(text, i)
        if number:
            tokens.append(Token("lit", number.group(), float(number.group())))
            i = number.end()
            continue
        number = _INT.match(text, i)
        if number:
            digits = number.group()
            integer = int(digits, 8) if digits.startswith("0") else int(digits)
            # Past int64 the engine's parser falls back to a double (measured: no error).
            literal: int | float = integer if integer < 2**63 else float(integer)
            tokens.append(Token("lit", digits, literal))
            i = number.end()
            continue
        name = _NAME.match(text, i)
        if name:
            word = name.group()
            i = name.end()
            path: list[str | int] = []
            while (index := _INDEX.match(text, i)) is not None:
                inner = index.group()[1:-1]
                try:
                    step = _string(inner, 0)[0] if inner[0] in "\"'" else int(inner)
                except _LexError:
                    raise ParseError(f"bad JSON path {index.group()!r}") from None
                path.append(step)
                i = index.end()
            if path:
                tokens.append(Token("name", word, tuple(path)))
            elif word in _BOOLEANS:
                tokens.append(Token("lit", word, _BOOLEANS[word]))
            elif word in _KEYWORDS:
                tokens.append(Token("op", _KEYWORDS[word]))
            elif word in FUNCTIONS:
                tokens.append(Token("func", FUNCTIONS[word]))
            else:
                tokens.append(Token("name", word, ()))
            continue
        for punct in _PUNCT:
            if text.startswith(punct, i):
                spelled = {"&&": "and", "||": "or", "!": "not"}.get(punct, punct)
                tokens.append(Token("op", spelled))
                i += len(punct)
                break
        else:
            i += 1  # no token starts here: dropped
    tokens.append(Token("end", ""))
    return tokens
