"""Rule systems: MST-2 (``affray.rules.mst2``) and, later, Midian."""
