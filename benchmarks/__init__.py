"""Benchmarks and the fidelity report; run each from the repository root as a module
(``python -m benchmarks.NAME``) or as a script."""
