"""A drawing traced from an image: rows of ``#`` (filled) and ``.`` (empty) cells, each the
mean of the pixels it covers, filled where darker than mid-grey (Pillow's box filter).

The web page's designer traces uploads with it, and a kind may make puzzles of pictures with
it (the nonogram's ``cspsolve generate --image``). Pillow is imported on first use, and let
use only the decoders of :data:`IMAGES`; an image of more than :data:`MAX_PIXELS` pixels is
refused before it is decoded (a decompression bomb).
"""

from __future__ import annotations

import io
import warnings

from cspsolve.errors import InputError

__all__ = ["IMAGES", "MAX_PIXELS", "Grid", "traced"]

Grid = tuple[str, ...]
"""A drawing: rows of ``#`` and ``.``, all of one length."""

IMAGES = ("PNG", "GIF", "JPEG", "BMP", "PPM")
"""The image formats a drawing is traced from, by Pillow's names (``PPM``: the Netpbm
formats PBM, PGM and PPM)."""

WORDS = "PNG, GIF, JPEG, BMP or Netpbm (PBM, PGM, PPM)"
"""The formats of :data:`IMAGES`, as a message names them."""

MAX_PIXELS = 1 << 24
"""The most pixels of an image traced (4096 x 4096); larger ones are refused before decoding."""


def traced(data: bytes, name: str, width: int, height: int) -> Grid:
    """A drawing of ``width`` x ``height`` cells traced from an image: the image is scaled to
    that size (each cell the mean of the pixels it covers, transparent pixels counting as
    white) and a cell is filled where that mean is darker than mid-grey.

    Raises
    ------
    InputError
        Naming the image (``name``), when it is not an image of :data:`IMAGES` that Pillow
        reads, or has more than :data:`MAX_PIXELS` pixels.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=IMAGES) as image:
                pixels = image.width * image.height
                rgba = image.convert("RGBA") if pixels <= MAX_PIXELS else None
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombWarning,
            Image.DecompressionBombError):  # fmt: skip
        raise InputError(name, None, f"not a {WORDS} image") from None
    if rgba is None:
        raise InputError(name, None, f"the image has more than {MAX_PIXELS:,} pixels")
    white = Image.new("RGBA", rgba.size, "white")
    grey = Image.alpha_composite(white, rgba).convert("L")
    cells = grey.resize((width, height), Image.Resampling.BOX)
    return tuple(
        "".join("#" if cells.getpixel((c, r)) < 128 else "." for c in range(width))  # type: ignore[operator]
        for r in range(height)
    )
