"""placeborag_langchain: the adapter over placeborag_core (filled in by its own issue)."""

__all__: list[str] = []
