"""The rules asked backwards (docs/design.md): what value of a key brings a side's
chance to a target (:mod:`~affray.design.solve`), which keys matter most
(:mod:`~affray.design.sensitivity`), which options are never worth taking
(:mod:`~affray.design.frontier`). Each moves a sheet along its system's ladders
(:mod:`affray.ladders`) and works the odds out as the explorer works its cells out
(exact where the system has exact odds, else simulated; on this process, a pool or
Dask): :mod:`~affray.design.duels` and :mod:`~affray.design.encounters`.
"""
