"""Image file names: checked against the formats a command writes, numbered per puzzle."""

from __future__ import annotations

import os
from collections.abc import Iterable

from cspsolve.cli.output import fail
from cspsolve.cli.puzzles import Puzzle

IMAGE_SUFFIXES = (".png", ".svg", ".gif")


def with_images(
    puzzles: Iterable[Puzzle], image: str | None, suffixes: tuple[str, ...]
) -> tuple[Iterable[Puzzle], list[str]]:
    """The puzzles and the image file of each (``OUT-1.png``, ... when there are several);
    no images when ``image`` is ``None``. Exits 2 for an unknown image format."""
    if image is None:
        return puzzles, []
    check_image_name(image, suffixes)
    listed = list(puzzles)
    many = len(listed) > 1
    return listed, [_numbered(image, i) if many else image for i in range(1, len(listed) + 1)]


def check_image_name(name: str, suffixes: tuple[str, ...]) -> None:
    """Exit 2 unless ``name`` ends in one of ``suffixes``."""
    suffix = os.path.splitext(name)[1].lower()
    if suffix not in suffixes:
        fail(f"{name}: unknown image format {suffix or '(none)'!r}; use {', '.join(suffixes)}")


def _numbered(name: str, number: int) -> str:
    """``out.png`` → ``out-3.png``."""
    stem, suffix = os.path.splitext(name)
    return f"{stem}-{number}{suffix}"
