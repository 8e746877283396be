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
