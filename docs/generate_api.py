"""Write ``docs/api.md``: the API reference, generated from the docstrings.

Run ``python docs/generate_api.py`` from the repository root (with every extra installed, so that
the adapters import) after changing a public name, a signature or the first paragraph of a
docstring; ``tests/test_docs.py`` fails while the file is out of date. ``--check`` exits 1 instead
of writing when the file differs.

For each documented module (each package's ``__all__``, and the submodules users import), every
public name gets its signature and the first paragraph of its own docstring; a class also gets its
public methods and properties defined in placeborag (inherited framework members are left out, so
the output does not change with a framework's version). Constants get their type, their value when
it is a plain number or string, and the docstring written under their assignment.
"""

from __future__ import annotations

import argparse
import ast
import enum
import importlib
import inspect
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "api.md"

MODULES: tuple[tuple[str, str], ...] = (
    ("placeborag_core", "The core: embedder, store, seeding, assertions (numpy only)."),
    ("placeborag_core.embedding", "The embedder and its constants."),
    ("placeborag_core.store", "The store and the types of its inputs."),
    ("placeborag_core.filters", "Filter dialects and compiled predicates."),
    ("placeborag_core.backends", "Engine profiles: the data each profile is made of."),
    ("placeborag_core.backends.lancedb", "LanceDB's typed columns and SQL filter readers."),
    ("placeborag_core.backends.milvus", "Milvus's expression reader and error types."),
    ("placeborag_core.backends.pgvector", "PostgreSQL's conditions on a JSON metadata column."),
    ("placeborag_core.pytest_plugin", "What a pytest plugin of your own needs."),
    ("placeborag_core.adapter_kit", "Small helpers an adapter package shares with the core."),
    ("placeborag_langchain", 'LangChain doubles (`pip install "placeborag[langchain]"`).'),
    ("placeborag_llamaindex", 'LlamaIndex doubles (`pip install "placeborag[llamaindex]"`).'),
)
"""The documented modules, in order, each with a one-line description. The ``placeborag_core``
ones are the core's public API: the adapters import only names in their ``__all__``
(``tests/test_public_api.py``)."""

HEADER = """# API reference

Generated from the docstrings by `python docs/generate_api.py`; do not edit by hand
(`tests/test_docs.py` fails when this file is out of date). Each entry gives the signature and the
first paragraph of the docstring; the [README](../README.md) explains how the pieces fit together.
"""

PLAIN_VALUES = (bool, int, float, str)


class _Factory:
    """Stands for a default built by a factory (dataclass or pydantic ``default_factory``)."""

    def __repr__(self) -> str:
        return "<factory>"


FACTORY = _Factory()


def first_paragraph(doc: str | None) -> str:
    """The first paragraph of a docstring, on one line (empty when there is none)."""
    if not doc:
        return ""
    paragraph = inspect.cleandoc(doc).split("\n\n", 1)[0]
    return " ".join(line.strip() for line in paragraph.splitlines())


def annotation_text(annotation: Any) -> str:
    """An annotation as written in the source (annotations are strings under PEP 563)."""
    if isinstance(annotation, str):
        return annotation
    return inspect.formatannotation(annotation)


def parameter_text(parameter: inspect.Parameter) -> str:
    """One parameter as ``name: annotation = default``."""
    text = parameter.name
    if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
        text = f"*{text}"
    elif parameter.kind is inspect.Parameter.VAR_KEYWORD:
        text = f"**{text}"
    if parameter.annotation is not inspect.Parameter.empty:
        text += f": {annotation_text(parameter.annotation)}"
    if parameter.default is not inspect.Parameter.empty:
        text += f" = {default_text(parameter.default)}"
    return text


def default_text(value: Any) -> str:
    """A default value as source would spell it; objects without a stable repr by type name."""
    if value is None or isinstance(value, PLAIN_VALUES):
        return repr(value)
    if isinstance(value, tuple) and all(isinstance(item, PLAIN_VALUES) for item in value):
        return repr(value)
    if isinstance(value, frozenset | set) and all(isinstance(item, str) for item in value):
        inside = ", ".join(repr(item) for item in sorted(value))
        return f"{type(value).__name__}({{{inside}}})" if value else f"{type(value).__name__}()"
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, type):
        return value.__name__
    if value is FACTORY or type(value).__name__ == "_HAS_DEFAULT_FACTORY_CLASS":
        return "<factory>"
    return f"<{type(value).__name__}>"


