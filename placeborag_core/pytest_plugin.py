"""pytest plugin for placeborag_core (fixtures arrive with the plugin issue)."""

__all__: list[str] = []
