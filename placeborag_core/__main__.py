"""``python -m placeborag_core``: the same command line as the ``placeborag`` console script."""

from placeborag_core.cli import main

raise SystemExit(main())
