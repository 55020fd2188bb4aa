"""Coin: a toy third rule system, a package of its own that plugs into affray through
the ``affray.systems`` entry point alone (no file of affray knows it).

Each combatant has ``hits`` and a ``knack``. On its turn it attacks a foe: a d6 plus
its knack of 4 or more hits for one hit, unless the target chooses to duck and rolls
a d6 of 5 or more. At 0 hits a combatant is out.
"""
