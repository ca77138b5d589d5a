"""A palette PNG written in bands, each band's compressed bytes kept to be used again.

A PNG's pixels are one zlib stream of its rows, each row a filter byte (0, none, as a palette
image takes) and its palette indices. Here the rows are compressed a band at a time (about
``BAND_BYTES`` of rows, :func:`band_rows`), each band on its own (a full flush ends it: nothing
after it refers back into it), so a band's compressed bytes depend on its rows alone and the
stream is the bands' bytes joined. A picture keeps the bands of the one before it
(:class:`Bands`): only the bands whose pixels changed are compressed again. The stream's
Adler-32 is worked out from the bands' own (:func:`adler32_combine`), so a kept band's bytes
are not read again either. The deflating is ISA-L's (`isal`, levels 0 to 3), which writes the
same format as zlib three to four times as fast at its level 1, and smaller than zlib's level 3.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from isal import isal_zlib

__all__ = ["BAND_BYTES", "BAND_ROWS", "Band", "Bands", "adler32_combine", "band_rows", "compress_band", "palette_png"]

#: rows a band holds at least (in a picture too wide for more in ``BAND_BYTES``)
BAND_ROWS = 16
#: a band's bytes at most, beyond ``BAND_ROWS`` rows (:func:`band_rows`): fewer bands, fewer full
#: flushes (each clears zlib's 128 KB hash table); below ``_WINDOW_SLIDES``, as a full flush that
#: ends a band starts the window anew, zlib never slides its window (a 64 KB copy and a pass over
#: the hash tables) within a band
BAND_BYTES = 56 * 1024
#: the bytes after which zlib slides its 32 KB window: twice the window, less its least lookahead
_WINDOW_SLIDES = 2 * 32768 - 262
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ADLER_BASE = 65521
_FINAL = b"\x03\x00"  #: an empty last block: the stream's end after the bands' full flushes
_MEM_LEVEL = 9  #: ISA-L's largest hash tables (as Pillow's zlib encoder's memory level)


def band_rows(width: int) -> int:
    """The rows a band holds in a picture ``width`` pixels wide: as many as ``BAND_BYTES`` take
    (each with its filter byte), ``BAND_ROWS`` at least."""
    return max(BAND_ROWS, BAND_BYTES // (width + 1))


def adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's (``first``, ``second``) and the
    second's ``length`` (zlib's ``adler32_combine``)."""
    rem = length % _ADLER_BASE
    low = first & 0xFFFF
    sum1 = (low + (second & 0xFFFF) - 1) % _ADLER_BASE
    sum2 = (rem * low + (first >> 16) + (second >> 16) - rem) % _ADLER_BASE
    return sum1 | (sum2 << 16)


@dataclass(frozen=True)
class Band:
    """A band of rows compressed on its own, and the Adler-32 and length of the rows the stream
    holds for it (each with its filter byte)."""

    deflated: bytes
    adler: int
    length: int


def compress_band(pixels: bytes | memoryview, width: int, packer: isal_zlib.Compress) -> Band:
    """``pixels`` (whole rows of ``width`` palette indices; a view of a picture's rows is not
    copied) as a band of the stream, compressed by ``packer`` (raw deflate, its state reset by the
    full flush that ends the band)."""
    raw = b"\0" + b"\0".join([pixels[at : at + width] for at in range(0, len(pixels), width)])
    deflated = packer.compress(raw) + packer.flush(isal_zlib.Z_FULL_FLUSH)
    return Band(deflated, isal_zlib.adler32(raw), len(raw))


class Bands:
    """What a board's pictures keep of their bands, by place (the band ``n`` holds rows
    ``n * band_rows(width)`` onwards): ``board``, the bands where a picture shows the board alone (the
    same rows in every picture of it), and ``last``, the last picture's other bands, with that
    picture's ``pixels`` to compare the next picture's with."""

    def __init__(self) -> None:
        self.board: dict[int, Band] = {}
        self.last: dict[int, Band] = {}
        #: the last picture's palette entries from ``first`` on (what was drawn over the board)
        self.first, self.colours = 0, list[int]()
        self.pixels = b""  #: the last picture's pixels
        self._deflated = 0  #: the kept bands' compressed bytes, counted as they are kept

    @property
    def nbytes(self) -> int:
        """What the kept bands take: their compressed bytes, and the last picture's pixels."""
        return self._deflated + len(self.pixels)

    def keep(self, kept: dict[int, Band], n: int, band: Band) -> Band:
        """Keep ``band`` as band ``n`` in ``kept`` (``board`` or ``last``), counted in ``nbytes``."""
        self.drop(kept, n)
        kept[n] = band
        self._deflated += len(band.deflated)
        return band

    def drop(self, kept: dict[int, Band], n: int) -> None:
        """Keep no band ``n`` in ``kept``."""
        if (old := kept.pop(n, None)) is not None:
            self._deflated -= len(old.deflated)


def _zlib_header(level: int) -> bytes:
    """A zlib stream's two first bytes for ISA-L's deflate at ``level`` (0 to 3) with a 32 KB
    window, as ISA-L writes them (its level 0 marks the fastest, the others fast)."""
    head = 0x78 << 8 | (0 if level == 0 else 1) << 6
    return (head + (31 - head % 31) % 31).to_bytes(2, "big")  # a multiple of 31, as zlib checks


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def palette_png(
    size: tuple[int, int], pixels: bytes, palette: Sequence[int], level: int,
    bands: Bands | None = None, drawn: Callable[[int], bool] = lambda n: True,
) -> bytes:  # fmt: skip
    """The PNG of a palette image of ``size`` (``pixels``: a byte a pixel, row by row; ``palette``:
    R, G, B values, at most 256 entries), its rows compressed at ISA-L's ``level`` in bands and kept in
    ``bands``: a band where ``drawn(n)`` is false shows the board alone and is taken from
    ``bands.board`` once there; another is taken from ``bands.last`` when its pixels are the last
    picture's (``bands.pixels``; ``bands.last`` holds only the bands drawn in the last picture).
    Without ``bands`` every band is compressed."""
    width, height = size
    packer = isal_zlib.compressobj(level, isal_zlib.DEFLATED, -15, _MEM_LEVEL)
    parts, adler = [_zlib_header(level)], 1
    step = band_rows(width) * width
    before = b"" if bands is None or len(bands.pixels) != len(pixels) else bands.pixels
    view = memoryview(pixels)  # a band's rows read in place, not copied out first
    for n, at in enumerate(range(0, width * height, step)):
        band: Band | None
        rows = view[at : at + step]
        if bands is None:
            band = compress_band(rows, width, packer)
        elif not drawn(n):
            bands.drop(bands.last, n)
            if (band := bands.board.get(n)) is None:
                band = bands.keep(bands.board, n, compress_band(rows, width, packer))
        elif (band := bands.last.get(n)) is None or not before.startswith(rows, at):  # (no copy of before's)
            band = bands.keep(bands.last, n, compress_band(rows, width, packer))
        parts.append(band.deflated)
        adler = adler32_combine(adler, band.adler, band.length)
    if bands is not None:
        bands.pixels = pixels
    parts += [_FINAL, adler.to_bytes(4, "big")]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette, no interlace
    return b"".join([_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", bytes(palette[: 3 * 256])),
                     _chunk(b"IDAT", b"".join(parts)), _chunk(b"IEND", b"")])
