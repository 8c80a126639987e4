"""LanceDB (OSS, embedded), one engine in five modules: ``profile`` (the :class:`Profile`),
``arrow`` (Arrow types as pyarrow infers and casts them), ``columns`` (a table's schema, fixed by
its first write), ``filters`` (the native SQL filter reader and the dict dialect) and ``sql``
(lexer, parser and planner of the filter language). Facts: ``docs/engines/lancedb.md``."""
