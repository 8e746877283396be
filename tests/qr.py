"""Reading a QR code back, for the tests: zxing-cpp's decoder on a grey image (no Pillow).

The image is rows of grey bytes (0 black, 255 white); the test that needs a
decoder skips where zxing-cpp is not installed.
"""

from __future__ import annotations

import pytest


def decode(rows: list[bytes]) -> str:
    """The text of the one QR code in the grey image ``rows`` (each row the same width)."""
    zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp reads the QR code back")
    width = len(rows[0])
    image = memoryview(b"".join(rows)).cast("B", (len(rows), width))
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1, f"{len(found)} codes read"
    text: str = found[0].text
    return text


def terminal_rows(drawn: str, scale: int = 4) -> list[bytes]:
    """segno's compact terminal drawing as a grey image: each character two modules high."""
    light = {"█": (255, 255), " ": (0, 0), "▀": (255, 0), "▄": (0, 255)}
    rows: list[bytes] = []
    for line in drawn.splitlines():
        top = bytes(v for ch in line for v in [light[ch][0]] * scale)
        bottom = bytes(v for ch in line for v in [light[ch][1]] * scale)
        rows += [top] * scale + [bottom] * scale
    return rows


def png_rows(png: bytes) -> list[bytes]:
    """A PNG (8-bit RGB or RGBA, not interlaced, as Chromium's screenshots are) as grey rows."""
    import struct
    import zlib

    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks, header = 8, b"", b""
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = data
        elif kind == b"IDAT":
            chunks += data
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    step = 3 if colour == 2 else 4
    raw, stride, rows, previous = zlib.decompress(chunks), width * step, [], bytes(width * step)
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                near = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + near) & 255
        previous = bytes(line)
        rows.append(bytes(line[i + 1] for i in range(0, stride, step)))  # the green channel
    return rows
