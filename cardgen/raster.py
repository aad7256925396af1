"""Writing the PNGs cardgen makes (print-shop card images, Tabletop Simulator sheets): every one
says that its colours are sRGB (an sRGB chunk, with the gAMA and cHRM values the PNG standard gives
for it, for readers that know only those), so a shop's software and a viewer read the colours as
they were drawn, and its resolution where it has one.
"""

from __future__ import annotations

import io
import struct

from PIL import PngImagePlugin

# The PNG standard's gAMA and cHRM values for an sRGB image (gamma 1/2.2, the sRGB primaries), in
# units of 1/100000.
_GAMMA = 45455
_CHROMATICITIES = (31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000)
PERCEPTUAL = 0


def png_bytes(image, dpi: int | None = None, compress_level: int = 3) -> bytes:
    """`image` (a Pillow image) as PNG bytes marked as sRGB."""
    info = PngImagePlugin.PngInfo()
    info.add(b"sRGB", bytes([PERCEPTUAL]))
    info.add(b"gAMA", struct.pack(">I", _GAMMA))
    info.add(b"cHRM", struct.pack(">8I", *_CHROMATICITIES))
    buffer = io.BytesIO()
    options = {"format": "PNG", "pnginfo": info, "compress_level": compress_level}
    if dpi is not None:
        options["dpi"] = (dpi, dpi)
    image.save(buffer, **options)
    return buffer.getvalue()


__all__ = ["png_bytes"]
