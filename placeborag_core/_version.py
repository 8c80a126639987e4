"""The single place the placeborag version is written down."""

__version__ = "0.1.0"
