"""The Milvus expression planner: a parsed expression (``expressions.py``) checked the way
Milvus 2.5's planner and core check it, with their errors, and turned into a predicate
(``semantics.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from placeborag_core.backends.milvus import expressions as ex
from placeborag_core.backends.milvus.errors import MilvusFilterError, invalid_expr, segcore
from placeborag_core.backends.milvus.semantics import (
    ARITHMETIC,
    FLOAT_ARITHMETIC,
    INT_ARITHMETIC,
    KIND_OF_TYPE,
    MISSING,
    ORDER_TESTS,
    REVERSED,
    And,
    Equals,
    Fails,
    FieldType,
    Getter,
    Or,
    Schema,
    Test,
    is_numeric,
    json_equal,
    json_order,
    kind_of,
    like_regex,
)
from placeborag_core.errors import FilterError
from placeborag_core.filters.predicates import Everything, Predicate
from placeborag_core.messages import shown

__all__ = ["read_expression"]

_PLAN_PROTO = "query/PlanProto.cpp"


def _not_supported() -> MilvusFilterError:
    return segcore(" => unsupported expr proto node: ", f"{_PLAN_PROTO}:543")


def _json_type_error(type_name: str = "JSON") -> MilvusFilterError:
    return segcore(f" => expr type check failed, actual type: {type_name}", f"{_PLAN_PROTO}:550")


def _empty_term() -> MilvusFilterError:
    return segcore(
        'Assert "fields_.find(field_id) != fields_.end()"  => Cannot find field with field_id: 0',
        "common/Schema.h:178",
    )


_VAL_CASE = {bool: "kBoolVal", int: "kInt64Val", float: "kFloatVal", str: "kStringVal"}
_VAL_LINE = {bool: 126, int: 130, float: 140, str: 145}
"""Where ``Utils.h`` asserts a list item's kind (``milvus-filter-term-kind-assert``)."""


def _term_kind_error(kind: type) -> MilvusFilterError:
    return segcore(
        f'Assert "(value_proto.val_case() == milvus::proto::plan::GenericValue::'
        f'{_VAL_CASE[kind]})" ',
        f"exec/expression/Utils.h:{_VAL_LINE[kind]}",
        operator=True,
    )


def _field_compare_error() -> MilvusFilterError:
    return segcore(
        " => unsupported left datatype:JSON of compare expr",
        "exec/expression/CompareExpr.cpp:277",
        operator=True,
    )


# --- planner ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Typed:
    """A resolved name: where its value comes from and its type (None: JSON)."""

    getter: Getter
    type: FieldType | None


