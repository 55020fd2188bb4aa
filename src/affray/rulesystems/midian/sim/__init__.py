"""Midian's fast engines: millions of duels (``duels``) and whole fights (``fights``,
compiled by ``fights_kernel``)."""
