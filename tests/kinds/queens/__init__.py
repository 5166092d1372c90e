"""The n-queens puzzle: the tiny example kind that shows what a new kind takes.

A board of ``n`` rows, some holding a given queen; place one queen in every row so that no
two share a column or a diagonal. It is one package (this one) whose ``kind`` module declares
its :class:`~cspsolve.kind.Kind`: the engine's depth-first search and a CP-SAT model as its
two methods, a reader, a checker and pictures. The tests make the command line see it through
``CSPSOLVE_KINDS=queens.kind`` (this folder's parent on ``PYTHONPATH``); as a folder under
``models/`` it would need nothing else at all.
"""