class _Planner:
    """Checks an expression as the engine does in two passes: the planner's (every error
    ``Invalid expr``, code 1100, raised at once) over the whole tree, then the core's (code
    2000), whose errors ``deferred`` keeps until the planner's pass is through: any planner
    error wins (measured: ``milvus-filter-planner-errors-first``)."""

    def __init__(self, text: str, schema: Schema) -> None:
        self.text = text
        self.schema = schema
        self.deferred: list[MilvusFilterError] = []

    def invalid(self) -> MilvusFilterError:
        return invalid_expr(self.text)

    def defer(self, error: MilvusFilterError) -> Predicate:
        """A core error, raised once the planner has passed the whole expression."""
        self.deferred.append(error)
        return Everything()

    def name(self, node: ex.Node) -> _Typed | None:
        if not isinstance(node, ex.Field):
            return None
        schema = self.schema
        if node.name == "$meta":
            return _Typed(Getter("json", node.path), None)
        if node.name in (schema.id_field, schema.text_field):
            if node.path:
                raise self.invalid()
            if node.name == schema.id_field:
                source: Literal["id", "int_id"] = "int_id" if schema.id_type == "int64" else "id"
                return _Typed(Getter(source, ()), schema.id_type)
            return _Typed(Getter("text", ()), "varchar")
        typed = schema.fields.get(node.name)
        if typed is not None:
            if node.path:
                raise self.invalid()
            return _Typed(Getter("json", (node.name,)), typed)
        if not schema.dynamic:
            raise self.invalid()
        return _Typed(Getter("json", (node.name, *node.path)), None)

    def literal(self, node: ex.Node) -> Any:
        """The value of a literal (a signed number folded), or MISSING if it is not one."""
        if isinstance(node, ex.Literal):
            return node.value
        if isinstance(node, ex.Unary) and node.op in ("-", "+"):
            inner = self.literal(node.operand)
            if is_numeric(inner):
                return -inner if node.op == "-" else inner
            if inner is not MISSING:
                raise self.invalid()
        return MISSING

    def typed_value(self, field: _Typed, value: Any) -> Any:
        """``value`` checked against a typed field (the planner's check); JSON takes any."""
        if field.type is None:
            return value
        kind = kind_of(value)
        if kind is not KIND_OF_TYPE[field.type] and not (field.type == "double" and kind is int):
            raise self.invalid()
        return value

    def plan(self, node: ex.Node) -> Predicate:
        if isinstance(node, ex.Binary) and node.op in ("and", "or"):
            parts = [self.operand(node.left), self.operand(node.right)]
            return And(parts) if node.op == "and" else Or(parts)
        if isinstance(node, ex.Unary) and node.op == "not":
            if self.is_condition(node.operand):
                self.plan(node.operand)  # its own errors come first
                return self.defer(_not_supported())
            raise self.invalid()
        if isinstance(node, ex.Binary) and node.op in ("==", "!=", "<", "<=", ">", ">="):
            return self.compare(node)
        if isinstance(node, ex.RangeNode):
            return self.range(node)
        if isinstance(node, ex.Term):
            return self.term(node)
        if isinstance(node, ex.Like):
            return self.like(node)
        if isinstance(node, ex.Call):
            return self.call(node)
        named = self.name(node)
        if named is None:
            raise self.invalid()
        if named.type == "bool":  # accepted by the planner; the filter fails once it runs
            return Fails(
                segcore(
                    " => PhyFilterBitsNode result should be bitmap",
                    "exec/operator/FilterBitsNode.cpp:89",
                    operator=True,
                )
            )
        return self.defer(_json_type_error("JSON" if named.type is None else named.type.upper()))

    def operand(self, node: ex.Node) -> Predicate:
        """An operand of ``and``/``or``: a condition, or a BOOL field; a bare name of another
        type or a literal is the planner's error (measured: ``milvus-filter-logic-operands``)."""
        if isinstance(node, ex.Literal) and not isinstance(node.value, bool):
            raise self.invalid()
        named = self.name(node)
        if named is not None and named.type != "bool":
            raise self.invalid()
        return self.plan(node)

    @staticmethod
    def is_condition(node: ex.Node) -> bool:
        if isinstance(node, ex.Binary):
            return node.op in ("and", "or", "==", "!=", "<", "<=", ">", ">=")
        return isinstance(node, ex.RangeNode | ex.Term | ex.Like | ex.Call | ex.Unary)

    def compare(self, node: ex.Binary) -> Predicate:
        op = node.op
        left, right = node.left, node.right
        if isinstance(right, ex.Missing):
            named = self.name(left)
            if named is None or named.type is not None:
                raise self.invalid()
            return self.defer(_json_type_error())
        if isinstance(left, ex.Call) and left.name == "array_length":
            return self.array_length(left, op, right)
        for side in (left, right):
            if isinstance(side, ex.Binary) and side.op in ARITHMETIC:
                operand = self.name(side.left) or self.name(side.right)
                if operand is not None and operand.type is not None:
                    return self.arithmetic(side, op if side is left else REVERSED[op], node)
        other: ex.Node = right
        field = self.name(left)
        if field is None:
            field, other = self.name(right), left
            op = REVERSED[op]
            if field is None:
                raise self.invalid()
        if self.name(other) is not None:
            if field.type is None or self.name(other).type is None:  # type: ignore[union-attr]
                return Fails(_field_compare_error())
            raise NotImplementedError("comparing two typed fields is not supported")
        value = self.literal(other)
        if value is MISSING:
            raise self.invalid()
        value = self.typed_value(field, value)
        if op in ("==", "!="):
            return Equals(field.getter, (value,), negated=op == "!=")
        test = ORDER_TESTS[op]
        return Test(field.getter, lambda v: (c := json_order(v, value)) is not None and test(c))

    def arithmetic(self, side: ex.Binary, op: str, node: ex.Binary) -> Predicate:
        """``field <arith> literal == literal`` on a typed numeric field (measured:
        ``docs/integrations/new_integrations.md#lc-milvus-typed-arithmetic``): only ``==`` and
        ``!=``; an INT64 field takes int literals only (``/`` truncates, ``%`` keeps the
        dividend's sign), a DOUBLE field any number (``%`` matches nothing); ``+`` and ``*``
        take the literal on either side (``-``, ``/``, ``%`` only on the right); a literal on
        the left of ``==`` swaps it, as in a plain comparison (``op`` arrives swapped)."""
        field = self.name(side.left)
        operand_node = side.right
        if field is None:
            if side.op not in ("+", "*"):
                raise self.invalid()  # measured: ``10 - n == 5`` is invalid
            field, operand_node = self.name(side.right), side.left
        other = node.right if side is node.left else node.left
        operand, value = self.literal(operand_node), self.literal(other)
        if (
            field is None
            or field.type not in ("int64", "double")
            or op not in ("==", "!=")
            or side.op == "**"
            or not is_numeric(operand)
            or not is_numeric(value)
        ):
            raise self.invalid()
        if field.type == "int64" and (not isinstance(operand, int) or not isinstance(value, int)):
            raise self.invalid()
        if side.op in ("/", "%") and operand == 0:
            raise NotImplementedError("division by zero in a Milvus expression is not supported")
        compute = INT_ARITHMETIC if field.type == "int64" else FLOAT_ARITHMETIC
        step = compute[side.op]

        def equal(v: Any) -> bool:
            if not is_numeric(v):
                return False
            result = step(v, operand)
            return result is not None and result == value

        if op == "==":
            return Test(field.getter, equal)
        return Test(field.getter, lambda v: is_numeric(v) and not equal(v))

    def range(self, node: ex.RangeNode) -> Predicate:
        field = self.name(node.field)
        low, high = self.literal(node.low), self.literal(node.high)
        if field is None or field.type is None or low is MISSING or high is MISSING:
            raise self.invalid()
        low, high = self.typed_value(field, low), self.typed_value(field, high)
        first, second = ORDER_TESTS[REVERSED[node.op1]], ORDER_TESTS[node.op2]

        def inside(v: Any) -> bool:
            a, b = json_order(v, low), json_order(v, high)
            return a is not None and b is not None and first(a) and second(b)

        return Test(field.getter, inside)

    def term(self, node: ex.Term) -> Predicate:
        field = self.name(node.operand)
        if field is None:
            raise self.invalid()
        values = [self.literal(item) for item in node.items]
        if any(value is MISSING for value in values):
            raise self.invalid()
        if not values:
            return self.defer(_empty_term())
        first = kind_of(values[0])
        assert first is not None  # literals are scalars
        if field.type is not None:
            wanted = KIND_OF_TYPE[field.type]
            if first is not wanted:  # an int in a DOUBLE field's list too (Utils.h:140)
                return Fails(_term_kind_error(wanted))
        if any(kind_of(value) is not first for value in values):
            return Fails(_term_kind_error(first))
        return Equals(field.getter, values, negated=node.negated)

    def like(self, node: ex.Like) -> Predicate:
        field = self.name(node.operand)
        if field is None or field.type not in (None, "varchar"):
            raise self.invalid()
        if node.pattern is None:
            return Test(field.getter, lambda v: False)
        regex = like_regex(node.pattern)
        if regex is None:
            return Test(field.getter, lambda v: False)
        return Test(field.getter, lambda v: isinstance(v, str) and regex.fullmatch(v) is not None)

    def call(self, node: ex.Call) -> Predicate:
        if node.name in ("exists", "array_length") or len(node.args) != 2:
            raise self.invalid()
        field = self.name(node.args[0])
        if field is None or field.type is not None:
            raise self.invalid()
        if node.name == "json_contains":
            value = self.literal(node.args[1])
            if value is MISSING:
                return (
                    Test(field.getter, lambda v: False)
                    if isinstance(node.args[1], ex.ListLit)
                    else self._raise_invalid()
                )
            return Test(
                field.getter,
                lambda v: isinstance(v, list) and any(json_equal(e, value) for e in v),
            )
        arg = node.args[1]
        if not isinstance(arg, ex.ListLit) or not arg.items:
            raise self.invalid()
        values = [self.literal(item) for item in arg.items]
        if any(value is MISSING for value in values):
            raise self.invalid()
        every = node.name == "json_contains_all"

        def contains(v: Any) -> bool:
            if not isinstance(v, list):
                return False
            found = (any(json_equal(e, value) for e in v) for value in values)
            return all(found) if every else any(found)

        return Test(field.getter, contains)

    def _raise_invalid(self) -> Predicate:
        raise self.invalid()

    def array_length(self, call: ex.Call, op: str, other: ex.Node) -> Predicate:
        field = self.name(call.args[0]) if len(call.args) == 1 else None
        value = self.literal(other)
        if field is None or field.type is not None or op not in ("==", "!="):
            raise self.invalid()
        if kind_of(value) is not int:
            raise self.invalid()
        equal = op == "=="
        return Test(
            field.getter, lambda v: ((len(v) if isinstance(v, list) else 0) == value) == equal
        )


def read_expression(expr: str, schema: Schema | None = None) -> Predicate:
    """The predicate of a Milvus filter expression; ``MilvusFilterError`` as Milvus raises it.

    An empty or blank expression is no filter."""
    if not isinstance(expr, str):
        raise FilterError(f"a Milvus filter is an expression str, got {shown(expr)}")
    try:
        node = ex.parse(expr)
    except ex.ParseError:
        raise invalid_expr(expr) from None
    if node is None:
        return Everything()
    planner = _Planner(expr, schema or Schema())
    predicate = planner.plan(node)
    if planner.deferred:
        raise planner.deferred[0]
    return predicate
