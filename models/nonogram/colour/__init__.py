"""Multicolour nonograms: the puzzle type and its checker (:mod:`.board`), the exact colour
line solver (:mod:`.lines`), propagation, probing and search (:mod:`.search`) and the CP-SAT
model (:mod:`.cpsat`).

Black-and-white puzzles keep their own compiled bit-set path (:mod:`..search.probing`); this
package is the path of puzzles with colours. This ``__init__`` imports none of its modules.
"""
