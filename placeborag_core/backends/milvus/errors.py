"""Milvus's error types, as pymilvus shows them: ``<MilvusException: (code=.., message=..)>``.

pymilvus raises ``MilvusException`` (and its subclass ``ParamError`` for arguments the client
checks itself); code written against Milvus catches those, or ``Exception``. The classes here
carry the same ``code`` and ``message`` and print the same text, and they derive from the
core's error types (``FilterError``, ``ValueError``, ``DimensionError``) so that code written
against placeborag catches them too. Facts: ``docs/engines/milvus.md#errors-and-k``.
"""

from __future__ import annotations

from placeborag_core.errors import DimensionError, FilterError

__all__ = [
    "INVALID_EXPR",
    "MilvusDataError",
    "MilvusDimensionError",
    "MilvusError",
    "MilvusFilterError",
    "MilvusParamError",
    "MilvusServerError",
    "invalid_expr",
    "segcore",
]

INVALID_EXPR = 1100
"""The server's code for an expression its planner rejects ("invalid parameter")."""
SEGCORE = 2000
"""The code of an error raised by the C++ core (segcore) while it plans or runs a filter."""
_CORE_SRC = "/workspace/milvus-lite/thirdparty/milvus/internal/core/src"


class MilvusError(Exception):
    """An error as pymilvus reports it: ``code``, ``message`` and pymilvus's ``str`` form."""

    kind = "MilvusException"

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"<{self.kind}: (code={self.code}, message={self.message})>"


class MilvusFilterError(MilvusError, FilterError):
    """A filter expression Milvus rejects (``MilvusException`` with code 1100 or 2000)."""


class MilvusParamError(MilvusError, ValueError):
    """An argument pymilvus rejects before sending it (``ParamError``, code 1), or one the
    server rejects as an "invalid parameter" (code 1100)."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(code, message)
        self.kind = "ParamError" if code == 1 else "MilvusException"


class MilvusDimensionError(MilvusError, DimensionError):
    """A vector of the wrong width (``MilvusException``; the store's message)."""

    def __init__(self, message: str, code: int = 65535) -> None:
        super().__init__(code, message)


def invalid_expr(expr: str) -> MilvusFilterError:
    """The planner's rejection: ``Invalid expr: <expr>: invalid parameter`` (code 1100)."""
    return MilvusFilterError(INVALID_EXPR, f"Invalid expr: {expr}: invalid parameter")


def segcore(text: str, source: str, *, operator: bool = False) -> MilvusFilterError:
    """An error of the C++ core: ``<text> at <source file>`` then ``: segcore error``.

    ``operator``: raised while a filter runs over rows (pymilvus shows the failing operator
    first; the plan node id there is a counter of the server process, shown here as 0)."""
    message = f"{text} at {_CORE_SRC}/{source}\n: segcore error"
    if operator:
        message = (
            "Operator::GetOutput failed for [Operator:PhyFilterBitsNode, plan node id: 0] : "
            + message
        )
    return MilvusFilterError(SEGCORE, message)


class MilvusServerError(MilvusError, ValueError):
    """An argument the server rejects as an "invalid parameter" (``MilvusException``, code
    1100), e.g. a ``limit`` above 16384."""

    def __init__(self, message: str) -> None:
        super().__init__(INVALID_EXPR, message)


class MilvusDataError(MilvusError, ValueError):
    """A row pymilvus refuses before sending it (``DataNotMatchException``, code 1): a field
    missing from the row or a value the field's type does not take."""

    kind = "DataNotMatchException"

    def __init__(self, message: str) -> None:
        super().__init__(1, message)
