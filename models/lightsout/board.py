"""The Lights Out puzzle type, its validation, and an independent solution checker.

A Lights Out board is a set of cells, each holding a light that is on or off. Pressing a cell
toggles the lights of its neighbours, and in the classic variant (``sigma-plus``, written sigma+)
its own light too; in the ``sigma`` variant (sigma) only the neighbours'. The goal is to turn every
light off. Presses commute and pressing a cell twice undoes it, so a solution is a *set* of
cells to press (Anderson & Feil, "Turning Lights Out with Linear Algebra", Mathematics Magazine
71 (1998) 300-303).

Boards are rectangular grids (rows x columns; orthogonal neighbours; optionally wrapping round
as a torus; optionally with disabled cells, which hold no light, cannot be pressed and
neighbour nothing) or arbitrary simple graphs (a node's neighbours are its adjacent nodes).

Representation: a board's lights and a press set are *packed rows*, a tuple with one ``int``
per row whose bit ``c`` is column ``c``. A graph board is stored as one row whose bit ``i`` is
node ``i``. Cells are also numbered ``row * cols + col`` (the *flat index*), so a whole board
fits in one ``int`` (:meth:`LightsOut.flat`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from cspsolve.errors import PuzzleError
from cspsolve.notebook import picture
from cspsolve.render import plural

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "GENERAL_CELLS",
    "MAX_CELLS",
    "MAX_SIDE",
    "VARIANTS",
    "LightsOut",
    "NodePresses",
    "Presses",
    "apply",
    "bits",
    "check",
    "coordinates",
    "flatten",
    "labelled",
    "lowest_bits",
    "transpose",
    "unflatten",
]

VARIANTS = ("sigma-plus", "sigma")
"""Press rules: ``sigma-plus`` toggles the cell and its neighbours, ``sigma`` only the
neighbours."""

MAX_CELLS = 1 << 22
"""Largest grid read from a file: 4,194,304 cells (2048 x 2048). Light chasing solves a plain
grid of that size in seconds; the cap refuses larger files at once."""

MAX_SIDE = 1 << 16
"""Most rows, and most columns, of a grid read from a file (65,536): light chasing and the
reader take Python steps per row, so a long thin board costs time by its length."""

GENERAL_CELLS = 1 << 14
"""Largest torus, holes or graph board solved: 16,384 cells (Gauss-Jordan elimination on that
many unknowns: 32 MiB of packed rows, seconds to a minute)."""

Presses = tuple[int, ...]
"""A press set as packed rows: bit ``c`` of ``presses[r]`` means press cell (r, c)."""


def flatten(rows: Sequence[int], cols: int) -> int:
    """Join packed rows into one int: bit ``r * cols + c`` is cell (r, c).

    A few rows are shifted in one by one; more go through a numpy bit matrix (unpack the rows,
    pack the matrix flat), O(rows x cols) instead of the O(rows² x cols) of repeated shifts.

    Examples
    --------
    >>> bin(flatten((0b01, 0b10), 2))
    '0b1001'
    """
    if len(rows) > _FEW_ROWS:
        return _to_int(_bit_matrix(rows, cols).ravel())
    out = 0
    for r in reversed(range(len(rows))):
        out = (out << cols) | rows[r]
    return out


def unflatten(value: int, *, rows: int, cols: int) -> tuple[int, ...]:
    """Split a flat int into ``rows`` packed rows of ``cols`` bits (inverse of :func:`flatten`;
    through a numpy bit matrix for many rows)."""
    if rows > _FEW_ROWS:
        return _to_ints(_bit_matrix((value,), rows * cols).reshape(rows, cols))
    full = (1 << cols) - 1
    return tuple((value >> (r * cols)) & full for r in range(rows))


_FEW_ROWS = 32
"""Boards of more rows are (un)flattened through numpy."""


def _bit_matrix(rows: Sequence[int], cols: int) -> NDArray[np.uint8]:
    """Packed rows as a ``len(rows) x cols`` matrix of 0/1 bytes."""
    import numpy as np  # only big boards need numpy; the command line starts without it

    width = (cols + 7) // 8
    data = b"".join(row.to_bytes(width, "little") for row in rows)
    bits = np.unpackbits(np.frombuffer(data, np.uint8), bitorder="little")
    return bits.reshape(len(rows), 8 * width)[:, :cols]


def _to_int(bits: NDArray[np.uint8]) -> int:
    """The int whose bit ``i`` is ``bits[i]``."""
    import numpy as np

    return int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")


def _to_ints(matrix: NDArray[np.uint8]) -> tuple[int, ...]:
    """Each row of a 0/1 matrix as a packed int."""
    import numpy as np

    packed = np.packbits(matrix, axis=1, bitorder="little")
    return tuple(int.from_bytes(line.tobytes(), "little") for line in packed)


def transpose(rows: Sequence[int], cols: int) -> tuple[int, ...]:
    """The packed rows of the transposed grid: bit ``r`` of row ``c`` is bit ``c`` of ``rows[r]``
    (through a numpy bit matrix, O(rows x cols)).

    Examples
    --------
    >>> transpose((0b01, 0b11), 2)
    (3, 2)
    """
    return _to_ints(_bit_matrix(rows, cols).T)


CANONICAL = str.maketrans(".#X", "01x")
"""Drawn cells (``.``, ``#``, ``X`` too) to the ``0``, ``1``, ``x`` of
:meth:`LightsOut.from_cells`."""
_LIT = str.maketrans("x", "0")
_HOLE = str.maketrans("01x", "001")


def _packed(row: str, table: dict[int, int]) -> int:
    """A canonical row as a packed int: bit ``c`` set where ``table`` maps cell ``c`` to 1."""
    return int(row.translate(table)[::-1], 2)


@dataclass(frozen=True, init=False)
class LightsOut:
    """An immutable Lights Out board.

    Parameters
    ----------
    lights : sequence of int
        Packed rows, top to bottom (kept as a tuple); bit ``c`` of ``lights[r]`` is on when
        cell (r, c) is lit.
    cols : int
        Number of columns (for a graph board: the number of nodes).
    variant : str
        ``"sigma-plus"`` (default) or ``"sigma"``.
    torus : bool
        Whether the grid wraps round (row 0 neighbours the last row, column 0 the last column).
    holes : sequence of int
        Packed rows of disabled cells (``()`` when every cell is enabled).
    graph : sequence of sequence of int, optional
        For a graph board: the neighbours of each node (node indices; kept as tuples).
        ``None`` for grids.
    names : sequence of str
        For a graph board: the name of each node (as in its file).

    Raises
    ------
    PuzzleError
        If the board is empty, a row has bits beyond ``cols``, a disabled cell is lit, the
        variant is unknown, or a graph board has more than one row, holes, a torus, or a
        neighbour list that is not symmetric, loop-free and in range.
    """

    _repr_svg_ = picture("lightsout")

    lights: tuple[int, ...]
    cols: int
    variant: str = "sigma-plus"
    torus: bool = False
    holes: tuple[int, ...] = ()
    graph: tuple[tuple[int, ...], ...] | None = None
    names: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_rows(
        cls, rows: Sequence[str], *, variant: str = "sigma-plus", torus: bool = False
    ) -> LightsOut:
        """A grid board drawn as rows of cells: ``1`` or ``#`` lit, ``0`` or ``.`` off, ``x``
        a disabled cell (a hole), as in a grid file.

        Raises
        ------
        PuzzleError
            Naming the row (from 1) and the cell that is wrong, ragged rows, or an unknown
            variant.

        Examples
        --------
        >>> board = LightsOut.from_rows(["#.#", ".#.", "#.#"])
        >>> board.lights, board.cols
        ((5, 2, 5), 3)
        """
        canonical = [row.translate(CANONICAL) for row in rows]
        for r, row in enumerate(canonical):
            bad = next((c for c, ch in enumerate(row) if ch not in "01x"), None)
            if bad is not None:
                raise PuzzleError(f"row {r + 1}, column {bad + 1}: unexpected {rows[r][bad]!r}")
            if len(row) != len(canonical[0]):
                raise PuzzleError(
                    f"row {r + 1} has {len(row)} cells, the first {len(canonical[0])}"
                )
        return cls.from_cells(canonical, variant=variant, torus=torus)

    @classmethod
    def from_cells(cls, rows: Sequence[str], *, variant: str, torus: bool) -> LightsOut:
        """A grid board from rows of ``0`` (off), ``1`` (lit) and ``x`` (a hole), all of one
        length."""
        lights = tuple(_packed(row, _LIT) for row in rows)
        holes = tuple(_packed(row, _HOLE) for row in rows)
        return cls(lights, len(rows[0]) if rows else 0, variant, torus, holes)

    def __init__(
        self,
        lights: Sequence[int],
        cols: int,
        variant: str = "sigma-plus",
        torus: bool = False,
        holes: Sequence[int] = (),
        graph: Sequence[Sequence[int]] | None = None,
        names: Sequence[str] = (),
    ) -> None:
        object.__setattr__(self, "lights", tuple(lights))
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "torus", torus)
        object.__setattr__(self, "holes", tuple(holes) if any(holes) else ())
        object.__setattr__(self, "graph", None if graph is None else tuple(map(tuple, graph)))
        object.__setattr__(self, "names", tuple(names))
        if self.variant not in VARIANTS:
            raise PuzzleError(
                f"unknown variant {self.variant!r}; choose from {', '.join(VARIANTS)}"
            )
        if not self.lights or self.cols < 1:
            raise PuzzleError("a Lights Out board needs at least one row and one column")
        if any(row < 0 or row >> self.cols for row in self.lights):
            raise PuzzleError(f"a row has lights beyond its {self.cols} columns")
        if self.holes:
            if len(self.holes) != len(self.lights):
                raise PuzzleError("holes must have one packed row per row of lights")
            if any(h & light for h, light in zip(self.holes, self.lights, strict=True)):
                raise PuzzleError("a disabled cell cannot be lit")
        if self.graph is not None:
            self._check_graph(self.graph)

    def _check_graph(self, graph: tuple[tuple[int, ...], ...]) -> None:
        if len(self.lights) != 1 or self.torus or self.holes:
            raise PuzzleError("a graph board is one row of nodes, without torus or holes")
        if len(graph) != self.cols or (self.names and len(self.names) != self.cols):
            raise PuzzleError("a graph board needs one neighbour list (and name) per node")
        for i, near in enumerate(graph):
            for j in near:
                if not 0 <= j < self.cols or j == i or i not in graph[j]:
                    raise PuzzleError(f"node {i}: neighbour {j} is out of range, itself or one-way")

    # --- shape --------------------------------------------------------------------------------

    @property
    def rows(self) -> int:
        """Number of rows (1 for a graph board)."""
        return len(self.lights)

    @property
    def cells(self) -> int:
        """Number of cell positions, disabled ones included (``rows * cols``)."""
        return self.rows * self.cols

    @property
    def is_grid(self) -> bool:
        """True for grid boards, False for graph boards."""
        return self.graph is None

    @property
    def plain(self) -> bool:
        """A rectangular grid without torus or holes (the boards light chasing solves)."""
        return self.graph is None and not self.torus and not self.holes

    @property
    def flat(self) -> int:
        """The lit cells as one int over flat indices."""
        return flatten(self.lights, self.cols)

    @cached_property
    def enabled(self) -> int:
        """The enabled cells as one int over flat indices."""
        everything = (1 << self.cells) - 1
        return everything & ~flatten(self.holes, self.cols) if self.holes else everything

    def with_lights(self, lights: Sequence[int]) -> LightsOut:
        """The same board (variant, torus, holes, graph) with other lights."""
        return LightsOut(
            tuple(lights), self.cols, self.variant, self.torus, self.holes, self.graph, self.names
        )

    def transposed(self) -> LightsOut:
        """The grid mirrored in its main diagonal: cell (r, c) becomes (c, r).

        The press rule is unchanged, so a press set solves this board exactly when its
        transpose solves the original.

        Raises
        ------
        PuzzleError
            For a graph board.
        """
        if self.graph is not None:
            raise PuzzleError("a graph board has no rows and columns to transpose")
        holes = transpose(self.holes, self.cols) if self.holes else ()
        return LightsOut(
            transpose(self.lights, self.cols), self.rows, self.variant, self.torus, holes
        )

    def name(self, cell: int) -> str:
        """How text names a cell (flat index): ``(row, column)`` counted from 1 on a grid,
        the node's label on a graph (its index when the board has no labels).

        Examples
        --------
        >>> LightsOut((0, 0), 3).name(5)
        '(2, 3)'
        """
        if self.graph is not None:
            return self.names[cell] if self.names else str(cell)
        r, c = divmod(cell, self.cols)
        return f"({r + 1}, {c + 1})"

    @cached_property
    def labels(self) -> tuple[str, ...]:
        """A graph board's node labels, node by node (:meth:`name` of each node)."""
        return self.names or tuple(str(i) for i in range(self.cols))

    @property
    def unit(self) -> str:
        """``"cell"`` for grids, ``"node"`` for graphs."""
        return "cell" if self.graph is None else "node"

    # --- the press rule -----------------------------------------------------------------------

    def usable(self, cell: int) -> bool:
        """Whether a cell (flat index) is enabled (looked up in its row's holes)."""
        if not self.holes:
            return True
        r, c = divmod(cell, self.cols)
        return not self.holes[r] >> c & 1

    def neighbours(self, cell: int) -> Iterator[int]:
        """Flat indices of the enabled neighbours of an enabled cell (each once).

        On a torus with 1 or 2 rows (or columns) the two wrapped neighbours may coincide with
        each other or with the cell; the neighbourhood is a set and never holds the cell itself.
        """
        if self.graph is not None:
            yield from self.graph[cell]
            return
        r, c = divmod(cell, self.cols)
        seen = {cell}
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if self.torus:
                rr, cc = rr % self.rows, cc % self.cols
            elif not (0 <= rr < self.rows and 0 <= cc < self.cols):
                continue
            other = rr * self.cols + cc
            if other not in seen and self.usable(other):
                seen.add(other)
                yield other

    def toggles(self, cell: int) -> int:
        """The lights (flat int) that pressing ``cell`` toggles; 0 for a disabled cell."""
        if not self.usable(cell):
            return 0
        mask = 1 << cell if self.variant == "sigma-plus" else 0
        for other in self.neighbours(cell):
            mask |= 1 << other
        return mask

    @cached_property
    def toggle_masks(self) -> tuple[int, ...]:
        """:meth:`toggles` of every cell, by flat index (the columns of the toggle matrix)."""
        return tuple(self.toggles(i) for i in range(self.cells))


class NodePresses(tuple[int, ...]):
    """A graph board's press set that names its nodes: its one packed row (bit ``i``: node
    ``i`` pressed), equal to and checked as that row, with the board's node labels.

    Solvers work on packed rows; the ``lightsout`` kind hands their answers on a graph board
    out as this type (:func:`labelled`), so that output made from the answer alone (its JSON)
    names the nodes by their labels, as the text does.

    Examples
    --------
    >>> presses = NodePresses(0b101, ("north", "east", "west"))
    >>> presses == (5,), presses.pressed
    (True, ['north', 'west'])
    """

    labels: tuple[str, ...]

    def __new__(cls, row: int, labels: Sequence[str]) -> NodePresses:
        made = super().__new__(cls, (row,))
        made.labels = tuple(labels)
        return made

    def __reduce__(self) -> tuple[type[NodePresses], tuple[int, tuple[str, ...]]]:
        return NodePresses, (self[0], self.labels)

    @property
    def pressed(self) -> list[str]:
        """The labels of the nodes pressed, in node order."""
        return [self.labels[i] for i in bits(self[0])]


def labelled(puzzle: LightsOut, presses: Presses) -> Presses:
    """``presses`` of ``puzzle`` as :class:`NodePresses` on a graph board; unchanged on a
    grid."""
    if puzzle.is_grid:
        return presses
    return NodePresses(presses[0], puzzle.labels)


def apply(puzzle: LightsOut, presses: Presses) -> tuple[int, ...]:
    """The lights after pressing every cell of ``presses`` once.

    Written directly from the press rule, cell by cell, so that it checks the solvers
    (:mod:`.algebra`, :mod:`.search`, :mod:`.cpsat`) independently.

    Raises
    ------
    PuzzleError
        If ``presses`` has the wrong number of rows, bits beyond the columns, or presses a
        disabled cell.
    """
    if len(presses) != puzzle.rows or any(p < 0 or p >> puzzle.cols for p in presses):
        raise PuzzleError(f"a press set needs {puzzle.rows} rows of {puzzle.cols} bits")
    if puzzle.plain:
        return _apply_rows(puzzle, presses)
    lights = puzzle.flat
    flat = flatten(presses, puzzle.cols)
    if flat & ~puzzle.enabled:
        raise PuzzleError("a disabled cell is pressed")
    for cell in range(puzzle.cells):
        if flat >> cell & 1:
            lights ^= puzzle.toggles(cell)
    return unflatten(lights, rows=puzzle.rows, cols=puzzle.cols)


def _apply_rows(puzzle: LightsOut, presses: Presses) -> tuple[int, ...]:
    """:func:`apply` on a plain grid, a packed row at a time: row ``r`` is toggled by the
    presses of rows ``r - 1`` and ``r + 1`` in the same columns, and by row ``r``'s presses
    shifted one column either way (and unshifted in sigma-plus)."""
    full = (1 << puzzle.cols) - 1
    own = puzzle.variant == "sigma-plus"
    out = []
    for r, light in enumerate(puzzle.lights):
        p = presses[r]
        light ^= ((p << 1) & full) ^ (p >> 1) ^ (p if own else 0)
        if r > 0:
            light ^= presses[r - 1]
        if r + 1 < puzzle.rows:
            light ^= presses[r + 1]
        out.append(light)
    return tuple(out)


def check(puzzle: LightsOut, presses: Presses) -> list[str]:
    """Problems with ``presses`` as a solution of ``puzzle`` (empty when it turns all off).

    Returns
    -------
    list of str
        One line per problem: a malformed press set, or the lights still on (up to 5 named,
        as ``(row, col)`` on a grid, by node name on a graph).
    """
    try:
        after = apply(puzzle, presses)
    except PuzzleError as e:
        return [str(e)]
    if not any(after):
        return []
    flat = flatten(after, puzzle.cols)
    left = flat.bit_count()
    shown = ", ".join(puzzle.name(i) for i in lowest_bits(flat, 5)) + (" ..." if left > 5 else "")
    return [f"{plural(left, 'light')} still on: {shown}"]


def coordinates(rows: Sequence[int]) -> list[list[int]]:
    """The set bits of packed rows as ``[row, col]`` pairs, row by row (through a numpy bit
    matrix for many rows).

    Examples
    --------
    >>> coordinates((0b10, 0b01))
    [[0, 1], [1, 0]]
    """
    if len(rows) <= _FEW_ROWS:
        return [[r, c] for r, row in enumerate(rows) for c in bits(row)]
    import numpy as np

    width = max(row.bit_length() for row in rows) or 1
    found: list[list[int]] = np.argwhere(_bit_matrix(rows, width)).tolist()
    return found


def bits(value: int) -> list[int]:
    """The positions of the set bits of ``value``, lowest first (O(size), through ``bin``).

    Examples
    --------
    >>> bits(0b1010)
    [1, 3]
    """
    return [i for i, ch in enumerate(reversed(bin(value)[2:])) if ch == "1"]


def lowest_bits(value: int, count: int) -> list[int]:
    """The positions of the ``count`` lowest set bits of ``value`` (fewer if it has fewer)."""
    out: list[int] = []
    while value and len(out) < count:
        low = value & -value
        out.append(low.bit_length() - 1)
        value ^= low
    return out
