"""Line solvers: what the fill patterns of one line's clue agree on, and how many there are.

Each module settles a line by the placement dynamic programme (Batenburg & Kosters 2009; Wu et
al. 2013) in another representation: :mod:`.bits` on one 64-bit word (compiled, lines of up to 62
cells), :mod:`.words` on arrays of 64-bit words (compiled, lines of any length; the fast solver's
lines of over 62 cells), :mod:`.cells` on one byte of cell codes per cell (compiled, lines of any
length), :mod:`.bigint` on Python integers (the generic GAC model's line solver and the tests'
reference), :mod:`.colour` on colour masks (compiled, the lines of colour puzzles), and
:mod:`.count` counts the patterns, weighted, for belief propagation. The modules are imported one
by one: this package's ``__init__`` imports none of them.
"""
