"""Private speed machinery of the embedder: the token feature table (``token_table``), the kept
units of the single-text route (``token_units``) and the pools of normalised floats
(``half_pools``). Nothing here changes a vector; each piece is checked bit for bit against the
plain computation in the tests."""
