"""The test suite: a package, so that ``benchmarks/fidelity_report.py`` imports the fidelity
harness (``tests.fidelity``) as a module."""
