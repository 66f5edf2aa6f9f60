"""pctcodec: percent-encoding (URL quoting) done in C.

The functions below are drop-in replacements for their namesakes in
``urllib.parse``: for every input they return the same value of the same type,
or raise an exception of the same class, as the running interpreter's
``urllib.parse``.

``encode`` and ``decode`` are the C core on raw buffers: any bytes-like object
in (bytes, bytearray, memoryview, array, mmap), bytes out.
"""
from ._pctcodec import (
    decode,
    encode,
    quote,
    quote_from_bytes,
    quote_plus,
    unquote,
    unquote_plus,
    unquote_to_bytes,
)
from ._urlencode import urlencode

__all__ = [
    "quote",
    "quote_plus",
    "quote_from_bytes",
    "unquote",
    "unquote_plus",
    "unquote_to_bytes",
    "urlencode",
    "encode",
    "decode",
]
__version__ = "0.1.0"
