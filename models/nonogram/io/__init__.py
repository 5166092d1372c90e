"""Nonogram file formats: readers with line-numbered errors, and writers.

:mod:`.formats` reads every format (``.non``, ``.nin``, tournament, picross-solver, webpbn XML,
Tatham game IDs), sniffs which one a file holds and writes ``.non``, ``.nin`` and ``.tatham``;
it hands webpbn XML and Tatham game IDs to :mod:`.web`. Both build their puzzles through
:mod:`.clues`, so dependencies point one way: ``formats → web → clues``. This package's
``__init__`` imports none of its modules.
"""
