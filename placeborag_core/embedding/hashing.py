"""The keyed 64-bit hash every pseudo-random choice in placeborag comes from.

Python's ``hash()`` is salted per process and numpy's global RNG is shared state, so neither may
decide anything a test could observe. Everything here is a pure function of its inputs, identical
on every machine and in every process:

- :func:`derive_key` turns descriptive parts (a model name, a dimension, a purpose) into a key;
- :func:`hash64` hashes one string under a key (BLAKE2b, for scalar decisions);
- :func:`mix64` hashes a whole array of 64-bit values under a key at numpy speed (a SplitMix64
  finaliser), and :func:`span_hashes` hashes many substrings of one string at once, so that the
  embedder's batch path never loops over features in Python;
- :func:`unit_fraction` and :func:`uniform_vector` derive numbers from those hashes.
"""

from __future__ import annotations

import hashlib
import operator
import threading
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = [
    "derive_key",
    "finalise64",
    "hash64",
    "mix64",
    "span_hash",
    "span_hashes",
    "uniform_vector",
    "unit_fraction",
]

_MASK = (1 << 64) - 1
_PERSON = b"placeborag.v1"
# An odd base is invertible modulo 2**64, which lets a substring's polynomial hash be read off
# prefix sums without a sequential scan (see span_hashes).
_BASE = 0x9E3779B97F4A7C15
_BASE_INVERSE = pow(_BASE, -1, 1 << 64)
_POWERS_INT = tuple(pow(_BASE, i, 1 << 64) for i in range(32))  # base powers for short spans
_MIX1_INT = 0xBF58476D1CE4E5B9
_MIX2_INT = 0x94D049BB133111EB
_LENGTH_SALT_INT = 0xD6E8FEB86659FD93
_MIX1 = np.uint64(_MIX1_INT)
_MIX2 = np.uint64(_MIX2_INT)
_LENGTH_SALT = np.uint64(_LENGTH_SALT_INT)

U64Array = npt.NDArray[np.uint64]


def derive_key(*parts: str | int) -> int:
    """Return a 64-bit key naming a space, e.g. ``derive_key("embedder", model, dimensions)``."""
    data = "\x1f".join(str(part) for part in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(data, digest_size=8, person=_PERSON).digest(), "little")


def hash64(text: str, key: int) -> int:
    """Hash one string under ``key`` to an unsigned 64-bit integer."""
    digest = hashlib.blake2b(
        text.encode("utf-8"), digest_size=8, key=key.to_bytes(8, "little"), person=_PERSON
    ).digest()
    return int.from_bytes(digest, "little")


def unit_fraction(text: str, key: int) -> float:
    """Map ``text`` to a float in [0, 1), uniformly, under ``key`` (53 bits of the hash)."""
    return (hash64(text, key) >> 11) / float(1 << 53)


def finalise64(x: U64Array) -> U64Array:
    """SplitMix64's finaliser of every element, vectorised.

    Integer overflow wraps modulo 2**64 in numpy array arithmetic, which is exactly the arithmetic
    the finaliser is defined in.
    """
    x = (x ^ (x >> np.uint64(30))) * _MIX1
    x = (x ^ (x >> np.uint64(27))) * _MIX2
    mixed: U64Array = x ^ (x >> np.uint64(31))
    return mixed


def mix64(values: U64Array, key: int) -> U64Array:
    """Hash every element of ``values`` under ``key``: the finaliser of ``values ^ key``."""
    return finalise64(values ^ np.uint64(key))


class _PowerTables:
    """Powers of the polynomial base and of its inverse modulo 2**64, grown on demand."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.powers: U64Array = np.ones(1, dtype=np.uint64)
        self.inverse_powers: U64Array = np.ones(1, dtype=np.uint64)

    def ensure(self, length: int) -> tuple[U64Array, U64Array]:
        powers, inverse = self.powers, self.inverse_powers
        if len(powers) >= length:
            return powers, inverse
        with self._lock:
            size = max(length, 2 * len(self.powers), 4096)
            steps = np.empty(size, dtype=np.uint64)
            steps[0] = 1
            steps[1:] = np.uint64(_BASE)
            new_powers = np.cumprod(steps, dtype=np.uint64)
            steps[1:] = np.uint64(_BASE_INVERSE)
            new_inverse = np.cumprod(steps, dtype=np.uint64)
            self.powers, self.inverse_powers = new_powers, new_inverse
            return new_powers, new_inverse


_TABLES = _PowerTables()


def span_hashes(
    code_points: U64Array,
    starts: npt.NDArray[np.int64],
    lengths: npt.NDArray[np.int64],
    salts: U64Array,
    key: int,
) -> U64Array:
    """Hash the substrings ``code_points[s : s + n]`` for every ``(s, n)`` pair, under ``key``.

    The polynomial hash ``sum(c[j] * B**(j - s))`` of every span is read off one prefix-sum array
    (prefix differences times the inverse power of the start); length, a per-span ``salt`` (which
    keeps kinds of feature apart) and the key are then mixed in with :func:`mix64`. A span's hash
    depends only on its characters, never on where in the batch it sits.
    """
    size = len(code_points)
    powers, inverse = _TABLES.ensure(size + 1)
    prefix = np.zeros(size + 1, dtype=np.uint64)
    np.cumsum(code_points * powers[:size], out=prefix[1:])
    polynomial = (prefix[starts + lengths] - prefix[starts]) * inverse[starts]
    return mix64(polynomial + lengths.astype(np.uint64) * _LENGTH_SALT + salts, key)


def span_hash(code_points: Sequence[int], start: int, length: int, salt: int, key: int) -> int:
    """One span's hash, computed with Python integers: equal to :func:`span_hashes`' value.

    For a handful of features, numpy's per-call overhead costs more than the arithmetic; this
    scalar twin lets the embedder hash a few new tokens quickly. A property test keeps the two
    identical.
    """
    span = code_points[start : start + length]
    if length <= len(_POWERS_INT):
        polynomial = int(sum(map(operator.mul, span, _POWERS_INT))) & _MASK
    else:
        polynomial = 0
        for code_point in reversed(span):
            polynomial = (polynomial * _BASE + code_point) & _MASK
    x = ((polynomial + length * _LENGTH_SALT_INT + salt) & _MASK) ^ key
    x = ((x ^ (x >> 30)) * _MIX1_INT) & _MASK
    x = ((x ^ (x >> 27)) * _MIX2_INT) & _MASK
    return x ^ (x >> 31)


def uniform_vector(dimensions: int, key: int) -> npt.NDArray[np.float64]:
    """A vector of ``dimensions`` components uniform in [-1, 1), determined by ``key`` alone.

    Only exactly-rounded IEEE operations are used (no logarithms or sines, whose SIMD kernels
    differ between CPUs in the last bit), so the vector is bit-identical on every machine.
    """
    bits = mix64(np.arange(dimensions, dtype=np.uint64), key) >> np.uint64(11)
    values: npt.NDArray[np.float64] = bits.astype(np.float64) * (2.0 / float(1 << 53)) - 1.0
    return values
