"""The corpus layer: chunking documents, seeding a store idempotently, manifests and drift."""
