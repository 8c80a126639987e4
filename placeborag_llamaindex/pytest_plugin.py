"""pytest plugin for placeborag_llamaindex: registers nothing until the adapter provides fixtures."""

__all__: list[str] = []
