"""The hashing trick: a text's features (words and character n-grams) hashed to buckets and signs.

Every token contributes one *word* feature (weight 1) and its character 3- and 4-grams, taken with
boundary markers (`` refund `` gives `` re``, ``ref``, ..., ``nd ``), as *n-gram* features (weight
1/2). Each feature is hashed under the embedder's key to a bucket and a sign. A
:class:`FeatureHasher` does this for a whole batch at once with numpy, or for a few new tokens
with Python integers (the same values, without numpy's per-call overhead).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from placeborag_core.embedding._speed.token_table import TokenFeatures
from placeborag_core.embedding.hashing import span_hash, span_hashes

__all__ = ["Feature", "FeatureHasher", "FeatureKind", "HashedFeatures"]

FeatureKind = Literal["word", "ngram", "cluster", "fallback"]
FloatArray = npt.NDArray[np.float64]

_NGRAM_SIZES = (3, 4)
_WORD_WEIGHT = 1.0
_NGRAM_WEIGHT = 0.5
_WORD_SALT = np.uint64(0x5EED_0F_57_0BD5)
_NGRAM_SALT = np.uint64(0)
_SPACE = 32
_FEW_TOKENS = 8  # up to this many new tokens are hashed with Python integers, not numpy
# A feature's signed weight by kind (0: n-gram, 2: word) plus its sign bit (1: positive).
_WEIGHTS = (-_NGRAM_WEIGHT, _NGRAM_WEIGHT, -_WORD_WEIGHT, _WORD_WEIGHT)


@dataclass(frozen=True)
class Feature:
    """One hashed feature of a text: the vector before normalisation is the sum of
    ``sign * weight`` at ``bucket`` over a text's features (with multiplicity)."""

    name: str
    kind: FeatureKind
    bucket: int
    sign: float
    weight: float


@dataclass(frozen=True)
class HashedFeatures:
    """The features of a batch, as parallel arrays (one entry per feature occurrence)."""

    text: str  # the token strings of the batch, joined (feature names are slices of it)
    rows: npt.NDArray[np.int64]
    starts: npt.NDArray[np.int64]
    lengths: npt.NDArray[np.int64]
    is_word: npt.NDArray[np.bool_]
    buckets: npt.NDArray[np.int64]
    values: FloatArray  # sign * weight


class FeatureHasher:
    """Hashes features under one key into ``dimensions`` buckets."""

    def __init__(self, key: int, dimensions: int) -> None:
        self.key = key
        self.dimensions = dimensions

    def features(self, tokens_of_text: list[str]) -> list[Feature]:
        """The features of one text's tokens, in the order they are hashed."""
        hashed = self.hash([tokens_of_text])
        return [
            Feature(
                name=hashed.text[start : start + length],
                kind="word" if word else "ngram",
                bucket=int(bucket),
                sign=1.0 if value > 0 else -1.0,
                weight=abs(float(value)),
            )
            for start, length, word, bucket, value in zip(
                hashed.starts.tolist(),
                hashed.lengths.tolist(),
                hashed.is_word.tolist(),
                hashed.buckets.tolist(),
                hashed.values.tolist(),
                strict=True,
            )
        ]

    def hash_new_tokens(self, new_tokens: list[str]) -> TokenFeatures:
        """The features of new tokens, grouped by token in order: buckets, signed weights and
        how many features each token has.

        Many tokens go through the vectorised :meth:`hash`; a few (a query's new words) through
        :func:`~placeborag_core.embedding.hashing.span_hash`, which computes the same values with
        Python
        integers without numpy's per-call overhead.
        """
        if len(new_tokens) > _FEW_TOKENS:
            hashed = self.hash([[token] for token in new_tokens])
            order = np.argsort(hashed.rows, kind="stable")
            sizes = np.bincount(hashed.rows, minlength=len(new_tokens))
            return hashed.buckets[order], hashed.values[order], sizes.tolist()
        buckets: list[int] = []
        weights: list[float] = []
        sizes_out: list[int] = []
        width, key = self.dimensions, self.key
        word_salt, ngram_salt = int(_WORD_SALT), int(_NGRAM_SALT)
        for token in new_tokens:
            code_points = [_SPACE, *map(ord, token), _SPACE]
            spans = [(1, len(token), word_salt, 2)]
            for n in _NGRAM_SIZES:
                spans.extend((start, n, ngram_salt, 0) for start in range(len(code_points) - n + 1))
            for start, length, salt, kind in spans:
                value = span_hash(code_points, start, length, salt, key)
                buckets.append(((value >> 32) * width) >> 32)
                weights.append(_WEIGHTS[kind + (value & 1)])
            sizes_out.append(len(spans))
        return buckets, weights, sizes_out

    def hash(self, token_lists: list[list[str]]) -> HashedFeatures:
        """Find and hash every feature of a batch of token lists at once.

        Each text becomes `` tok1 tok2 ... `` (a space before and after every token); the batch is
        one string. Words are the runs between spaces; an n-gram is any window whose interior
        holds no space, so it stays inside one token and carries the boundary marker when it
        touches the token's edge. Windows that straddle two texts always contain a space inside.
        """
        pieces = [f" {' '.join(toks)} " if toks else "" for toks in token_lists]
        text = "".join(pieces)
        chars = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
        size = len(chars)
        space = chars == _SPACE
        word_starts = np.flatnonzero(space[:-1] & ~space[1:]) + 1
        word_ends = np.flatnonzero(~space[:-1] & space[1:]) + 1
        starts = [word_starts]
        lengths = [word_ends - word_starts]
        spaces_before = np.concatenate(([0], np.cumsum(space)))
        for n in _NGRAM_SIZES:
            if size < n:
                continue
            window = np.arange(size - n + 1)
            inside = spaces_before[window + n - 1] - spaces_before[window + 1] == 0
            starts.append(window[inside])
            lengths.append(np.full(int(inside.sum()), n, dtype=np.int64))
        all_starts = np.concatenate(starts).astype(np.int64)
        all_lengths = np.concatenate(lengths).astype(np.int64)
        is_word = np.zeros(len(all_starts), dtype=np.bool_)
        is_word[: len(word_starts)] = True
        salts = np.where(is_word, _WORD_SALT, _NGRAM_SALT).astype(np.uint64)
        hashes = span_hashes(chars, all_starts, all_lengths, salts, self.key)
        buckets = ((hashes >> np.uint64(32)) * np.uint64(self.dimensions)) >> np.uint64(32)
        signs = np.where((hashes & np.uint64(1)) == 1, 1.0, -1.0)
        ends = np.cumsum([len(piece) for piece in pieces], dtype=np.int64)
        return HashedFeatures(
            text=text,
            rows=np.searchsorted(ends, all_starts, side="right").astype(np.int64),
            starts=all_starts,
            lengths=all_lengths,
            is_word=is_word,
            buckets=buckets.astype(np.int64),
            values=signs * np.where(is_word, _WORD_WEIGHT, _NGRAM_WEIGHT),
        )