def signature_text(parameters: list[inspect.Parameter], returns: Any) -> str:
    """``(a, b, *, c) -> R`` from parameters, with the ``/`` and ``*`` markers."""
    parts: list[str] = []
    keyword_marker_needed = True
    for index, parameter in enumerate(parameters):
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            keyword_marker_needed = False
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY and keyword_marker_needed:
            parts.append("*")
            keyword_marker_needed = False
        parts.append(parameter_text(parameter))
        following = parameters[index + 1] if index + 1 < len(parameters) else None
        if parameter.kind is inspect.Parameter.POSITIONAL_ONLY and (
            following is None or following.kind is not inspect.Parameter.POSITIONAL_ONLY
        ):
            parts.append("/")
    text = f"({', '.join(parts)})"
    if returns is not inspect.Signature.empty:
        text += f" -> {annotation_text(returns)}"
    return text


def callable_signature(function: Callable[..., Any], *, drop_first: bool = False) -> str:
    """The signature of a function or method (``self``/``cls`` dropped for methods)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return "(...)"
    parameters = list(signature.parameters.values())
    if drop_first and parameters:
        parameters = parameters[1:]
    return signature_text(parameters, signature.return_annotation)


def ours(owner: type) -> bool:
    """Whether a class is defined in one of the placeborag packages."""
    return owner.__module__.split(".")[0].startswith("placeborag_")


def pydantic_fields(cls: type) -> list[inspect.Parameter]:
    """The keyword parameters of a pydantic model that placeborag declares (framework fields left
    out), in declaration order."""
    fields: dict[str, Any] = getattr(cls, "model_fields", {})
    declared: dict[str, Any] = {}
    for owner in reversed(cls.__mro__):
        if ours(owner):
            declared.update(inspect.get_annotations(owner))
    parameters = []
    for name, annotation in declared.items():
        field = fields.get(name)
        if field is None or name.startswith("_"):
            continue
        if field.is_required():
            default: Any = inspect.Parameter.empty
        elif field.default_factory is not None:
            default = FACTORY
        else:
            default = field.default
        parameters.append(
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
            )
        )
    return parameters


def class_signature(cls: type) -> str:
    """How a class is called: its ``__init__`` (for a pydantic model, its own fields too)."""
    init = cls.__dict__.get("__init__")
    if init is None:
        for owner in cls.__mro__[1:]:
            if ours(owner) and "__init__" in owner.__dict__:
                init = owner.__dict__["__init__"]
                break
    parameters: list[inspect.Parameter] = []
    if init is not None and callable(init):
        try:
            parameters = list(inspect.signature(init).parameters.values())[1:]
        except (TypeError, ValueError):
            parameters = []
    if hasattr(cls, "model_fields"):
        fields = pydantic_fields(cls)
        own = [p for p in parameters if p.kind is not inspect.Parameter.VAR_KEYWORD]
        keyword = [p for p in own if p.kind is inspect.Parameter.KEYWORD_ONLY]
        positional = [p for p in own if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        named = {p.name for p in positional}
        fields = [f for f in fields if f.name not in named]
        taken = named | {f.name for f in fields}
        parameters = positional + fields + [p for p in keyword if p.name not in taken]
    elif init is None:
        if all(ours(owner) or owner is object for owner in cls.__mro__):
            return "()"
        # A builtin or framework __init__ (exceptions, protocols): its signature differs
        # between Python and framework versions.
        return "(...)"
    return signature_text(parameters, inspect.Signature.empty)


def class_members(cls: type) -> Iterator[tuple[str, str, str]]:
    """(name, signature or type, first paragraph) of each public method and property that a
    placeborag class in the MRO defines, nearest definition first seen."""
    seen: set[str] = set()
    for owner in cls.__mro__:
        if not ours(owner):
            continue
        for name, value in owner.__dict__.items():
            if name.startswith("_") or name in seen:
                continue
            seen.add(name)
            if isinstance(value, property):
                returns = inspect.signature(value.fget).return_annotation if value.fget else None
                kind = (
                    f": {annotation_text(returns)}"
                    if returns not in (None, inspect.Signature.empty)
                    else ""
                )
                yield f"{name}", f"property{kind}", first_paragraph(value.__doc__)
            elif isinstance(value, classmethod | staticmethod):
                function = value.__func__
                if not function.__module__.startswith("placeborag_"):
                    continue
                drop = isinstance(value, classmethod)
                label = "classmethod " if drop else "staticmethod "
                yield (
                    name,
                    label + callable_signature(function, drop_first=drop),
                    first_paragraph(function.__doc__),
                )
            elif inspect.isfunction(value) and value.__module__.startswith("placeborag_"):
                yield (
                    name,
                    callable_signature(value, drop_first=True),
                    first_paragraph(value.__doc__),
                )


def constant_source(module_name: str, name: str, depth: int = 0) -> tuple[str, str]:
    """The assigned expression of ``name`` (as source) and the docstring under the assignment,
    following ``from X import name`` chains; empty strings when not found."""
    if depth > 5:
        return "", ""
    module = importlib.import_module(module_name)
    source_file = getattr(module, "__file__", None)
    if source_file is None:
        return "", ""
    tree = ast.parse(Path(source_file).read_text(encoding="utf-8"))
    body = tree.body
    for index, node in enumerate(body):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            value = getattr(node, "value", None)
            source = ast.unparse(value) if value is not None else ""
            following = body[index + 1] if index + 1 < len(body) else None
            if (
                isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                return source, first_paragraph(following.value.value)
            return source, ""
    for found in ast.walk(tree):
        if isinstance(found, ast.ImportFrom) and found.module and found.level == 0:
            for alias in found.names:
                if alias.name == name and (alias.asname in (None, name)):
                    return constant_source(found.module, name, depth + 1)
    return "", ""


def is_type_alias(value: Any) -> bool:
    """Whether a module-level value is a type (a union or a parametrised generic)."""
    return isinstance(value, types.UnionType | types.GenericAlias) or (
        type(value).__module__ == "typing" and hasattr(value, "__origin__")
    )


def constant_line(module_name: str, name: str, value: Any) -> tuple[str, str]:
    """(signature-like text, description) for a module-level constant."""
    kind = type(value).__name__
    source, doc = constant_source(module_name, name)
    if isinstance(value, PLAIN_VALUES):
        text = f"{kind} = {value!r}"
    elif isinstance(value, tuple) and all(isinstance(item, str) for item in value):
        text = f"tuple[str, ...] = {value!r}"
    elif is_type_alias(value) and source:
        text = f"type alias = {source}"
    else:
        text = kind
    return text, doc


def document_module(module_name: str, description: str) -> list[str]:
    """The markdown section of one module."""
    module = importlib.import_module(module_name)
    names: list[str] = list(getattr(module, "__all__", []))
    lines = [f"## `{module_name}`", "", description]
    summary = first_paragraph(module.__doc__)
    if summary:
        lines += ["", summary]
    for name in names:
        value = getattr(module, name)
        lines.append("")
        if inspect.isclass(value):
            lines.append(f"### `{name}{class_signature(value)}`")
            lines.append("")
            lines.append(
                f"class, defined in `{value.__module__}`. {first_paragraph(value.__doc__)}".rstrip()
            )
            members = list(class_members(value))
            if members:
                lines.append("")
                for member, text, doc in members:
                    entry = (
                        f"- `{member}`" if text.startswith("property") else f"- `{member}{text}`"
                    )
                    if text.startswith("property"):
                        entry += f" ({text})"
                    elif text.startswith(("classmethod", "staticmethod")):
                        label, rest = text.split(" ", 1)
                        entry = f"- `{member}{rest}` ({label})"
                    lines.append(f"{entry}: {doc}" if doc else entry)
        elif inspect.isfunction(value):
            lines.append(f"### `{name}{callable_signature(value)}`")
            lines.append("")
            doc = first_paragraph(value.__doc__)
            lines.append(f"function, defined in `{value.__module__}`. {doc}".rstrip())
        elif hasattr(value, "_get_wrapped_function") or hasattr(value, "_pytestfixturefunction"):
            lines.append(f"### `{name}`")
            lines.append("")
            lines.append(f"pytest fixture. {first_paragraph(value.__doc__)}".rstrip())
        else:
            text, doc = constant_line(module_name, name, value)
            lines.append(f"### `{name}`")
            lines.append("")
            lines.append(f"`{text}`. {doc}".rstrip())
    lines.append("")
    return lines


def render() -> str:
    """The whole of ``docs/api.md``."""
    contents = [f"- [`{name}`](#{name.replace('.', '')})" for name, _ in MODULES]
    lines = [HEADER, *contents, ""]
    for module_name, description in MODULES:
        lines += document_module(module_name, description)
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) ``docs/api.md``; 1 when ``--check`` finds it stale."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/api.md is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print("docs/api.md is out of date: run python docs/generate_api.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
