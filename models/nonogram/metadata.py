"""Where a nonogram comes from and who may use it: what puzzle files record besides the clues."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NO_METADATA", "Metadata"]


@dataclass(frozen=True)
class Metadata:
    """Where a puzzle comes from and who may use it, as puzzle files record it.

    Parameters
    ----------
    catalogue : str
        Where the puzzle was published (``webpbn.com #35105``).
    author : str
        Who made it.
    copyright : str
        Its copyright notice.
    license : str
        Its licence: an SPDX identifier (``CC-BY-4.0``) or a free description.
    """

    catalogue: str = ""
    author: str = ""
    copyright: str = ""
    license: str = ""


NO_METADATA = Metadata()
"""The metadata of a puzzle whose file gives none."""
