"""The rules asked backwards, at the terminal: ``affray solve``, ``sensitivity``,
``frontier`` and ``day`` (docs/design.md), a module each."""
