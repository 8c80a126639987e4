"""pgvector (PostgreSQL), one engine in five small modules: ``profile`` (the :class:`Profile`),
``scores`` (the measured build's float32 sums, bit for bit), ``ties`` (PostgreSQL's tuplesort),
``jsonb`` (JSONB conditions with SQL's three-valued logic) and ``filters`` (the profile's
``where=`` dialect)."""
