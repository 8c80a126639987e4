"""Qdrant: its filter model read into core predicates (``filters``)."""
