"""The ``ancients`` command line (click + rich)."""
