"""Plots that are not boards: a constraint graph, and the effort of the runs of ``compare``
(matplotlib, Agg)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

from cspsolve.errors import OptionError
from cspsolve.scenes import DPI

__all__ = ["draw_graph", "plot_comparison"]


def draw_graph(graph: Any, path: str | Path, *, title: str = "") -> None:
    """Draw a constraint graph (a ``networkx.Graph``) as PNG or SVG.

    Nodes are placed by the Fruchterman-Reingold force-directed layout
    (``networkx.spring_layout``, fixed seed so the picture is reproducible; Fruchterman and
    Reingold, "Graph drawing by force-directed placement", Software: Practice and Experience
    21(11), 1991); nodes are labelled when there are at most 60.

    Raises
    ------
    OptionError
        For an extension other than ``.png`` or ``.svg``.
    """
    import networkx as nx
    from matplotlib.figure import Figure

    suffix = Path(path).suffix.lower()
    if suffix not in (".png", ".svg"):
        raise OptionError(f"unknown image format {Path(path).suffix!r}; use .png or .svg")
    fig = Figure(figsize=(8, 8), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 0.95 if title else 1))
    ax.set_axis_off()
    positions = nx.spring_layout(graph, seed=7)
    labels = graph.number_of_nodes() <= 60
    nx.draw_networkx_edges(graph, positions, ax=ax, alpha=0.3, width=0.6)
    nx.draw_networkx_nodes(graph, positions, ax=ax, node_size=300 if labels else 20)
    if labels:
        names = {v: " ".join(map(str, v)) if isinstance(v, tuple) else str(v) for v in graph}
        nx.draw_networkx_labels(graph, positions, names, ax=ax, font_size=6)
    if title:
        fig.suptitle(title)
    fig.savefig(path, format=suffix[1:], dpi=DPI)


def plot_comparison(
    runs: Sequence[tuple[str, str, float, float]],
    path: str | Path | BinaryIO,
    *,
    format: str | None = None,
) -> None:
    """Bar charts of the effort of each run, log scale: expanded nodes above, seconds below.

    Parameters
    ----------
    runs : sequence of (puzzle, run, expanded, seconds)
        ``run`` names the method and heuristic (``"astar/manhattan"``); one group of bars per
        run, one bar per puzzle. Zero values are drawn at the axis floor (1 node, 0.1 ms).
    path : str, Path or binary file
        ``.png`` or ``.svg`` (any format matplotlib writes), or a file open for writing bytes.
    format : str, optional
        The image format (``"svg"``, ``"png"``); by default the path's extension.
    """
    import numpy as np
    from matplotlib.figure import Figure

    puzzles = list(dict.fromkeys(p for p, _, _, _ in runs))
    names = list(dict.fromkeys(r for _, r, _, _ in runs))
    values = {(p, r): (e, s) for p, r, e, s in runs}
    fig = Figure(figsize=(max(6.0, 0.9 * len(names) * max(1, len(puzzles)) ** 0.5 + 2), 7), dpi=DPI)
    axes = fig.subplots(2, 1, sharex=True)
    width = 0.8 / len(puzzles)
    x = np.arange(len(names))
    for panel, (ax, label, floor) in enumerate(
        zip(axes, ("expanded nodes", "seconds"), (1.0, 1e-4), strict=True)
    ):
        lowest = float("inf")
        for i, puzzle in enumerate(puzzles):
            heights = [max(floor, values.get((puzzle, n), (0.0, 0.0))[panel]) for n in names]
            ax.bar(x + (i - (len(puzzles) - 1) / 2) * width, heights, width, label=puzzle)
            lowest = min(lowest, *heights)
        ax.set_yscale("log")
        ax.set_ylim(bottom=lowest / 2)
        ax.set_ylabel(label)
        ax.grid(axis="y", which="both", alpha=0.3)
    axes[1].set_xticks(x, names, rotation=30, ha="right")
    if len(puzzles) > 1:
        axes[0].legend(fontsize=8)
    else:
        axes[0].set_title(puzzles[0])
    fig.tight_layout()
    fig.savefig(path, dpi=DPI, format=format)
