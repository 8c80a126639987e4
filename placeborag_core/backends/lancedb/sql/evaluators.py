"""A planned filter turned into an evaluator of SQL's three-valued logic, a batch at a time.

Each node becomes a function of a batch of rows giving TRUE, FALSE or NULL (``None``) per row.
Like DataFusion, ``AND``/``OR`` skip their right side only when the left decides every row, an
``AND`` whose left side selects few rows runs its right side on those rows only, constant
subtrees are folded, and a string column compared with a number is cast batch-wise, so a value
that does not parse fails where the engine's query fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from placeborag_core.backends.lancedb.arrow import ArrowType
from placeborag_core.backends.lancedb.sql.scope import Scope
from placeborag_core.backends.lancedb.sql.syntax import (
    Between,
    Binary,
    Column,
    Function,
    InList,
    IsTest,
    Like,
    Node,
    Unary,
)
from placeborag_core.backends.lancedb.sql.tree import (
    children,
    columns_in,
    folded_literal,
    strip,
    walk,
)
from placeborag_core.backends.lancedb.sql.type_rules import coercion, literal_type
from placeborag_core.backends.lancedb.sql.values import (
    TESTS,
    Batch,
    Evaluation,
    Evaluator,
    compare_values,
    like_regex,
    parse_number,
)

__all__ = ["build"]


PRE_SELECTION = 0.2
"""DataFusion's ``PRE_SELECTION_THRESHOLD``: an AND whose left side selects at most this share
of a batch evaluates its right side on the selected rows only."""


def build(scope: Scope, node: Node) -> Evaluator:
    """The evaluator of ``node``, a filter that passed every planning stage."""
    node = strip(node)
    literal = scope.literal(node)
    if literal is not None:
        value = literal.value
        return lambda view, rows, run: [value] * len(rows)
    if isinstance(node, Column):
        resolved = scope.column(node)
        assert resolved is not None
        get = resolved.get
        return lambda view, rows, run: [get(view, row) for row in rows]
    if isinstance(node, Unary):  # NOT (negated literals were folded)
        inner = build(scope, node.operand)
        return lambda view, rows, run: [
            None if v is None else not v for v in inner(view, rows, run)
        ]
    if isinstance(node, IsTest):
        return build_is(scope, node)
    if isinstance(node, Binary):
        if node.op in ("AND", "OR"):
            return build_logic(scope, node)
        return build_compare(scope, node.left, node.op, node.right)
    if isinstance(node, InList):
        return build_in(scope, node)
    if isinstance(node, Between):
        return build_between(scope, node)
    if isinstance(node, Like):
        return build_like(scope, node)
    if isinstance(node, Function):
        return build_array_has(scope, node)
    raise NotImplementedError(f"LanceDB filter: cannot evaluate {node.sql()}")


def constant(scope: Scope, node: Node) -> tuple[bool, Any]:
    """Whether a subtree reads no column, and then its value (DataFusion folds it)."""
    if columns_in(node) or any(isinstance(n, Function) for n in walk(node)):
        return False, None
    return True, build(scope, node)(None, [0], Evaluation(prefilter=True))[0]


def build_logic(scope: Scope, node: Binary) -> Evaluator:
    conjunction = node.op == "AND"
    decided = not conjunction
    for side, other in ((node.left, node.right), (node.right, node.left)):
        fixed, value = constant(scope, side)
        if fixed and value is decided:  # x AND false, x OR true: folded, x never runs
            return lambda view, rows, run: [decided] * len(rows)
        if fixed and value is (not decided):  # x AND true, x OR false: just x
            return build(scope, other)
    left, right = build(scope, node.left), build(scope, node.right)

    def logic(view: Any, rows: Sequence[int], run: Evaluation) -> Batch:
        # DataFusion's short circuits: the right side is skipped when the left decides
        # every row, and an AND whose left is TRUE for at most a fifth of the rows (and
        # never NULL) evaluates its right side on those rows only.
        a = left(view, rows, run)
        if all(v is decided for v in a):
            return a
        if conjunction and None not in a:
            chosen = [row for row, v in zip(rows, a, strict=True) if v]
            if len(chosen) <= PRE_SELECTION * len(rows):
                picked = iter(right(view, chosen, run)) if chosen else iter(())
                return [next(picked) if v else False for v in a]
        b = right(view, rows, run)
        out: Batch = []
        for x, y in zip(a, b, strict=True):
            if x is decided or y is decided:
                out.append(decided)
            elif x is None or y is None:
                out.append(None)
            else:
                out.append(not decided)
        return out

    return logic


def build_is(scope: Scope, node: IsTest) -> Evaluator:
    inner = build(scope, node.operand)
    checks: dict[str, Callable[[Any], bool]] = {
        "NULL": lambda v: v is None,
        "NOT NULL": lambda v: v is not None,
        "TRUE": lambda v: v is True,
        "NOT TRUE": lambda v: v is not True,
        "FALSE": lambda v: v is False,
        "NOT FALSE": lambda v: v is not False,
    }
    check = checks[node.test]
    return lambda view, rows, run: [check(v) for v in inner(view, rows, run)]


def operand(scope: Scope, node: Node, kind: ArrowType, target: ArrowType | None) -> Evaluator:
    """A comparison operand; a string column meeting a number is cast to it, batch-wise."""
    values = build(scope, node)
    if target is None or not (kind.kind == "string" and target.numeric):
        return values
    literal = folded_literal(node)
    if literal is not None:
        parsed = parse_number(literal.value, target)
        return lambda view, rows, run: [parsed] * len(rows)

    def cast(view: Any, rows: Sequence[int], run: Evaluation) -> Batch:
        out: Batch = []
        for value in values(view, rows, run):
            parsed = None if value is None else parse_number(value, target)
            if value is not None and parsed is None:
                raise run.cast_failed(value, target)
            out.append(parsed)
        return out

    return cast


def build_compare(
    scope: Scope, left_node: Node, op: str, right_node: Node, group: Sequence[Node] = ()
) -> Evaluator:
    """``left op right``, both coerced to the common type of ``group`` (default: of the two
    operands: an IN list or BETWEEN coerces all its operands together)."""
    left_type, right_type = scope.type_of(left_node), scope.type_of(right_node)
    target = scope.group_target(group or (left_node, right_node))
    if scope.is_resolved(left_node) or scope.is_resolved(right_node):
        target = coercion(left_type, right_type)
    if target is not None and target.kind == "null":
        return lambda view, rows, run: [None] * len(rows)
    left = operand(scope, left_node, left_type, target)
    right = operand(scope, right_node, right_type, target)
    test = TESTS[op]

    def compare(view: Any, rows: Sequence[int], run: Evaluation) -> Batch:
        a, b = left(view, rows, run), right(view, rows, run)
        return [
            None if x is None or y is None else test(compare_values(x, y))
            for x, y in zip(a, b, strict=True)
        ]

    return compare


def build_in(scope: Scope, node: InList) -> Evaluator:
    group = children(node)
    items = [build_compare(scope, node.operand, "=", item, group) for item in node.items]
    negated = node.negated

    def member(view: Any, rows: Sequence[int], run: Evaluation) -> Batch:
        results = [item(view, rows, run) for item in items]
        out: Batch = []
        for column in zip(*results, strict=True):
            if any(v is True for v in column):
                out.append(not negated)
            elif any(v is None for v in column):
                out.append(None)
            else:
                out.append(negated)
        return out

    return member


def build_between(scope: Scope, node: Between) -> Evaluator:
    group = children(node)
    low = build_compare(scope, node.operand, ">=", node.low, group)
    high = build_compare(scope, node.operand, "<=", node.high, group)
    negated = node.negated

    def between(view: Any, rows: Sequence[int], run: Evaluation) -> Batch:
        out: Batch = []
        for a, b in zip(low(view, rows, run), high(view, rows, run), strict=True):
            result = False if a is False or b is False else None if None in (a, b) else True
            out.append(None if result is None else result != negated)
        return out

    return between


def build_like(scope: Scope, node: Like) -> Evaluator:
    values, patterns = build(scope, node.operand), build(scope, node.pattern)
    negated, insensitive = node.negated, node.insensitive

    def like(view: Any, rows: Sequence[int], run: Evaluation) -> Batch:
        out: Batch = []
        for text, shape in zip(values(view, rows, run), patterns(view, rows, run), strict=True):
            if text is None or shape is None:
                out.append(None)
            else:
                matched = like_regex(shape, insensitive).fullmatch(text) is not None
                out.append(matched != negated)
        return out

    return like


def build_array_has(scope: Scope, node: Function) -> Evaluator:
    column = strip(node.args[0])
    assert isinstance(column, Column)
    resolved = scope.column(column)
    assert resolved is not None
    item_type = resolved.type.item
    assert item_type is not None
    literal = scope.literal(node.args[1])
    assert literal is not None
    needle = literal.value
    target = coercion(item_type, literal_type(literal))
    cast = item_type.kind == "string" and target is not None and target.numeric
    get = resolved.get

    def has(view: Any, rows: Sequence[int], run: Evaluation) -> Batch:
        lists = [get(view, row) for row in rows]
        if cast:
            assert target is not None
            for values in lists:
                for value in values or ():
                    if value is not None and parse_number(value, target) is None:
                        raise run.cast_failed(value, target)
        out: Batch = []
        for values in lists:
            if values is None or needle is None:
                out.append(None)
                continue
            items = [
                parse_number(v, target) if cast and target is not None else v
                for v in values
                if v is not None
            ]
            out.append(any(compare_values(v, needle) == 0 for v in items))
        return out

    return has
