"""The fast solver: line propagation on a worklist, probing, and depth-first search.

:mod:`.probing` holds the compiled grid, its kernels (propagation, probing, branching) and the
portfolio of depth-first searches that the ``probing`` method runs; it settles lines with the
solvers of :mod:`..lines`. :mod:`.colour` is the same for colour puzzles, on colour masks.
:mod:`.split` splits that search over processes (a local pool or a
Dask cluster) when the limits give it several workers. This package's ``__init__`` imports
none of its modules.
"""
