"""The rule systems shipped with affray, one package each (``mst2``, ``midian``): all
that is only that system's, from its rules and sheets to its odds, fast engines,
narration, CLI group and bestiary. They come in through the ``affray.systems``
entry-point group (their command groups through ``affray.commands``), as a
third-party system does (docs/systems.md)."""
