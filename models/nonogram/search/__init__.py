"""The fast solver of the ``probing`` method, one module a step, on compiled bit grids.

:mod:`.propagation` holds the grid and line logic on a worklist of dirty lines (the line
solvers of :mod:`..lines`); :mod:`.probing` probes every open cell to a fixpoint and picks the
cell to branch on; :mod:`.portfolio` runs the depth-first searches with restarts over the
probed nodes (``solve_probing``). :mod:`.colour` is the same for colour puzzles, on colour
masks. :mod:`.split` splits the search over processes (a local pool or a Dask cluster) when the
limits give it several workers. This package's ``__init__`` imports none of its modules.
"""
