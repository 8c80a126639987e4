"""pytest plugin for placeborag_langchain: registers nothing until the adapter provides fixtures."""

__all__: list[str] = []
