"""Qdrant, one engine in four small modules: ``profile`` (the :class:`Profile`), ``scores``
(its score formulas: float64 results), ``ids`` (point ids) and ``filters`` (its dialect, and
the reader of ``qdrant_client.models.Filter`` objects that integrations pass through)."""
