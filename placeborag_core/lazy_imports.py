"""Package plumbing shared by the three placeborag packages: names imported on first use, and a
clear ``ImportError`` when an adapter's framework is missing.

pytest imports every plugin in every session, and a plugin module imports its package first. So a
package's ``__init__`` must stay cheap: its public names are looked up in their home modules the
first time they are read (PEP 562), not when the package is imported.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from typing import Any

from placeborag_core.messages import shown

__all__ = ["lazy_exports", "require_framework"]


def lazy_exports(
    package: str, homes: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package whose public names live in submodules.

    ``homes`` maps each public name to the submodule (relative to ``package``) that defines it.
    A name is imported on its first read and then kept in the package's namespace. No public name
    may equal a submodule's name: importing that submodule would rebind the package attribute.
    """
    namespace = importlib.import_module(package).__dict__

    def read(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {shown(package)} has no attribute {shown(name)}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        namespace[name] = value
        return value

    def listing() -> list[str]:
        return sorted({*namespace, *homes})

    return read, listing


def require_framework(module: str, *, package: str, framework: str, extra: str) -> None:
    """Raise ``ImportError`` naming the extra to install if ``module`` cannot be found.

    Only looks the module up (``importlib.util.find_spec``); importing it is left to first use.
    """
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent is missing, a hook refuses it, no __spec__
        found = False
    if not found:
        raise ImportError(
            f"{package} needs {framework}, which is not installed; "
            f'install it with: pip install "placeborag[{extra}]"',
            name=module,
        )
